"""Club overrides: what a club may change, and every way to get it wrong."""

import itertools

import pytest

from core.errors import EfudaError
from rules import OPTION_SPECS, build_ruleset, get_preset, options_for

GOOD_TABLE = {
    "4": {"napoleon": 1, "adjutant": 1, "ally": 1, "solo_napoleon": 3, "solo_ally": 1},
    "5": {"napoleon": 3, "adjutant": 0, "ally": 1, "solo_napoleon": 4, "solo_ally": 1},
}


def test_no_options_is_the_preset():
    assert build_ruleset("napoleon-wiki") == get_preset("napoleon-wiki")
    assert build_ruleset("napoleon-wiki", {}, code="club-1").code == "club-1"


def test_min_bid_raises_every_minimum():
    rules = build_ruleset("napoleon-originator", {"min_bid": 12})
    assert dict(rules.bids) == {5: (12, 20), 4: (13, 20)}
    assert dict(rules.options) == {"min_bid": 12}
    rows = __import__("rules").point_table_rows(rules, 5)
    assert rows[0].bid == 12


def test_originator_joker_grows_the_widow():
    rules = build_ruleset("napoleon-originator", {"jokers": 1})
    assert rules.jokers == 1 and dict(rules.widow) == {5: 3, 4: 5}


def test_custom_point_table():
    rules = build_ruleset("napoleon-originator", {"point_table": GOOD_TABLE})
    assert all(t.flat for t in rules.point_tables.values())
    assert rules.options["point_table"]["5"]["napoleon"] == 3


def test_discard_and_all20():
    rules = build_ruleset("napoleon-joker", {"discard_policy": "last_trick", "all20_loses": True})
    assert (rules.discard_policy, rules.all20_loses) == ("last_trick", True)


@pytest.mark.parametrize(
    ("preset", "options", "field", "code"),
    [
        ("napoleon-wiki", {"min_bid": 21}, "options.min_bid", "empty_bid_range"),
        ("napoleon-wiki", {"min_bid": 9}, "options.min_bid", "min_bid_too_low"),
        ("napoleon-wiki", {"min_bid": "12"}, "options.min_bid", "not_an_int"),
        ("napoleon-wiki", {"min_bid": True}, "options.min_bid", "not_an_int"),
        ("napoleon-wiki", {"colour": "red"}, "options.colour", "unknown_option"),
        ("napoleon-wiki", {3: 1}, "options.3", "unknown_option"),
        ("napoleon-originator", {"discard_policy": "nobody"}, "options.discard_policy",
         "option_not_allowed"),
        ("napoleon-wiki", {"discard_policy": "allies"}, "options.discard_policy",
         "invalid_choice"),
        ("napoleon-wiki", {"all20_loses": True}, "options.all20_loses", "option_not_allowed"),
        ("napoleon-joker", {"all20_loses": "yes"}, "options.all20_loses", "not_a_bool"),
        ("napoleon-originator", {"jokers": 2}, "options.jokers", "invalid_choice"),
        ("daifugo-common", {"min_bid": 12}, "options.min_bid", "option_not_allowed"),
        ("daifugo-common", {"title_points": {"daifugo": 3}}, "options.title_points",
         "title_points_unbalanced"),
        ("daifugo-common", {"title_points": {"heimin": 1, "daifugo": 1, "daihinmin": -2}},
         "options.title_points", "title_points_unbalanced"),
        ("daifugo-common", {"title_points": {"king": 1}}, "options.title_points",
         "unknown_title"),
        ("daifugo-common", {"title_points": {"daifugo": "2"}}, "options.title_points",
         "title_points_invalid"),
        ("daifugo-common", {"title_points": 2}, "options.title_points", "not_a_mapping"),
        ("napoleon-originator", {"point_table": {**GOOD_TABLE, "5": {**GOOD_TABLE["5"],
         "napoleon": 4}}}, "options.point_table", "table_unbalanced"),
        ("napoleon-originator", {"point_table": {"4": GOOD_TABLE["4"]}},
         "options.point_table", "players_missing"),
        ("napoleon-originator", {"point_table": {**GOOD_TABLE, "6": GOOD_TABLE["4"]}},
         "options.point_table", "players_not_allowed"),
        ("napoleon-originator", {"point_table": {**GOOD_TABLE, "4": {"napoleon": 1}}},
         "options.point_table", "row_keys"),
        ("napoleon-originator", {"point_table": {**GOOD_TABLE, "4": {**GOOD_TABLE["4"],
         "ally": -1}}}, "options.point_table", "table_not_counts"),
        ("napoleon-originator", {"point_table": [1]}, "options.point_table", "not_a_mapping"),
        ("nope", {}, "preset", "unknown_preset"),
    ],
)  # fmt: skip
def test_bad_options(preset, options, field, code):
    with pytest.raises(EfudaError) as err:
        build_ruleset(preset, options)
    assert err.value.field == field
    if code:
        assert err.value.code == code
    assert str(err.value)


def test_options_must_be_a_mapping():
    with pytest.raises(EfudaError) as err:
        build_ruleset("napoleon-wiki", [("min_bid", 12)])
    assert err.value.field == "options"


def test_balanced_custom_title_points():
    rules = build_ruleset("daifugo-hyousube", {"title_points": {"daifugo": 5, "daihinmin": -5}})
    assert rules.title_points["daifugo"] == 5


def test_option_specs_describe_the_form():
    keys = {spec.key for spec in OPTION_SPECS}
    assert keys == {"min_bid", "discard_policy", "all20_loses", "jokers", "title_points",
                    "point_table"}  # fmt: skip
    assert {s.key for s in options_for("napoleon-joker")} == {
        "min_bid",
        "discard_policy",
        "all20_loses",
        "point_table",
    }
    assert {s.key for s in options_for("daifugo-common")} == {"title_points"}
    for spec in OPTION_SPECS:
        assert spec.label and spec.help and spec.presets


@pytest.mark.parametrize(
    ("preset", "min_bid", "bids"),
    [
        ("napoleon-wiki", 10, {4: (10, 20), 5: (10, 20), 6: (10, 20)}),  # the preset's own
        ("napoleon-wiki", 20, {4: (20, 20), 5: (20, 20), 6: (20, 20)}),  # only a bid of 20
        ("napoleon-originator", 13, {5: (13, 20), 4: (13, 20)}),
    ],
)
def test_the_lowest_bid_may_be_the_presets_or_any_up_to_20(preset, min_bid, bids):
    assert dict(build_ruleset(preset, {"min_bid": min_bid}).bids) == bids


def test_playing_without_the_joker_keeps_the_widow():
    rules = build_ruleset("napoleon-originator", {"jokers": 0})
    assert rules.jokers == 0 and dict(rules.widow) == {5: 2, 4: 4}


def test_a_point_table_may_name_the_player_counts_as_numbers():
    rules = build_ruleset(
        "napoleon-originator", {"point_table": {4: GOOD_TABLE["4"], 5: GOOD_TABLE["5"]}}
    )
    assert sorted(rules.point_tables) == [4, 5]
    assert rules.options["point_table"]["5"]["napoleon"] == 3


def _flat_row(players: int) -> dict[str, int]:
    """A balanced flat row: the Napoleon and adjutant win what the other allies lose, a solo
    Napoleon what every other player loses."""
    return {"napoleon": players - 3, "adjutant": 1, "ally": 1, "solo_napoleon": players - 1,
            "solo_ally": 1}  # fmt: skip


def _choices(spec, preset) -> list:
    """Every value a club may give the option on ``preset`` (None: not given)."""
    base = get_preset(preset)
    if spec.key == "min_bid":
        return [None, *range(min(low for low, _ in base.bids.values()), 21)]
    if spec.key == "point_table":
        return [None, {str(n): _flat_row(n) for n in base.players}]
    if spec.type == "bool":
        return [None, False, True]
    return [None, *spec.choices]


@pytest.mark.parametrize("preset", ["napoleon-originator", "napoleon-wiki", "napoleon-joker"])
def test_every_combination_of_valid_options_builds(preset):
    """Each option is checked on its own, and no combination of valid ones breaks the rule set:
    so build_ruleset needs no refusal of a combination (and has none)."""
    specs = options_for(preset)
    for values in itertools.product(*(_choices(spec, preset) for spec in specs)):
        options = {s.key: v for s, v in zip(specs, values, strict=True) if v is not None}
        rules = build_ruleset(preset, options)
        assert set(rules.options) == set(options)
        if "min_bid" in options:
            assert min(low for low, _ in rules.bids.values()) == options["min_bid"]
