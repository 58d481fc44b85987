"""The API's answer to a recorded deal (a session's deal, a Daifugō round, a tournament table's
deal) and to a deal read reads that one deal, not its whole session: its query count does not
grow with the deals recorded before it, no query reads the session's deals, and the answer is
the deal as its session page shows it."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests import factories
from tests.api.test_deals import bearer, deal_body, post, url_of
from tests.hardening.helpers import daifugo_data, napoleon_data
from tournaments.api.reads import deal_out
from tournaments.selectors.sessions import session_detail
from tournaments.services import events as svc
from tournaments.services.deals import deal_record

pytestmark = pytest.mark.django_db


def as_on_its_page(session, deal_id: int) -> dict:
    """The deal's row of the whole session's detail, as the answer was before it read one."""
    return deal_out(next(d for d in session_detail(session).deals if d.id == deal_id))


def used(club, headers) -> dict:
    """``headers`` once used: a token's first call also notes when it was used."""
    assert Client().get(f"/api/v1/clubs/{club.slug}/sessions", **headers).status_code == 200
    return headers


def counted(call):
    """The call's query count and answer; no query may read the session's deals in full
    (every read of the deals table is bounded by a LIMIT or is an aggregate)."""
    with CaptureQueriesContext(connection) as ctx:
        answer = call()
    whole = [
        q["sql"] for q in ctx.captured_queries
        if q["sql"].startswith("SELECT") and 'FROM "tournaments_deal"' in q["sql"]
        and " LIMIT " not in q["sql"] and "MAX(" not in q["sql"]
    ]  # fmt: skip
    assert not whole
    return len(ctx.captured_queries), answer


def _session(club, code: str, table: str):
    ruleset = factories.ClubRuleSetFactory(club=club, code=code, preset=code)
    day = datetime.date(2026, 11, 20)
    return factories.session(club=club, ruleset=ruleset, date=day, table=table)


@pytest.mark.parametrize("game", ["napoleon-wiki", "daifugo-common"])
def test_a_posted_deals_answer_costs_the_same_after_1_and_10_deals(club, players, users, game):
    headers = used(club, bearer(users["scorekeeper"]))
    ids = [p.id for p in players]
    daifugo = game == "daifugo-common"
    body = {"players": ids[:5], "order": ids[:4]} if daifugo else deal_body(players)
    counts = []
    for earlier in (1, 10):
        session = _session(club, game, f"T{earlier}")
        for n in range(earlier):
            data = daifugo_data(ids, n=n) if daifugo else napoleon_data(ids, n=n)
            deal_record(session=session, data=data)
        url = url_of(session, "rounds" if daifugo else "deals")
        count, answer = counted(lambda url=url: post(url, body, headers))
        assert answer.status_code == 201, answer.content
        assert answer.json() == as_on_its_page(session, answer.json()["id"])
        assert answer.json()["seq"] == earlier + 1
        again = post(url, body, headers, HTTP_IDEMPOTENCY_KEY=f"k{earlier}")
        assert again.json() == as_on_its_page(session, again.json()["id"])
        counts.append(count)
    assert counts[0] == counts[1]


def test_a_table_deals_answer_costs_the_same_after_1_and_10_deals(club, users):
    wiki = factories.ClubRuleSetFactory(club=club, code="napoleon-wiki", preset="napoleon-wiki")
    t = factories.tournament(club=club, ruleset=wiki, entrants=10, rounds_planned=2)
    rnd = svc.round_start(rnd=svc.round_draw(tournament=t))
    headers = used(club, bearer(users["owner"]))
    counts = []
    for earlier, table in zip((1, 10), rnd.tables.order_by("number"), strict=True):
        for n in range(earlier):
            svc.table_deal_record(table=table, data=napoleon_data(table.seats, n=n), staff=True)
        seats = list(table.seats)
        body = {"seats": seats, "napoleon": seats[0], "bid": 13, "trump": "S",
                "called_suit": "S", "called_rank": "A", "adjutant": seats[1], "honours": 14,
                "discarded": 0}  # fmt: skip
        url = f"/api/v1/tournaments/{t.pk}/tables/{table.pk}/deals"
        count, answer = counted(lambda url=url, body=body: post(url, body, headers))
        assert answer.status_code == 201, answer.content
        assert answer.json() == as_on_its_page(table.session, answer.json()["id"])
        assert answer.json()["seq"] == earlier + 1
        counts.append(count)
    assert counts[0] == counts[1]


def test_a_deal_read_costs_the_same_after_1_and_10_deals(club, players, users):
    headers = used(club, bearer(users["scorekeeper"], scope="read"))
    ids = [p.id for p in players]
    counts = []
    for later in (1, 10):
        session = _session(club, "napoleon-wiki", f"T{later}")
        deal = deal_record(session=session, data=napoleon_data(ids, n=1))
        for n in range(later):
            deal_record(session=session, data=napoleon_data(ids, n=n))
        url = f"/api/v1/clubs/{club.slug}/deals/{deal.pk}"
        count, answer = counted(lambda url=url: Client().get(url, **headers))
        assert answer.status_code == 200, answer.content
        assert answer.json() == as_on_its_page(session, deal.pk)
        counts.append(count)
    assert counts[0] == counts[1]
