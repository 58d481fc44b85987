"""Properties of Napoleon scoring for every preset and the main options (hypothesis)."""

import dataclasses

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from core.errors import EfudaError
from scoring.napoleon import NapoleonDeal, napoleon_reseated, score_napoleon

from .strategies import GARBAGE, NAPOLEON_RULESETS, napoleon_deals

SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])  # fmt: skip
any_ruleset = st.sampled_from(NAPOLEON_RULESETS)


@SETTINGS
@given(ruleset=any_ruleset, data=st.data())
def test_a_deal_reseated_scores_as_the_deal_in_those_seats(ruleset, data):
    """``napoleon_reseated`` (what an import uses to score a deal shape once for every seating
    of its Napoleon and adjutant) gives exactly what scoring the reseated deal gives."""
    deal = data.draw(napoleon_deals(ruleset))
    seats = tuple(data.draw(st.permutations(deal.seats)))
    moved = score_napoleon(dataclasses.replace(deal, seats=seats), ruleset)
    reseated = napoleon_reseated(score_napoleon(deal, ruleset), seats)
    assert reseated == moved
    assert list(reseated.points.items()) == list(moved.points.items())  # in seat order too
    assert list(reseated.roles.items()) == list(moved.roles.items())
    with pytest.raises(ValueError):
        napoleon_reseated(score_napoleon(deal, ruleset), seats[1:] + ("nobody",))


@SETTINGS
@given(ruleset=any_ruleset, data=st.data())
def test_points_sum_to_zero_in_seat_order(ruleset, data):
    deal = data.draw(napoleon_deals(ruleset))
    result = score_napoleon(deal, ruleset)
    assert sum(result.points.values()) == 0
    assert tuple(result.points) == tuple(deal.seats) == tuple(result.roles)
    assert list(result.roles.values()).count("napoleon") == 1
    assert result.solo == ("adjutant" not in result.roles.values())
    assert result.multiplier in (1, 2)
    assert all(str(m) for m in result.explanation)


def _with_count(deal, ruleset, count):
    """The same deal with the army's count moved to ``count`` through its trick honours."""
    credited = deal.discarded if _credits_discards(deal, ruleset) else 0
    honours = count - credited
    if honours < 0 or honours + deal.discarded > 20:
        return None
    return dataclasses.replace(deal, honours=honours)


def _credits_discards(deal, ruleset):
    return ruleset.discard_policy == "napoleon" or (
        ruleset.discard_policy == "last_trick" and deal.last_trick == "napoleon"
    )


@SETTINGS
@given(ruleset=any_ruleset, data=st.data())
def test_loss_mirrors_win(ruleset, data):
    deal = data.draw(napoleon_deals(ruleset))
    # All 20 doubles a win at bid 20 but not the loss below it; 作戦B/all 20 make 20 a loss.
    assume(not (ruleset.all20_loses and deal.bid == 20))
    special = (ruleset.plan_b or ruleset.all20_loses) and deal.bid < 20
    win = _with_count(deal, ruleset, data.draw(st.integers(deal.bid, 19 if special else 20)))
    loss = _with_count(deal, ruleset, data.draw(st.integers(0, deal.bid - 1)))
    assume(win is not None and loss is not None)
    won, lost = score_napoleon(win, ruleset), score_napoleon(loss, ruleset)
    assert won.won and not lost.won
    assert dict(lost.points) == {seat: -p for seat, p in won.points.items()}


@SETTINGS
@given(ruleset=any_ruleset, data=st.data())
def test_more_honours_never_lose_except_at_twenty(ruleset, data):
    deal = data.draw(napoleon_deals(ruleset))
    outcomes = []
    for honours in range(0, 21 - deal.discarded):
        result = score_napoleon(dataclasses.replace(deal, honours=honours), ruleset)
        outcomes.append((result.army_count, result.won, result.plan_b or result.all20))
    for (_, won_before, _), (count, won, special) in zip(outcomes, outcomes[1:], strict=False):
        if won_before and not won:
            assert count == 20 and special and deal.bid < 20


FIELDS = [f.name for f in dataclasses.fields(NapoleonDeal)]


@settings(max_examples=200, deadline=None)
@given(ruleset=any_ruleset, data=st.data())
def test_garbage_raises_only_efuda_error(ruleset, data):
    deal = data.draw(napoleon_deals(ruleset))
    names = data.draw(st.lists(st.sampled_from(FIELDS), min_size=1, max_size=3, unique=True))
    garbage = dataclasses.replace(deal, **{name: data.draw(GARBAGE) for name in names})
    try:
        result = score_napoleon(garbage, ruleset)
    except EfudaError as err:
        assert err.field and err.code and str(err)
    else:
        assert sum(result.points.values()) == 0


INVALIDATORS = {
    "napoleon not seated": lambda d: {"napoleon": "Zed"},
    "adjutant not seated": lambda d: {"adjutant": "Zed"},
    "seat twice": lambda d: {"seats": d.seats[:-1] + d.seats[:1]},
    "seats None": lambda d: {"seats": None},
    "bid text": lambda d: {"bid": "abc"},
    "bid too high": lambda d: {"bid": 21},
    "bid too low": lambda d: {"bid": 9},
    "honours negative": lambda d: {"honours": -1},
    "honours float": lambda d: {"honours": 1.5},
    "too many honours": lambda d: {"honours": 21 - d.discarded, "discarded": d.discarded},
    "trump": lambda d: {"trump": "Z"},
    "called": lambda d: {"called": "S11"},
}
EXPECTED_FIELD = {
    "napoleon not seated": "napoleon", "adjutant not seated": "adjutant",
    "seat twice": "seats", "seats None": "seats", "bid text": "bid", "bid too high": "bid",
    "bid too low": "bid", "honours negative": "honours", "honours float": "honours",
    "too many honours": "honours", "trump": "trump", "called": "called",
}  # fmt: skip


@settings(max_examples=100, deadline=None)
@given(ruleset=any_ruleset, data=st.data(), broken=st.sampled_from(sorted(INVALIDATORS)))
def test_invalid_deals_raise_with_field(ruleset, data, broken):
    deal = data.draw(napoleon_deals(ruleset))
    if broken == "adjutant not seated" and deal.adjutant is None:
        deal = dataclasses.replace(deal, adjutant=deal.seats[-1])
    bad = dataclasses.replace(deal, **INVALIDATORS[broken](deal))
    with pytest.raises(EfudaError) as err:
        score_napoleon(bad, ruleset)
    assert err.value.field == EXPECTED_FIELD[broken]
