"""Stored ratings: a new deal is learned incrementally, and that equals replaying the club's
history; edits, deletes, restores, back-dated deals and imports replay; redeals rate nothing."""

import datetime
import io
import random
from pathlib import Path

import pytest
from django.core.management import call_command

from ratings.engine import NAPOLEON, Rater
from tests import club_versions, factories
from tournaments.models import Rating, RatingHistory, RatingState
from tournaments.selectors.ratings import rating_events
from tournaments.services.deals import deal_delete, deal_record, deal_restore, deal_update
from tournaments.services.imports import results_import
from tournaments.services.ratings import ratings_replay

pytestmark = pytest.mark.django_db
SAMPLES = Path(__file__).resolve().parents[2] / "docs" / "samples"


def napoleon_data(seats, rng, *, redeal=False):
    if redeal:
        return {"seats": seats, "napoleon": None, "redeal": True}
    nap = rng.choice(seats)
    solo = rng.random() < 0.2
    adjutant = None if solo else rng.choice([s for s in seats if s != nap])
    return {
        "seats": seats, "napoleon": nap, "bid": rng.choice([12, 13, 14, 15]),
        "trump": "S", "called": "SA" if not solo else "HA", "adjutant": adjutant,
        "solo": solo, "honours": rng.randint(6, 20), "discarded": 0, "last_trick": None,
        "redeal": False,
    }  # fmt: skip


def snapshot(club, game):
    ratings = {
        r.player_id: (r.mu, r.sigma, r.deals, r.last_played)
        for r in Rating.objects.filter(club=club, game=game)
    }
    history = sorted(
        RatingHistory.objects.filter(club=club, game=game).values_list(
            "player_id", "deal_id", "n", "date", "mu", "sigma"
        )
    )
    state = RatingState.objects.get(club=club, game=game)
    return ratings, history, (state.deals, state.last_deal_id, state.last_date, state.handicaps)


def assert_same(a, b):
    ra, ha, sa = a
    rb, hb, sb = b
    assert ra.keys() == rb.keys()
    for key in ra:
        assert ra[key] == pytest.approx(rb[key], abs=1e-9)
    assert len(ha) == len(hb)
    for x, y in zip(ha, hb, strict=True):
        assert x == pytest.approx(y, abs=1e-9)
    assert sa[:3] == sb[:3]
    assert sa[3].keys() == sb[3].keys()
    for key in sa[3]:
        assert sa[3][key] == pytest.approx(sb[3][key], abs=1e-9)


@pytest.fixture
def napoleon_club(club, players, napoleon_session):
    rng = random.Random(7)
    ids = [p.id for p in players]
    deals = []
    for i in range(14):
        seats = rng.sample(ids, 5)
        deals.append(
            deal_record(session=napoleon_session, data=napoleon_data(seats, rng, redeal=i == 3))
        )
    return club, deals


def test_incremental_equals_replay_and_redeals_rate_nothing(napoleon_club, monkeypatch):
    club, deals = napoleon_club
    incremental = snapshot(club, "napoleon")
    assert incremental[2][0] == 13  # 14 deals, one redeal
    assert not RatingHistory.objects.filter(deal=deals[3]).exists()
    # history rows are written in batches while the score lines are still being read
    monkeypatch.setattr("tournaments.services.ratings.FLUSH_ROWS", 7)
    ratings_replay(club_id=club.pk, game="napoleon")
    assert_same(incremental, snapshot(club, "napoleon"))
    # and both equal the pure maths over the same events
    rater = Rater(NAPOLEON)
    for _deal, _date, event in rating_events(club_id=club.pk, game="napoleon"):
        rater.update(event)
    for player_id, (mu, sigma, _n, _last) in incremental[0].items():
        assert (mu, sigma) == pytest.approx(rater.ratings[player_id], abs=1e-9)


def test_editing_a_deal_rerates_the_club(napoleon_club):
    club, deals = napoleon_club
    before = snapshot(club, "napoleon")
    data = dict(deals[1].data)
    data["honours"] = 20 if data["honours"] < data["bid"] else 0  # flip who won
    deal_update(deal=deals[1], data=data, version=deals[1].version)
    after = snapshot(club, "napoleon")
    assert after[0] != before[0]
    ratings_replay(club_id=club.pk, game="napoleon")
    assert_same(after, snapshot(club, "napoleon"))


def test_delete_and_restore_rerate_and_come_back(napoleon_club):
    club, deals = napoleon_club
    before = snapshot(club, "napoleon")
    deal_delete(deal=deals[5])
    deleted = snapshot(club, "napoleon")
    assert deleted[2][0] == 12
    assert not RatingHistory.objects.filter(deal=deals[5]).exists()
    deal_restore(deal=deals[5])
    assert_same(before, snapshot(club, "napoleon"))


def test_a_back_dated_deal_replays_in_date_order(napoleon_club, players):
    club, deals = napoleon_club
    ruleset = deals[0].session.ruleset
    earlier = factories.session(club=club, ruleset=ruleset, date=datetime.date(2026, 11, 1))
    rng = random.Random(1)
    back = deal_record(session=earlier, data=napoleon_data([p.id for p in players[:5]], rng))
    mine = snapshot(club, "napoleon")
    assert mine[2][0] == 14
    assert mine[2][1] == deals[-1].pk  # the newest deal is still the last one rated
    first = RatingHistory.objects.filter(deal=back)
    assert first.exists() and all(row.n == 1 for row in first)
    ratings_replay(club_id=club.pk, game="napoleon")
    assert_same(mine, snapshot(club, "napoleon"))


def test_daifugo_rounds_rate_the_order_of_going_out(club, players, daifugo_session):
    ids = [p.id for p in players[:5]]
    deal_record(session=daifugo_session, data={"order": ids, "forbidden": []})
    deal_record(session=daifugo_session, data={"order": ids[::-1], "forbidden": [ids[4]]})
    deal_record(session=daifugo_session, data={"order": ids, "forbidden": []})
    mine = snapshot(club, "daifugo")
    mu = {pid: values[0] for pid, values in mine[0].items()}
    assert mu[ids[0]] > mu[ids[4]]
    ratings_replay(club_id=club.pk, game="daifugo")
    assert_same(mine, snapshot(club, "daifugo"))


def test_an_import_replays_once_and_equals_replay(club):
    results_import(club=club, file=(SAMPLES / "daifugo.csv").read_bytes())
    results_import(club=club, file=(SAMPLES / "napoleon.csv").read_bytes())
    for game in ("napoleon", "daifugo"):
        imported = snapshot(club, game)
        assert imported[2][0] > 0
        ratings_replay(club_id=club.pk, game=game)
        assert_same(imported, snapshot(club, game))


def test_a_club_recorded_before_ratings_existed_is_replayed_on_its_next_deal(napoleon_club):
    club, deals = napoleon_club
    full = snapshot(club, "napoleon")
    with club_versions.unchecked():  # a club's rows from before ratings existed
        RatingState.objects.filter(club=club).delete()
        Rating.objects.filter(club=club).delete()
        RatingHistory.objects.filter(club=club).delete()
    out = io.StringIO()
    call_command("ratings_rebuild", club=club.slug, stdout=out)
    assert "napoleon: 13 deals rated" in out.getvalue()
    assert_same(full, snapshot(club, "napoleon"))
    with club_versions.unchecked():
        RatingState.objects.filter(club=club).delete()  # as before the upgrade: no state at all
    rng = random.Random(3)
    deal_record(session=deals[0].session, data=napoleon_data(deals[0].data["seats"], rng))
    assert RatingState.objects.get(club=club, game="napoleon").deals == 14
    assert RatingHistory.objects.filter(club=club).values("deal").distinct().count() == 14
