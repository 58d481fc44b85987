"""A lost database connection answers 503 with Retry-After, never a 500 — in a view, and in a
session read outside one — and only a lost connection: every other database error is still a
500. (The real thing, PostgreSQL restarted under readers: test_db_restart.py.)"""

import logging

import psycopg
import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.db import OperationalError, ProgrammingError
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests import factories
from tournaments.db_errors import lost_connection

pytestmark = pytest.mark.django_db


def _lost() -> OperationalError:
    """What Django raises when the server ends the connection (``pg_ctl restart -m fast``)."""
    try:
        try:
            raise psycopg.errors.AdminShutdown("terminating connection due to administrator")
        except psycopg.Error as cause:
            raise OperationalError(str(cause)) from cause
    except OperationalError as error:
        return error


@pytest.fixture
def member_client():
    club = factories.ClubFactory(is_public=True)
    member = factories.UserFactory()
    factories.MembershipFactory(club=club, user=member, role="member")
    client = Client(raise_request_exception=False)
    client.force_login(member)
    return club, client


def _session_read_fails(monkeypatch, error):
    def failing(self):
        raise error

    monkeypatch.setattr(SessionStore, "_get_session_from_db", failing)


def test_a_session_read_that_meets_a_lost_connection_answers_503(member_client, monkeypatch,
                                                                  caplog):  # fmt: skip
    club, client = member_client
    _session_read_fails(monkeypatch, _lost())
    with translation.override("en"):
        page = client.get(reverse("club_home", args=[club.slug]), HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 503 and page["Retry-After"] == "5"
    html = page.content.decode()
    assert "<h1>Try again in a moment</h1>" in html and '<main id="main"' in html
    assert "_session_cache" not in caplog.text and "Traceback" not in caplog.text
    lines = [r for r in caplog.records if r.name in ("efuda.db", "django.request")]
    assert lines and all(r.levelno == logging.WARNING and not r.exc_info for r in lines)
    assert "database connection lost (terminating connection" in lines[0].getMessage()


def test_the_phone_outbox_is_told_to_send_again(member_client, monkeypatch):
    club, client = member_client
    _session_read_fails(monkeypatch, _lost())
    reply = client.get(reverse("club_home", args=[club.slug]), HTTP_X_EFUDA_OUTBOX="1",
                       HTTP_ACCEPT="application/json")  # fmt: skip
    assert reply.status_code == 503 and reply["Retry-After"] == "5"
    assert reply.json()["busy"] is True and reply.json()["ok"] is False


def test_a_lost_connection_outside_any_view_answers_503(member_client, monkeypatch):
    """The session read first in a middleware after the view (the reader named on every page):
    Django's 500 handler answers it."""
    club, client = member_client
    _session_read_fails(monkeypatch, _lost())
    page = client.get("/no-such-page-at-all/")  # a 404 page is text/html: its reader is named
    assert page.status_code == 503 and page["Retry-After"] == "5"


@pytest.mark.parametrize(
    "error",
    [
        OperationalError("no such table: tournaments_club"),  # SQLite's: not a connection
        ProgrammingError("relation does not exist"),
    ],
)
def test_any_other_database_error_is_still_a_500(member_client, monkeypatch, error):
    club, client = member_client
    _session_read_fails(monkeypatch, error)
    page = client.get(reverse("club_home", args=[club.slug]))
    assert page.status_code == 500 and "Retry-After" not in page


def test_what_counts_as_a_lost_connection():
    assert lost_connection(_lost())
    refused = OperationalError("connection refused")
    refused.__cause__ = psycopg.OperationalError("connection failed: Connection refused")
    assert lost_connection(refused)
    assert not lost_connection(OperationalError("database is locked"))  # SQLite, no cause
    assert not lost_connection(RuntimeError("boom")) and not lost_connection(None)


def _worker(monkeypatch, failures: list, probes: list[bool]):
    """The task worker's loop, with db_worker's own loop replaced by one that raises each of
    ``failures`` in turn and then returns, and database probes answering ``probes``."""
    from django_tasks_db.management.commands import db_worker

    from tournaments.management.commands import worker

    runs = []

    def vendor_run(self):
        runs.append(1)
        if failures:
            raise failures.pop(0)

    monkeypatch.setattr(db_worker.Worker, "run", vendor_run)
    monkeypatch.setattr(worker, "_answers", lambda: probes.pop(0))
    monkeypatch.setattr(worker, "PROBE_EVERY", 0)
    loop = worker.Worker(queue_names=["default"], interval=0, batch=False,
                         backend_name="default", startup_delay=False, max_tasks=None,
                         worker_id="test", excluded_queue_names=[])  # fmt: skip
    return loop, runs


def test_the_worker_waits_for_the_database_and_goes_on(monkeypatch, caplog):
    caplog.set_level(logging.INFO, logger="efuda.worker")
    loop, runs = _worker(monkeypatch, [_lost()], [False, False, True])
    loop.run()
    assert len(runs) == 2  # db_worker's loop started again once the database answered
    lines = [(r.levelname, r.getMessage()) for r in caplog.records if r.name == "efuda.worker"]
    assert [level for level, _text in lines] == ["WARNING", "INFO"]
    assert lines[0][1].startswith("the database went away (terminating connection")
    assert lines[1][1].startswith("the database is back after")


def test_the_worker_still_stops_on_any_other_database_error(monkeypatch):
    loop, runs = _worker(monkeypatch, [ProgrammingError("relation does not exist")], [])
    with pytest.raises(ProgrammingError):
        loop.run()
    assert len(runs) == 1
