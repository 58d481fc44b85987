"""A deal recorded while an import's ratings replay runs: it does not wait for the replay, and
the ratings end exactly as a replay from scratch gives them. Real threads, each with its own
connection (SQLite: a file database; PostgreSQL: row locks)."""

import threading
import time

import pytest
from django.db import connections, transaction
from django.urls import reverse

from tests import factories
from tests.hardening.helpers import WAITED_FOR_A_LOCK, build_club, napoleon_data
from tests.imports.helpers import NAPOLEON_HEADER, csv_bytes
from tournaments.models import Deal, Rating, RatingHistory, RatingState
from tournaments.services import ratings
from tournaments.services.deals import deal_record
from tournaments.services.imports import results_import

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("threaded_db")]


def _snapshot(club, game="napoleon"):
    state = RatingState.objects.get(club=club, game=game)
    # Only the current generation of the history is left (older ones deleted after the switch,
    # a replay that was not written deleted its own rows).
    others = RatingHistory.objects.filter(club=club, game=game).exclude(generation=state.generation)
    assert not others.exists(), list(others.values_list("generation", flat=True).distinct())
    return (
        state.deals, state.last_deal_id, state.last_date, state.handicaps,
        sorted(Rating.objects.filter(club=club, game=game)
               .values_list("player_id", "mu", "sigma", "deals", "last_played")),
        sorted(RatingHistory.objects.filter(club=club, game=game, generation=state.generation)
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
    assert len(recorded) == 1 and meanwhile.took < WAITED_FOR_A_LOCK, meanwhile.took
    # The new deal came after all history: learned on top of the computed replay, which was
    # not computed again.
    assert meanwhile.calls == 1
    state = RatingState.objects.get(club=club, game="napoleon")
    live = Deal.objects.filter(club=club, game="napoleon", redeal=False).count()
    assert state.deals == live == 3 + 12 + 1
    assert state.last_deal_id == recorded[0].pk
    assert _snapshot(club) == _from_scratch(club)


def test_a_deal_edited_during_the_replay_makes_it_compute_again(monkeypatch):
    from tournaments.services.deals import deal_update

    club, players, nap, _dai = build_club(deals=4)
    ids = [p.id for p in players]
    first = Deal.objects.get(session=nap, seq=1)
    meanwhile = _Meanwhile(
        monkeypatch,
        lambda: deal_update(deal=first, data=napoleon_data(ids, n=9), version=first.version),
    )
    results_import(club=club, file=_import_file())
    # The edit replays in its own transaction (call 2) and moves the version: the import's
    # replay is not written as computed but computed again, with the edit (call 3).
    assert meanwhile.calls == 3
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


class _WriterHeld:
    """Another connection holds SQLite's one writer (as an import's write transaction does)."""

    def __init__(self, club):
        self.club = club
        self.taken, self.release = threading.Event(), threading.Event()
        self.thread = threading.Thread(target=self._hold)

    def _hold(self):
        from tournaments.services.busy import bulk_write
        from tournaments.services.clubs import club_update

        try:
            with bulk_write(), transaction.atomic():
                club_update(club=self.club, name="取り込み中", is_public=self.club.is_public)
                self.taken.set()
                self.release.wait(timeout=30)
        finally:
            connections.close_all()

    def __enter__(self):
        self.thread.start()
        assert self.taken.wait(timeout=10)
        return self

    def __exit__(self, *exc):
        self.release.set()
        self.thread.join(timeout=30)
        return False


@pytest.fixture
def _sqlite_only():
    if connections["default"].vendor != "sqlite":
        pytest.skip("SQLite's one writer; PostgreSQL deals do not wait for an import's write")


@pytest.mark.usefixtures("_sqlite_only")
def test_on_sqlite_a_deal_waits_briefly_for_an_import_write_then_is_refused_to_resend(
    settings, client, english
):
    from tournaments.services.busy import DatabaseBusy, bounded_wait

    settings.SQLITE_DEAL_WAIT_SECONDS = 0.5
    owner = factories.UserFactory(username="keeper-busy")
    club, players, nap, _dai = build_club(deals=1, owner=owner)
    ids = [p.id for p in players]
    before = Deal.objects.filter(session=nap).count()
    client.force_login(owner)
    with _WriterHeld(club):
        started = time.perf_counter()
        with pytest.raises(DatabaseBusy), bounded_wait():  # as a web request runs
            deal_record(session=nap, data=napoleon_data(ids, n=5))
        assert time.perf_counter() - started < WAITED_FOR_A_LOCK
        # Through the entry page as the phone's outbox sends it: 503 "try again", never 500.
        post = {"seats": [str(i) for i in ids[:5]], "napoleon": str(ids[0]), "bid": "13",
                "trump": "S", "called_suit": "H", "called_rank": "A", "adjutant": str(ids[1]),
                "honours": "14", "discarded": "0", "action": "save",
                "client_id": "5b0c3a52-8a7e-4a43-9d43-0d5b1c1f0a11"}  # fmt: skip
        response = client.post(reverse("deal_new", args=[club.slug, nap.pk]), post,
                               HTTP_ACCEPT="application/json",
                               HTTP_X_EFUDA_OUTBOX="live",
                               HTTP_X_EFUDA_AUTHOR=f"u:{owner.pk}")  # fmt: skip
        assert response.status_code == 503 and response["Retry-After"]
        reply = response.json()
        assert reply["ok"] is False and reply["busy"] is True
        assert "busy writing a large import" in reply["message"]
        page = client.post(reverse("deal_new", args=[club.slug, nap.pk]), post)  # no script
        assert page.status_code == 503 and "busy writing a large import" in page.content.decode()
    assert Deal.objects.filter(session=nap).count() == before  # nothing half-written
    from tournaments.services.busy import bulk_write_running

    assert not bulk_write_running()  # the mark went with the write
    # Once the write is over, the resent deal goes in (once).
    for _ in range(2):
        response = client.post(reverse("deal_new", args=[club.slug, nap.pk]), post,
                               HTTP_ACCEPT="application/json",
                               HTTP_X_EFUDA_OUTBOX="queued",
                               HTTP_X_EFUDA_AUTHOR=f"u:{owner.pk}")  # fmt: skip
        assert response.status_code == 200 and response.json()["ok"] is True
    assert Deal.objects.filter(session=nap).count() == before + 1


@pytest.mark.usefixtures("_sqlite_only")
def test_on_sqlite_a_tournament_table_deal_waits_as_briefly_as_a_club_deal(settings):
    import datetime

    from tournaments.services import events as svc
    from tournaments.services.busy import DatabaseBusy, bounded_wait

    settings.SQLITE_DEAL_WAIT_SECONDS = 0.5
    club, _players, _nap, _dai = build_club(deals=0)
    wiki = factories.ClubRuleSetFactory(club=club, code="wiki-busy", preset="napoleon-wiki")
    t = svc.tournament_create(club=club, name="Busy Cup", date=datetime.date(2026, 11, 21),
                              ruleset=wiki, seed=1)  # fmt: skip
    for i in range(1, 6):
        svc.entry_add(tournament=t, name=f"Busy{i}", checked_in=True)
    table = svc.round_start(rnd=svc.round_draw(tournament=t)).tables.get()
    with _WriterHeld(club):
        started = time.perf_counter()
        with pytest.raises(DatabaseBusy), bounded_wait():  # nested transactions inside
            svc.table_deal_record(table=table, data=napoleon_data(list(table.seats), n=1),
                                  staff=True)  # fmt: skip
        assert time.perf_counter() - started < WAITED_FOR_A_LOCK
    assert Deal.objects.filter(session=table.session).count() == 0  # nothing half-written


@pytest.mark.usefixtures("_sqlite_only")
def test_on_sqlite_an_edit_delete_or_restore_waits_as_briefly_as_a_new_deal(settings, client):
    from tournaments.services.busy import DatabaseBusy, bounded_wait
    from tournaments.services.deals import deal_delete, deal_restore, deal_update

    settings.SQLITE_DEAL_WAIT_SECONDS = 0.5
    owner = factories.UserFactory(username="keeper-edit-busy")
    club, players, nap, _dai = build_club(deals=2, owner=owner)
    ids = [p.id for p in players]
    first, second = Deal.objects.get(session=nap, seq=1), Deal.objects.get(session=nap, seq=2)
    deal_delete(deal=second)
    before = sorted(Deal.objects.filter(session=nap).values_list("id", "version", "is_deleted"))
    writes = {
        "edit": lambda: deal_update(deal=first, data=napoleon_data(ids, n=5),
                                    version=first.version),
        "delete": lambda: deal_delete(deal=first),
        "restore": lambda: deal_restore(deal=second),
    }  # fmt: skip
    client.force_login(owner)
    with _WriterHeld(club):
        for name, write in writes.items():
            started = time.perf_counter()
            with pytest.raises(DatabaseBusy), bounded_wait():
                write()
            assert time.perf_counter() - started < WAITED_FOR_A_LOCK, name
        # Through the page: 503 "save again", not a 500 after the whole busy timeout.
        started = time.perf_counter()
        response = client.post(reverse("deal_delete", args=[club.slug, first.pk]))
        assert response.status_code == 503 and time.perf_counter() - started < WAITED_FOR_A_LOCK
    after = sorted(Deal.objects.filter(session=nap).values_list("id", "version", "is_deleted"))
    assert after == before  # nothing changed
    deal_delete(deal=first)  # once the write is over, it goes through
    assert Deal.objects.get(pk=first.pk).is_deleted
