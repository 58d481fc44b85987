"""Presets as docs/rules.md states them, and the balance rule every table must meet."""

import pytest

from core.errors import EfudaError
from rules import (
    PRESETS,
    TITLE_LABELS,
    PointTable,
    RuleSet,
    build_ruleset,
    get_preset,
    point_row,
    point_table_rows,
)  # fmt: skip
from rules.tables import flat_table, per_bid_table

CODES = ["napoleon-originator", "napoleon-wiki", "napoleon-joker", "daifugo-hyousube",
         "daifugo-common"]  # fmt: skip


def test_the_five_presets():
    assert sorted(PRESETS) == sorted(CODES)
    for code in CODES:
        preset = get_preset(code)
        assert preset.code == preset.preset == code
        assert preset.source and preset.name_ja and preset.name_en


@pytest.mark.parametrize(
    ("code", "players", "jokers", "widow", "bids", "discards", "plan_b"),
    [
        ("napoleon-originator", (4, 5), 0, {4: 4, 5: 2}, {4: (13, 20), 5: (11, 20)}, "allies",
         True),
        ("napoleon-wiki", (4, 5, 6), 0, {4: 4, 5: 2, 6: 4},
         {4: (10, 20), 5: (10, 20), 6: (10, 20)}, "nobody", False),
        ("napoleon-joker", (5,), 1, {5: 3}, {5: (10, 20)}, "nobody", False),
    ],
)  # fmt: skip
def test_napoleon_presets(code, players, jokers, widow, bids, discards, plan_b):
    preset = get_preset(code)
    assert sorted(preset.players) == sorted(players)
    assert (preset.jokers, dict(preset.widow), dict(preset.bids)) == (jokers, widow, bids)
    assert (preset.discard_policy, preset.plan_b, preset.all20_loses) == (discards, plan_b, False)


@pytest.mark.parametrize(("code", "jokers", "forbidden", "diamond3"),
                         [("daifugo-hyousube", 0, False, False),
                          ("daifugo-common", 2, True, True)])  # fmt: skip
def test_daifugo_presets(code, jokers, forbidden, diamond3):
    preset = get_preset(code)
    assert preset.players == (3, 4, 5, 6, 7, 8) and preset.jokers == jokers
    assert preset.miyako_ochi and preset.forbidden_finish == forbidden
    assert preset.diamond3_leads_first == diamond3
    assert dict(preset.title_points) == {"daifugo": 2, "fugo": 1, "heimin": 0, "hinmin": -1,
                                         "daihinmin": -2}  # fmt: skip


def test_unknown_preset():
    for code in ("napoleon", "", None, 3):
        with pytest.raises(EfudaError) as err:
            get_preset(code)
        assert (err.value.field, err.value.code) == ("preset", "unknown_preset")


def _napoleon(**changes):
    base = dict(code="x", preset="x", game="napoleon", name_ja="x", name_en="x", source="x",
                players=(5,), widow={5: 2}, bids={5: (10, 20)}, discard_policy="nobody",
                point_tables={5: flat_table(2, 1, 1, 4, 1)})  # fmt: skip
    return RuleSet(**(base | changes))


def test_a_balanced_ruleset_builds():
    assert _napoleon().check() is None


@pytest.mark.parametrize(
    "table",
    [
        flat_table(2, 2, 1, 4, 1),  # 2 + 2 ≠ 3 × 1
        flat_table(2, 1, 1, 1, 1),  # solo 1 ≠ 4 × 1: the originator's misprint, uncorrected
        flat_table(-2, 1, -1, 4, 1),
        per_bid_table({11: (2, 1, 1)}, {11: (1, 1)}),
    ],
)
def test_unbalanced_table_is_refused(table):
    with pytest.raises(EfudaError) as err:
        _napoleon(point_tables={5: table}, bids={5: (11, 11)})
    assert err.value.field == "point_table"
    assert err.value.code in ("table_unbalanced", "table_not_counts")


def test_the_originators_misprint_would_be_refused():
    """The originator's account prints 1 for the 5-player solo Napoleon at bid 11; that
    cannot balance."""
    table = per_bid_table({11: (2, 1, 1)}, {11: (1, 1)})
    with pytest.raises(EfudaError) as err:
        _napoleon(point_tables={5: table}, bids={5: (11, 11)})
    assert err.value.code == "table_unbalanced"


def test_per_bid_table_must_cover_the_bids():
    table = per_bid_table({11: (2, 1, 1)}, {11: (4, 1)})
    with pytest.raises(EfudaError) as err:
        _napoleon(point_tables={5: table}, bids={5: (11, 12)})
    assert err.value.code == "table_missing_bid"


@pytest.mark.parametrize(
    "changes",
    [{"point_tables": {}}, {"bids": {5: (15, 12)}}, {"widow": {}}, {"discard_policy": "x"},
     {"game": "chess"}],
)  # fmt: skip
def test_inconsistent_ruleset_is_refused(changes):
    with pytest.raises(EfudaError):
        _napoleon(**changes)


def test_point_row_and_printed_rows():
    originator = get_preset("napoleon-originator")
    assert point_row(originator, 5, 11, solo=True).napoleon == 4
    assert point_row(originator, 4, 20, solo=False).adjutant == 10
    assert point_row(originator, 5, 13, solo=True).adjutant is None
    rows = point_table_rows(originator, 5)
    assert [r.bid for r in rows] == list(range(11, 21))
    assert [r.napoleon for r in rows] == [2, 4, 6, 8, 10, 12, 14, 16, 18, 20]
    assert [r.solo_napoleon for r in rows][:2] == [4, 8]
    wiki = point_table_rows(get_preset("napoleon-wiki"), 6)
    assert len(wiki) == 1 and wiki[0].bid is None
    assert (wiki[0].napoleon, wiki[0].adjutant, wiki[0].ally) == (2, 2, 1)
    with pytest.raises(EfudaError):
        point_row(originator, 5, 10, solo=False)
    with pytest.raises(EfudaError):
        point_table_rows(originator, 6)


def test_tables_are_data():
    for preset in PRESETS.values():
        for table in preset.point_tables.values():
            assert isinstance(table, PointTable)


def test_title_labels():
    assert TITLE_LABELS["daifugo"] == ("大富豪", "Grand millionaire")
    assert {ja for ja, _ in TITLE_LABELS.values()} == {"大富豪", "富豪", "平民", "貧民", "大貧民"}


def test_rule_sets_are_values():
    """Equal rule sets are one key of a dict or a set, whatever their mappings hold."""
    wiki = get_preset("napoleon-wiki")
    assert {wiki, build_ruleset("napoleon-wiki")} == {wiki}
    assert len({wiki, build_ruleset("napoleon-wiki", {"min_bid": 12})}) == 2
    assert len({wiki, build_ruleset("napoleon-wiki", code="club")}) == 2
