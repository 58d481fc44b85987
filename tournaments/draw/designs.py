"""Schedules from combinatorial design theory: rounds in which no two players meet twice.

A *resolvable design* splits ``n`` players into tables of ``k`` for several rounds so that no
pair sits at one table twice. Where one is known for a field, it is the best plan there can
be; the whole-event plan (``plan.py``) uses it for a fresh field of exactly that shape (no
rounds played yet, nobody sitting out, every table of size ``k``, no more rounds than the
design has), with the players, the rounds and the tables in an order drawn from the seed.
Every other field goes through the search.

The designs, players numbered 0 … n − 1:

- the *affine planes* of order q = 3, 4, 5, 7, 8 (``affine_plane``): the q² points of the
  plane over the field of q elements, a round per direction (q + 1 rounds), its tables the q
  parallel lines of that direction: 9 players in tables of 3 for 4 rounds, 16 in tables of 4
  for 5, 25 in tables of 5 for 6, 49 in tables of 7 for 8, 64 in tables of 8 for 9 (GF(4)
  and GF(8) as polynomials over GF(2) modulo x² + x + 1 and x³ + x + 1);
- the *lines of the affine spaces* AG(3, 3) and AG(3, 4) (``affine_space``): a round per
  direction, its tables the parallel lines: 27 players in tables of 3 for 13 rounds, 64 in
  tables of 4 for 21;
- the Kirkman triple systems for 15, 21, 33, 39, 45, 51, 57 and 63 players and the
  resolvable designs with tables of 4 for 28, 40 and 52 (``rotational.py``, where it says how
  each was found): stored as base classes, each round a cyclic shift of one;
- 36 players in tables of 6 for 3 rounds (``grid``): the rows, the columns and the cyclic
  diagonals of a 6 × 6 grid (a Latin square; no two orthogonal ones exist for 6, so 3
  rounds are the most);
- 32 players in tables of 4 for 10 rounds (``SGP_8_4_10``), the social golfer problem
  8-4-10: 10 is the most there can be (a player meets 3 new players a round, and 31 in all).
  It was computed offline with a constraint solver (OR-Tools CP-SAT, 8 s): a variable per
  pair of players and round, each player with exactly 3 others per round, the relation
  transitive (tables), each pair at most once over the rounds, round 1 fixed as the tables
  (0 1 2 3), (4 5 6 7) …, and, to make the search small, every round unchanged by the
  relabellings p ↦ p XOR h for h a multiple of 4 (players as vectors of GF(2)⁵, the
  translations by a subspace of dimension 3). ``tests/draw/test_designs.py`` checks it.
"""

from __future__ import annotations

from functools import cache

from .rotational import rotational_designs

# one line per round, the tables of 4 in it; see the module's docstring for where it comes from
SGP_8_4_10 = (
    ((0, 1, 2, 3), (4, 5, 6, 7), (8, 9, 10, 11), (12, 13, 14, 15),
     (16, 17, 18, 19), (20, 21, 22, 23), (24, 25, 26, 27), (28, 29, 30, 31)),
    ((0, 5, 17, 20), (1, 4, 16, 21), (2, 6, 19, 23), (3, 7, 18, 22),
     (8, 13, 25, 28), (9, 12, 24, 29), (10, 14, 27, 31), (11, 15, 26, 30)),
    ((0, 21, 26, 31), (1, 11, 14, 20), (2, 7, 13, 24), (3, 6, 9, 28),
     (4, 17, 27, 30), (5, 10, 15, 16), (8, 18, 23, 29), (12, 19, 22, 25)),
    ((0, 4, 8, 12), (1, 9, 22, 30), (2, 10, 21, 29), (3, 11, 23, 31),
     (5, 13, 18, 26), (6, 14, 17, 25), (7, 15, 19, 27), (16, 20, 24, 28)),
    ((0, 10, 22, 28), (1, 13, 23, 27), (2, 8, 20, 30), (3, 15, 21, 25),
     (4, 14, 18, 24), (5, 9, 19, 31), (6, 12, 16, 26), (7, 11, 17, 29)),
    ((0, 6, 27, 29), (1, 7, 26, 28), (2, 4, 25, 31), (3, 5, 24, 30),
     (8, 14, 19, 21), (9, 15, 18, 20), (10, 12, 17, 23), (11, 13, 16, 22)),
    ((0, 15, 23, 24), (1, 5, 25, 29), (2, 14, 22, 26), (3, 12, 20, 27),
     (4, 11, 19, 28), (6, 10, 18, 30), (7, 8, 16, 31), (9, 13, 17, 21)),
    ((0, 13, 19, 30), (1, 12, 18, 31), (2, 15, 17, 28), (3, 14, 16, 29),
     (4, 9, 23, 26), (5, 8, 22, 27), (6, 11, 21, 24), (7, 10, 20, 25)),
    ((0, 7, 9, 14), (1, 6, 8, 15), (2, 5, 11, 12), (3, 4, 10, 13),
     (16, 23, 25, 30), (17, 22, 24, 31), (18, 21, 27, 28), (19, 20, 26, 29)),
    ((0, 11, 18, 25), (1, 10, 19, 24), (2, 9, 16, 27), (3, 8, 17, 26),
     (4, 15, 22, 29), (5, 14, 23, 28), (6, 13, 20, 31), (7, 12, 21, 30)),
)  # fmt: skip


def _gf2_mul(q: int, poly: int):
    """Multiplication in GF(q), q = 4 or 8: polynomials over GF(2) as bit strings, reduced
    modulo ``poly`` (x² + x + 1 for GF(4), x³ + x + 1 for GF(8))."""

    def mul(x: int, y: int) -> int:
        product = 0
        while y:
            if y & 1:
                product ^= x
            y >>= 1
            x <<= 1
            if x & q:
                x ^= poly
        return product

    return mul


def _field(q: int):
    """Addition and multiplication of the field of q elements (q = 3, 4, 5, 7 or 8)."""
    if q in (4, 8):
        return (lambda x, y: x ^ y), _gf2_mul(q, {4: 0b111, 8: 0b1011}[q])
    return (lambda x, y: (x + y) % q), (lambda x, y: x * y % q)


def affine_plane(q: int) -> tuple:
    """The affine plane of order q: point (x, y) is player q·x + y; round m < q holds the q
    parallel lines y + m·x = b (one table per b), round q the lines x = c."""
    add, mul = _field(q)
    rounds = []
    for m in range(q):
        tables = [[] for _ in range(q)]
        for x in range(q):
            for y in range(q):
                tables[add(y, mul(m, x))].append(q * x + y)
        rounds.append(tuple(tuple(t) for t in tables))
    rounds.append(tuple(tuple(q * c + y for y in range(q)) for c in range(q)))
    return tuple(rounds)


def affine_space(q: int) -> tuple:
    """The lines of the affine space of dimension 3 over the field of q elements (q = 3 or
    4): point (x, y, z) is player q²·x + q·y + z; a round per direction (d₁, d₂, d₃), taken
    with its first non-zero coordinate 1 (q² + q + 1 rounds), its tables the q² parallel lines
    {p + t·d : t} of that direction. Two points lie on exactly one line."""
    add, mul = _field(q)
    points = [(x, y, z) for x in range(q) for y in range(q) for z in range(q)]
    directions = [d for d in points if d != (0, 0, 0) and next(c for c in d if c) == 1]
    rounds = []
    for d in directions:
        seen, tables = set(), []
        for p in points:
            if p in seen:
                continue
            line = [tuple(add(p[i], mul(t, d[i])) for i in range(3)) for t in range(q)]
            seen.update(line)
            tables.append(tuple(sorted(q * q * x + q * y + z for x, y, z in line)))
        rounds.append(tuple(tables))
    return tuple(rounds)


def grid(k: int) -> tuple:
    """k² players on a k × k grid: the rows, the columns and the cyclic diagonals."""
    rows = tuple(tuple(k * i + j for j in range(k)) for i in range(k))
    columns = tuple(tuple(k * i + j for i in range(k)) for j in range(k))
    diagonals = tuple(tuple(k * i + (d - i) % k for i in range(k)) for d in range(k))
    return rows, columns, diagonals


@cache
def designs() -> dict[tuple[int, int], tuple]:
    """(players, table size) → the rounds of the design (tuples of tables of players)."""
    known = {(q * q, q): affine_plane(q) for q in (3, 4, 5, 7, 8)}
    known[27, 3] = affine_space(3)
    known[64, 4] = affine_space(4)
    known.update(rotational_designs())
    known[36, 6] = grid(6)
    known[32, 4] = SGP_8_4_10
    return known


def design_for(players: int, size: int, rounds: int) -> tuple | None:
    """The stored design for ``players`` in tables of ``size``, if it has ``rounds`` rounds."""
    design = designs().get((players, size))
    if design is None or rounds > len(design):
        return None
    return design
