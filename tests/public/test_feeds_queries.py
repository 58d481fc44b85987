"""The Atom feed's one-line results (``selectors/feeds.py``) read in a fixed number of queries,
however many sessions it lists, and say what each session's own page says: its winners (in
the page's order), their total and its live deals, on sessions built through the services."""

from __future__ import annotations

import datetime
import xml.etree.ElementTree as ET

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests import factories
from tests.hardening.helpers import daifugo_data, napoleon_data
from tournaments.selectors.feeds import feed_sessions
from tournaments.selectors.sessions import session_detail
from tournaments.selectors.visibility import deal_visibility
from tournaments.services.deals import deal_delete, deal_record

ATOM = "{http://www.w3.org/2005/Atom}"
DAY = datetime.date(2026, 11, 21)


@pytest.fixture
def club_world(db):
    club = factories.ClubFactory(is_public=True)
    nap = factories.ClubRuleSetFactory(club=club, code="napoleon-wiki", preset="napoleon-wiki")
    dai = factories.ClubRuleSetFactory(club=club, code="daifugo-common", preset="daifugo-common")
    ids = [factories.PlayerFactory(club=club, name=f"選手{i}").pk for i in range(6)]
    return club, nap, dai, ids


def _add_sessions(club, nap, dai, ids, *, start: int, count: int) -> None:
    """``count`` sessions of every kind the feed summarises: plain, a tie at the top whose
    winners first played in the same deal, a deleted deal, a redeal only, Daifugō, empty."""
    for i in range(start, start + count):
        kind = i % 6
        day = DAY - datetime.timedelta(days=i)
        if kind == 4:
            session = factories.session(club=club, ruleset=dai, date=day, table=f"T{i}")
            for n in range(3):
                deal_record(session=session, data=daifugo_data(ids, n=n))
            continue
        session = factories.session(club=club, ruleset=nap, date=day, table=f"T{i}")
        if kind == 0:
            for n in range(3):
                deal_record(session=session, data=napoleon_data(ids[i % 2 :], n=n + i))
        elif kind == 1:  # the same deal with Napoleon and adjutant swapped: they tie
            c, a, b, *rest = ids  # b, the later player, sits before a in the first deal
            deal_record(session=session, data=napoleon_data([c, b, a, *rest], n=1))  # won
            deal_record(session=session, data=napoleon_data([c, a, b, *rest], n=1))
        elif kind == 2:
            first = deal_record(session=session, data=napoleon_data(ids, n=1))
            deal_record(session=session, data=napoleon_data(ids, n=2))
            deal_delete(deal=first)
        elif kind == 3:
            deal_record(session=session, data=napoleon_data(ids, redeal=True))


def _feed_queries(client, club) -> tuple[int, list]:
    url = reverse("club_sessions_feed", args=[club.slug])
    assert client.get(url).status_code == 200  # what is kept per data version is kept now
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200
    return len(ctx.captured_queries), ET.fromstring(response.content).findall(f"{ATOM}entry")


@pytest.mark.django_db
def test_feed_query_count_does_not_grow_with_its_sessions(client, club_world):
    club, nap, dai, ids = club_world
    _add_sessions(club, nap, dai, ids, start=0, count=2)  # a plain one and a tie
    few, entries = _feed_queries(client, club)
    assert len(entries) == 2
    _add_sessions(club, nap, dai, ids, start=2, count=10)
    many, entries = _feed_queries(client, club)
    assert len(entries) == 12
    assert many == few


@pytest.mark.django_db
def test_feed_results_equal_the_session_pages(client, club_world):
    club, nap, dai, ids = club_world
    _add_sessions(club, nap, dai, ids, start=0, count=12)
    visibility = deal_visibility(club=club, reader=None)
    rows = feed_sessions(club=club, visibility=visibility)
    assert len(rows) == 12
    tied = 0
    for row in rows:
        detail = session_detail(row.session)
        assert row.winners == detail.winners
        assert row.best == (detail.totals[0].points if detail.totals else None)
        assert row.deals == detail.live_deals
        tied += len(row.winners) > 1
    assert tied >= 2  # the tie sessions are there, in the page's order
    assert any(r.deals and not r.winners for r in rows)  # a redeal scores no one
    assert any(r.deals == 1 and r.session.deals.count() == 2 for r in rows)  # deleted: out
    _count, entries = _feed_queries(client, club)
    summaries = [e.find(f"{ATOM}summary").text for e in entries]
    for row, summary in zip(rows, summaries, strict=True):
        if row.winners:
            assert summary.startswith("トップ: " + ", ".join(row.winners))
            assert f"（{row.best:+d}）" in summary  # the Japanese brackets
