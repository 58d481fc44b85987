"""A deal recorded while an import's ratings replay runs: it does not wait for the replay, and
the ratings end exactly as a replay from scratch gives them. Real threads, each with its own
connection (SQLite: a file database; PostgreSQL: row locks)."""

import threading
import time

import pytest
from django.db import connections, transaction

from tests.hardening.helpers import build_club, napoleon_data
from tests.imports.helpers import NAPOLEON_HEADER, csv_bytes
from tournaments.models import Deal, Rating, RatingHistory, RatingState
from tournaments.services import ratings
from tournaments.services.deals import deal_record
from tournaments.services.imports import results_import

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("threaded_db")]


def _snapshot(club, game="napoleon"):
    state = RatingState.objects.get(club=club, game=game)
    return (
        state.deals, state.last_deal_id, state.last_date, state.handicaps,
        sorted(Rating.objects.filter(club=club, game=game)
               .values_list("player_id", "mu", "sigma", "deals", "last_played")),
        sorted(RatingHistory.objects.filter(club=club, game=game)
               .values_list("player_id", "deal_id", "n", "date", "mu", "sigma")),
    )  # fmt: skip


def _from_scratch(club, game="napoleon"):
    with transaction.atomic():
        ratings.ratings_replay(club_id=club.pk, game=game)
    return _snapshot(club, game)


class _Meanwhile:
    """Patch the replay's computation: the first time it runs, ``action`` runs in another
    thread (its own connection) and must finish within ``limit`` seconds — it would wait for
    any lock the replay held."""

    def __init__(self, monkeypatch, action, limit=10.0):
        self.calls = 0
        self.took = None
        original = ratings._compute

        def compute(club_id, game):
            self.calls += 1
            result = original(club_id, game)
            if self.calls == 1:
                self._run(action, limit)
            return result

        monkeypatch.setattr(ratings, "_compute", compute)

    def _run(self, action, limit):
        errors = []

        def body():
            started = time.perf_counter()
            try:
                action()
            except Exception as exc:  # noqa: BLE001 - reported below
                errors.append(exc)
            finally:
                self.took = time.perf_counter() - started
                connections.close_all()

        thread = threading.Thread(target=body)
        thread.start()
        thread.join(timeout=limit)
        assert not thread.is_alive(), "the concurrent write waited for the replay's lock"
        assert not errors, errors


def _import_file(days=3, start=1):
    rows = [NAPOLEON_HEADER]
    for d in range(start, start + days):
        for n in range(4):
            nap = ("A", "B", "C", "D", "E")[n]
            rows.append(f"2020-01-{d:02d},A,napoleon-wiki,A;B;C;D;E,{nap},13,S,SA,B,14,0")
    return csv_bytes(*rows)


def test_a_deal_recorded_during_the_import_replay_does_not_wait_and_ratings_end_exact(
    monkeypatch,
):
    club, players, nap, _dai = build_club(deals=4)
    ids = [p.id for p in players]
    recorded = []
    meanwhile = _Meanwhile(
        monkeypatch,
        lambda: recorded.append(deal_record(session=nap, data=napoleon_data(ids, n=7))),
    )
    report = results_import(club=club, file=_import_file())
    assert report.deals == 12
    assert len(recorded) == 1 and meanwhile.took < 2.0, meanwhile.took
    # The replay saw the new deal's version and computed again, including it.
    assert meanwhile.calls == 2
    state = RatingState.objects.get(club=club, game="napoleon")
    live = Deal.objects.filter(club=club, game="napoleon", redeal=False).count()
    assert state.deals == live == 3 + 12 + 1
    assert state.last_deal_id == recorded[0].pk
    assert _snapshot(club) == _from_scratch(club)


def test_a_replay_computed_before_an_import_committed_is_not_written(monkeypatch):
    club, _players, _nap, _dai = build_club(deals=3)
    meanwhile = _Meanwhile(monkeypatch, lambda: results_import(club=club, file=_import_file()))
    ratings.ratings_replay(club_id=club.pk, game="napoleon")  # computes, meanwhile an import
    # The import's own replay ran in the thread (calls 2); ours was computed without its deals,
    # found a newer version under the lock and computed again (call 3).
    assert meanwhile.calls == 3
    assert RatingState.objects.get(club=club, game="napoleon").deals == 2 + 12
    assert _snapshot(club) == _from_scratch(club)
