"""Seat players at tables for one round.

Vocabulary: a *key* is any hashable player identifier; a *table* is a tuple of keys in seat
order (seat 1 first); a *sit-out* is a checked-in player who plays no table this round because
no split into allowed sizes seats everybody.

Methods (``METHODS``):
- ``mixing`` (default): minimise repeated opponents, then spread table sizes and seats.
- ``swiss``: players of similar standing together (round 2 on), repeats still avoided.
- ``random``: a seeded shuffle, cut into tables (the baseline the others are measured against).
- ``fixed``: players in the order given, cut into tables (staff then swap by hand).

The cost of a draw is a sum over pairs at the same table plus a per-player term:
pair(a, b) = m² + m for m earlier meetings (0, 2, 6, 12 …: a second repeat costs more than two
first ones), plus for ``swiss`` SWISS_WEIGHT × |rank a − rank b|; player(p, size) =
SIZE_WEIGHT × rounds p already played at that size (only when the sizes of the round differ).
A greedy placement is improved by seeded random swaps between tables; seat order within a table
then minimises how often each player already sat in that seat.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from .errors import UNKNOWN_METHOD, DrawUserError
from .sizes import choose_sizes

METHODS = ("mixing", "swiss", "random", "fixed")
SIZE_WEIGHT = 3.0
SWISS_WEIGHT = 0.5
ITERATIONS_BASE = 300
ITERATIONS_PER_PLAYER = 200


@dataclass(frozen=True)
class PastRound:
    """An earlier round as the draw sees it."""

    tables: tuple[tuple[Hashable, ...], ...]
    sitouts: tuple[Hashable, ...] = ()


@dataclass
class History:
    """Counts the draw needs from earlier rounds."""

    met: Counter = field(default_factory=Counter)  # frozenset({a, b}) -> times at one table
    seats: dict = field(default_factory=lambda: defaultdict(Counter))  # p -> seat index -> n
    sizes: dict = field(default_factory=lambda: defaultdict(Counter))  # p -> table size -> n
    sitouts: Counter = field(default_factory=Counter)  # p -> rounds sat out

    @classmethod
    def from_rounds(cls, rounds: Iterable[PastRound | Sequence]) -> History:
        history = cls()
        for past in rounds:
            if not isinstance(past, PastRound):
                past = PastRound(tables=tuple(tuple(t) for t in past))
            history.add(past)
        return history

    def add(self, past: PastRound) -> None:
        for table in past.tables:
            for i, p in enumerate(table):
                self.seats[p][i] += 1
                self.sizes[p][len(table)] += 1
                for q in table[i + 1 :]:
                    self.met[frozenset((p, q))] += 1
        for p in past.sitouts:
            self.sitouts[p] += 1


@dataclass(frozen=True)
class Draw:
    tables: tuple[tuple[Hashable, ...], ...]
    sitouts: tuple[Hashable, ...]
    method: str
    seed: int


def _ordered(keys: Iterable[Hashable]) -> list:
    unique = list(dict.fromkeys(keys))
    try:
        return sorted(unique)
    except TypeError:  # mixed key types: any fixed order will do for determinism
        return sorted(unique, key=repr)


def _choose_sitouts(players: list, count: int, history: History, rng: random.Random) -> set:
    """Fewest sit-outs so far sit out first; ties are broken by the seeded RNG."""
    if count == 0:
        return set()
    ranked = sorted(players, key=lambda p: (history.sitouts[p], rng.random()))
    return set(ranked[:count])


class _Cost:
    """Pair and player costs, precomputed into plain lists for the swap loop."""

    def __init__(
        self, players: list, history: History, sizes: Sequence[int], ranks: Mapping | None
    ):
        self.index = {p: i for i, p in enumerate(players)}
        n = len(players)
        self.matrix = [[0.0] * n for _ in range(n)]
        for i, a in enumerate(players):
            row = self.matrix[i]
            for j in range(i + 1, n):
                b = players[j]
                m = history.met.get(frozenset((a, b)), 0)
                c = float(m * m + m)
                if ranks is not None:
                    c += SWISS_WEIGHT * abs(ranks[a] - ranks[b])
                row[j] = c
                self.matrix[j][i] = c
        self.history = history
        self.mixed_sizes = len(set(sizes)) > 1

    def player(self, i: int, size: int, players: list) -> float:
        if not self.mixed_sizes:
            return 0.0
        return SIZE_WEIGHT * self.history.sizes[players[i]][size]


def _greedy(order: list[int], players: list, sizes: Sequence[int], cost: _Cost) -> list[list]:
    tables: list[list] = [[] for _ in sizes]
    for p in order:
        best, best_cost = None, None
        row = cost.matrix[p]
        for t, table in enumerate(tables):
            if len(table) >= sizes[t]:
                continue
            c = cost.player(p, sizes[t], players) + sum(row[q] for q in table)
            if best_cost is None or c < best_cost:
                best, best_cost = t, c
        tables[best].append(p)
    return tables


def _improve(
    tables: list[list], players: list, cost: _Cost, rng: random.Random, rounds: int
) -> None:
    """Seeded random swaps between two tables; keep those that do not make the draw worse."""
    if len(tables) < 2:
        return
    count = len(tables)
    for _ in range(rounds):
        ta, tb = rng.sample(range(count), 2)
        tab_a, tab_b = tables[ta], tables[tb]
        i, j = rng.randrange(len(tab_a)), rng.randrange(len(tab_b))
        a, b = tab_a[i], tab_b[j]
        delta = 0.0
        if len(tab_a) != len(tab_b):
            delta = (
                cost.player(b, len(tab_a), players)
                + cost.player(a, len(tab_b), players)
                - cost.player(a, len(tab_a), players)
                - cost.player(b, len(tab_b), players)
            )
        row_a, row_b = cost.matrix[a], cost.matrix[b]
        for k, x in enumerate(tab_a):
            if k != i:
                delta += row_b[x] - row_a[x]
        for k, y in enumerate(tab_b):
            if k != j:
                delta += row_a[y] - row_b[y]
        # Sideways moves (delta 0) let the search cross plateaus of equal cost.
        if delta < 0 or (delta == 0 and rng.random() < 0.5):
            tab_a[i], tab_b[j] = b, a


def _seat_order(table: list, history: History, rng: random.Random) -> list:
    """Order a table so players sit where they have sat least (pairwise swap descent)."""
    order = list(table)
    rng.shuffle(order)
    improved = True
    while improved:
        improved = False
        for i in range(len(order)):
            for j in range(i + 1, len(order)):
                a, b = order[i], order[j]
                before = history.seats[a][i] + history.seats[b][j]
                after = history.seats[a][j] + history.seats[b][i]
                if after < before:
                    order[i], order[j] = b, a
                    improved = True
    return order


def _ranks(players: list, standings: Mapping, rng: random.Random) -> dict:
    ranked = sorted(players, key=lambda p: (-standings.get(p, 0), rng.random()))
    return {p: i for i, p in enumerate(ranked)}


def _cut(players: list, sizes) -> list[list]:
    """``players`` in their order, cut into tables of ``sizes``."""
    tables, start = [], 0
    for size in sizes:
        tables.append(players[start : start + size])
        start += size
    return tables


def _searched(playing: list, history: History, sizes, ranks: dict | None, rng) -> list[list]:
    """The mixing and swiss draws: a start (standings order for swiss, a greedy placement
    otherwise) improved by seeded random swaps, each table then in seat order."""
    cost = _Cost(playing, history, sizes, ranks)
    indices = list(range(len(playing)))
    if ranks is not None:
        indices.sort(key=lambda i: ranks[playing[i]])
        slots = _cut(indices, sizes)
    else:
        rng.shuffle(indices)
        slots = _greedy(indices, playing, sizes, cost)
    budget = ITERATIONS_BASE + ITERATIONS_PER_PLAYER * len(playing)
    _improve(slots, playing, cost, rng, rounds=budget)
    return [_seat_order([playing[i] for i in t], history, rng) for t in slots]


def make_draw(
    players: Iterable[Hashable],
    *,
    sizes_allowed: Iterable[int],
    history: History | Iterable[PastRound] = (),
    method: str = "mixing",
    seed: int = 0,
    standings: Mapping | None = None,
    preferred: int | None = None,
) -> Draw:
    """Draw one round. Deterministic: the same arguments always give the same draw.

    ``players`` are the keys playing this round (checked in, not dropped); for ``fixed`` their
    order is the seating order, otherwise it does not matter. ``history`` holds the earlier
    rounds of the tournament; ``standings`` (key → score) is used by ``swiss`` only.
    """
    if method not in METHODS:
        raise DrawUserError("draw_method", UNKNOWN_METHOD, method=method)
    if not isinstance(history, History):
        history = History.from_rounds(history)
    rng = random.Random(f"efuda-draw:{seed}")
    given = list(dict.fromkeys(players))
    keys = given if method == "fixed" else _ordered(given)
    sizes, sitout_count = choose_sizes(len(keys), sizes_allowed, preferred)
    sitouts = _choose_sitouts(keys, sitout_count, history, rng)
    playing = [p for p in keys if p not in sitouts]
    if method == "fixed":
        tables = _cut(playing, sizes)
    elif method == "random":
        rng.shuffle(playing)
        tables = _cut(playing, sizes)
    else:
        # Swiss needs a standing to pair by: from the second round on.
        use_swiss = method == "swiss" and bool(standings) and bool(history.seats)
        ranks = _ranks(playing, standings, rng) if use_swiss else None
        tables = _searched(playing, history, sizes, ranks, rng)
    return Draw(
        tables=tuple(tuple(t) for t in tables),
        sitouts=tuple(p for p in keys if p in sitouts),
        method=method,
        seed=seed,
    )


def swap_players(tables: Sequence[Sequence], sitouts: Sequence, a, b) -> tuple[tuple, tuple]:
    """Exchange two players' places (seat for seat; either may be a sit-out)."""
    new_tables = [list(t) for t in tables]
    new_sitouts = list(sitouts)
    places = {}
    for t, table in enumerate(new_tables):
        for s, p in enumerate(table):
            places[p] = ("table", t, s)
    for s, p in enumerate(new_sitouts):
        places[p] = ("sitout", None, s)
    if a not in places or b not in places:
        raise KeyError(a if a not in places else b)

    def put(place, value):
        kind, t, s = place
        if kind == "table":
            new_tables[t][s] = value
        else:
            new_sitouts[s] = value

    pa, pb = places[a], places[b]
    put(pa, b)
    put(pb, a)
    return tuple(tuple(t) for t in new_tables), tuple(new_sitouts)


def meeting_counts(rounds: Iterable[PastRound | Sequence]) -> Counter:
    """How often each pair sat at one table (for measuring a sequence of draws)."""
    return History.from_rounds(rounds).met


def repeat_count(rounds: Iterable[PastRound | Sequence]) -> int:
    """Repeated meetings: for each pair, every meeting after their first."""
    return sum(m - 1 for m in meeting_counts(rounds).values() if m > 1)
