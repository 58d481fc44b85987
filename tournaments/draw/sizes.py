"""How many tables of which sizes, and how many players sit a round out."""

from functools import lru_cache

from .errors import TOO_FEW, DrawUserError


def preferred_size(allowed) -> int:
    """The size a table should have when there is a choice: 5 where the rules allow it (the
    standard Napoleon table, and a lively Daifugō one), else the largest allowed."""
    allowed = sorted(set(allowed))
    return 5 if 5 in allowed else allowed[-1]


@lru_cache(maxsize=1024)
def _best_split(total: int, allowed: tuple[int, ...], preferred: int):
    """The sizes summing exactly to ``total`` that stay closest to ``preferred`` (smallest
    sum of |size − preferred|, then fewest different sizes), or None if none exists."""
    best: list = [None] * (total + 1)
    best[0] = (0, ())
    for m in range(1, total + 1):
        for size in allowed:
            if size > m or best[m - size] is None:
                continue
            cost, sizes = best[m - size]
            candidate = tuple(sorted((*sizes, size), reverse=True))
            key = (cost + abs(size - preferred), len(set(candidate)), candidate)
            current = best[m]
            if current is None or key < (current[0], len(set(current[1])), current[1]):
                best[m] = (key[0], candidate)
    return best[total][1] if best[total] is not None else None


def choose_sizes(count: int, allowed, preferred: int | None = None) -> tuple[tuple[int, ...], int]:
    """``(table sizes, largest first; number of sit-outs)`` for ``count`` players.

    Seat as many players as possible; among the splits that do, prefer tables of the
    ``preferred`` size. Raises DrawUserError when not even one table can be filled.
    """
    allowed_t = tuple(sorted(set(int(s) for s in allowed)))
    if not allowed_t or count < allowed_t[0]:
        raise DrawUserError("draw_too_few", TOO_FEW, count=count,
                            min=allowed_t[0] if allowed_t else 1)  # fmt: skip
    preferred = preferred if preferred in allowed_t else preferred_size(allowed_t)
    for seated in range(count, allowed_t[0] - 1, -1):
        split = _best_split(seated, allowed_t, preferred)
        if split is not None:
            return split, count - seated
    raise AssertionError("unreachable: the smallest size always splits itself")
