"""Daifugō: titles by table size, 都落ち, forbidden finish, exchanges (docs/rules.md)."""

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.errors import EfudaError
from rules import build_ruleset, daifugo_titles, get_preset
from scoring.daifugo import FIRST_ROUND_LEAD, DaifugoRound, Exchange, score_daifugo

from .strategies import GARBAGE

COMMON = get_preset("daifugo-common")
HYOUSUBE = get_preset("daifugo-hyousube")
FIVE = ("a", "b", "c", "d", "e")


@pytest.mark.parametrize(
    ("order", "forbidden", "previous", "final", "fell"),
    [
        (FIVE, "", None, "abcde", None),
        (FIVE, "", "a", "abcde", None),  # the 大富豪 went out first again: keeps the title
        (FIVE, "", "c", "abdec", "c"),  # 都落ち: falls to 大貧民, the others keep their order
        (FIVE, "", "e", "abcde", "e"),  # already last: still reported as 都落ち
        (FIVE, "", "Zed", "abcde", None),  # previous 大富豪 not playing this round
        (FIVE, "a", None, "bcdea", None),  # forbidden finish: placed last
        (FIVE, "ac", None, "bdeca", None),  # the earlier forbidden finisher ranks lower
        (FIVE, "abc", None, "decba", None),
        (FIVE, "a", "b", "bcdea", None),  # b is first among proper finishers: keeps the title
        (FIVE, "a", "c", "bdeac", "c"),  # 都落ち goes below the forbidden finisher
        (FIVE, "a", "a", "bcdea", "a"),  # went out first but on a forbidden card: falls
        (FIVE, "bd", "a", "acedb", None),
        (FIVE, "bd", "d", "acebd", "d"),
        (("a", "b", "c"), "", "b", "acb", "b"),
        (("a", "b", "c"), "a", None, "bca", None),
        (("a", "b", "c", "d"), "a", "b", "bcda", None),
        (tuple("abcdefgh"), "bf", "c", "adeghfbc", "c"),
    ],
)
def test_final_order(order, forbidden, previous, final, fell):
    result = score_daifugo(DaifugoRound(order, frozenset(forbidden), previous), COMMON)
    assert "".join(result.final_order) == final
    assert result.miyako_ochi == fell
    assert result.forbidden_applied == tuple(p for p in order if p in forbidden)
    assert result.next_leader == final[-1]


@pytest.mark.parametrize(
    ("players", "titles"),
    [
        (3, ("daifugo", "heimin", "daihinmin")),
        (4, ("daifugo", "fugo", "hinmin", "daihinmin")),
        (5, ("daifugo", "fugo", "heimin", "hinmin", "daihinmin")),
        (6, ("daifugo", "fugo", "heimin", "heimin", "hinmin", "daihinmin")),
        (8, ("daifugo", "fugo") + ("heimin",) * 4 + ("hinmin", "daihinmin")),
    ],
)
def test_titles_and_default_points(players, titles):
    assert daifugo_titles(players) == titles
    order = tuple("abcdefgh"[:players])
    result = score_daifugo(DaifugoRound(order), HYOUSUBE)
    assert tuple(result.titles[p] for p in order) == titles
    defaults = {"daifugo": 2, "fugo": 1, "heimin": 0, "hinmin": -1, "daihinmin": -2}
    assert dict(result.points) == {p: defaults[t] for p, t in zip(order, titles, strict=True)}


def test_exchanges_five_and_three():
    result = score_daifugo(DaifugoRound(FIVE), HYOUSUBE)
    assert result.exchanges == (
        Exchange("e", "a", 2),
        Exchange("a", "e", 2),
        Exchange("d", "b", 1),
        Exchange("b", "d", 1),
    )
    three = score_daifugo(DaifugoRound(("x", "y", "z")), HYOUSUBE)
    assert three.exchanges == (Exchange("z", "x", 2), Exchange("x", "z", 2))
    assert three.next_leader == "z"


def test_first_round_lead_only_in_common_first_round():
    assert score_daifugo(DaifugoRound(FIVE), COMMON).first_round_lead == FIRST_ROUND_LEAD
    assert score_daifugo(DaifugoRound(FIVE, previous_daifugo="a"), COMMON).first_round_lead is None
    assert score_daifugo(DaifugoRound(FIVE), HYOUSUBE).first_round_lead is None


def test_custom_title_points():
    rules = build_ruleset("daifugo-common", {"title_points": {"daifugo": 3, "daihinmin": -3}})
    result = score_daifugo(DaifugoRound(FIVE), rules)
    assert dict(result.points) == {"a": 3, "b": 1, "c": 0, "d": -1, "e": -3}


def test_explanation_names_the_penalties():
    result = score_daifugo(DaifugoRound(FIVE, frozenset("a"), "c"), COMMON)
    text = "\n".join(str(m) for m in result.explanation)
    assert "forbidden" in text and "都落ち" in text and "5. c — 大貧民, -2 points." in text


@pytest.mark.parametrize(
    ("round_", "ruleset", "field", "code"),
    [
        (DaifugoRound(("a", "b")), COMMON, "order", "players_out_of_range"),
        (DaifugoRound(tuple("abcdefghi")), COMMON, "order", "players_out_of_range"),
        (DaifugoRound(("a", "b", "a")), COMMON, "order", "duplicate_player"),
        (DaifugoRound(("a", "", "c")), COMMON, "order", "blank_player"),
        (DaifugoRound(None), COMMON, "order", "not_a_list"),
        (DaifugoRound(FIVE, frozenset({"z"})), COMMON, "forbidden", "not_in_round"),
        (DaifugoRound(FIVE, frozenset({"a"})), HYOUSUBE, "forbidden", "forbidden_not_in_rules"),
        (DaifugoRound(FIVE, frozenset({"e"})), COMMON, "forbidden", "last_did_not_go_out"),
        (DaifugoRound(FIVE, "a"), COMMON, "forbidden", "not_a_list"),
        (DaifugoRound(FIVE, previous_daifugo=3), COMMON, "previous_daifugo", "invalid_player"),
        (DaifugoRound(FIVE), get_preset("napoleon-wiki"), "preset", "wrong_game"),
    ],
)
def test_invalid_rounds(round_, ruleset, field, code):
    with pytest.raises(EfudaError) as err:
        score_daifugo(round_, ruleset)
    assert (err.value.field, err.value.code) == (field, code)
    assert str(err.value)


@st.composite
def rounds(draw):
    players = draw(st.integers(3, 8))
    order = tuple(draw(st.permutations([f"p{i}" for i in range(8)]))[:players])
    forbidden = draw(st.frozensets(st.sampled_from(order[:-1])))
    previous = draw(st.one_of(st.none(), st.sampled_from(order), st.just("outsider")))
    return DaifugoRound(order, forbidden, previous)


@settings(max_examples=200, deadline=None)
@given(round_=rounds())
def test_round_properties(round_):
    result = score_daifugo(round_, COMMON)
    n = len(round_.order)
    final = result.final_order
    assert sorted(final) == sorted(round_.order)
    assert tuple(result.titles[p] for p in final) == daifugo_titles(n)
    assert tuple(result.points) == final and sum(result.points.values()) == 0
    fell = result.miyako_ochi
    if fell:
        assert final[-1] == fell == round_.previous_daifugo
    normal = [p for p in round_.order if p not in round_.forbidden]
    if round_.previous_daifugo in round_.order:
        assert (fell is None) == (normal[0] == round_.previous_daifugo)
    penalised = [p for p in round_.order if p in round_.forbidden and p != fell]
    bottom = final[
        len(final) - len(penalised) - (1 if fell else 0) : len(final) - (1 if fell else 0)
    ]
    assert list(bottom) == penalised[::-1]
    assert [p for p in final if p in normal and p != fell] == [p for p in normal if p != fell]
    assert result.next_leader == final[-1]
    assert result.exchanges[0] == Exchange(final[-1], final[0], 2)


@settings(max_examples=150, deadline=None)
@given(round_=rounds(), data=st.data())
def test_garbage_rounds_raise_only_efuda_error(round_, data):
    name = data.draw(st.sampled_from(["order", "forbidden", "previous_daifugo"]))
    garbage = dataclasses.replace(round_, **{name: data.draw(GARBAGE)})
    for ruleset in (COMMON, HYOUSUBE):
        try:
            result = score_daifugo(garbage, ruleset)
        except EfudaError as err:
            assert err.field and str(err)
        else:
            assert sum(result.points.values()) == 0


def test_a_result_cannot_be_changed():
    """Results are read-only: a page or a report cannot alter what was scored."""
    result = score_daifugo(DaifugoRound(FIVE), COMMON)
    for mapping in (result.titles, result.points):
        with pytest.raises(TypeError):
            mapping["a"] = mapping["e"]
