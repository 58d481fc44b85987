"""The tabu phase of the whole-event plan: the social golfer local search of Dotú and Van
Hentenryck as Triska and Musliu use it, run on the plan the annealing left when repeats remain.

Each step looks at every swap of two players at different tables of one round where the first
player has a repeat at their table in that round (only such swaps can lower the repeats) and
makes the best one, even when it makes the plan worse, unless it is *tabu*: a player who left a
table may not go back to it for a few steps (a random number in ``TENURE``), except when the
swap gives the best plan seen so far (aspiration). Ties are broken by the seeded RNG. When the
best plan has not improved for ``STABLE`` steps, a few random swaps of such players shake the
plan (the search goes on from there, not from the best plan). The best plan seen is kept.

The cost is the plan's own (``search.Search``): per pair a convex cost of its meetings, plus the
fairness of table sizes when a round has tables of different sizes. A swap's change of cost is
read off two tables kept up to date per round, player and table,

    U[p][t] = Σ cost of one more meeting of p with each player of table t,
    D[p][t] = Σ cost of the last meeting of p with each player of table t,

so that it costs a few look-ups whatever the table size:
Δ(a ↔ b) = U[a][B] + U[b][A] − D[a][A] − D[b][B] − 2 · cost(one more meeting of a and b).

The length of the search is counted in swaps looked at (``budget``), never in seconds, so the
same plan comes out for the same seed whatever the machine.
"""

from __future__ import annotations

TENURE = (4, 30)
STEP = 0.15  # a pair's second meeting costs 1, its third 1.15, its fourth 1.3 …
STABLE = 400
SHAKE = 3


class Tabu:
    """Tabu search over the tables of a ``Search`` (changed in place; the best plan is left)."""

    def __init__(self, search, rng, step: float | None = None):
        self.s = search
        self.rng = rng
        self.n = search.n
        self.rounds = [r for r in range(len(search.tables)) if len(search.tables[r]) > 1]
        step = STEP if step is None else step
        rep = [0.0] + [1.0 + step * (c - 1) for c in range(1, len(search.repeat))]
        self.up = rep  # cost of one more meeting of a pair that met c times: rep[c]
        self.down = [0.0] + list(rep[:-1])  # cost of the last of c meetings: rep[c − 1]
        self.seated = [[p for p in range(self.n) if w[p] >= 0] for w in search.where]
        self._build()

    def _build(self) -> None:
        s, up, down = self.s, self.up, self.down
        ntables = len(s.sizes)
        self.U, self.D = [], []
        for r, tables in enumerate(s.tables):
            u_r = [[0.0] * ntables for _ in range(self.n)]
            d_r = [[0.0] * ntables for _ in range(self.n)]
            for p in self.seated[r]:
                row = s.meet[p]
                u_p, d_p = u_r[p], d_r[p]
                for t, table in enumerate(tables):
                    for x in table:
                        if x != p:
                            u_p[t] += up[row[x]]
                            d_p[t] += down[row[x]]
            self.U.append(u_r)
            self.D.append(d_r)

    def delta(self, r, a, b) -> float:
        """The change of cost if a and b (at different tables of round r) changed places."""
        s = self.s
        where, u_r, d_r = s.where[r], self.U[r], self.D[r]
        ta, tb = where[a], where[b]
        d = u_r[a][tb] + u_r[b][ta] - d_r[a][ta] - d_r[b][tb] - 2 * self.up[s.meet[a][b]]
        if s.size_weight and s.sizes[ta] != s.sizes[tb]:
            d += s.size_weight * s.size_delta(ta, tb, a, b)
        return d

    def cost(self) -> float:
        """The search's cost: Σ over pairs of the cost of their meetings, and the sizes'."""
        total = 0.0
        cum = [0.0]
        for c in self.up:
            cum.append(cum[-1] + c)
        meet = self.s.meet
        for a in range(self.n):
            row = meet[a]
            for b in range(a + 1, self.n):
                total += cum[row[b]]
        weight, self.s.size_weight = self.s.size_weight, 0.0
        repeats_only = self.s.cost()
        self.s.size_weight = weight
        return total + self.s.cost() - repeats_only

    def _pair(self, p, q, step) -> None:
        """One meeting more (step 1) or less (−1) for p and q, in every round's tables."""
        meet, up, down = self.s.meet, self.up, self.down
        old = meet[p][q]
        new = old + step
        meet[p][q] = meet[q][p] = new
        du = up[new] - up[old]
        dd = down[new] - down[old]
        for r in self.rounds:
            where = self.s.where[r]
            tp, tq = where[p], where[q]
            if tp >= 0 and tq >= 0:
                u_r, d_r = self.U[r], self.D[r]
                u_r[p][tq] += du
                d_r[p][tq] += dd
                u_r[q][tp] += du
                d_r[q][tp] += dd

    def _member(self, r, p, t, sign) -> None:
        """p joins (sign 1) or leaves (−1) table t of round r, in round r's U and D."""
        meet, up, down = self.s.meet, self.up, self.down
        row = meet[p]
        u_r, d_r = self.U[r], self.D[r]
        for y in self.seated[r]:
            if y != p:
                m = row[y]
                u_r[y][t] += sign * up[m]
                d_r[y][t] += sign * down[m]

    def swap(self, r, a, b) -> None:
        s = self.s
        where = s.where[r]
        ta, tb = where[a], where[b]
        table_a, table_b = s.tables[r][ta], s.tables[r][tb]
        for x in table_a:
            if x != a:
                self._pair(a, x, -1)
        for y in table_b:
            if y != b:
                self._pair(b, y, -1)
        self._member(r, a, ta, -1)
        self._member(r, b, tb, -1)
        table_a[table_a.index(a)] = b
        table_b[table_b.index(b)] = a
        where[a], where[b] = tb, ta
        self._member(r, a, tb, +1)
        self._member(r, b, ta, +1)
        for x in table_a:
            if x != b:
                self._pair(b, x, +1)
        for y in table_b:
            if y != a:
                self._pair(a, y, +1)
        sa, sb = len(table_a), len(table_b)
        if sa != sb:
            ca, cb = s.size_count[a], s.size_count[b]
            ca[sa] -= 1
            ca[sb] = ca.get(sb, 0) + 1
            cb[sb] -= 1
            cb[sa] = cb.get(sa, 0) + 1

    def _best_swaps(self, tabu, step, current, best) -> tuple[float | None, list, list, int]:
        """Every swap of a player with a repeat at their table in one round with a player at
        another table, looked at: the best change of cost among those allowed, the swaps that
        make it, the (round, player) pairs with a repeat, and how many swaps were looked at."""
        s = self.s
        up, weight, sizes = self.up, s.size_weight, s.sizes
        size_delta = s.size_delta
        ntables = len(sizes)
        best_d = None
        spent = 0
        moves: list[tuple[int, int, int]] = []
        hot: list[tuple[int, int]] = []
        for r in self.rounds:
            where, u_r, d_r, seated = s.where[r], self.U[r], self.D[r], self.seated[r]
            tabu_r = tabu[r]
            own = {p: d_r[p][where[p]] for p in seated}
            for a in seated:
                base = own[a]
                if base <= 1e-12:
                    continue
                hot.append((r, a))
                ta = where[a]
                u_a, row_a = u_r[a], s.meet[a]
                spent += len(seated)
                for b in seated:
                    tb = where[b]
                    if tb == ta:
                        continue
                    d = u_a[tb] + u_r[b][ta] - base - own[b] - 2 * up[row_a[b]]
                    if weight and sizes[ta] != sizes[tb]:
                        d += weight * size_delta(ta, tb, a, b)
                    if best_d is not None and d > best_d + 1e-9:
                        continue
                    if (
                        tabu_r.get(a * ntables + tb, 0) > step
                        or tabu_r.get(b * ntables + ta, 0) > step
                    ) and current + d >= best - 1e-9:
                        continue
                    if best_d is None or d < best_d - 1e-9:
                        best_d = d
                        moves = [(r, a, b)]
                    else:
                        moves.append((r, a, b))
        return best_d, moves, hot, spent

    def _shake(self, hot) -> None:
        """A few random swaps of players in conflict."""
        rand = self.rng.random
        for _ in range(SHAKE):
            r, a = hot[int(rand() * len(hot))]
            where = self.s.where[r]
            others = [b for b in self.seated[r] if where[b] != where[a]]
            self.swap(r, a, others[int(rand() * len(others))])

    def run(self, budget: int) -> bool:
        """Search until ``budget`` swaps have been looked at; True when no pair meets twice."""
        s, rng = self.s, self.rng
        if not self.rounds:
            return True
        rand, randint = rng.random, rng.randint
        low, high = TENURE
        current = self.cost()
        best = current
        best_tables = [[t[:] for t in ts] for ts in s.tables]
        tabu = [{} for _ in s.tables]  # round → {player × tables + table: step it ends}
        ntables = len(s.sizes)
        step = last_better = spent = 0
        while spent < budget:
            step += 1
            best_d, moves, hot, looked = self._best_swaps(tabu, step, current, best)
            spent += looked
            if not hot:  # no pair of the planned rounds meets twice: repeats cannot get lower
                s.restore([[t[:] for t in ts] for ts in s.tables])
                return True
            if moves:
                r, a, b = moves[int(rand() * len(moves))]
                where = s.where[r]
                ta, tb = where[a], where[b]
                self.swap(r, a, b)
                tabu[r][a * ntables + ta] = step + randint(low, high)
                tabu[r][b * ntables + tb] = step + randint(low, high)
                current += best_d
                if current < best - 1e-9:
                    best = current
                    last_better = step
                    best_tables = [[t[:] for t in ts] for ts in s.tables]
                    continue
            if step - last_better > STABLE:  # shake: a few random swaps of players in conflict
                self._shake(hot)
                current = self.cost()
                last_better = step
        s.restore(best_tables)
        return False
