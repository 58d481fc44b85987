"""Every counter of the standings and bid aggregates stays equal to what the live score lines
add up to, through records (one upsert per deal), edits, deletes and restores, over two months;
the player check that locks the players refuses exactly what it refused before."""

import datetime
from collections import defaultdict

import pytest

from core.errors import EfudaError
from tests import factories
from tournaments.models import BidAggregate, ScoreLine, StandingAggregate
from tournaments.services.aggregates import spec_of
from tournaments.services.deals import deal_delete, deal_record, deal_restore, deal_update
from tournaments.services.scoring_bridge import BID_COUNTERS, bid_counters, counters, periods

pytestmark = pytest.mark.django_db


def stored(club) -> tuple[dict, dict]:
    standing = {
        (a.player_id, a.game, a.period): tuple(getattr(a, n) for n in StandingAggregate.COUNTERS)
        for a in StandingAggregate.objects.filter(club=club)
        if any(getattr(a, n) for n in StandingAggregate.COUNTERS)
    }
    bids = {
        (b.player_id, b.bid, b.trump): tuple(getattr(b, n) for n in BID_COUNTERS)
        for b in BidAggregate.objects.filter(club=club)
        if any(getattr(b, n) for n in BID_COUNTERS)
    }
    return standing, bids


def from_lines(club) -> tuple[dict, dict]:
    standing = defaultdict(lambda: dict.fromkeys(StandingAggregate.COUNTERS, 0))
    bids = defaultdict(lambda: dict.fromkeys(BID_COUNTERS, 0))
    for line in ScoreLine.objects.filter(club=club, deal__is_deleted=False):
        spec = spec_of(line)
        for period in periods(line.date):
            for name, value in counters(spec).items():
                standing[(line.player_id, line.game, period)][name] += value
        for name, value in (bid_counters(spec) or {}).items():
            bids[(line.player_id, spec.bid, spec.trump)][name] += value
    return (
        {k: tuple(v[n] for n in StandingAggregate.COUNTERS) for k, v in standing.items()
         if any(v.values())},
        {k: tuple(v[n] for n in BID_COUNTERS) for k, v in bids.items() if any(v.values())},
    )  # fmt: skip


def napoleon(seats, **changes):
    data = {"seats": seats, "napoleon": seats[0], "bid": 13, "trump": "S", "called": "SA",
            "adjutant": seats[1], "solo": False, "honours": 14, "discarded": 0,
            "last_trick": None, "redeal": False}  # fmt: skip
    return data | changes


def test_every_counter_follows_the_lines(club, players):
    nap = factories.ClubRuleSetFactory(club=club, code="napoleon-wiki", preset="napoleon-wiki")
    dai = factories.ClubRuleSetFactory(club=club, code="daifugo-common", preset="daifugo-common")
    october = factories.session(club=club, ruleset=nap, date=datetime.date(2026, 10, 30))
    november = factories.session(club=club, ruleset=nap, date=datetime.date(2026, 11, 20))
    rounds = factories.session(club=club, ruleset=dai, date=datetime.date(2026, 11, 20))
    ids = [p.id for p in players]
    deals = [
        deal_record(session=october, data=napoleon(ids[:5])),
        deal_record(session=october, data=napoleon(ids[1:6], adjutant=None, solo=True, honours=16)),
        deal_record(session=november, data=napoleon(ids[:5], bid=15, trump="H", honours=11)),
        deal_record(session=november, data=napoleon(ids[:5], bid=15, trump="H", honours=17)),
        deal_record(session=rounds, data={"order": ids[:4], "forbidden": []}),
        deal_record(
            session=rounds, data={"order": [ids[1], ids[0], *ids[2:4]], "forbidden": [ids[2]]}
        ),  # fmt: skip
    ]
    assert stored(club) == from_lines(club)
    assert len(stored(club)[1]) == 3  # 13♠ twice, one of them solo; 15♥ twice
    deal_update(deal=deals[2], data=napoleon(ids[:5], bid=16, trump="D", honours=18),
                version=deals[2].version)  # fmt: skip
    assert stored(club) == from_lines(club)
    deal_delete(deal=deals[4])  # the later round is re-scored: no 都落ち any more
    assert stored(club) == from_lines(club)
    deal_restore(deal=deals[4].__class__.objects.get(pk=deals[4].pk))
    assert stored(club) == from_lines(club)


def test_the_first_refusal_is_the_one_named_before(daifugo_session, players):
    a, b, c, d = (p.id for p in players[:4])
    stranger = factories.PlayerFactory()  # of another club
    with pytest.raises(EfudaError) as err:
        data = {"order": [a, stranger.id, c], "players": [a, "x"], "forbidden": []}
        deal_record(session=daifugo_session, data=data)
    assert (err.value.field, err.value.params["value"]) == ("order", str(stranger.id))
    with pytest.raises(EfudaError) as err:
        data = {"order": [a, b, c, d], "players": [a, "x", stranger.id], "forbidden": []}
        deal_record(session=daifugo_session, data=data)
    assert (err.value.field, err.value.params["value"]) == ("order", "x")
    assert not daifugo_session.deals.exists()
