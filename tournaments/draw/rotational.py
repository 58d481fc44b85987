"""Resolvable designs stored as base classes: Kirkman triple systems (tables of 3) and
resolvable designs with tables of 4, each round the base class turned by a cyclic shift.

A design here is ``(g, levels, steps, base classes)`` on the players 0 … v − 1: player
``p < levels·g`` stands at place ``p mod g`` of level ``p // g``, the players from
``levels·g`` on are fixed. Shifting by ``t`` moves every place of every level ``t`` on
(mod g) and leaves the fixed players where they are; each base class, a partition of the
players into tables, gives the rounds ``shift(base, t)`` for t = 0 … steps − 1. Shifting
keeps the difference of two places, so no pair meets twice exactly when, over the base
tables, every *orbit* of pairs (two places of a level at distance ±d; places of levels i < j
at distance d; a fixed player with a level) is met once. Two shapes are used:

- *1-rotational over* Z_{v−1} (one level, g = v − 1, one fixed player ∞, steps = (v − 1) /
  (k − 1)): the base class holds {∞, 0, s, 2s …} (s = steps) and, with each table T, the
  tables T + s, T + 2s … (shifting by s leaves the class as it is, so ``steps`` shifts give
  all its rounds);
- *Z_g on two, three or four levels and ∞* (g = steps, one or two base classes).

The base tables were found offline, not at run time, by a seeded random backtracking (a
script outside the project, plain Python): fill the base class table by table, the next
table from the lowest free player (∞ first), its other players drawn in a seeded random
order among those whose pairs fall in orbits no table has yet; restart with the next seed
after a fixed number of steps. For 63 the base class was also required to be unchanged by
multiplying every place by 5 (a cube root of 1 mod 31), which cut the search to seconds.
Each took from under a second to a few minutes; the seed is noted with each design.
``tests/draw/test_designs.py`` checks every design in full: each round a partition into
tables of k, every pair once over the rounds.
"""

from __future__ import annotations

# (players, table size) → (g, levels, steps, base classes); see the docstring
ROTATIONAL = {
    # Z_7 on 2 levels and ∞, seed 0
    (15, 3): (7, 2, 7, (
        ((1, 7, 14), (0, 2, 9), (3, 6, 11), (4, 5, 8), (10, 12, 13)),
    )),
    # Z_5 on 4 levels and ∞, seed 0
    (21, 3): (5, 4, 5, (
        ((10, 18, 20), (0, 2, 9), (1, 11, 13), (3, 14, 19), (4, 5, 12), (6, 7, 17), (8, 15, 16)),
        ((4, 7, 20), (0, 15, 17), (1, 6, 10), (2, 3, 16), (5, 8, 11), (9, 14, 18), (12, 13, 19)),
    )),
    # 1-rotational over Z_32, seed 0
    (33, 3): (32, 1, 16, (
        ((32, 0, 16), (1, 5, 7), (17, 21, 23), (11, 18, 26), (2, 10, 27), (3, 12, 15),
         (19, 28, 31), (6, 20, 25), (4, 9, 22), (8, 29, 30), (13, 14, 24)),
    )),
    # Z_19 on 2 levels and ∞, seed 1
    (39, 3): (19, 2, 19, (
        ((2, 21, 38), (0, 20, 23), (1, 5, 18), (3, 24, 33), (4, 28, 35), (6, 31, 32),
         (7, 16, 34), (8, 15, 37), (9, 14, 17), (10, 11, 26), (12, 25, 29), (13, 22, 27),
         (19, 30, 36)),
    )),
    # Z_11 on 4 levels and ∞, seed 29
    (45, 3): (11, 4, 11, (
        ((24, 36, 44), (0, 8, 38), (1, 14, 18), (2, 29, 33), (3, 5, 12), (4, 15, 23),
         (6, 32, 40), (7, 19, 28), (9, 34, 42), (10, 30, 39), (11, 21, 25), (13, 26, 37),
         (16, 35, 41), (17, 22, 43), (20, 27, 31)),
        ((8, 11, 44), (0, 10, 22), (1, 33, 40), (2, 7, 12), (3, 28, 31), (4, 39, 41), (5, 9, 13),
         (6, 24, 30), (14, 16, 36), (15, 21, 27), (17, 20, 38), (18, 34, 35), (19, 29, 42),
         (23, 32, 37), (25, 26, 43)),
    )),
    # 1-rotational over Z_50, seed 2
    (51, 3): (50, 1, 25, (
        ((50, 0, 25), (9, 26, 28), (1, 3, 34), (2, 12, 17), (27, 37, 42), (29, 38, 49),
         (4, 13, 24), (22, 30, 46), (5, 21, 47), (8, 31, 45), (6, 20, 33), (11, 32, 39),
         (7, 14, 36), (23, 35, 41), (10, 16, 48), (40, 43, 44), (15, 18, 19)),
    )),
    # 1-rotational over Z_56, seed 0
    (57, 3): (56, 1, 28, (
        ((56, 0, 28), (1, 33, 36), (5, 8, 29), (2, 21, 35), (7, 30, 49), (24, 31, 51),
         (3, 23, 52), (14, 32, 48), (4, 20, 42), (17, 26, 34), (6, 45, 54), (37, 43, 47),
         (9, 15, 19), (38, 39, 50), (10, 11, 22), (40, 53, 55), (12, 25, 27), (13, 18, 44),
         (16, 41, 46)),
    )),
    # Z_31 on 2 levels and ∞, seed 0, the base class unchanged by x ↦ 5x
    (63, 3): (31, 2, 31, (
        ((0, 31, 62), (1, 7, 49), (4, 5, 59), (20, 25, 47), (2, 36, 43), (10, 56, 60),
         (19, 32, 52), (3, 23, 48), (15, 22, 54), (13, 17, 53), (6, 8, 34), (9, 30, 46),
         (14, 26, 44), (11, 24, 27), (12, 21, 29), (16, 37, 51), (18, 38, 61), (28, 35, 57),
         (33, 45, 58), (39, 41, 42), (40, 50, 55)),
    )),
    # Z_9 on 3 levels and ∞, seed 4
    (28, 4): (9, 3, 9, (
        ((1, 10, 26, 27), (0, 13, 16, 17), (2, 12, 21, 22), (3, 8, 14, 25), (4, 5, 7, 19),
         (6, 9, 11, 24), (15, 18, 20, 23)),
    )),
    # 1-rotational over Z_39, seed 80
    (40, 4): (39, 1, 13, (
        ((39, 0, 13, 26), (1, 5, 8, 25), (14, 18, 21, 38), (12, 27, 31, 34), (23, 28, 29, 37),
         (2, 3, 11, 36), (10, 15, 16, 24), (9, 20, 30, 32), (4, 6, 22, 33), (7, 17, 19, 35)),
    )),
    # 1-rotational over Z_51, seed 13
    (52, 4): (51, 1, 17, (
        ((51, 0, 17, 34), (1, 32, 40, 45), (6, 11, 18, 49), (15, 23, 28, 35), (4, 8, 19, 41),
         (7, 21, 25, 36), (2, 24, 38, 42), (5, 31, 37, 47), (3, 13, 22, 48), (14, 20, 30, 39),
         (26, 27, 29, 50), (16, 43, 44, 46), (9, 10, 12, 33)),
    )),
}  # fmt: skip


def developed(g: int, levels: int, steps: int, classes) -> tuple:
    """The rounds of a stored design: each base class shifted by 0 … steps − 1."""
    moving = levels * g

    def shifted(p: int, t: int) -> int:
        return p if p >= moving else p - p % g + (p % g + t) % g

    return tuple(
        tuple(tuple(shifted(p, t) for p in table) for table in base)
        for base in classes
        for t in range(steps)
    )


def rotational_designs() -> dict[tuple[int, int], tuple]:
    """(players, table size) → the rounds of each stored design."""
    return {shape: developed(*stored) for shape, stored in ROTATIONAL.items()}
