"""The explanation of every kind of deal and round, as the table reads it in Japanese (and, where
English differs by number, in English): the contract, the count, the discards, the outcome and
the points (docs/rules.md)."""

import pytest

from rules import build_ruleset, get_preset
from scoring.daifugo import DaifugoRound, score_daifugo
from scoring.napoleon import NapoleonDeal, score_napoleon
from tests.japanese import japanese

from .helpers import deal, seats

ORIGINATOR = get_preset("napoleon-originator")
ORIGINATOR_JOKER = build_ruleset("napoleon-originator", {"jokers": 1})
ALL20 = build_ruleset("napoleon-joker", {"all20_loses": True})


def _wiki(policy):
    return build_ruleset("napoleon-wiki", {"discard_policy": policy})


def _lines(result):
    return [japanese(message) for message in result.explanation]


CASES = [
    pytest.param(
        deal(5, bid=13, honours=14, trump="♥", called="♠J", adjutant="Ken"), ORIGINATOR,
        ["太郎が♥13枚で立候補し、副官はKen（指名カード ♠J）。",
         "ナポレオン軍はトリックで絵札を14枚取りました。",
         "ナポレオン軍の絵札 14枚 ≥ 立候補 13枚：ナポレオンの勝ち。",
         "得点：ナポレオン +6、副官 +3、連合軍各自 -3。"],
        id="adjutant-called-win",
    ),
    pytest.param(
        deal(5, bid=13, honours=12, called=None), ORIGINATOR,
        ["太郎が♠13枚で立候補し、副官は花子。",
         "ナポレオン軍はトリックで絵札を12枚取りました。",
         "ナポレオン軍の絵札 12枚 < 立候補 13枚：連合軍の勝ち。",
         "得点：ナポレオン -6、副官 -3、連合軍各自 +3。"],
        id="adjutant-no-card-loss",
    ),
    pytest.param(
        deal(5, bid=13, honours=13, solo=True, called="JK"), ORIGINATOR_JOKER,
        ["太郎が♠13枚で立候補し、独り立ち。指名カードJKは伏せ札かナポレオン自身の手札にありました。",
         "ナポレオン軍はトリックで絵札を13枚取りました。",
         "ナポレオン軍の絵札 13枚 ≥ 立候補 13枚：ナポレオンの勝ち。",
         "得点：ナポレオン +12、連合軍各自 -3。"],
        id="solo-called-win",
    ),
    pytest.param(
        deal(4, bid=13, honours=12, solo=True, called=None), ORIGINATOR,
        ["太郎が♠13枚で立候補し、独り立ち（副官なし）。",
         "ナポレオン軍はトリックで絵札を12枚取りました。",
         "ナポレオン軍の絵札 12枚 < 立候補 13枚：連合軍の勝ち。",
         "得点：ナポレオン -9、連合軍各自 +3。"],
        id="solo-loss",
    ),
    pytest.param(
        deal(5, bid=15, honours=18, discarded=2), ORIGINATOR,
        ["太郎が♠15枚で立候補し、副官は花子（指名カード ♠A）。",
         "ナポレオン軍はトリックで絵札を18枚取りました。",
         "捨て札の絵札2枚は連合軍のものです。",
         "ナポレオン軍の絵札 18枚 ≥ 立候補 15枚：ナポレオンの勝ち。",
         "得点：ナポレオン +10、副官 +5、連合軍各自 -5。"],
        id="discards-to-allies",
    ),
    pytest.param(
        deal(5, bid=14, honours=20), ORIGINATOR,
        ["太郎が♠14枚で立候補し、副官は花子（指名カード ♠A）。",
         "ナポレオン軍はトリックで絵札を20枚取りました。",
         "ナポレオン軍が14枚の立候補で絵札20枚をすべて取りました。作戦Bで連合軍の勝ちです。",
         "得点：ナポレオン -8、副官 -4、連合軍各自 +4。"],
        id="plan-b",
    ),
    pytest.param(
        deal(5, bid=12, honours=11, discarded=2), _wiki("nobody"),
        ["太郎が♠12枚で立候補し、副官は花子（指名カード ♠A）。",
         "ナポレオン軍はトリックで絵札を11枚取りました。",
         "捨て札の絵札2枚はどちらにも数えません。",
         "ナポレオン軍の絵札 11枚 < 立候補 12枚：連合軍の勝ち。",
         "得点：ナポレオン -2、副官 -1、連合軍各自 +1。"],
        id="discards-to-nobody",
    ),
    pytest.param(
        deal(5, bid=12, honours=11, discarded=2), _wiki("napoleon"),
        ["太郎が♠12枚で立候補し、副官は花子（指名カード ♠A）。",
         "ナポレオン軍はトリックで絵札を11枚取りました。",
         "捨て札の絵札2枚はナポレオン軍に数えます。",
         "ナポレオン軍の絵札 13枚 ≥ 立候補 12枚：ナポレオンの勝ち。",
         "得点：ナポレオン +2、副官 +1、連合軍各自 -1。"],
        id="discards-to-napoleon",
    ),
    pytest.param(
        deal(5, bid=12, honours=11, discarded=2, last_trick="napoleon"), _wiki("last_trick"),
        ["太郎が♠12枚で立候補し、副官は花子（指名カード ♠A）。",
         "ナポレオン軍はトリックで絵札を11枚取りました。",
         "捨て札の絵札2枚は、最後のトリックを取ったナポレオン軍のものになります。",
         "ナポレオン軍の絵札 13枚 ≥ 立候補 12枚：ナポレオンの勝ち。",
         "得点：ナポレオン +2、副官 +1、連合軍各自 -1。"],
        id="last-trick-napoleon",
    ),
    pytest.param(
        deal(5, bid=12, honours=11, discarded=2, last_trick="allies"), _wiki("last_trick"),
        ["太郎が♠12枚で立候補し、副官は花子（指名カード ♠A）。",
         "ナポレオン軍はトリックで絵札を11枚取りました。",
         "捨て札の絵札2枚は、最後のトリックを取った連合軍のものになります。",
         "ナポレオン軍の絵札 11枚 < 立候補 12枚：連合軍の勝ち。",
         "得点：ナポレオン -2、副官 -1、連合軍各自 +1。"],
        id="last-trick-allies",
    ),
    pytest.param(
        deal(5, bid=13, honours=20, called="JK"), ALL20,
        ["太郎が♠13枚で立候補し、副官は花子（指名カード JK）。",
         "ナポレオン軍はトリックで絵札を20枚取りました。",
         "ナポレオン軍が13枚の立候補で絵札20枚をすべて取りました。"
         "全取りは負けのルールにより、ナポレオンの負けで得点は2倍です。",
         "得点：ナポレオン -4、副官 -2、連合軍各自 +2。"],
        id="all20-loses",
    ),
    pytest.param(
        deal(5, bid=20, honours=20, solo=True, called="JK"), ALL20,
        ["太郎が♠20枚で立候補し、独り立ち。指名カードJKは伏せ札かナポレオン自身の手札にありました。",
         "ナポレオン軍はトリックで絵札を20枚取りました。",
         "ナポレオン軍が20枚の立候補で絵札20枚をすべて取りました。ナポレオンの勝ちで、全取りのため得点は2倍です。",
         "得点：ナポレオン +8、連合軍各自 -2。"],
        id="all20-at-20-wins",
    ),
    pytest.param(
        NapoleonDeal(seats=seats(5), redeal=True), ORIGINATOR,
        ["立候補なしで流れ。ディールは記録されますが、得点は動きません。"],
        id="redeal",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("napoleon_deal", "rules", "lines"), CASES)
def test_napoleon_explanation(napoleon_deal, rules, lines):
    assert _lines(score_napoleon(napoleon_deal, rules)) == lines


def test_explanation_params_are_plain_text_and_numbers():
    for param in CASES:
        result = score_napoleon(*param.values[:2])
        for message in result.explanation:
            assert all(type(v) in (str, int) for v in message.params.values())


def test_daifugo_explanation_with_penalties():
    result = score_daifugo(
        DaifugoRound(("a", "b", "c", "d", "e"), frozenset({"a"}), "c"), get_preset("daifugo-common")
    )
    assert _lines(result) == [
        "上がった順：a, b, c, d, e。",
        "aは反則上がりのため、5人中4位になります（普通に上がった人より下。先に反則上がりした人ほど下位）。",
        "都落ち：前回の大富豪cが1番に上がれなかったため、大貧民になります。",
        "1位 b — 大富豪、+2点。",
        "2位 d — 富豪、+1点。",
        "3位 e — 平民、+0点。",
        "4位 a — 貧民、-1点。",
        "5位 c — 大貧民、-2点。",
    ]
    # English says "point" for one and "points" otherwise
    assert [str(m) for m in result.explanation[3:]] == [
        "1. b — 大富豪, +2 points.",
        "2. d — 富豪, +1 point.",
        "3. e — 平民, +0 points.",
        "4. a — 貧民, -1 point.",
        "5. c — 大貧民, -2 points.",
    ]


def test_daifugo_first_round_explains_who_leads():
    result = score_daifugo(DaifugoRound(("a", "b", "c")), get_preset("daifugo-common"))
    assert _lines(result) == [
        "上がった順：a, b, c。",
        "1位 a — 大富豪、+2点。",
        "2位 b — 平民、+0点。",
        "3位 c — 大貧民、-2点。",
        "最初の回戦は♦3を持っている人から始めます。",
    ]
    later = score_daifugo(DaifugoRound(("a", "b", "c"), previous_daifugo="a"),
                          get_preset("daifugo-common"))  # fmt: skip
    assert _lines(later)[-1] == "3位 c — 大貧民、-2点。"


def test_daifugo_explains_each_forbidden_finishers_place():
    """The earlier forbidden finisher is placed last, the later one the place it gets."""
    result = score_daifugo(
        DaifugoRound(("a", "b", "c", "d", "e"), frozenset({"a", "c"})),
        get_preset("daifugo-common"),
    )
    assert _lines(result)[1:3] == [
        "aは禁止カードで上がったため最下位になります（先に反則上がりした人ほど下位）。",
        "cは反則上がりのため、5人中4位になります（普通に上がった人より下。先に反則上がりした人ほど下位）。",
    ]


def test_daifugo_explains_a_daifugo_who_went_out_first_on_a_forbidden_card():
    """Last round's 大富豪 out first on a forbidden card did not finish first: 都落ち, and the
    explanation says why before it says 都落ち."""
    result = score_daifugo(
        DaifugoRound(("a", "b", "c", "d", "e"), frozenset({"a"}), "a"),
        get_preset("daifugo-common"),
    )
    assert _lines(result)[:3] == [
        "上がった順：a, b, c, d, e。",
        "aは反則上がりのため、1番に上がったことになりません。",
        "都落ち：前回の大富豪aが1番に上がれなかったため、大貧民になります。",
    ]
    assert _lines(result)[-1] == "5位 a — 大貧民、-2点。"
