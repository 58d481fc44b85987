"""Napoleon rules beyond the tables: 作戦B, discards, solo, redeal, explanations, bid log."""

import pytest

from core.errors import EfudaError
from rules import build_ruleset, get_preset
from scoring.napoleon import NapoleonDeal, score_napoleon

from .helpers import deal, seats

ORIGINATOR = get_preset("napoleon-originator")


@pytest.mark.parametrize(
    ("bid", "honours", "won", "plan_b"),
    [
        (14, 20, False, True),  # took all 20 on a bid below 20: allies win
        (19, 20, False, True),
        (20, 20, True, False),  # with a bid of 20, all 20 is a Napoleon win
        (14, 19, True, False),
        (11, 19, True, False),
    ],
)
def test_plan_b(bid, honours, won, plan_b):
    result = score_napoleon(deal(5, bid=bid, honours=honours), ORIGINATOR)
    assert (result.won, result.plan_b) == (won, plan_b)


def test_plan_b_loss_scores_like_any_loss():
    result = score_napoleon(deal(5, bid=14, honours=20), ORIGINATOR)
    assert dict(result.points) == {"太郎": -8, "花子": -4, "Ken": 4, "ゆき": 4, "Sam": 4}
    assert "作戦B" in str(result.explanation[2])


def test_originator_discards_belong_to_allies():
    # 18 in tricks + 2 discarded: the army's count is 18, so no 作戦B and 18 ≥ 15 wins.
    result = score_napoleon(deal(5, bid=15, honours=18, discarded=2), ORIGINATOR)
    assert result.army_count == 18 and result.won and not result.plan_b
    assert result.discards_to == "allies"


@pytest.mark.parametrize(
    ("policy", "last_trick", "army", "won"),
    [
        ("nobody", None, 11, False),
        ("napoleon", None, 13, True),
        ("last_trick", "napoleon", 13, True),
        ("last_trick", "allies", 11, False),
    ],
)
def test_wiki_discard_policies(policy, last_trick, army, won):
    rules = build_ruleset("napoleon-wiki", {"discard_policy": policy})
    result = score_napoleon(deal(5, bid=12, honours=11, discarded=2, last_trick=last_trick), rules)
    assert (result.army_count, result.won) == (army, won)


def test_last_trick_needed_only_with_discarded_honours():
    rules = build_ruleset("napoleon-wiki", {"discard_policy": "last_trick"})
    result = score_napoleon(deal(5, bid=12, honours=12), rules)
    assert result.won and result.discards_to == "nobody" and result.army_count == 12
    with pytest.raises(EfudaError) as err:
        score_napoleon(deal(5, bid=12, honours=11, discarded=1), rules)
    assert err.value.field == "last_trick"


def test_all20_counts_credited_discards():
    """efuda decision: "took all 20" means the army's count (with credited discards) is 20."""
    rules = build_ruleset("napoleon-joker", {"all20_loses": True, "discard_policy": "napoleon"})
    result = score_napoleon(deal(5, bid=15, honours=18, discarded=2), rules)
    assert result.army_count == 20 and result.all20 and not result.won
    nobody = build_ruleset("napoleon-joker", {"all20_loses": True})
    result = score_napoleon(deal(5, bid=15, honours=18, discarded=2), nobody)
    assert result.army_count == 18 and not result.all20 and result.won


def test_solo_only_when_said():
    result = score_napoleon(deal(4, bid=13, honours=13, solo=True), ORIGINATOR)
    assert result.solo
    assert dict(result.roles) == {"太郎": "napoleon", "花子": "ally", "Ken": "ally", "ゆき": "ally"}
    assert dict(result.points) == {"太郎": 9, "花子": -3, "Ken": -3, "ゆき": -3}


@pytest.mark.parametrize(
    ("changes", "code"),
    [
        ({"adjutant": None}, "adjutant_missing"),  # nothing chosen is not 独り立ち
        ({"adjutant": "太郎"}, "adjutant_is_napoleon"),  # nor is the Napoleon as adjutant
        ({"adjutant": "花子", "solo": True}, "adjutant_and_solo"),
        ({"adjutant": None, "solo": "yes"}, "solo_not_a_bool"),
    ],
)
def test_adjutant_is_a_player_or_explicit_solo(changes, code):
    with pytest.raises(EfudaError) as err:
        score_napoleon(deal(4, bid=13, honours=13, **changes), ORIGINATOR)
    assert (err.value.field, err.value.code) == ("adjutant", code)
    assert "None" not in str(err.value)


@pytest.mark.parametrize(
    "redeal_deal",
    [
        NapoleonDeal(seats=seats(5), redeal=True),
        NapoleonDeal(seats=seats(5), honours=0, discarded=0, redeal=True),
    ],
)
def test_redeal_scores_nothing(redeal_deal):
    result = score_napoleon(redeal_deal, ORIGINATOR)
    assert result.redeal and dict(result.points) == {} and dict(result.roles) == {}


def test_only_seats_is_not_a_redeal():
    """A deal with only its seats is refused (the Napoleon is missing), never taken as 流れ."""
    with pytest.raises(EfudaError) as err:
        score_napoleon(NapoleonDeal(seats=seats(5)), ORIGINATOR)
    assert (err.value.field, err.value.code) == ("napoleon", "napoleon_missing")


@pytest.mark.parametrize(
    "given",
    [{"napoleon": "太郎"}, {"bid": 13}, {"trump": "S"}, {"adjutant": "Ken"}, {"solo": True},
     {"honours": 12}, {"honours": 1}, {"called": "SA"}, {"discarded": 1},
     {"last_trick": "allies"}],
)  # fmt: skip
def test_redeal_with_a_deal_is_refused(given):
    with pytest.raises(EfudaError) as err:
        score_napoleon(NapoleonDeal(seats=seats(5), redeal=True, **given), ORIGINATOR)
    assert (err.value.field, err.value.code) == ("redeal", "redeal_with_deal")


@pytest.mark.parametrize(
    ("changes", "field", "code"),
    [
        ({"bid": None}, "bid", "bid_missing"),
        ({"trump": None}, "trump", "trump_missing"),
        ({"honours": None}, "honours", "honours_missing"),
        ({"discarded": None}, "discarded", "discarded_missing"),
        ({"honours": 21}, "honours", "honours_range"),
    ],
)
def test_missing_or_out_of_range_values_are_refused_by_name(changes, field, code):
    with pytest.raises(EfudaError) as err:
        score_napoleon(deal(5, **({"bid": 13, "honours": 13} | changes)), ORIGINATOR)
    assert (err.value.field, err.value.code) == (field, code)
    assert "None" not in str(err.value)


def test_explanation_reads_like_the_table_talk():
    result = score_napoleon(
        deal(5, bid=13, honours=14, trump="♥", called="♠J", adjutant="Ken"), ORIGINATOR
    )
    lines = [str(m) for m in result.explanation]
    assert lines[0] == "太郎 bid 13 ♥ with adjutant Ken (called ♠J)."
    assert lines[-2] == "Army count 14 ≥ bid 13: Napoleon wins."
    assert lines[-1] == "Points: Napoleon +6, adjutant +3, each ally -3."
    for message in result.explanation:
        assert all(isinstance(v, (str, int)) for v in message.params.values())


def test_normalises_trump_and_called_card():
    result = score_napoleon(deal(5, bid=13, honours=13, trump="♡", called="a♠"), ORIGINATOR)
    assert (result.trump, result.called) == ("H", "SA")


def test_joker_called_only_with_a_joker():
    with pytest.raises(EfudaError) as err:
        score_napoleon(deal(5, bid=13, honours=13, called="JK"), ORIGINATOR)
    assert err.value.field == "called"
    rules = build_ruleset("napoleon-originator", {"jokers": 1})
    assert score_napoleon(deal(5, bid=13, honours=13, called="JK"), rules).called == "JK"


@pytest.mark.parametrize(
    ("changes", "field", "code"),
    [
        ({"seats": seats(3)}, "seats", "players_not_allowed"),
        ({"seats": seats(6)}, "seats", "players_not_allowed"),
        ({"seats": ("太郎", "花子", "Ken", "ゆき", "太郎")}, "seats", "duplicate_player"),
        ({"seats": ("太郎", "花子", " ", "ゆき", "Sam")}, "seats", "blank_player"),
        ({"seats": None}, "seats", "not_a_list"),
        ({"seats": "太郎花子Kenゆき"}, "seats", "not_a_list"),
        ({"napoleon": "Zed"}, "napoleon", "not_seated"),
        ({"napoleon": None}, "napoleon", "napoleon_missing"),
        ({"adjutant": "Zed"}, "adjutant", "not_seated"),
        ({"bid": 10}, "bid", "bid_out_of_range"),
        ({"bid": 21}, "bid", "bid_out_of_range"),
        ({"bid": "abc"}, "bid", "bid_out_of_range"),
        ({"bid": True}, "bid", "bid_out_of_range"),
        ({"bid": 13.0}, "bid", "bid_out_of_range"),
        ({"trump": "X"}, "trump", "invalid_suit"),
        ({"trump": "X"}, "trump", "invalid_suit"),
        ({"called": "S1"}, "called", "invalid_card"),
        ({"called": 12}, "called", "invalid_card"),
        ({"honours": -1}, "honours", "not_a_count"),
        ({"honours": "3"}, "honours", "not_a_count"),
        ({"discarded": -1}, "discarded", "not_a_count"),
        ({"discarded": 3}, "discarded", "too_many_discards"),
        ({"honours": 19, "discarded": 2}, "honours", "too_many_honours"),
        ({"honours": 21}, "honours", "honours_range"),
        ({"redeal": "no"}, "redeal", "not_a_bool"),
    ],
)
def test_invalid_deal(changes, field, code):
    with pytest.raises(EfudaError) as err:
        score_napoleon(deal(5, **({"bid": 13, "honours": 13} | changes)), ORIGINATOR)
    assert (err.value.field, err.value.code) == (field, code)
    assert str(err.value)  # the message renders with its params


def test_bid_error_names_the_range():
    with pytest.raises(EfudaError) as err:
        score_napoleon(deal(4, bid=12, honours=12), ORIGINATOR)
    assert "13" in str(err.value) and "20" in str(err.value)


def test_wrong_game_and_wrong_object():
    with pytest.raises(EfudaError) as err:
        score_napoleon(deal(5, bid=13, honours=13), get_preset("daifugo-common"))
    assert err.value.field == "preset"
    with pytest.raises(EfudaError):
        score_napoleon("deal", ORIGINATOR)


def test_a_result_cannot_be_changed():
    """Results are read-only: a page or a report cannot alter what was scored."""
    result = score_napoleon(deal(5, bid=13, honours=13), ORIGINATOR)
    for mapping in (result.points, result.roles):
        with pytest.raises(TypeError):
            mapping["太郎"] = mapping["花子"]


@pytest.mark.parametrize(
    ("rules", "discards_to"),
    [
        (ORIGINATOR, "allies"),
        (build_ruleset("napoleon-wiki", {"discard_policy": "nobody"}), "nobody"),
        (build_ruleset("napoleon-wiki", {"discard_policy": "napoleon"}), "napoleon"),
    ],
)
def test_the_result_records_the_contract_and_where_discards_went(rules, discards_to):
    result = score_napoleon(deal(5, bid=13, honours=13, discarded=1), rules)
    assert (result.bid, result.trump, result.called) == (13, "S", "SA")
    assert result.discards_to == discards_to
    assert result.redeal is False and result.won and result.multiplier == 1


def test_a_redeal_wins_loses_and_counts_nothing():
    result = score_napoleon(NapoleonDeal(seats=seats(5), redeal=True), ORIGINATOR)
    assert (result.army_count, result.won, result.solo, result.plan_b, result.all20) == (
        0, False, False, False, False,
    )  # fmt: skip
    assert result.multiplier == 0 and result.redeal is True
    assert result.bid is result.trump is result.called is result.discards_to is None
