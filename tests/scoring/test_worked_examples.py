"""The worked examples of docs/rules.md, so the page and the code cannot drift apart."""

import pytest

from rules import build_ruleset, get_preset
from scoring.daifugo import DaifugoRound, score_daifugo
from scoring.napoleon import NapoleonDeal, score_napoleon

S5 = ("太郎", "花子", "Ken", "ゆき", "Sam")
S6 = (*S5, "Mia")
ORIGINATOR = get_preset("napoleon-originator")
LAST_TRICK = build_ruleset("napoleon-wiki", {"discard_policy": "last_trick"})
ALL20 = build_ruleset("napoleon-joker", {"all20_loses": True})


@pytest.mark.parametrize(
    ("ruleset", "deal", "napoleon", "adjutant", "ally"),
    [
        (ORIGINATOR, NapoleonDeal(S5, "太郎", 13, "H", "SJ", "Ken", 14, 2), 6, 3, -3),
        (ORIGINATOR, NapoleonDeal(S5, "太郎", 14, "S", "SJ", "Ken", 20, 0), -8, -4, 4),
        (ORIGINATOR, NapoleonDeal(S5, "太郎", 20, "S", "SJ", "Ken", 20, 0), 20, 10, -10),
        (
            ORIGINATOR,
            NapoleonDeal(S5[:4], "ゆき", 15, "D", "SA", None, 13, 0, solo=True),
            -15,
            None,
            5,
        ),
        (LAST_TRICK, NapoleonDeal(S6, "Sam", 12, "D", "SA", "Ken", 10, 3, "napoleon"), 2, 2, -1),
        (LAST_TRICK, NapoleonDeal(S6, "Sam", 12, "D", "SA", "Ken", 10, 3, "allies"), -2, -2, 1),
        (ALL20, NapoleonDeal(S6[1:], "Mia", 16, "C", "SA", "Ken", 20, 0), -4, -2, 2),
        (ALL20, NapoleonDeal(S6[1:], "Mia", 20, "C", "SA", "Ken", 20, 0), 4, 2, -2),
    ],
)
def test_napoleon_examples(ruleset, deal, napoleon, adjutant, ally):
    result = score_napoleon(deal, ruleset)
    for seat, role in result.roles.items():
        expected = {"napoleon": napoleon, "adjutant": adjutant, "ally": ally}[role]
        assert result.points[seat] == expected


@pytest.mark.parametrize(
    ("previous", "forbidden", "final"),
    [
        (None, "", "ABCDE"), ("A", "", "ABCDE"), ("C", "", "ABDEC"), (None, "A", "BCDEA"),
        (None, "AC", "BDECA"), ("B", "A", "BCDEA"), ("C", "A", "BDEAC"), ("A", "A", "BCDEA"),
    ],
)  # fmt: skip
def test_daifugo_examples(previous, forbidden, final):
    round_ = DaifugoRound(tuple("ABCDE"), frozenset(forbidden), previous)
    assert "".join(score_daifugo(round_, get_preset("daifugo-common")).final_order) == final
