"""The pure ranking function, table-driven over plain dummy rows (no database)."""

import pytest

from tournaments.ranking import TIEBREAKS, check_keys, rank


def row(name, points, deals=1, **extra):
    return {"name": name, "points": points, "deals": deals, **extra}


CASES = [
    # (rows, keys, expected [(rank, name), ...])
    ([row("a", 3), row("b", 5), row("c", 1)], ["points"], [(1, "b"), (2, "a"), (3, "c")]),
    # equal on the only key: shared rank, next rank skipped, display by name
    ([row("b", 2), row("a", 2), row("c", 1)], ["points"], [(1, "a"), (1, "b"), (3, "c")]),
    # second key breaks the tie: same points, better average (fewer deals)
    ([row("a", 4, deals=4), row("b", 4, deals=2)], ["points", "average"], [(1, "b"), (2, "a")]),
    # the order of keys is the precedence: average first now
    ([row("a", 6, deals=2), row("b", 4, deals=1)], ["average", "points"], [(1, "b"), (2, "a")]),
    ([row("a", 6, deals=2), row("b", 4, deals=1)], ["points", "average"], [(1, "a"), (2, "b")]),
    # third key: napoleon wins
    (
        [row("a", 2, 2, napoleon_wins=0), row("b", 2, 2, napoleon_wins=1)],
        ["points", "average", "napoleon_wins"],
        [(1, "b"), (2, "a")],
    ),
    # lower-is-better metric: fewer 大貧民
    (
        [row("a", 0, 2, title_daihinmin=2), row("b", 0, 2, title_daihinmin=1)],
        ["points", "title_daihinmin"],
        [(1, "b"), (2, "a")],
    ),
    # zero deals: average 0, no division error
    ([row("a", 0, deals=0), row("b", -1, deals=1)], ["average"], [(1, "a"), (2, "b")]),
    ([], ["points"], []),
]


@pytest.mark.parametrize(("rows", "keys", "expected"), CASES)
def test_rank(rows, keys, expected):
    assert [(r, x["name"]) for r, x in rank(rows, keys)] == expected


def test_rank_accepts_objects():
    class Row:
        def __init__(self, name, points):
            self.name, self.points, self.deals = name, points, 1

    assert [(r, x.name) for r, x in rank([Row("x", 1), Row("y", 2)], ["points"])] == [
        (1, "y"),
        (2, "x"),
    ]


@pytest.mark.parametrize("keys", [["points", "bogus"], [], ["points", "points"]])
def test_bad_keys_raise(keys):
    with pytest.raises(ValueError):
        check_keys(keys)


def test_game_tiebreaks_are_valid():
    for keys in TIEBREAKS.values():
        assert check_keys(keys)[0].key == "points"
