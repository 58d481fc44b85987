"""Rank standings rows: a pure function over plain rows (dicts or objects), no ORM.

A ranking is configured by an ordered list of metric keys. That order *is* the tiebreak
precedence: rows are compared on the first key, ties on it fall to the second, and so on. Rows
equal on every key share a rank and the next rank is skipped (1, 2, 2, 4), as clubs print them.
An unknown key is a programming error and raises ``ValueError`` at once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .standings_fields import COUNTERS


def _get(row: Any, name: str):
    return row[name] if isinstance(row, dict) else getattr(row, name)


def _average(row: Any) -> float:
    deals = _get(row, "deals") or 0
    return _get(row, "points") / deals if deals else 0.0


@dataclass(frozen=True)
class Metric:
    key: str
    label: str  # English msgid; pages translate it
    value: Callable[[Any], float]
    higher_is_better: bool = True


def _field(name: str) -> Callable[[Any], float]:
    return lambda row: _get(row, name) or 0


METRICS: dict[str, Metric] = {
    m.key: m
    for m in (
        # Every standings counter (``standings_fields``), and the average per deal.
        *(Metric(c.name, c.label, _field(c.name), c.higher_is_better) for c in COUNTERS),
        Metric("average", "average per deal", _average),
        # Tournament standings (selectors.events): the total after adjustments, table tops.
        Metric("total", "total", _field("total")),
        Metric("table_wins", "table wins", _field("table_wins")),
    )
}

# The precedence each game's standings use (documented in docs/standings.md, shown on the page).
TIEBREAKS: dict[str, tuple[str, ...]] = {
    "napoleon": ("points", "average", "napoleon_wins", "wins"),
    "daifugo": ("points", "average", "title_daifugo", "title_daihinmin"),
}

# A tournament's standings: the total (raw or rank points, with adjustments), then raw points,
# then table wins (documented in docs/tournaments.md, shown on the standings page).
TOURNAMENT_TIEBREAKS: tuple[str, ...] = ("total", "points", "table_wins")


def check_keys(keys: Sequence[str]) -> tuple[Metric, ...]:
    """The metrics for ``keys``; raises ValueError naming the first unknown or repeated key."""
    if not keys:
        raise ValueError("a ranking needs at least one metric key")
    seen: set[str] = set()
    metrics = []
    for key in keys:
        if key not in METRICS:
            raise ValueError(f"unknown ranking metric {key!r}; known: {sorted(METRICS)}")
        if key in seen:
            raise ValueError(f"ranking metric {key!r} given twice")
        seen.add(key)
        metrics.append(METRICS[key])
    return tuple(metrics)


def sort_key(metrics: Sequence[Metric]) -> Callable[[Any], tuple]:
    def key(row: Any) -> tuple:
        return tuple(-m.value(row) if m.higher_is_better else m.value(row) for m in metrics)

    return key


def rank(rows: Iterable[Any], keys: Sequence[str], *, name: str = "name") -> list[tuple[int, Any]]:
    """``[(rank, row), ...]`` best first. Ties on every key share a rank; within a tie rows
    are listed by ``name`` (display order only, never a tiebreak)."""
    metrics = check_keys(keys)
    by = sort_key(metrics)
    # Each row's key is computed once: for the sort and again for the ties.
    keyed = [(by(r), str(_get(r, name)) if name else "", r) for r in rows]
    keyed.sort(key=lambda t: (t[0], t[1]))
    ranked: list[tuple[int, Any]] = []
    previous = None
    current = 0
    for position, (k, _name, row) in enumerate(keyed, start=1):
        if k != previous:
            current = position
            previous = k
        ranked.append((current, row))
    return ranked
