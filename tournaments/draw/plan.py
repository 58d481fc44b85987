"""Plan every remaining round of a mixing event at once (a social-golfer style local search).

A per-round draw only looks back: each round takes the best tables given the past, and the
last rounds of a small field are left with nothing but repeats. Planning all the rounds still
to play together lets round 2 leave room for round 5. The search is a simulated annealing over
swaps of two players at different tables of one round, as the social golfer solvers do
(Dotú & Van Hentenryck's tabu search, Harvey's annealing):

- *Sit-outs* are fixed first, round by round: the players who sat out least so far (the
  history plus the rounds planned before) sit out; ties are broken by the seeded RNG. With a
  constant field, everyone's sit-outs stay within one of each other.
- *Cost*: each meeting of a pair that already met ``c`` times costs ``REPEAT[c]`` (0 for a
  first meeting, 1 for a second, 1.05 for a third …: the total is the number of repeated
  meetings, with a small extra so repeats spread over many pairs rather than a few); when a
  round has tables of different sizes each player pays ``SIZE_WEIGHT × (2k + 1)`` for their
  ``k``-th table of that size, so small and large tables are shared out evenly.
- *Moves*: two players of one round at different tables change places. Nine moves in ten
  start from a player who has a repeat at their table in that round (only such swaps can
  lower the repeats), and most of those take as partner another such player of the round;
  the rest start anywhere, so that the search crosses plateaus. A worse move is accepted with
  probability ``exp(−Δ / T)``, the temperature falling geometrically; the best plan seen is
  kept. Every proposed swap counts as one move of the search length.
- *Phases*: five short runs from different random plans (small fields have near-perfect
  plans in a narrow valley that a run falls into or misses, whatever its length); the best
  run annealed further at a lower temperature; then *kicks* (a few random swaps, a brief
  annealing, kept if no worse) when the short runs found such a valley or the field is small
  enough to have moves to spare; for a large field (search length capped) whose short runs
  left few repeats, an extension (more moves for the long run and more kicks); last a polish
  that evens the table sizes out where that costs no repeat. The search stops as soon as no
  pair meets twice.
- *Tabu*: when the annealing left repeats, but at most half a repeat per player, the social
  golfer tabu search of ``tabu.py`` (best swap of a player with a repeat at their table, a
  short tabu on going back, shakes) takes the plan further, on a cost that counts repeats and,
  far behind, how many times a pair meets; its result is kept unless it has more repeats.
- *Spread*: swaps between tables of one size that leave the repeats as they are and lower
  Σ C(meetings, 2) over pairs, so that repeats fall on many pairs rather than one pair meeting
  every round (lexicographic: never a repeat more for it).
- *Seats*: once the tables are fixed, each table's seat order is chosen round by round so
  that players sit where they have sat least.

Everything is seeded: the same players, history, sizes and seed always give the same plan.
The search state and its moves are ``search.py``'s, the phases ``phases.py``'s, the tabu
search ``tabu.py``'s; this module plans the rounds and keeps a plan between them.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass

from .designs import design_for
from .generator import Draw, History, PastRound, _ordered, _seat_order
from .phases import budget_for, searched
from .search import Search
from .sizes import choose_sizes


@dataclass(frozen=True)
class Plan:
    """The planned rounds, in order (``rounds[0]`` is the next round to play)."""

    rounds: tuple[Draw, ...]
    seed: int

    def as_past(self) -> list[PastRound]:
        return [PastRound(d.tables, d.sitouts) for d in self.rounds]


def _sitouts_per_round(players, count, rounds, history, rng) -> list[set]:
    sat = {p: history.sitouts[p] for p in players}
    result = []
    for _ in range(rounds):
        if count == 0:
            result.append(set())
            continue
        ranked = sorted(players, key=lambda p: (sat[p], rng.random()))
        chosen = set(ranked[:count])
        for p in chosen:
            sat[p] += 1
        result.append(chosen)
    return result


def plan_rounds(
    players: Iterable[Hashable],
    *,
    rounds: int,
    sizes_allowed: Iterable[int],
    history: History | Iterable[PastRound] = (),
    seed: int = 0,
    preferred: int | None = None,
    moves: int | None = None,
    tabu_budget: int | None = None,
) -> Plan:
    """Plan ``rounds`` rounds for ``players`` after the given history (the rounds played).

    Deterministic for the arguments; ``moves`` and ``tabu_budget`` override the search length
    of the annealing and of the tabu search (measurements)."""
    if not isinstance(history, History):
        history = History.from_rounds(history)
    keys = _ordered(players)
    sizes, sitout_count = choose_sizes(len(keys), sizes_allowed, preferred)
    rng = random.Random(f"efuda-plan:{seed}")
    sitouts = _sitouts_per_round(keys, sitout_count, rounds, history, rng)
    if sitout_count == 0 and not history.seats and not history.sitouts:
        tables = _from_design(len(keys), sizes, rounds, rng)
        if tables is not None:  # a fresh field of a known design's shape: no pair meets twice
            return _planned(keys, tables, sitouts, history, rng, seed)
    tables = searched(keys, sizes, sitouts, history, rounds, rng, seed, moves, tabu_budget)
    return _planned(keys, tables, sitouts, history, rng, seed)


def _from_design(n: int, sizes, rounds: int, rng) -> list[list[list[int]]] | None:
    """The rounds of the stored design (``designs.py``) for n players at tables of one size,
    if there is one with enough rounds: the players relabelled by a seeded permutation, the
    rounds a seeded choice among the design's, in a seeded order, and so the tables."""
    if len(set(sizes)) != 1:
        return None
    design = design_for(n, sizes[0], rounds)
    if design is None:
        return None
    label = list(range(n))
    rng.shuffle(label)
    chosen = rng.sample(range(len(design)), rounds)
    planned = []
    for r in chosen:
        tables = [[label[p] for p in table] for table in design[r]]
        rng.shuffle(tables)
        planned.append(tables)
    return planned


def _planned(keys, all_tables, sitouts, history, rng, seed) -> Plan:
    """The plan: each round's tables (player indices) in seat order, and its sit-outs."""
    seats_history = History()
    for p in keys:
        if p in history.seats:
            seats_history.seats[p].update(history.seats[p])
    planned = []
    for r, tables in enumerate(all_tables):
        ordered_tables = []
        for table in tables:
            order = _seat_order([keys[i] for i in table], seats_history, rng)
            for s, p in enumerate(order):
                seats_history.seats[p][s] += 1
            ordered_tables.append(tuple(order))
        planned.append(
            Draw(
                tables=tuple(ordered_tables),
                sitouts=tuple(p for p in keys if p in sitouts[r]),
                method="mixing",
                seed=seed,
            )
        )
    return Plan(rounds=tuple(planned), seed=seed)


def plain_annealing(
    players: Sequence[Hashable],
    *,
    rounds: int,
    sizes_allowed: Iterable[int],
    seed: int = 0,
    moves: int | None = None,
    preferred: int | None = None,
) -> list[PastRound]:
    """The yardstick: a plain annealing of the whole event on repeats alone (same table sizes
    and sit-outs, random start, random swaps, no seat or size fairness, a longer search)."""
    keys = _ordered(players)
    sizes, sitout_count = choose_sizes(len(keys), sizes_allowed, preferred)
    rng = random.Random(f"efuda-plain:{seed}")
    sitouts = _sitouts_per_round(keys, sitout_count, rounds, History(), rng)
    index = {p: i for i, p in enumerate(keys)}
    n = len(keys)
    seated = [[index[p] for p in keys if p not in out] for out in sitouts]
    repeat = [0.0] + [1.0] * (rounds + 2)
    met = [[0] * n for _ in range(n)]
    search = Search(n, sizes, seated, [{} for _ in keys], met, rng, repeat, size_weight=0.0)
    budget = 2 * budget_for(n, rounds) if moves is None else moves
    search.run(budget, 1.0, 0.02, directed=0.0)
    return [
        PastRound(
            tables=tuple(tuple(keys[i] for i in t) for t in tables),
            sitouts=tuple(p for p in keys if p in sitouts[r]),
        )
        for r, tables in enumerate(search.tables)
    ]


# --- keeping a plan between rounds ------------------------------------------------------------


def _same_round(a: PastRound, b: PastRound) -> bool:
    tables = lambda r: sorted(sorted(map(repr, t)) for t in r.tables)  # noqa: E731
    return tables(a) == tables(b) and sorted(map(repr, a.sitouts)) == sorted(map(repr, b.sitouts))


def plan_to_json(plan: Plan, *, start: int, players: Iterable[Hashable]) -> dict:
    """The plan as JSON (keys must be JSON values, e.g. player ids), from round ``start``."""
    return {
        "version": 1,
        "start": start,
        "seed": plan.seed,
        "players": _ordered(players),
        "rounds": [
            {"tables": [list(t) for t in d.tables], "sitouts": list(d.sitouts)} for d in plan.rounds
        ],
    }


def planned_round(
    stored: dict, *, number: int, players: Iterable[Hashable], past: Sequence[PastRound]
) -> Draw | None:
    """Round ``number`` of a stored plan, if the plan still holds: the same players, and the
    rounds played since the plan was made were drawn as planned (no late arrival, drop-out or
    swap by the staff since). None means: plan the remaining rounds again."""
    if not stored or stored.get("version") != 1:
        return None
    start = stored.get("start", 0)
    rounds = stored.get("rounds") or []
    if not start <= number < start + len(rounds) or len(past) < number - 1:
        return None
    if stored.get("players") != _ordered(players):
        return None

    def as_past(item) -> PastRound:
        return PastRound(tuple(tuple(t) for t in item["tables"]), tuple(item["sitouts"]))

    for played in range(start, number):
        if not _same_round(as_past(rounds[played - start]), past[played - 1]):
            return None
    chosen = as_past(rounds[number - start])
    return Draw(chosen.tables, chosen.sitouts, method="mixing", seed=stored.get("seed", 0))
