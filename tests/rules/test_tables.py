"""Point tables: the check every table must pass, with the sentence a club reads when it fails,
and the rows printed on a hand-scoring sheet (docs/rules.md "Point tables")."""

import pytest

from core.errors import EfudaError
from rules import PointTableRow, build_ruleset, get_preset, point_row, point_table_rows
from rules.tables import check_table, flat_table, per_bid_table
from tests.japanese import japanese
from tests.scoring import test_source_tables as source

ORIGINATOR = get_preset("napoleon-originator")


def _originator_5(*, without_normal=(), without_solo=()):
    """The originator's 5-player table as the document prints it (bid 11 solo corrected)."""
    normal = {
        bid: (n, a, x)
        for bid, n, a, x in zip(source.S000_5_BIDS, source.S000_5_NAPOLEON,
                                source.S000_5_ADJUTANT, source.S000_5_ALLY, strict=True)
        if bid not in without_normal
    }  # fmt: skip
    solo = {
        bid: (n, x)
        for bid, n, x in zip(source.S000_5_BIDS, source.S000_5_SOLO_NAPOLEON,
                             source.S000_5_SOLO_ALLY, strict=True)
        if bid not in without_solo
    }  # fmt: skip
    return per_bid_table(normal, solo)


def _refusal(table, players=5, bids=(11, 20)):
    with pytest.raises(EfudaError) as err:
        check_table(table, players, bids, "point_table")
    assert err.value.field == "point_table"
    return err.value


def test_the_documents_table_passes():
    assert check_table(_originator_5(), 5, (11, 20), "point_table") is None


@pytest.mark.parametrize(
    ("missing", "japanese_text"),
    [
        # the lowest bid, the highest and one between: each is a bid a Napoleon may make
        ({"without_normal": (11,)}, "5人の得点表に11枚の行がありません。"),
        ({"without_normal": (20,)}, "5人の得点表に20枚の行がありません。"),
        ({"without_solo": (15,)}, "5人の得点表に15枚の行がありません。"),
        ({"without_normal": (11,), "without_solo": (11,)}, "5人の得点表に11枚の行がありません。"),
    ],
)
def test_a_per_bid_table_needs_a_row_for_every_bid(missing, japanese_text):
    err = _refusal(_originator_5(**missing))
    assert err.code == "table_missing_bid"
    assert japanese(err) == japanese_text


def test_a_table_for_a_narrower_range_is_refused_only_outside_it():
    table = _originator_5(without_normal=(11,), without_solo=(11,))
    assert check_table(table, 5, (12, 20), "point_table") is None  # e.g. a lowest bid of 12
    assert _refusal(table, bids=(11, 20)).params == {"players": 5, "bid": 11}


def test_a_flat_table_covers_every_bid():
    assert check_table(flat_table(2, 1, 1, 4, 1), 5, (10, 20), "point_table") is None


@pytest.mark.parametrize(
    ("table", "japanese_text"),
    [
        (
            flat_table(2, 2, 1, 4, 1),
            "5人の得点表の収支が合いません：ナポレオン 2 ＋ 副官 2 が 連合軍3人 × 1 "
            "と等しくなる必要があります。",
        ),
        (
            per_bid_table({11: (2, 1, 1), 12: (4, 2, 3)}, {11: (4, 1), 12: (8, 2)}),
            "5人の得点表の収支が合いません（立候補12枚）：ナポレオン 4 ＋ 副官 2 が 連合軍3人 × 3 "
            "と等しくなる必要があります。",
        ),
        (
            flat_table(2, 1, 1, 3, 1),
            "5人の独り立ちの行の収支が合いません：ナポレオン 3 が 連合軍4人 × 1 "
            "と等しくなる必要があります。",
        ),
        (
            # the originator's printed solo cell at bid 11, uncorrected
            per_bid_table({11: (2, 1, 1), 12: (4, 2, 2)}, {11: (1, 1), 12: (8, 2)}),
            "5人の独り立ちの行の収支が合いません（立候補11枚）：ナポレオン 1 が 連合軍4人 × 1 "
            "と等しくなる必要があります。",
        ),
    ],
)
def test_an_unbalanced_row_is_refused_with_its_numbers(table, japanese_text):
    err = _refusal(table, bids=(11, 12))
    assert err.code == "table_unbalanced"
    assert japanese(err) == japanese_text


@pytest.mark.parametrize(
    ("players", "table", "allies"),
    [
        # 4 players: 2 allies in a normal deal, 3 against a solo Napoleon
        (4, flat_table(1, 1, 1, 3, 1), None),
        (4, flat_table(2, 1, 1, 3, 1), 2),
        (4, flat_table(1, 1, 1, 4, 1), 3),
        # 6 players: 4 allies, 5 against a solo Napoleon
        (6, flat_table(2, 2, 1, 5, 1), None),
        (6, flat_table(2, 1, 1, 5, 1), 4),
        (6, flat_table(2, 2, 1, 4, 1), 5),
    ],
)
def test_balance_counts_the_allies_at_the_table(players, table, allies):
    if allies is None:
        assert check_table(table, players, (10, 20), "point_table") is None
        return
    err = _refusal(table, players=players, bids=(10, 20))
    assert err.params["allies"] == allies and err.params["players"] == players


@pytest.mark.parametrize(
    "table",
    [
        flat_table(2, 1, -1, 4, 1),
        flat_table(-2, 1, 1, 4, 1),
        flat_table(2, -1, 1, 4, 1),
        flat_table(2, 1, 1, -4, 1),
        flat_table(2, 1, 1, 4, -1),
        flat_table(2, 1, True, 4, 1),  # a yes/no is not a number of points
        flat_table(2.0, 1, 1, 4, 1),
    ],
)
def test_points_must_be_whole_numbers_of_zero_or_more(table):
    err = _refusal(table, bids=(10, 20))
    assert err.code == "table_not_counts"
    assert japanese(err) == "5人の得点表の得点は0以上の整数にしてください。"


def test_zero_points_are_allowed():
    assert check_table(flat_table(0, 0, 0, 0, 0), 5, (10, 20), "point_table") is None


def test_the_field_is_the_callers():
    with pytest.raises(EfudaError) as err:
        check_table(flat_table(2, 2, 1, 4, 1), 5, None, "options.point_table")
    assert err.value.field == "options.point_table"


def test_flat_means_one_row_for_every_bid_in_both_halves():
    assert flat_table(2, 1, 1, 4, 1).flat
    assert not _originator_5().flat
    mixed = per_bid_table({0: (2, 1, 1)}, {11: (4, 1)})
    assert not mixed.flat


def test_point_row_refusals_in_japanese():
    with pytest.raises(EfudaError) as err:
        point_row(ORIGINATOR, 7, 13, solo=False)
    assert (err.value.field, err.value.code) == ("seats", "no_point_table")
    assert japanese(err.value) == "7人の得点表がありません。"
    for bid in (10, 21):
        with pytest.raises(EfudaError) as err:
            point_row(ORIGINATOR, 5, bid, solo=False)
        assert (err.value.field, err.value.code) == ("bid", "bid_out_of_range")
        assert japanese(err.value) == f"{bid}枚は範囲外です。5人では11〜20枚で立候補してください。"
    assert point_row(ORIGINATOR, 5, 11, solo=False).napoleon == 2
    assert point_row(ORIGINATOR, 5, 20, solo=False).napoleon == 20


def _printed(players, bids, napoleon, adjutant, ally, solo_napoleon, solo_ally):
    return [
        PointTableRow(*cells)
        for cells in zip(bids, napoleon, adjutant, ally, solo_napoleon, solo_ally, strict=True)
    ]


def test_the_printed_sheet_has_every_cell_of_the_originators_tables():
    assert point_table_rows(ORIGINATOR, 5) == _printed(
        5, source.S000_5_BIDS, source.S000_5_NAPOLEON, source.S000_5_ADJUTANT,
        source.S000_5_ALLY, source.S000_5_SOLO_NAPOLEON, source.S000_5_SOLO_ALLY,
    )  # fmt: skip
    assert point_table_rows(ORIGINATOR, 4) == _printed(
        4, source.S000_4_BIDS, source.S000_4_NAPOLEON, source.S000_4_ADJUTANT,
        source.S000_4_ALLY, source.S000_4_SOLO_NAPOLEON, source.S000_4_SOLO_ALLY,
    )  # fmt: skip


def test_the_printed_sheet_starts_at_the_clubs_lowest_bid():
    rows = point_table_rows(build_ruleset("napoleon-originator", {"min_bid": 14}), 5)
    assert [r.bid for r in rows] == list(range(14, 21))
    assert (rows[0].napoleon, rows[0].solo_napoleon) == (8, 16)


@pytest.mark.parametrize(
    ("preset", "players", "cells"),
    [
        # the wiki page ★勝利ポイントの配分 and the club handout ⑧得点計算: one row for every bid
        ("napoleon-wiki", 4, (1, 1, 1, 3, 1)),
        ("napoleon-wiki", 5, (2, 1, 1, 4, 1)),
        ("napoleon-wiki", 6, (2, 2, 1, 5, 1)),
        ("napoleon-joker", 5, (2, 1, 1, 4, 1)),
    ],
)
def test_a_flat_table_prints_one_row(preset, players, cells):
    assert point_table_rows(get_preset(preset), players) == [PointTableRow(None, *cells)]


def test_no_sheet_for_a_table_size_the_rules_do_not_play():
    with pytest.raises(EfudaError) as err:
        point_table_rows(ORIGINATOR, 6)
    assert (err.value.field, err.value.code) == ("seats", "no_point_table")
    assert japanese(err.value) == "6人の得点表がありません。"


def test_a_table_cannot_be_changed_once_built():
    """Tables are data shared by every deal scored under them: read-only."""
    table = get_preset("napoleon-originator").point_tables[5]
    for rows in (table.normal, table.solo):
        with pytest.raises(TypeError):
            rows[11] = rows[12]
    built = flat_table(2, 1, 1, 4, 1)
    with pytest.raises(TypeError):
        built.normal[0] = built.solo[0]
