"""The whole-event plan's search state and its moves (``plan.py`` describes the algorithm).

``Search`` holds the tables of every planned round as lists of player indices, how often each
pair has met and how often each player has played each table size, so that a swap's change of
cost is read off the two tables it touches. Its moves: the plan's annealing (``anneal``), the
yardstick's plain annealing (``run``), and the two lexicographic passes that follow the search
(``spread``, ``polish``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

REPEAT_STEP = 0.05  # a third meeting costs 1.05, a fourth 1.1 … (repeats spread over pairs)
T_END = 0.1  # below it the annealing only descends; every phase ends here
DIRECTED = 0.9  # share of the moves that start from a player with a repeat at their table …
DOUBLE = 0.6  # … and of those, the share whose partner has one too (in the same round)
SCAN_MIN = 100  # the players with a repeat are listed again every players × rounds moves
CONFLICTS_EVERY = 250  # (the yardstick's run: every max(this, players × rounds) moves)


def repeat_costs(limit: int) -> list[float]:
    """Cost of one more meeting of a pair that already met ``c`` times, for c = 0 … limit."""
    return [0.0] + [1.0 + REPEAT_STEP * (c - 1) for c in range(1, limit + 1)]


def tables_copy(all_tables: list[list[list[int]]]) -> list[list[list[int]]]:
    return [[t[:] for t in ts] for ts in all_tables]


@dataclass
class _Walk:
    """Where an annealing run stands: its temperature, the cost now and the best plan seen."""

    temp: float
    ratio: float
    current: float
    best: float
    best_tables: list


class Search:
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
        rand, meet = rng.random, self.meet
        for r, ta, tb, a, b in self._proposals(rand, rounds, moves, same_size=True):
            row_a, row_b = meet[a], meet[b]
            d_rep = d_pairs = 0
            for x in self.tables[r][ta]:
                if x != a:
                    m_out, m_in = row_a[x], row_b[x]
                    d_rep += (m_in >= 1) - (m_out >= 2)
                    d_pairs += m_in - (m_out - 1)
            for y in self.tables[r][tb]:
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
        for r, ta, tb, a, b in self._proposals(rand, rounds, moves, same_size=False):
            d_rep = self.delta(r, a, b)
            if d_rep > 1e-9:
                continue
            d_size = self.size_delta(ta, tb, a, b)
            if d_rep < -1e-9 or d_size < 0 or (d_size == 0 and rand() < 0.5):
                self.swap(r, a, b)
        self.size_weight = weight

    def _proposals(self, rand, rounds: list[int], moves: int, *, same_size: bool):
        """The swaps the spread and the polish weigh, one per move: a random round of
        ``rounds``, two different tables in it and a random player at each, as (round, table
        a, table b, a, b). With ``same_size``, a move that draws two tables of different sizes
        proposes nothing (and draws no player). ``rand`` is the move's own random source."""
        count, sizes = len(rounds), self.sizes
        ntables = len(sizes)
        for _ in range(moves):
            r = rounds[int(rand() * count)]
            ta = int(rand() * ntables)
            tb = int(rand() * (ntables - 1))
            if tb >= ta:
                tb += 1
            if same_size and sizes[ta] != sizes[tb]:
                continue
            table_a, table_b = self.tables[r][ta], self.tables[r][tb]
            a = table_a[int(rand() * len(table_a))]
            yield r, ta, tb, a, table_b[int(rand() * len(table_b))]

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
        that the search crosses plateaus. The players with a repeat are listed again every
        ``max(SCAN_MIN, players × rounds)`` moves. Returns True when it stopped early because
        no pair meets twice any more (the repeats cannot get lower; the table sizes are the
        polish's)."""
        rounds = [r for r in range(len(self.tables)) if len(self.tables[r]) > 1]
        if not rounds or moves <= 0:
            return not rounds
        current = self.cost()
        walk = _Walk(temp=t_start, ratio=(t_end / t_start) ** (1.0 / moves), current=current,
                     best=current, best_tables=tables_copy(self.tables))  # fmt: skip
        scan_every = max(SCAN_MIN, self.n * len(rounds))
        for start in range(0, moves, scan_every):
            hot = self._conflicts(rounds)
            if not hot:  # no pair meets twice: the repeats cannot get lower
                return True
            by_round: list[list[int]] = [[] for _ in self.tables]  # hot players per round
            for r, a in hot:
                by_round[r].append(a)
            span = min(scan_every, moves - start)
            self._anneal_span(walk, rounds, hot, by_round, span, directed)
        self.restore(walk.best_tables)
        return False

    def _anneal_span(self, walk: _Walk, rounds, hot, by_round, moves: int, directed) -> None:
        """``moves`` moves of the annealing, between two listings of the players with a
        repeat at their table (``hot``: (round, player); ``by_round``: players per round)."""
        rand, exp = self.rng.random, math.exp
        sizes, rep, meet = self.sizes, self.repeat, self.meet
        all_tables, all_where, size_count = self.tables, self.where, self.size_count
        weight, share, double = self.size_weight, self.share, DOUBLE
        count, ntables, nhot = len(rounds), len(sizes), len(hot)
        temp, ratio, current, best = walk.temp, walk.ratio, walk.current, walk.best
        for _ in range(moves):
            temp *= ratio
            tb = -1
            if rand() < directed:
                r, a = hot[int(rand() * nhot)]
                where = all_where[r]
                ta = where[a]
                if double and rand() < double:
                    others = by_round[r]
                    b = others[int(rand() * len(others))]
                    if where[b] != ta:
                        tb = where[b]
            else:
                r = rounds[int(rand() * count)]
                ta = int(rand() * ntables)
                table_a = all_tables[r][ta]
                a = table_a[int(rand() * len(table_a))]
            tables = all_tables[r]
            if tb < 0:
                tb = int(rand() * (ntables - 1))
                if tb >= ta:
                    tb += 1
                table_b = tables[tb]
                b = table_b[int(rand() * len(table_b))]
            table_a, table_b = tables[ta], tables[tb]
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
                walk.best_tables = tables_copy(all_tables)
        walk.temp, walk.current, walk.best = temp, current, best

    def run(self, moves: int, t_start: float, t_end: float, directed: float) -> None:
        """The yardstick's annealing (``plan.plain_annealing``): ``moves`` random swaps of two
        players at different tables of one round; the best plan seen is kept."""
        rounds = [r for r in range(len(self.tables)) if len(self.tables[r]) > 1]
        if not rounds or moves <= 0:
            return
        rand, randrange, exp = self.rng.random, self.rng.randrange, math.exp
        ratio = (t_end / t_start) ** (1.0 / moves)
        temp = t_start
        count = len(rounds)
        current = self.cost()
        best, best_tables = current, tables_copy(self.tables)
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
            d = self.delta(r, a, b)
            if d > 0 and rand() >= exp(-d / temp):
                continue
            self.swap(r, a, b)
            current += d
            if current < best - 1e-9:
                best = current
                best_tables = tables_copy(self.tables)
        self.restore(best_tables)

    def restore(self, best_tables) -> None:
        """Take ``best_tables`` (every round's tables, player indices) as the plan."""
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
