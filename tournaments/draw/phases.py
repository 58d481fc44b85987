"""The phases of the whole-event plan's search (``plan.py`` describes them): short runs from
different random plans, the best annealed further, kicks, the extension of a large field's
search, the tabu search, the spread of repeats over pairs and the polish of table sizes."""

from __future__ import annotations

import random

from .search import DIRECTED, T_END, Search, repeat_costs, tables_copy
from .tabu import Tabu

# the search length: moves (proposed swaps) per player and planned round, capped so that the
# largest events stay well under a second; the yardstick (plain_annealing) gets twice as many
MOVES_PER_PLAYER_ROUND = 2000
MOVES_MAX = 200_000
MOVES_MIN = 10_000
# cost
SIZE_WEIGHT = 0.03
# 1. short runs from different random plans
STARTS = 5
START_SHARE = 0.4  # of the moves
T_START = 0.45
# 2. the best run searched further
T_CONTINUE = 0.25
# 3. kicks: a few random swaps, a brief annealing, kept if no worse (iterated local search)
KICKS = 40
KICK_SWAPS = 5
T_KICK = 0.15
KICK_SHARE = 0.8  # of the moves left after 1, in a near-perfect valley …
VALLEY = 0.5  # … recognised by the best short run ending at most half the worst one
KICK_SHARE_HARD = 0.25  # … otherwise, when the field is small enough to have moves to spare:
KICK_ROOMY = 1200  # at least this many moves per player and round
# 4. the extension: when the search length was capped (a large field) and the short runs left
# few repeats (at most this many per player), this many more moves: a share for the long run,
# the rest for more kicks at the end (the search still stops as soon as no pair meets twice)
EXTRA_FEW = 0.5
EXTRA_MOVES = 150_000
EXTRA_EARLY = 0.5
EXTRA_KICKS = 40
# 5. the tabu search (tabu.py), when the annealing left repeats but few (at most this many per
# player): this many swaps looked at, at most; it stops as soon as no pair meets twice
TABU_FEW = 0.5
TABU_BUDGET = 1_600_000
TABU_BUDGET_CAPPED = 800_000  # after the extension (a large field has had a long search)
# 6. the spread of repeats over pairs (lexicographic: never a repeat more), a share of the moves
SPREAD_SHARE = 0.1
# 7. the polish of table sizes (only when a round has tables of different sizes)
POLISH_SHARE = 0.05


def budget_for(players: int, rounds: int) -> int:
    """The search length (moves) for a field of ``players`` over ``rounds`` planned rounds."""
    return max(MOVES_MIN, min(MOVES_MAX, MOVES_PER_PLAYER_ROUND * players * rounds))


def _played(met) -> int:
    """Repeated meetings of the rounds already played (fixed: the search cannot change them)."""
    return sum(m - 1 for row in met for m in row if m > 1) // 2


def _best_start(n, sizes, seated, history_sizes, met, rng, repeat, per_start):
    """The best of ``STARTS`` short runs from different random plans, and every run's cost;
    the first run in which no pair meets twice at once (costs None)."""
    best = None
    costs = []
    for _ in range(STARTS):
        search = Search(n, sizes, seated, history_sizes, met, rng, repeat, SIZE_WEIGHT)
        if search.anneal(per_start, T_START, T_END, DIRECTED):
            return search, None  # no pair meets twice
        costs.append(search.cost())
        if best is None or costs[-1] < best.cost():
            best = search
    return best, costs


def _plan_search(n, sizes, seated, history_sizes, met, rng, repeat, budget, extra=0) -> Search:
    """Short annealing runs from different random plans, the best of them annealed further,
    then kicks (``budget`` moves in all; the search stops as soon as no pair meets twice).

    Small fields have near-perfect plans in a narrow valley that one run falls into or misses
    whatever its length (24 players in 5+5+5+5+4 over 6 rounds: 0–9 repeats, or 20–30), so
    the short runs make the plan reliable, and the kicks take it down to the valley's floor.
    Large fields have no such valley and gain most from the long run, so they get the kicks
    only when they have moves to spare."""
    per_start = int(budget * START_SHARE) // STARTS
    best, costs = _best_start(n, sizes, seated, history_sizes, met, rng, repeat, per_start)
    if costs is None:
        return best
    rest = budget - STARTS * per_start
    # the extension (when the search length was capped): only while few repeats are left, half
    # of it for the long run, half for kicks at the end
    if extra and best.repeats() - _played(met) <= EXTRA_FEW * n:
        early = int(extra * EXTRA_EARLY)
        rest += early
        extra -= early
    else:
        extra = 0
    costs.sort()
    valley = costs[0] <= VALLEY * costs[-1]
    roomy = budget >= KICK_ROOMY * sum(len(r) for r in seated)
    share = KICK_SHARE if valley else KICK_SHARE_HARD if roomy else 0.0
    kick_moves = int(rest * share) if KICKS else 0
    if best.anneal(rest - kick_moves, T_CONTINUE, T_END, DIRECTED):
        return best
    if kick_moves and _kicks(best, rng, KICKS, kick_moves // KICKS):
        return best
    if extra:  # the rest of the extension: more kicks aimed at the last repeats
        _kicks(best, rng, EXTRA_KICKS, extra // EXTRA_KICKS)
    return best


def _kick(best: Search, rounds: list[int], rand) -> None:
    """A few random swaps of the plan."""
    for _ in range(KICK_SWAPS):
        r = rounds[int(rand() * len(rounds))]
        tables = best.tables[r]
        ta = int(rand() * len(tables))
        tb = int(rand() * (len(tables) - 1))
        if tb >= ta:
            tb += 1
        a = tables[ta][int(rand() * len(tables[ta]))]
        b = tables[tb][int(rand() * len(tables[tb]))]
        best.swap(r, a, b)


def _kicks(best: Search, rng, kicks: int, per_kick: int) -> bool:
    """Iterated search: kick the best plan (a few random swaps), anneal briefly, keep the
    result if no worse. True when it stopped because no pair meets twice."""
    rounds = [r for r in range(len(best.tables)) if len(best.tables[r]) > 1]
    best_cost = best.cost()
    best_tables = tables_copy(best.tables)
    for _ in range(kicks):
        _kick(best, rounds, rng.random)
        if best.anneal(per_kick, T_KICK, T_END, DIRECTED):
            return True
        cost = best.cost()
        if cost <= best_cost + 1e-9:
            best_cost = cost
            best_tables = tables_copy(best.tables)
        else:
            best.restore(tables_copy(best_tables))
    return False


def _met_matrix(keys, history) -> list[list[int]]:
    """How often each pair of ``keys`` (by index) met in the rounds played."""
    index = {p: i for i, p in enumerate(keys)}
    n = len(keys)
    met = [[0] * n for _ in range(n)]
    for pair, m in history.met.items():
        a, b = tuple(pair)
        if a in index and b in index:
            met[index[a]][index[b]] = m
            met[index[b]][index[a]] = m
    return met


def searched(keys, sizes, sitouts, history, rounds, rng, seed, moves, tabu_budget):
    """The tables of every round (player indices) found by the search."""
    index = {p: i for i, p in enumerate(keys)}
    n = len(keys)
    met = _met_matrix(keys, history)
    history_sizes = [dict(history.sizes[p]) if p in history.sizes else {} for p in keys]
    seated = [[index[p] for p in keys if p not in out] for out in sitouts]
    repeat = repeat_costs(rounds + max(history.met.values(), default=0) + 2)
    budget = budget_for(n, rounds) if moves is None else moves
    mixed = len(set(sizes)) > 1
    polish = int(budget * POLISH_SHARE) if mixed else 0
    capped = moves is None and MOVES_PER_PLAYER_ROUND * n * rounds > MOVES_MAX
    extra = EXTRA_MOVES if capped else 0
    search = _plan_search(n, sizes, seated, history_sizes, met, rng, repeat, budget - polish, extra)
    played = _played(met)
    left = search.repeats() - played
    tabu = (TABU_BUDGET_CAPPED if capped else TABU_BUDGET) if tabu_budget is None else tabu_budget
    if 0 < left <= TABU_FEW * n and tabu:
        before = tables_copy(search.tables)
        Tabu(search, random.Random(f"efuda-tabu:{seed}")).run(tabu)
        if search.repeats() - played > left:  # its cost spreads repeats; never one more
            search.restore(before)
    search.spread(int(budget * SPREAD_SHARE), random.Random(f"efuda-spread:{seed}"))
    search.polish(polish)
    return search.tables
