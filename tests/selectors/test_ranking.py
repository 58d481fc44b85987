"""The pure ranking function, table-driven over plain dummy rows (no database)."""

import pytest

from tournaments.ranking import TIEBREAKS, TOURNAMENT_TIEBREAKS, check_keys, rank
from tournaments.standings_fields import COUNTER_NAMES

# Every metric: each standings counter, the average, and the tournament's total and table wins.
KNOWN = sorted([*COUNTER_NAMES, "average", "total", "table_wins"])


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


def test_no_deals_average_zero_not_one():
    """A player without a deal averages 0, below one who averages half a point."""
    rows = [row("a", 0, deals=0), row("b", 1, deals=2)]
    assert [(r, x["name"]) for r, x in rank(rows, ["average"])] == [(1, "b"), (2, "a")]
    rows = [row("a", 5, deals=None), row("b", 1, deals=2)]
    assert [(r, x["name"]) for r, x in rank(rows, ["average"])] == [(1, "b"), (2, "a")]


def test_a_missing_count_counts_as_zero():
    """Aggregates of a player with no such deal read None: ranked as 0, tied with a real 0."""
    rows = [
        row("a", 1, napoleon_wins=None),
        row("b", 1, napoleon_wins=0),
        row("c", 1, napoleon_wins=1),
    ]
    ranked = rank(rows, ["points", "napoleon_wins"])
    assert [(r, x["name"]) for r, x in ranked] == [(1, "c"), (2, "a"), (2, "b")]
    fewer = [row("a", 0, title_daihinmin=None), row("b", 0, title_daihinmin=1)]
    assert [x["name"] for _, x in rank(fewer, ["title_daihinmin"])] == ["a", "b"]


def test_ties_on_every_key_share_the_rank_and_skip_the_next():
    rows = [row("d", 1), row("c", 3), row("b", 3), row("a", 3), row("e", 0)]
    assert [(r, x["name"]) for r, x in rank(rows, ["points"])] == [
        (1, "a"), (1, "b"), (1, "c"), (4, "d"), (5, "e"),
    ]  # fmt: skip


def test_the_first_key_decides_before_the_second():
    rows = [row("a", 3, deals=3), row("b", 2, deals=1), row("c", 3, deals=1)]
    assert [(r, x["name"]) for r, x in rank(rows, ["points", "average"])] == [
        (1, "c"), (2, "a"), (3, "b"),
    ]  # fmt: skip


def test_tournament_standings_rank_by_total_then_points_then_table_wins():
    rows = [
        {"name": "a", "total": 20, "points": 5, "table_wins": 1},
        {"name": "b", "total": 20, "points": 7, "table_wins": 0},
        {"name": "c", "total": 20, "points": 7, "table_wins": 2},
        {"name": "d", "total": 25, "points": 1, "table_wins": 0},
    ]
    ranked = rank(rows, TOURNAMENT_TIEBREAKS)
    assert [(r, x["name"]) for r, x in ranked] == [(1, "d"), (2, "c"), (3, "b"), (4, "a")]


def test_rows_without_names_keep_their_order_within_a_tie():
    rows = [{"id": 2, "points": 1}, {"id": 1, "points": 1}, {"id": 3, "points": 2}]
    assert [(r, x["id"]) for r, x in rank(rows, ["points"], name=None)] == [
        (1, 3), (2, 2), (2, 1),
    ]  # fmt: skip


def test_a_row_without_a_name_still_ranks():
    """A player whose name is missing (None) ties with a named one: no comparison error."""
    ranked = rank([row("a", 1), row(None, 1), row("b", 2)], ["points"])
    assert sorted((r, str(x["name"])) for r, x in ranked) == [(1, "b"), (2, "None"), (2, "a")]


@pytest.mark.parametrize(
    ("keys", "message"),
    [
        ([], "a ranking needs at least one metric key"),
        (["points", "bogus"], f"unknown ranking metric 'bogus'; known: {KNOWN}"),
        (["points", "wins", "points"], "ranking metric 'points' given twice"),
    ],
)  # fmt: skip
def test_bad_keys_are_named(keys, message):
    """A programming error, raised at once with what is wrong and what is known."""
    with pytest.raises(ValueError) as err:
        rank([row("a", 1)], keys)
    assert str(err.value) == message


def test_daifugo_ranks_by_titles_after_points_and_average():
    rows = [
        row("a", 2, 2, title_daifugo=1, title_daihinmin=1),
        row("b", 2, 2, title_daifugo=1, title_daihinmin=0),
        row("c", 2, 2, title_daifugo=2, title_daihinmin=2),
    ]
    assert [x["name"] for _, x in rank(rows, TIEBREAKS["daifugo"])] == ["c", "b", "a"]
