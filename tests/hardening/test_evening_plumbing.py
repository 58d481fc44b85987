"""The tournament evening's plumbing (loadtest/evening.py), for a few seconds against the test
server: its scorers log in with their table's PIN and record through the table's entry form,
its phones read their table page and the standings, every answer is 2xx, and every deal a
scorer was told was saved is stored exactly once, in its table's session, numbered 1..N. The
run itself (gunicorn, PostgreSQL, redis, minutes) is a command, not a test: docs/performance.md.
"""

import argparse
from collections import Counter

import pytest

from loadtest.evening import _evening, tournament_evening
from loadtest.webclient import WebClient
from tests import factories
from tournaments.models import Deal

# ~40 s on a loaded machine (the test database is migrated again for a live server)
pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


class _TestServer:
    """What the evening's people need of a server: a client of it."""

    def __init__(self, live_server):
        self.host, self.port = live_server.thread.host, live_server.thread.port

    def client(self) -> WebClient:
        return WebClient(self.host, self.port)


def test_an_evening_records_each_deal_once_and_answers_every_phone(live_server):
    club = factories.ClubFactory(is_public=True)
    factories.ClubRuleSetFactory(club=club, code="napoleon-wiki", preset="napoleon-wiki")
    evening = tournament_evening(club=club, tables=2)
    args = argparse.Namespace(duration=4.0, deal_every=1.0, refresh=0.5, tables=2, phones=12)

    stats, confirmed, _elapsed = _evening(args, _TestServer(live_server), evening)

    assert dict(stats.errors) == {}
    kinds = Counter({kind: len(values) for kind, values in stats.latency.items()})
    assert kinds["table page"] and kinds["standings"] and kinds["tournament page"]
    sessions = {tb["session"] for tb in evening["tables"]}
    assert {session for session, _key in confirmed} == sessions  # every table recorded
    assert kinds["record deal"] == len(confirmed)
    stored = Counter(
        (session, str(key))
        for session, key in Deal.objects.filter(session__in=sessions).values_list(
            "session_id", "client_id"
        )
    )
    assert stored == Counter(confirmed)  # each confirmed deal once, in its table's session
    for session in sessions:
        seqs = sorted(Deal.objects.filter(session=session).values_list("seq", flat=True))
        assert seqs == list(range(1, len(seqs) + 1))
