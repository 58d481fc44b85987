"""The pure rating maths: sides of 2 v 3 and 1 v 4 start balanced, Daifugō ties, and on a
synthetic club with known skills the ratings predict better than the baselines and rank
players by skill better than points totals do."""

import dataclasses

import pytest

from ratings import synthetic
from ratings.engine import (
    DAIFUGO,
    NAPOLEON,
    UNCORRECTED,
    DaifugoEvent,
    NapoleonEvent,
    Rater,
    daifugo_places,
)
from ratings.evaluate import evaluate, kendall, spearman

# Small enough to run in about a second; drift: skills wander slowly, as in a real club.
DEALS = 900
DRIFT = 0.02


def test_daifugo_places_follow_going_out_and_tie_forbidden_finishers_last():
    places = daifugo_places(["a", "b", "c", "d", "e"], forbidden=["a", "c"])
    assert places == {"b": 1, "d": 2, "e": 3, "a": 4, "c": 4}
    assert daifugo_places(["x", "y", "z"]) == {"x": 1, "y": 2, "z": 3}


@pytest.mark.parametrize("army", [("a", "b"), ("a",)])
def test_new_players_start_even_whatever_the_side_sizes(army):
    rest = tuple(p for p in "abcde" if p not in army)
    event = NapoleonEvent(army=army, rest=rest, won=True, bid=13)
    assert Rater(NAPOLEON).predict(event) == pytest.approx(0.5)
    # openskill as it comes sums the sides: 50 against 75, or 25 against 100.
    assert Rater(UNCORRECTED).predict(event) < 0.25


def _hard_contract(params):
    rater = Rater(params)
    players = [f"p{i}" for i in range(10)]
    for i in range(60):  # 2 v 3 at 16 almost always fails, with ever-different players
        seated = [players[(i + k) % 10] for k in range(5)]
        event = NapoleonEvent(army=tuple(seated[:2]), rest=tuple(seated[2:]), won=i % 10 == 0,
                              bid=16)  # fmt: skip
        rater.update(event)
    return rater


def test_the_handicap_learns_how_hard_a_contract_is():
    rater = _hard_contract(NAPOLEON)
    fresh = NapoleonEvent(army=("n1", "n2"), rest=("n3", "n4", "n5"), won=True, bid=16)
    assert rater.predict(fresh) < 0.35
    assert rater.handicaps["2v3:16"][0] < 25 - 10  # started at 25 (75 against 75)
    # The handicap takes the blame: players who all played alike end up closer together.
    plain = _hard_contract(UNCORRECTED)

    def spread(r):
        mus = [mu for mu, _sigma in r.ratings.values()]
        return max(mus) - min(mus)

    assert spread(rater) < spread(plain) / 2


def test_a_daifugo_round_rates_the_order_of_going_out_with_ties():
    rater = Rater(DAIFUGO)
    event = DaifugoEvent(places=daifugo_places(["a", "b", "c", "d"], forbidden=["b", "c"]))
    after = rater.update(event)
    assert after["a"][0] > after["d"][0] > after["b"][0]
    assert after["b"][0] == pytest.approx(after["c"][0])  # a tie moves both alike
    assert set(rater.predict(event)) == {("a", "d"), ("a", "b"), ("a", "c"), ("d", "b"),
                                         ("d", "c")}  # fmt: skip


def _totals(events):
    totals = {}
    for event in events:
        for player, points in event.points.items():
            totals[player] = totals.get(player, 0) + points
    return totals


@pytest.mark.parametrize(
    "game, make, params",
    [
        ("napoleon", synthetic.napoleon_events, NAPOLEON),
        ("daifugo", synthetic.daifugo_events, DAIFUGO),
    ],
)
def test_synthetic_club_ratings_beat_points_and_baselines(game, make, params):
    events, truth = make(DEALS, seed=3, drift=DRIFT)
    result = evaluate(game, events, params)
    names = sorted(truth)
    true = [truth[n] for n in names]
    mu = [result["mu"][n] for n in names]
    totals = _totals(events)
    points = [totals[n] for n in names]
    # μ ranks players by their true skill better than the points totals do...
    assert spearman(mu, true) > spearman(points, true) + 0.05
    assert kendall(mu, true) > kendall(points, true)
    # ... even though the strongest play least and the weakest most.
    assert totals["P01"] < max(totals.values())
    # and predicts each deal, before learning from it, better than the baseline and than a
    # coin flip (log 2 = 0.693).
    assert result["log_loss"] < result["baseline_log_loss"]
    assert result["log_loss"] < 0.693
    assert result["accuracy"] > 0.6
    if game == "napoleon":
        assert result["log_loss"] < evaluate(game, events, UNCORRECTED)["log_loss"] - 0.1


def test_same_events_same_ratings():
    events, _truth = synthetic.napoleon_events(200, seed=5)
    assert evaluate("napoleon", events, NAPOLEON) == evaluate("napoleon", events, NAPOLEON)


def test_rank_correlations():
    assert spearman([1, 2, 3, 4], [10, 20, 30, 40]) == pytest.approx(1.0)
    assert spearman([1, 2, 3, 4], [4, 3, 2, 1]) == pytest.approx(-1.0)
    assert kendall([1, 2, 3], [1, 3, 2]) == pytest.approx(1 / 3)


@pytest.mark.parametrize(
    "params, make",
    [(NAPOLEON, synthetic.napoleon_events), (DAIFUGO, synthetic.daifugo_events)],
)
def test_the_fast_update_equals_openskills_rate(params, make):
    events, _truth = make(300, seed=4)
    fast, public = Rater(params), Rater(dataclasses.replace(params, fast=False))
    for event in events:
        fast.update(event)
        public.update(event)
    assert fast.ratings.keys() == public.ratings.keys()
    for player, value in fast.ratings.items():
        assert value == pytest.approx(public.ratings[player], abs=1e-12)
    for contract, value in fast.handicaps.items():
        assert value == pytest.approx(public.handicaps[contract], abs=1e-12)
