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
"""

from __future__ import annotations

import math
import random
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass

from .designs import design_for
from .generator import Draw, History, PastRound, _ordered, _seat_order
from .sizes import choose_sizes
from .tabu import Tabu

# the search length: moves (proposed swaps) per player and planned round, capped so that the
# largest events stay well under a second; the yardstick (plain_annealing) gets twice as many
MOVES_PER_PLAYER_ROUND = 2000
MOVES_MAX = 200_000
MOVES_MIN = 10_000
# cost
SIZE_WEIGHT = 0.03
REPEAT_STEP = 0.05  # a third meeting costs 1.05, a fourth 1.1 … (repeats spread over pairs)
# 1. short runs from different random plans
STARTS = 5
START_SHARE = 0.4  # of the moves
T_START = 0.45
T_END = 0.1  # below it the annealing only descends; every phase ends here
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
# moves
DIRECTED = 0.9  # share of the moves that start from a player with a repeat at their table …
DOUBLE = 0.6  # … and of those, the share whose partner has one too (in the same round)
SCAN_MIN = 100  # the players with a repeat are listed again every players × rounds moves
CONFLICTS_EVERY = 250  # (the yardstick's run: every max(this, players × rounds) moves)


def _repeat_costs(limit: int) -> list[float]:
    """Cost of one more meeting of a pair that already met ``c`` times, for c = 0 … limit."""
    return [0.0] + [1.0 + REPEAT_STEP * (c - 1) for c in range(1, limit + 1)]


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


class _Search:
    """The annealing state: tables per round as lists of player indices, plus the counts."""

    def __init__(self, n, sizes, seated, history_sizes, history_met, rng, repeat, size_weight):
        self.n = n
        self.sizes = sizes
        self.rng = rng
        self.repeat = repeat
        self.fair = size_weight > 0 and len(set(sizes)) > 1
        self.size_weight = size_weight if self.fair else 0.0
        # each size's share: the tables of that size per player, over the whole event
        slots: dict[int, float] = {}
        for counts in history_sizes:
            for size, k in counts.items():
                slots[size] = slots.get(size, 0) + k
        for size in sizes:
            slots[size] = slots.get(size, 0) + size * len(seated)
        self.share = {size: total / n for size, total in slots.items()}
        self.meet = [row[:] for row in history_met]
        self.size_count = [dict(c) for c in history_sizes]
        self.tables: list[list[list[int]]] = []
        self.where: list[list[int]] = []  # per round: player index → table index (−1 sits out)
        self.compound = False
        for players in seated:
            tables = self._start_tables(players)
            where = [-1] * n
            for t, table in enumerate(tables):
                for p in table:
                    where[p] = t
            self.tables.append(tables)
            self.where.append(where)
            for table in tables:
                self._count(table, +1)

    def _start_tables(self, players) -> list[list[int]]:
        """A random start; with fair sizes, the tables of each size go to the players who
        have played that size least so far (ties at random), so the shares stay within one."""
        order = list(players)
        self.rng.shuffle(order)
        tables = [[] for _ in self.sizes]
        if not self.fair:
            start = 0
            for t, size in enumerate(self.sizes):
                tables[t] = order[start : start + size]
                start += size
            return tables
        # the rarer sizes first: they are the ones that must rotate
        by_size: dict[int, list[int]] = {}
        for t, size in enumerate(self.sizes):
            by_size.setdefault(size, []).append(t)
        classes = sorted(by_size, key=lambda size: (len(by_size[size]) * size, -size))
        left = order
        for size in classes:
            slots = len(by_size[size]) * size
            left.sort(key=lambda p: self.size_count[p].get(size, 0))  # stable: RNG breaks ties
            chosen, left = left[:slots], left[slots:]
            for k, t in enumerate(by_size[size]):
                tables[t] = chosen[k * size : (k + 1) * size]
        return tables

    def _count(self, table, sign):
        meet = self.meet
        size = len(table)
        for i, a in enumerate(table):
            counts = self.size_count[a]
            counts[size] = counts.get(size, 0) + sign
            row = meet[a]
            for b in table[i + 1 :]:
                row[b] += sign
                meet[b][a] += sign

    def cost(self) -> float:
        """The whole cost (used once at the start and for the report, never in the loop)."""
        total = 0.0
        cum = [0.0]
        for c in self.repeat:
            cum.append(cum[-1] + c)
        for a in range(self.n):
            row = self.meet[a]
            for b in range(a + 1, self.n):
                total += cum[row[b]]
        if self.size_weight:
            for counts in self.size_count:
                total += self.size_weight * sum(
                    (k - self.share.get(size, 0)) ** 2 for size, k in counts.items()
                )
                total += self.size_weight * sum(
                    share**2 for size, share in self.share.items() if size not in counts
                )
        return total

    def delta(self, r, a, b) -> float:
        where = self.where[r]
        ta, tb = where[a], where[b]
        tables = self.tables[r]
        rep = self.repeat
        row_a, row_b = self.meet[a], self.meet[b]
        d = 0.0
        for x in tables[ta]:
            if x != a:
                d += rep[row_b[x]] - rep[row_a[x] - 1]
        for y in tables[tb]:
            if y != b:
                d += rep[row_a[y]] - rep[row_b[y] - 1]
        if self.size_weight:
            d += self.size_weight * self.size_delta(ta, tb, a, b)
        return d

    def size_delta(self, ta, tb, a, b) -> float:
        """Change of Σ (k − share)² over a's and b's counts k of each table size."""
        sa, sb = self.sizes[ta], self.sizes[tb]
        if sa == sb:
            return 0.0
        ca, cb = self.size_count[a], self.size_count[b]
        share_a, share_b = self.share[sa], self.share[sb]
        return (
            2 * (ca.get(sb, 0) - share_b) - 2 * (ca[sa] - share_a) + 2
            + 2 * (cb.get(sa, 0) - share_a) - 2 * (cb[sb] - share_b) + 2
        )  # fmt: skip

    def spread(self, moves: int, rng) -> None:
        """Spread the repeats over many pairs without adding one: keep the swaps between two
        tables of the same size that leave the number of repeated meetings as it is (or lower
        it) and lower Σ over pairs of C(meetings, 2), where a pair meeting three times costs 3
        and two pairs meeting twice 2; and half of the swaps that change neither."""
        rounds = [r for r in range(len(self.tables)) if len(self.tables[r]) > 1]
        if not rounds or moves <= 0:
            return
        rand = rng.random
        count, meet, sizes = len(rounds), self.meet, self.sizes
        ntables = len(sizes)
        for _ in range(moves):
            r = rounds[int(rand() * count)]
            tables = self.tables[r]
            ta = int(rand() * ntables)
            tb = int(rand() * (ntables - 1))
            if tb >= ta:
                tb += 1
            if sizes[ta] != sizes[tb]:
                continue
            table_a, table_b = tables[ta], tables[tb]
            a = table_a[int(rand() * len(table_a))]
            b = table_b[int(rand() * len(table_b))]
            row_a, row_b = meet[a], meet[b]
            d_rep = d_pairs = 0
            for x in table_a:
                if x != a:
                    m_out, m_in = row_a[x], row_b[x]
                    d_rep += (m_in >= 1) - (m_out >= 2)
                    d_pairs += m_in - (m_out - 1)
            for y in table_b:
                if y != b:
                    m_out, m_in = row_b[y], row_a[y]
                    d_rep += (m_in >= 1) - (m_out >= 2)
                    d_pairs += m_in - (m_out - 1)
            if d_rep < 0 or (d_rep == 0 and (d_pairs < 0 or (d_pairs == 0 and rand() < 0.5))):
                self.swap(r, a, b)

    def polish(self, moves: int) -> None:
        """Share the table sizes out without adding a repeat: keep the swaps between tables
        of different sizes that even the sizes out and leave the repeats as they are (or
        lower them), and half of the swaps that change neither (to cross plateaus)."""
        rounds = [r for r in range(len(self.tables)) if len(set(map(len, self.tables[r]))) > 1]
        if not rounds or not self.fair:
            return
        rand = self.rng.random
        weight, self.size_weight = self.size_weight, 0.0
        count, ntables = len(rounds), len(self.sizes)
        for _ in range(moves):
            r = rounds[int(rand() * count)]
            tables = self.tables[r]
            ta = int(rand() * ntables)
            tb = int(rand() * (ntables - 1))
            if tb >= ta:
                tb += 1
            table_a, table_b = tables[ta], tables[tb]
            a = table_a[int(rand() * len(table_a))]
            b = table_b[int(rand() * len(table_b))]
            d_rep = self.delta(r, a, b)
            if d_rep > 1e-9:
                continue
            d_size = self.size_delta(ta, tb, a, b)
            if d_rep < -1e-9 or d_size < 0 or (d_size == 0 and rand() < 0.5):
                self.swap(r, a, b)
        self.size_weight = weight

    def swap(self, r, a, b) -> None:
        where = self.where[r]
        ta, tb = where[a], where[b]
        tables = self.tables[r]
        table_a, table_b = tables[ta], tables[tb]
        meet = self.meet
        for x in table_a:
            if x != a:
                meet[a][x] -= 1
                meet[x][a] -= 1
                meet[b][x] += 1
                meet[x][b] += 1
        for y in table_b:
            if y != b:
                meet[b][y] -= 1
                meet[y][b] -= 1
                meet[a][y] += 1
                meet[y][a] += 1
        sa, sb = len(table_a), len(table_b)
        if sa != sb:
            ca, cb = self.size_count[a], self.size_count[b]
            ca[sa] -= 1
            ca[sb] = ca.get(sb, 0) + 1
            cb[sb] -= 1
            cb[sa] = cb.get(sa, 0) + 1
        table_a[table_a.index(a)] = b
        table_b[table_b.index(b)] = a
        where[a], where[b] = tb, ta

    def _partner_round(self, r, a, b, size_a, size_b) -> int:
        """Another round where a sits at a table of ``size_b`` and b at one of ``size_a`` (so
        swapping them there too leaves both players' table sizes as they were), or −1."""
        rounds = self.swap_rounds
        start = self.rng.randrange(len(rounds))
        for k in range(len(rounds)):
            r2 = rounds[(start + k) % len(rounds)]
            if r2 == r:
                continue
            where = self.where[r2]
            ta, tb = where[a], where[b]
            if ta >= 0 and tb >= 0 and self.sizes[ta] == size_b and self.sizes[tb] == size_a:
                return r2
        return -1

    def repeats(self) -> int:
        """Repeated meetings (each meeting of a pair after its first, history included)."""
        return sum(m - 1 for row in self.meet for m in row if m > 1) // 2

    def _conflicts(self, rounds) -> list[tuple[int, int]]:
        meet = self.meet
        hot = []
        for r in rounds:
            for table in self.tables[r]:
                for a in table:
                    row = meet[a]
                    for x in table:
                        if x != a and row[x] > 1:
                            hot.append((r, a))
                            break
        return hot

    def anneal(self, moves: int, t_start: float, t_end: float, directed: float) -> bool:
        """The plan's annealing: ``moves`` proposed swaps; the best plan seen is kept.

        A share ``directed`` of the moves start from a player who has a repeat at their table
        in that round (only such swaps can lower the repeats), the others from any player, so
        that the search crosses plateaus. Returns True when it stopped early because no pair
        meets twice any more (the repeats cannot get lower; the table sizes are the polish's)."""
        rounds = [r for r in range(len(self.tables)) if len(self.tables[r]) > 1]
        if not rounds or moves <= 0:
            return not rounds
        rand, exp = self.rng.random, math.exp
        sizes, rep, meet = self.sizes, self.repeat, self.meet
        all_tables, all_where, size_count = self.tables, self.where, self.size_count
        weight, share = self.size_weight, self.share
        ratio = (t_end / t_start) ** (1.0 / moves)
        temp = t_start
        count, ntables = len(rounds), len(sizes)
        current = self.cost()
        best, best_tables = current, [[t[:] for t in ts] for ts in all_tables]
        hot: list[tuple[int, int]] = []  # (round, player) with a repeat at their table
        nhot = 0
        scan_every = max(SCAN_MIN, self.n * count)
        by_round: list[list[int]] = []
        double = DOUBLE
        for move in range(moves):
            temp *= ratio
            if move % scan_every == 0:
                hot = self._conflicts(rounds)
                nhot = len(hot)
                if not nhot:  # no pair meets twice: the repeats cannot get lower
                    return True
                by_round = [[] for _ in all_tables]
                for r, a in hot:
                    by_round[r].append(a)
            if rand() < directed:
                r, a = hot[int(rand() * nhot)]
                tables, where = all_tables[r], all_where[r]
                ta = where[a]
                if double and rand() < double:
                    others = by_round[r]
                    b = others[int(rand() * len(others))]
                    tb = where[b]
                    if tb != ta:
                        table_a, table_b = tables[ta], tables[tb]
                        row_a, row_b = meet[a], meet[b]
                        # (falls through to the evaluation below)
                    else:
                        tb = -1
                else:
                    tb = -1
            else:
                r = rounds[int(rand() * count)]
                tables, where = all_tables[r], all_where[r]
                ta = int(rand() * ntables)
                table_a = tables[ta]
                a = table_a[int(rand() * len(table_a))]
                tb = -1
            if tb < 0:
                tb = int(rand() * (ntables - 1))
                if tb >= ta:
                    tb += 1
                table_a, table_b = tables[ta], tables[tb]
                b = table_b[int(rand() * len(table_b))]
                row_a, row_b = meet[a], meet[b]
            d = 0.0
            for x in table_a:
                if x != a:
                    d += rep[row_b[x]] - rep[row_a[x] - 1]
            for y in table_b:
                if y != b:
                    d += rep[row_a[y]] - rep[row_b[y] - 1]
            sa, sb = sizes[ta], sizes[tb]
            if weight and sa != sb:
                ca, cb = size_count[a], size_count[b]
                share_a, share_b = share[sa], share[sb]
                d += weight * (
                    2 * (ca.get(sb, 0) - share_b) - 2 * (ca[sa] - share_a) + 2
                    + 2 * (cb.get(sa, 0) - share_a) - 2 * (cb[sb] - share_b) + 2
                )  # fmt: skip
            if d > 0 and rand() >= exp(-d / temp):
                continue
            self.swap(r, a, b)  # only accepted moves get here: the call costs little
            current += d
            if current < best - 1e-9:
                best = current
                best_tables = [[t[:] for t in ts] for ts in all_tables]
        self._restore(best_tables)
        return False

    def run(self, moves: int, t_start: float, t_end: float, directed: float) -> None:
        """Anneal for ``moves`` moves and keep the best plan seen.

        With fair sizes, two players at tables of different sizes change places only together
        with a second swap in another round where their sizes are the other way round."""
        rounds = [r for r in range(len(self.tables)) if len(self.tables[r]) > 1]
        self.swap_rounds = rounds
        if not rounds or moves <= 0:
            return
        rng = self.rng
        rand, randrange, exp = rng.random, rng.randrange, math.exp
        compound, sizes = self.compound, self.sizes
        ratio = (t_end / t_start) ** (1.0 / moves)
        temp = t_start
        count = len(rounds)
        current = self.cost()
        best, best_tables = current, [[t[:] for t in ts] for ts in self.tables]
        hot: list[tuple[int, int]] = []  # (round, player) with a repeat at their table
        scan_every = max(CONFLICTS_EVERY, self.n * count)
        for move in range(moves):
            temp *= ratio
            if move % scan_every == 0:
                hot = self._conflicts(rounds)
            if hot and rand() < directed:
                r, a = hot[randrange(len(hot))]
                tables = self.tables[r]
                ta = self.where[r][a]
            else:
                r = rounds[randrange(count)]
                tables = self.tables[r]
                ta = randrange(len(tables))
                table_a = tables[ta]
                a = table_a[randrange(len(table_a))]
            tb = randrange(len(tables) - 1)
            if tb >= ta:
                tb += 1
            table_b = tables[tb]
            b = table_b[randrange(len(table_b))]
            if compound and sizes[ta] != sizes[tb]:
                r2 = self._partner_round(r, a, b, sizes[ta], sizes[tb])
                if r2 < 0:
                    continue
                d = self.delta(r, a, b)
                self.swap(r, a, b)
                d += self.delta(r2, a, b)
                if d <= 0 or rand() < exp(-d / temp):
                    self.swap(r2, a, b)
                else:
                    self.swap(r, b, a)
                    continue
            else:
                d = self.delta(r, a, b)
                if d <= 0 or rand() < exp(-d / temp):
                    self.swap(r, a, b)
                else:
                    continue
            current += d
            if current < best - 1e-9:
                best = current
                best_tables = [[t[:] for t in ts] for ts in self.tables]
        self._restore(best_tables)

    def _restore(self, best_tables) -> None:
        for tables in self.tables:
            for table in tables:
                self._count(table, -1)
        self.tables = best_tables
        for r, tables in enumerate(best_tables):
            where = [-1] * self.n
            for t, table in enumerate(tables):
                for p in table:
                    where[p] = t
                self._count(table, +1)
            self.where[r] = where


def _budget(players: int, rounds: int) -> int:
    return max(MOVES_MIN, min(MOVES_MAX, MOVES_PER_PLAYER_ROUND * players * rounds))


def _plan_search(n, sizes, seated, history_sizes, met, rng, repeat, budget, extra=0) -> _Search:
    """Short annealing runs from different random plans, the best of them annealed further,
    then kicks (``budget`` moves in all; the search stops as soon as no pair meets twice).

    Small fields have near-perfect plans in a narrow valley that one run falls into or misses
    whatever its length (24 players in 5+5+5+5+4 over 6 rounds: 0–9 repeats, or 20–30), so
    the short runs make the plan reliable, and the kicks take it down to the valley's floor.
    Large fields have no such valley and gain most from the long run, so they get the kicks
    only when they have moves to spare."""
    per_start = int(budget * START_SHARE) // STARTS
    best = None
    costs = []
    for _ in range(STARTS):
        search = _Search(n, sizes, seated, history_sizes, met, rng, repeat, SIZE_WEIGHT)
        if search.anneal(per_start, T_START, T_END, DIRECTED):
            return search  # no pair meets twice
        costs.append(search.cost())
        if best is None or costs[-1] < best.cost():
            best = search
    rest = budget - STARTS * per_start
    # the extension (when the search length was capped): only while few repeats are left, half
    # of it for the long run, half for kicks at the end
    played = sum(m - 1 for row in met for m in row if m > 1) // 2  # fixed: the rounds played
    if extra and best.repeats() - played <= EXTRA_FEW * n:
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


def _kicks(best: _Search, rng, kicks: int, per_kick: int) -> bool:
    """Iterated search: kick the best plan (a few random swaps), anneal briefly, keep the
    result if no worse. True when it stopped because no pair meets twice."""
    rounds = [r for r in range(len(best.tables)) if len(best.tables[r]) > 1]
    best_cost = best.cost()
    best_tables = [[t[:] for t in ts] for ts in best.tables]
    rand = rng.random
    for _ in range(kicks):
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
        if best.anneal(per_kick, T_KICK, T_END, DIRECTED):
            return True
        cost = best.cost()
        if cost <= best_cost + 1e-9:
            best_cost = cost
            best_tables = [[t[:] for t in ts] for ts in best.tables]
        else:
            best._restore([[t[:] for t in ts] for ts in best_tables])
    return False


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
    tables = _searched(keys, sizes, sitouts, history, rounds, rng, seed, moves, tabu_budget)
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


def _searched(keys, sizes, sitouts, history, rounds, rng, seed, moves, tabu_budget):
    """The tables of every round (player indices) found by the search."""
    index = {p: i for i, p in enumerate(keys)}
    n = len(keys)
    met = [[0] * n for _ in range(n)]
    for pair, m in history.met.items():
        a, b = tuple(pair)
        if a in index and b in index:
            met[index[a]][index[b]] = m
            met[index[b]][index[a]] = m
    history_sizes = [dict(history.sizes[p]) if p in history.sizes else {} for p in keys]
    seated = [[index[p] for p in keys if p not in out] for out in sitouts]
    repeat = _repeat_costs(rounds + max(history.met.values(), default=0) + 2)
    budget = _budget(n, rounds) if moves is None else moves
    mixed = len(set(sizes)) > 1
    polish = int(budget * POLISH_SHARE) if mixed else 0
    capped = moves is None and MOVES_PER_PLAYER_ROUND * n * rounds > MOVES_MAX
    extra = EXTRA_MOVES if capped else 0
    search = _plan_search(n, sizes, seated, history_sizes, met, rng, repeat, budget - polish, extra)
    played = sum(m - 1 for row in met for m in row if m > 1) // 2
    left = search.repeats() - played
    tabu = (TABU_BUDGET_CAPPED if capped else TABU_BUDGET) if tabu_budget is None else tabu_budget
    if 0 < left <= TABU_FEW * n and tabu:
        before = [[t[:] for t in ts] for ts in search.tables]
        Tabu(search, random.Random(f"efuda-tabu:{seed}")).run(tabu)
        if search.repeats() - played > left:  # its cost spreads repeats; never one more
            search._restore(before)
    search.spread(int(budget * SPREAD_SHARE), random.Random(f"efuda-spread:{seed}"))
    search.polish(polish)
    return search.tables


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
    search = _Search(n, sizes, seated, [{} for _ in keys], met, rng, repeat, size_weight=0.0)
    budget = 2 * _budget(n, rounds) if moves is None else moves
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
