"""Scoring once per deal shape (services/imports/shapes.py) gives, for every deal, exactly what
scoring the deal itself gives: the same stored outcome JSON, the same score lines and counters,
the same refusal with the same names."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.errors import EfudaError
from rules import build_ruleset
from tournaments.models import Game
from tournaments.services.imports.shapes import ShapeScorer
from tournaments.services.scoring_bridge import (
    counters,
    line_specs,
    line_tuple,
    outcome_dict,
    score,
)

from ..scoring.strategies import NAPOLEON_RULESETS, napoleon_deals

DAIFUGO_RULESETS = [build_ruleset("daifugo-hyousube"), build_ruleset("daifugo-common")]
encode = json.JSONEncoder().encode
ids = st.lists(st.integers(1, 10**9), min_size=8, max_size=8, unique=True)


def _napoleon_data(deal, keys: dict) -> dict:
    key = {None: None, **keys}
    return {
        "seats": [keys[s] for s in deal.seats], "napoleon": key[deal.napoleon],
        "bid": deal.bid, "trump": deal.trump, "called": deal.called,
        "adjutant": key[deal.adjutant], "solo": deal.solo, "honours": deal.honours,
        "discarded": deal.discarded, "last_trick": deal.last_trick, "redeal": False,
    }  # fmt: skip


def _stamped(scorer: ShapeScorer, data: dict, ruleset) -> tuple:
    shape, keys = scorer.score(data, ruleset)
    lines = [((int(keys[ln.who]), *ln.rest), dict(ln.counted)) for ln in shape.lines]
    return shape.outcome_json(keys), lines, shape, keys


def _direct(game: str, data: dict, ruleset) -> tuple:
    result = score(game, data, ruleset)
    lines = [(line_tuple(s), counters(s)) for s in line_specs(game, data, result)]
    return encode(outcome_dict(game, result)), lines, result


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), ruleset=st.sampled_from(NAPOLEON_RULESETS), numbers=ids)
def test_a_napoleon_deal_scores_as_its_shape_does(data, ruleset, numbers):
    deal = data.draw(napoleon_deals(ruleset))
    keys = {name: str(n) for name, n in zip(sorted(set(deal.seats)), numbers, strict=False)}
    stored = _napoleon_data(deal, keys)
    scorer = ShapeScorer(Game.NAPOLEON)
    scorer.score(dict(stored, seats=list(reversed(stored["seats"]))), ruleset)  # another shape
    direct = _direct(Game.NAPOLEON, stored, ruleset)
    assert _stamped(scorer, stored, ruleset)[:2] == direct[:2]
    scored = scorer.scored
    # The same deal with other people in the same seats: the shape is not scored again.
    others = {k: str(int(v) + 10**9) for k, v in keys.items()}
    again = _napoleon_data(deal, others)
    assert _stamped(scorer, again, ruleset)[:2] == _direct(Game.NAPOLEON, again, ruleset)[:2]
    assert scorer.scored == scored
    # The same deal with its players in other seats (the Napoleon and the adjutant elsewhere):
    # another shape, built from the core's result for the deal by role, not scored again.
    seats = data.draw(st.permutations(stored["seats"]))
    moved = dict(stored, seats=seats)
    assert _stamped(scorer, moved, ruleset)[:2] == _direct(Game.NAPOLEON, moved, ruleset)[:2]
    assert scorer.scored == scored


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    ruleset=st.sampled_from(DAIFUGO_RULESETS), numbers=ids, players=st.integers(3, 7),
    forbidden=st.sets(st.integers(0, 6), max_size=3), previous=st.integers(-1, 6),
)  # fmt: skip
def test_a_daifugo_round_scores_as_its_shape_does(ruleset, numbers, players, forbidden, previous):
    order = [str(n) for n in numbers[:players]]
    stored = {
        "order": order, "forbidden": [order[i] for i in sorted(forbidden) if i < players],
        "previous_daifugo": order[previous] if 0 <= previous < players else None,
    }  # fmt: skip
    scorer = ShapeScorer(Game.DAIFUGO)
    try:
        direct = _direct(Game.DAIFUGO, stored, ruleset)
    except EfudaError as err:
        with pytest.raises(EfudaError) as raised:
            scorer.score(stored, ruleset)
        assert (raised.value.field, raised.value.code, raised.value.params) == (
            err.field, err.code, err.params,
        )  # fmt: skip
        return
    outcome_json, lines, shape, keys = _stamped(scorer, stored, ruleset)
    assert (outcome_json, lines) == direct[:2]
    assert keys[shape.first] == direct[2].final_order[0]  # the next round's previous 大富豪


def test_a_refused_deal_is_refused_with_its_own_names():
    ruleset = NAPOLEON_RULESETS[2]
    seats = ["11", "12", "13", "14", "15"]
    stored = {"seats": seats, "napoleon": "99", "bid": 13, "trump": "S", "called": None,
              "adjutant": "12", "solo": False, "honours": 14, "discarded": 0,
              "last_trick": None, "redeal": False}  # fmt: skip
    with pytest.raises(EfudaError) as direct:
        score(Game.NAPOLEON, stored, ruleset)
    scorer = ShapeScorer(Game.NAPOLEON)
    with pytest.raises(EfudaError) as shaped:
        scorer.score(stored, ruleset)
    assert shaped.value.params == direct.value.params
    assert "99" in str(shaped.value.params)
    assert scorer.shapes == {}  # nothing of a refused shape is kept
