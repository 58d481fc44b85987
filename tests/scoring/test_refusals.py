"""Every refusal of a deal or a round, as the scorekeeper reads it in Japanese: the field it is
shown beside and the sentence with the values that explain it. Nothing is scored."""

import pytest

from core.errors import EfudaError
from rules import build_ruleset, get_preset
from scoring.cards import Card, parse_card, parse_suit
from scoring.daifugo import DaifugoRound, score_daifugo
from scoring.napoleon import NapoleonDeal, score_napoleon
from tests.japanese import japanese, refusal

from .helpers import deal, seats

ORIGINATOR = get_preset("napoleon-originator")
COMMON = get_preset("daifugo-common")
FIVE = ("a", "b", "c", "d", "e")
CARD = "「%s」はカードではありません。♠A、SA、A♠、♦10、D10、JK のように書いてください。"
SUIT = "「%s」はスートではありません。♠ ♥ ♦ ♣ または S H D C を使ってください。"


def _five(**changes):
    return deal(5, **({"bid": 13, "honours": 13} | changes))


@pytest.mark.parametrize(
    ("napoleon_deal", "field", "code", "text"),
    [
        (_five(seats=seats(3)), "seats", "players_not_allowed",
         "このルールは3人の卓では遊べません。遊べるのは4, 5人の卓です。"),
        (_five(seats=None), "seats", "not_a_list", "プレイヤーを順番に並べてください。"),
        (_five(seats=("太郎", "花子", "Ken", "太郎", "Sam")), "seats", "duplicate_player",
         "太郎が2回入っています。"),
        (_five(seats=("太郎", "花子", "Ken", " ", "Sam")), "seats", "blank_player",
         "すべてのプレイヤーに名前かキーが必要です。"),
        (_five(seats=("太郎", "花子", "Ken", 4, "Sam")), "seats", "blank_player",
         "すべてのプレイヤーに名前かキーが必要です。"),
        (_five(redeal="no"), "redeal", "not_a_bool", "流れかどうかを指定してください。"),
        (NapoleonDeal(seats=seats(5), redeal=True, bid=13), "redeal", "redeal_with_deal",
         "流れにはナポレオン・立候補・副官・絵札の枚数はありません。それらを消すか、流れを取り消してください。"),
        (_five(napoleon=None), "napoleon", "napoleon_missing",
         "ナポレオンを選んでください（誰も立候補しなかったときは「流れ」）。"),
        (_five(napoleon="Zed"), "napoleon", "not_seated",
         "「Zed」はこの卓のプレイヤーではありません。"),
        (_five(napoleon=5), "napoleon", "not_seated", "「5」はこの卓のプレイヤーではありません。"),
        (_five(adjutant=None), "adjutant", "adjutant_missing",
         "副官を選んでください（副官がいなければ「独り立ち」）。"),
        (_five(adjutant="太郎"), "adjutant", "adjutant_is_napoleon",
         "ナポレオン自身は副官になれません。指名カードがナポレオンの手札か伏せ札にあったときは"
         "「独り立ち」を選んでください。"),
        (_five(adjutant="花子", solo=True), "adjutant", "adjutant_and_solo",
         "副官か独り立ちのどちらか一方を選んでください。"),
        (_five(adjutant=None, solo=1), "adjutant", "solo_not_a_bool",
         "独り立ちかどうかを選んでください。"),
        (_five(bid=None), "bid", "bid_missing", "立候補枚数を選んでください（5人では11〜20枚）。"),
        (deal(4, bid=None, honours=13), "bid", "bid_missing",
         "立候補枚数を選んでください（4人では13〜20枚）。"),
        (_five(bid=10), "bid", "bid_out_of_range",
         "5人での立候補枚数は11〜20の整数です（10は不可）。"),
        (_five(bid=21), "bid", "bid_out_of_range",
         "5人での立候補枚数は11〜20の整数です（21は不可）。"),
        (_five(bid="abc"), "bid", "bid_out_of_range",
         "5人での立候補枚数は11〜20の整数です（abcは不可）。"),
        (_five(trump=None), "trump", "trump_missing", "切り札を選んでください。"),
        (_five(trump="X"), "trump", "invalid_suit", SUIT % "X"),
        (_five(called="S1"), "called", "invalid_card", CARD % "S1"),
        (_five(called="JK"), "called", "no_joker", "このルールではジョーカーを使いません。"),
        (_five(honours=None), "honours", "honours_missing",
         "ナポレオン軍がトリックで取った絵札の枚数を入力してください（0〜20）。"),
        (_five(honours=-1), "honours", "not_a_count", "0以上の整数を入力してください。"),
        (_five(honours=21), "honours", "honours_range",
         "絵札の枚数は0〜20です（山札に20枚）。21は不正です。"),
        (_five(discarded=None), "discarded", "discarded_missing",
         "捨て札の中の絵札の枚数を入力してください（なければ0）。"),
        (_five(discarded=-2), "discarded", "not_a_count", "0以上の整数を入力してください。"),
        (_five(honours=19, discarded=2), "honours", "too_many_honours",
         "ナポレオン軍の絵札19枚と捨て札の絵札2枚で、山札にある絵札20枚を超えています。"),
        (_five(discarded=3), "discarded", "too_many_discards",
         "5人で捨てるカードは2枚だけです（3枚ではありません）。"),
        (deal(4, bid=13, honours=13, discarded=5), "discarded", "too_many_discards",
         "4人で捨てるカードは4枚だけです（5枚ではありません）。"),
    ],
)  # fmt: skip
def test_napoleon_refusals(napoleon_deal, field, code, text):
    assert refusal(lambda: score_napoleon(napoleon_deal, ORIGINATOR)) == (field, code, text)


@pytest.mark.parametrize("last_trick", [None, "me", 1])
def test_the_last_trick_is_asked_for_when_it_decides_the_discards(last_trick):
    rules = build_ruleset("napoleon-wiki", {"discard_policy": "last_trick"})
    with pytest.raises(EfudaError) as err:
        score_napoleon(_five(bid=12, honours=11, discarded=1, last_trick=last_trick), rules)
    assert (err.value.field, err.value.code) == ("last_trick", "last_trick_missing")
    assert japanese(err.value) == (
        "最後のトリックを取った側（ナポレオン軍か連合軍）を指定してください。"
        "捨て札の絵札はその側のものになります。"
    )


def test_the_joker_adds_a_discard():
    rules = build_ruleset("napoleon-originator", {"jokers": 1})
    assert score_napoleon(_five(discarded=3), rules).discards_to == "allies"


def test_a_napoleon_deal_needs_napoleon_rules_and_a_deal():
    assert refusal(lambda: score_napoleon(_five(), COMMON)) == (
        "preset",
        "wrong_game",
        "ナポレオンのルールではありません。",
    )
    assert refusal(lambda: score_napoleon(DaifugoRound(FIVE), ORIGINATOR)) == (
        "deal",
        "not_a_deal",
        "ナポレオンのディールではありません。",
    )


@pytest.mark.parametrize(
    ("round_", "field", "code", "text"),
    [
        (DaifugoRound(("a", "b")), "order", "players_out_of_range",
         "大富豪は3〜8人で遊びます（2人では遊べません）。"),
        (DaifugoRound(None), "order", "not_a_list", "プレイヤーを順番に並べてください。"),
        (DaifugoRound(FIVE, frozenset({"z"})), "forbidden", "not_in_round",
         "「z」はこの回戦に参加していません。"),
        (DaifugoRound(FIVE, frozenset({3})), "forbidden", "not_in_round",
         "「3」はこの回戦に参加していません。"),
        (DaifugoRound(FIVE, frozenset({"e"})), "forbidden", "last_did_not_go_out",
         "eは最後まで残ったプレイヤーで、カードを出して上がってはいません。"),
        (DaifugoRound(FIVE, "a"), "forbidden", "not_a_list",
         "禁止カードで上がったプレイヤーを挙げてください。"),
        (DaifugoRound(FIVE, previous_daifugo=3), "previous_daifugo", "invalid_player",
         "前回の大富豪にはプレイヤーを指定してください。"),
        (DaifugoRound(FIVE, previous_daifugo=" "), "previous_daifugo", "invalid_player",
         "前回の大富豪にはプレイヤーを指定してください。"),
        (DaifugoRound(FIVE, players=(*FIVE, "f")), "order", "order_incomplete",
         "卓の全員に順位が必要です。fの順位がまだありません。"
         "上がった順に、最後の人までタップしてください。"),
        (DaifugoRound(("a", "b", "c"), players=("a", "b", "c", "d", "e")), "order",
         "order_incomplete",
         "卓の全員に順位が必要です。d, eの順位がまだありません。"
         "上がった順に、最後の人までタップしてください。"),
        (DaifugoRound(FIVE, players=("a", "b", "c", "d", "x")), "order", "not_at_table",
         "eはこの卓のプレイヤーではありません。"),
        (DaifugoRound(FIVE, players="abcde"), "players", "not_a_list",
         "プレイヤーを順番に並べてください。"),
        (DaifugoRound(("a", "b", "a")), "order", "duplicate_player", "aが2回入っています。"),
    ],
)  # fmt: skip
def test_daifugo_refusals(round_, field, code, text):
    assert refusal(lambda: score_daifugo(round_, COMMON)) == (field, code, text)


def test_a_forbidden_finish_needs_rules_that_forbid():
    assert refusal(
        lambda: score_daifugo(DaifugoRound(FIVE, frozenset({"a"})), get_preset("daifugo-hyousube"))
    ) == ("forbidden", "forbidden_not_in_rules", "このルールには上がり禁止のカードがありません。")


def test_a_round_needs_daifugo_rules_and_a_round():
    assert refusal(lambda: score_daifugo(DaifugoRound(FIVE), ORIGINATOR)) == (
        "preset",
        "wrong_game",
        "大富豪のルールではありません。",
    )
    assert refusal(lambda: score_daifugo(_five(), COMMON)) == (
        "order",
        "not_a_round",
        "大富豪の回戦ではありません。",
    )


def test_the_table_named_in_full_is_scored():
    result = score_daifugo(DaifugoRound(FIVE, players=("e", "d", "c", "b", "a")), COMMON)
    assert result.final_order == FIVE


@pytest.mark.parametrize(("value", "shown"), [("X", "X"), ("", ""), (None, ""), (3, "3")])
def test_suit_refusal(value, shown):
    assert refusal(lambda: parse_suit(value, "trump")) == ("trump", "invalid_suit", SUIT % shown)


@pytest.mark.parametrize(
    ("value", "shown"), [("S1", "S1"), ("", ""), (None, ""), (12, "12"), ("♠", "♠"), ("ZZ", "ZZ")]
)
def test_card_refusal(value, shown):
    assert refusal(lambda: parse_card(value, "called")) == ("called", "invalid_card", CARD % shown)


@pytest.mark.parametrize("joker", ["JK", "joker", "ジョーカー"])
def test_a_joker_only_where_the_rules_have_one(joker):
    assert refusal(lambda: parse_card(joker, "called", jokers=0)) == (
        "called",
        "no_joker",
        "このルールではジョーカーを使いません。",
    )
    assert parse_card(joker, "called", jokers=1).code == "JK"
    assert parse_card(joker, "called").code == "JK"


@pytest.mark.parametrize(("suit", "rank", "shown"), [("X", "A", "XA"), ("S", "1", "S1")])
def test_a_card_must_exist(suit, rank, shown):
    assert refusal(lambda: Card(suit, rank)) == ("card", "invalid_card", CARD % shown)


@pytest.mark.parametrize("value", [12, 1.5, ["SA"], ("S", "A")])
def test_a_refused_value_is_shown_as_text(value):
    """The value a refusal quotes is plain text, whatever was sent (a phone sends JSON)."""
    for parse in (parse_card, parse_suit):
        with pytest.raises(EfudaError) as err:
            parse(value, "called")
        assert err.value.params["value"] == repr(value)


@pytest.mark.parametrize(
    ("napoleon_deal", "param", "shown"),
    [
        (_five(napoleon=5), "player", "5"),
        (_five(adjutant=["花子"]), "player", "['花子']"),
        (_five(bid=21.5), "bid", "21.5"),
    ],
)
def test_a_refused_entry_is_quoted_as_text(napoleon_deal, param, shown):
    with pytest.raises(EfudaError) as err:
        score_napoleon(napoleon_deal, ORIGINATOR)
    assert err.value.params[param] == shown


def test_a_forbidden_finisher_who_is_nobody_is_quoted_as_nothing():
    with pytest.raises(EfudaError) as err:
        score_daifugo(DaifugoRound(FIVE, frozenset({None})), COMMON)
    assert err.value.params == {"player": ""}
    assert japanese(err.value) == "「」はこの回戦に参加していません。"


@pytest.mark.parametrize(("suit", "rank", "shown"), [(None, "A", "NoneA"), ("S", "JK", "SJK")])
def test_only_the_joker_has_no_suit(suit, rank, shown):
    assert refusal(lambda: Card(suit, rank)) == ("card", "invalid_card", CARD % shown)


def test_cards_sort_by_suit_then_rank_then_the_joker():
    cards = [parse_card(c) for c in ("JK", "C2", "SA", "H10", "SK")]
    assert [c.label for c in sorted(cards)] == ["♠A", "♠K", "♥10", "♣2", "JK"]
