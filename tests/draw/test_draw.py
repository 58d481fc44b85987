"""Properties of the seating draw over many seed values and player counts (pure, no database)."""

import ast
import pathlib
import statistics

import pytest

from tournaments.draw import DrawUserError, PastRound, choose_sizes, make_draw
from tournaments.draw.generator import History, repeat_count, swap_players

WIKI = (4, 5, 6)
JOKER = (5,)
DAIFUGO = (3, 4, 5, 6, 7, 8)


def run(n, rounds, sizes, method="mixing", seed=0):
    players = [f"p{i}" for i in range(1, n + 1)]
    past = []
    for r in range(1, rounds + 1):
        d = make_draw(
            players, sizes_allowed=sizes, history=past, method=method, seed=seed * 100 + r
        )
        past.append(PastRound(d.tables, d.sitouts))
    return players, past


def test_draw_imports_no_django():
    root = pathlib.Path(__file__).resolve().parents[2] / "tournaments" / "draw"
    for path in root.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            for name in names:
                assert not name.startswith(("django", "tournaments")), (path, name)


@pytest.mark.parametrize(
    ("n", "sizes", "expected"),
    [
        (23, WIKI, ((5, 5, 5, 4, 4), 0)),
        (20, WIKI, ((5, 5, 5, 5), 0)),
        (7, WIKI, ((6,), 1)),
        (23, JOKER, ((5, 5, 5, 5), 3)),
        (4, WIKI, ((4,), 0)),
        (9, (4, 5), ((5, 4), 0)),
    ],
)
def test_choose_sizes(n, sizes, expected):
    assert choose_sizes(n, sizes) == expected


def test_too_few_players():
    with pytest.raises(DrawUserError) as err:
        make_draw(["a", "b", "c"], sizes_allowed=WIKI)
    assert err.value.field == "draw" and err.value.params == {"count": 3, "min": 4}


@pytest.mark.parametrize("sizes", [WIKI, JOKER, DAIFUGO, (4, 5)])
@pytest.mark.parametrize("n", list(range(4, 61)))
def test_every_table_allowed_nobody_twice_sitouts_even(n, sizes):
    if n < min(sizes):
        return
    rounds = 3 if n <= 30 else 2
    players, past = run(n, rounds, sizes, seed=n)
    for rnd in past:
        seated = [p for t in rnd.tables for p in t]
        assert all(len(t) in sizes for t in rnd.tables)
        assert len(seated) == len(set(seated))  # nobody seated twice in a round
        assert set(seated) | set(rnd.sitouts) == set(players)
        assert not set(seated) & set(rnd.sitouts)
    sat_out = History.from_rounds(past).sitouts
    counts = [sat_out[p] for p in players]
    assert max(counts) - min(counts) <= 1


@pytest.mark.parametrize("method", ["mixing", "swiss", "random", "fixed"])
def test_deterministic_for_a_seed(method):
    players = list(range(1, 24))
    kwargs = {"sizes_allowed": WIKI, "method": method, "standings": {p: p % 7 for p in players}}
    history = [PastRound(((1, 2, 3, 4, 5),))]
    assert make_draw(players, seed=3, history=history, **kwargs) == make_draw(
        list(reversed(players)) if method != "fixed" else players, seed=3, history=history, **kwargs
    )
    if method != "fixed":
        assert make_draw(players, seed=3, **kwargs) != make_draw(players, seed=4, **kwargs)


@pytest.mark.parametrize("n", [23, 30, 45])
def test_mixing_repeats_far_below_random(n):
    mixing = statistics.mean(repeat_count(run(n, 5, WIKI, "mixing", s)[1]) for s in range(4))
    random_ = statistics.mean(repeat_count(run(n, 5, WIKI, "random", s)[1]) for s in range(4))
    assert mixing < 0.8 * random_


def test_no_repeat_at_all_when_possible():
    # 25 players in tables of 5 for 2 rounds: an orthogonal second round exists.
    for seed in range(5):
        assert repeat_count(run(25, 2, JOKER, "mixing", seed)[1]) == 0


def test_seat_positions_spread():
    players, past = run(20, 5, JOKER, seed=2)  # 4 tables of 5, 5 rounds: one of each seat
    seats = History.from_rounds(past).seats
    assert sum(max(seats[p].values()) for p in players) / len(players) < 1.6


def test_table_sizes_spread():
    players, past = run(23, 5, WIKI, seed=1)  # 2 tables of 4 each round
    sizes = History.from_rounds(past).sizes
    fours = [sizes[p][4] for p in players]
    assert max(fours) - min(fours) <= 1


def test_swiss_groups_by_standing():
    players = list(range(1, 21))
    # Round 1 mixed the later standings groups, so grouping by standing repeats nobody.
    history = [
        PastRound(((1, 6, 11, 16, 2), (7, 12, 17, 3, 8), (13, 18, 4, 9, 14), (19, 5, 10, 15, 20)))
    ]
    standings = {p: 100 - p for p in players}  # 1 best, 20 worst
    d = make_draw(
        players, sizes_allowed=JOKER, history=history, method="swiss", standings=standings, seed=1
    )
    top = d.tables[0]
    assert sum(top) / len(top) < 7  # mostly the leaders
    assert sum(d.tables[-1]) / 5 > 14


def test_fixed_keeps_given_order():
    d = make_draw(["e", "d", "c", "b", "a"], sizes_allowed=(5,), method="fixed")
    assert d.tables == (("e", "d", "c", "b", "a"),)


def test_swap_players_with_a_sitout():
    tables, sitouts = swap_players([(1, 2, 3, 4)], [5], 2, 5)
    assert tables == ((1, 5, 3, 4),) and sitouts == (2,)
    with pytest.raises(KeyError):
        swap_players([(1, 2, 3, 4)], [], 1, 9)
