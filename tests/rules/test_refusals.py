"""Every refusal of a rule set or a club option, as a club owner reads it in Japanese: the field
it is shown beside, and the sentence with the values that explain it (docs/rules.md "Club
options")."""

import pytest

from core.errors import EfudaError
from rules import RuleSet, build_ruleset, daifugo_titles
from rules.tables import flat_table
from rules.titles import check_title_points
from tests.japanese import japanese, refusal

ROW = {"napoleon": 1, "adjutant": 1, "ally": 1, "solo_napoleon": 3, "solo_ally": 1}
TABLE = {"4": ROW, "5": {**ROW, "napoleon": 2, "solo_napoleon": 4}}
KEYS = "napoleon, adjutant, ally, solo_napoleon, solo_ally"
PRESETS = "napoleon-originator, napoleon-wiki, napoleon-joker, daifugo-hyousube, daifugo-common"
TITLES = "daifugo, fugo, heimin, hinmin, daihinmin"


@pytest.mark.parametrize(
    ("preset", "options", "field", "code", "text"),
    [
        ("nope", {}, "preset", "unknown_preset",
         f"不明なルール「nope」です。{PRESETS}から選んでください。"),
        ("napoleon-wiki", [("min_bid", 12)], "options", "options_not_mapping",
         "オプションは「オプション名と値」の対応で指定してください。"),
        ("napoleon-wiki", {"colour": "red"}, "options.colour", "unknown_option",
         "不明なオプション「colour」です。"),
        ("napoleon-originator", {"discard_policy": "nobody"}, "options.discard_policy",
         "option_not_allowed", "オプション「discard_policy」はnapoleon-originatorには使えません。"),
        # the lowest bid: a whole number, not below the preset's, leaving a bid at every size
        ("napoleon-wiki", {"min_bid": 12.0}, "options.min_bid", "not_an_int",
         "立候補の最低枚数は整数で指定してください。"),
        ("napoleon-originator", {"min_bid": 10}, "options.min_bid", "min_bid_too_low",
         "このルールでは立候補の最低枚数を11枚より下げられません。"),
        ("napoleon-originator", {"min_bid": 21}, "options.min_bid", "empty_bid_range",
         "最低枚数を21枚にすると、5人では立候補できる枚数がなくなります（最高は20枚）。"),
        ("napoleon-wiki", {"discard_policy": "allies"}, "options.discard_policy",
         "invalid_choice", "「allies」はnobody, napoleon, last_trickのどれでもありません。"),
        ("napoleon-joker", {"all20_loses": 1}, "options.all20_loses", "not_a_bool",
         "「20枚全取りは負け」はオンかオフで指定してください。"),
        ("napoleon-originator", {"jokers": 2}, "options.jokers", "invalid_choice",
         "ジョーカーは0枚か1枚にしてください。"),
        ("napoleon-originator", {"jokers": True}, "options.jokers", "invalid_choice",
         "ジョーカーは0枚か1枚にしてください。"),
        ("daifugo-common", {"title_points": [2, 1]}, "options.title_points", "not_a_mapping",
         "身分ごとの得点は、身分ごとに整数で指定してください。"),
        ("daifugo-common", {"title_points": {"king": 1}}, "options.title_points",
         "unknown_title", "不明な身分「king」です。"),
        ("daifugo-common", {"title_points": {"fugo": None}}, "options.title_points",
         "title_points_invalid", f"身分ごとの得点は{TITLES}のそれぞれに整数が必要です。"),
        ("daifugo-common", {"title_points": {"daifugo": 3}}, "options.title_points",
         "title_points_unbalanced",
         "身分ごとの得点はどの人数でも合計が0になる必要があります。3人では合計が1になります。"),
        ("napoleon-originator", {"point_table": 5}, "options.point_table", "not_a_mapping",
         "得点表は人数ごとに得点を指定してください。"),
        ("napoleon-originator", {"point_table": {**TABLE, "6": ROW}}, "options.point_table",
         "players_not_allowed", "このルールは6人では遊べません。"),
        ("napoleon-originator", {"point_table": {**TABLE, "four": ROW}}, "options.point_table",
         "players_not_allowed", "このルールはfour人では遊べません。"),
        ("napoleon-originator", {"point_table": {**TABLE, "4": {**ROW, "extra": 1}}},
         "options.point_table", "row_keys", f"4人の行には{KEYS}を過不足なく指定してください。"),
        ("napoleon-originator", {"point_table": {**TABLE, "4": [1, 1, 1, 3, 1]}},
         "options.point_table", "row_keys", f"4人の行には{KEYS}を過不足なく指定してください。"),
        ("napoleon-originator", {"point_table": {**TABLE, "5": {**TABLE["5"], "ally": "1"}}},
         "options.point_table", "table_not_counts",
         "5人の得点表の得点は0以上の整数にしてください。"),
        ("napoleon-originator", {"point_table": {**TABLE, "4": {**ROW, "solo_ally": -1}}},
         "options.point_table", "table_not_counts",
         "4人の得点表の得点は0以上の整数にしてください。"),
        ("napoleon-originator", {"point_table": {**TABLE, "4": {**ROW, "napoleon": 2}}},
         "options.point_table", "table_unbalanced",
         "4人の得点表の収支が合いません：ナポレオン 2 ＋ 副官 1 が 連合軍2人 × 1 "
         "と等しくなる必要があります。"),
        ("napoleon-originator", {"point_table": {"5": TABLE["5"]}}, "options.point_table",
         "players_missing", "得点表に4人の行が必要です。"),
    ],
)  # fmt: skip
def test_option_refusals(preset, options, field, code, text):
    assert refusal(lambda: build_ruleset(preset, options)) == (field, code, text)


@pytest.mark.parametrize("code", [" ", "", 7])
def test_a_rule_set_code_must_be_text(code):
    assert refusal(lambda: build_ruleset("napoleon-wiki", {}, code=code)) == (
        "code",
        "invalid_code",
        "ルールにはコードが必要です。",
    )


def test_a_club_code_names_the_rule_set():
    assert build_ruleset("napoleon-wiki", None, code="club-1").code == "club-1"
    assert build_ruleset("napoleon-wiki", None).code == "napoleon-wiki"


def _napoleon(**changes):
    base = dict(code="x", preset="x", game="napoleon", name_ja="x", name_en="x", source="x",
                players=(5,), widow={5: 2}, bids={5: (10, 20)}, discard_policy="nobody",
                point_tables={5: flat_table(2, 1, 1, 4, 1)})  # fmt: skip
    return RuleSet(**(base | changes))


@pytest.mark.parametrize(
    ("changes", "field", "code", "text"),
    [
        ({"game": "chess"}, "preset", "unknown_game", "不明なゲーム「chess」です。"),
        ({"discard_policy": "x"}, "discard_policy", "unknown_discard_policy",
         "不明な捨て札ルール「x」です。"),
        ({"discard_policy": None}, "discard_policy", "unknown_discard_policy",
         "不明な捨て札ルール「None」です。"),
        ({"widow": {}}, "players", "players_incomplete",
         "5人の立候補枚数の範囲か伏せ札の枚数が決まっていません。"),
        ({"bids": {}}, "players", "players_incomplete",
         "5人の立候補枚数の範囲か伏せ札の枚数が決まっていません。"),
        ({"bids": {5: (15, 12)}}, "bids", "empty_bid_range",
         "5人では15〜12枚の間に立候補できる枚数がありません。"),
        ({"bids": {5: (0, 20)}}, "bids", "empty_bid_range",
         "5人では0〜20枚の間に立候補できる枚数がありません。"),
        ({"bids": {5: (10, 21)}}, "bids", "empty_bid_range",
         "5人では10〜21枚の間に立候補できる枚数がありません。"),
        ({"point_tables": {}}, "point_table", "no_point_table", "5人の得点表がありません。"),
        ({"game": "daifugo", "title_points": {"daifugo": 2}}, "title_points",
         "title_points_invalid", f"身分ごとの得点は{TITLES}のそれぞれに整数が必要です。"),
    ],
)  # fmt: skip
def test_rule_set_refusals(changes, field, code, text):
    assert refusal(lambda: _napoleon(**changes)) == (field, code, text)


@pytest.mark.parametrize("bids", [(1, 20), (20, 20), (10, 10)])
def test_any_bid_range_within_1_to_20_is_a_rule_set(bids):
    assert dict(_napoleon(bids={5: bids}).bids) == {5: bids}


@pytest.mark.parametrize("players", [2, 9, "5", True, None])
def test_daifugo_is_for_3_to_8_players(players):
    assert refusal(lambda: daifugo_titles(players)) == (
        "order",
        "players_out_of_range",
        f"大富豪は3〜8人で遊びます（{players}人では遊べません）。",
    )


@pytest.mark.parametrize(
    ("points", "text"),
    [
        ({"daifugo": 2, "fugo": 1, "heimin": 0, "hinmin": -1}, f"{TITLES}のそれぞれに整数"),
        ({"daifugo": 2, "fugo": 1, "heimin": 0, "hinmin": -1, "daihinmin": -2.0},
         f"{TITLES}のそれぞれに整数"),
        ({"daifugo": 2, "fugo": 1, "heimin": 0, "hinmin": -1, "daihinmin": False},
         f"{TITLES}のそれぞれに整数"),
        # balanced at 3 players (2 + 0 − 2) but not at 4 (2 + 2 − 1 − 2)
        ({"daifugo": 2, "fugo": 2, "heimin": 0, "hinmin": -1, "daihinmin": -2},
         "4人では合計が1になります。"),
        # balanced at 4 players, where there is no 平民, but not at 3 (2 + 1 − 2)
        ({"daifugo": 2, "fugo": 1, "heimin": 1, "hinmin": -1, "daihinmin": -2},
         "3人では合計が1になります。"),
    ],
)  # fmt: skip
def test_title_points_need_a_whole_number_each_and_balance(points, text):
    with pytest.raises(EfudaError) as err:
        check_title_points(points, field="title_points")
    assert err.value.field == "title_points"
    assert text in japanese(err.value)


def test_the_player_counts_are_a_tuple():
    assert _napoleon(players=[5]).players == (5,)


@pytest.mark.parametrize(("code", "shown"), [(3, "3"), (None, "None"), ("chess", "chess")])
def test_an_unknown_preset_is_quoted_as_text(code, shown):
    from rules import get_preset

    with pytest.raises(EfudaError) as err:
        get_preset(code)
    assert err.value.params["preset"] == shown
    assert japanese(err.value).startswith(f"不明なルール「{shown}」です。")
