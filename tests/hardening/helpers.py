"""Building blocks for the hardening tests: valid deal inputs and database snapshots."""

import datetime
import itertools
import threading

from django.db import connections
from django.db.models import Count, Sum

from tests import factories
from tournaments.models import BidAggregate, Deal, ScoreLine, StandingAggregate
from tournaments.services.deals import deal_record

TRUMPS = "SHDC"
_counter = itertools.count()


def napoleon_data(ids, *, n=0, redeal=False):
    """A valid five-player napoleon-wiki deal that varies with ``n`` (win/loss, solo, trump)."""
    ids = [str(i) for i in ids[:5]]
    if redeal:
        return {
            "seats": ids,
            "napoleon": None,
            "bid": None,
            "trump": None,
            "called": None,
            "adjutant": None,
            "honours": 0,
            "discarded": 0,
            "last_trick": None,
            "redeal": True,
        }
    nap = ids[n % 5]
    solo = n % 4 == 3
    adjutant = None if solo else ids[(n + 1) % 5]
    bid = 13 + n % 4
    return {
        "seats": ids,
        "napoleon": nap,
        "bid": bid,
        "trump": TRUMPS[n % 4],
        "called": "SA" if not solo else "HA",
        "adjutant": adjutant,
        "solo": solo,
        "honours": bid + (1 if n % 3 else -2),
        "discarded": 0,
        "last_trick": None,
        "redeal": False,
    }


def daifugo_data(ids, *, n=0, forbidden=()):
    ids = [str(i) for i in ids[:5]]
    shift = n % len(ids)
    return {"order": ids[shift:] + ids[:shift], "forbidden": [str(f) for f in forbidden]}


def build_club(*, deals=6, public=False, owner=None):
    """A club with players, one Napoleon and one Daifugō session, ``deals`` of each."""
    club = factories.ClubFactory(is_public=public)
    if owner is not None:
        factories.MembershipFactory(club=club, user=owner, role="owner")
    players = [factories.PlayerFactory(club=club, name=f"P{next(_counter)}") for _ in range(6)]
    ids = [p.id for p in players]
    nap_rules = factories.ClubRuleSetFactory(
        club=club, code="napoleon-wiki", preset="napoleon-wiki"
    )
    dai_rules = factories.ClubRuleSetFactory(
        club=club, code="daifugo-common", preset="daifugo-common"
    )
    day = datetime.date(2026, 10, 3)
    nap = factories.session(club=club, ruleset=nap_rules, date=day)
    dai = factories.session(club=club, ruleset=dai_rules, date=day)
    for n in range(deals):
        deal_record(session=nap, data=napoleon_data(ids, n=n, redeal=(n == 2)), user=owner)
        deal_record(session=dai, data=daifugo_data(ids, n=n), user=owner)
    return club, players, nap, dai


def standings_snapshot(club=None):
    """Everything a standings page could show, as comparable plain values."""
    aggs = StandingAggregate.objects.all()
    lines = ScoreLine.objects.all()
    bids = BidAggregate.objects.all()
    deals = Deal.objects.all()
    if club is not None:
        aggs, lines = aggs.filter(club=club), lines.filter(club=club)
        bids, deals = bids.filter(club=club), deals.filter(club=club)
    agg_rows = sorted(
        tuple(row.values())
        for row in aggs.values(
            "club_id", "game", "period", "player_id", *StandingAggregate.COUNTERS
        )
    )
    line_sums = sorted(
        (r["player_id"], r["game"], r["total"], r["n"])
        for r in lines.values("player_id", "game").annotate(total=Sum("points"), n=Count("id"))
    )
    bid_rows = sorted(
        tuple(r.values())
        for r in bids.values(
            "player_id", "bid", "trump", "deals", "wins", "solo_deals", "solo_wins", "points"
        )
    )
    deal_rows = sorted(
        (
            d.id,
            d.session_id,
            d.seq,
            d.version,
            d.is_deleted,
            repr(sorted(d.data.items())),
            repr(d.outcome.get("points")),
        )
        for d in deals
    )
    return {
        "aggregates": agg_rows,
        "line_sums": line_sums,
        "bids": bid_rows,
        "deals": deal_rows,
        "lines": lines.count(),
    }


def aggregates_match_lines(club) -> bool:
    """Every all-time aggregate equals the sum of that player's live score lines."""
    sums = {
        (r["player_id"], r["game"]): (r["total"], r["n"])
        for r in ScoreLine.objects.filter(club=club)
        .values("player_id", "game")
        .annotate(total=Sum("points"), n=Count("id"))
    }
    aggs = {
        (a.player_id, a.game): (a.points, a.deals)
        for a in StandingAggregate.objects.filter(club=club, period="all")
        if a.deals or a.points
    }
    return sums == aggs


def run_threads(n, target):
    """Start ``n`` threads at the same moment, each running ``target(i)`` on its own database
    connection; return (results, errors) by thread index."""
    barrier = threading.Barrier(n)
    results, errors = {}, {}

    def wrapper(i):
        try:
            barrier.wait(timeout=30)
            results[i] = target(i)
        except Exception as exc:  # noqa: BLE001 - reported by the test
            errors[i] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=wrapper, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in threads), "a request thread hung"
    return results, errors


# Lock tests tell "waited for the lock" from "did not wait" (or "waited only SQLite's bounded
# 1.5 s, then was told to save again"): a write that waited would wait the whole SQLite busy
# timeout (20 s) or until the holder let go, which the tests hold open. Half the busy timeout
# separates the two however busy the machine is; no test asserts how fast anything runs.
WAITED_FOR_A_LOCK = 10.0


def hit_all_methods(client, url: str, **extra) -> None:
    """GET and POST ``url`` (with ``extra``: WSGI environ keys, ``HTTP_COOKIE``, ``HTTP_HOST``…):
    anything but a server error (a 500) is an answer."""
    for method in (client.get, client.post):
        response = method(url, **extra)
        assert response.status_code < 500, (method.__name__, url, response.status_code)
