"""``/healthz`` for the proxy and monitors: 200 only when the database answers, every migration
is applied and the task worker was seen within three heartbeats; 503 naming the failing part
otherwise; JSON, never cached, no session, one query once the migrations were found applied."""

import datetime
import logging
import threading

import pytest
from django.db import OperationalError, connection
from django.db.migrations.recorder import MigrationRecorder
from django.test import Client
from django.utils import timezone

from tests import factories
from tournaments.management.commands import worker
from tournaments.models import WorkerBeat
from tournaments.selectors import health
from tournaments.services.worker_beat import worker_beat_record

pytestmark = pytest.mark.django_db

BEAT = 30  # settings.WORKER_HEARTBEAT_SECONDS in these tests


@pytest.fixture(autouse=True)
def _fresh(settings, monkeypatch):
    settings.WORKER_HEARTBEAT_SECONDS = BEAT
    monkeypatch.setattr(health, "_applied", set())  # each test finds the migrations itself


def _ask(client=None):
    answer = (client or Client()).get("/healthz")
    return answer, answer.json()


def _seen(seconds_ago: int) -> None:
    now = timezone.now() - datetime.timedelta(seconds=seconds_ago)
    worker_beat_record(host="worker-1", now=now)


def test_all_well_answers_200_in_json_never_cached_without_a_cookie():
    _seen(5)
    answer, body = _ask()
    assert answer.status_code == 200 and answer["Content-Type"] == "application/json"
    assert body["ok"] is True
    assert body["checks"]["database"] == {"ok": True}
    assert body["checks"]["migrations"] == {"ok": True, "unapplied": 0}
    assert body["checks"]["worker"]["ok"] is True
    assert 5 <= body["checks"]["worker"]["seen_seconds_ago"] <= 60
    assert "no-store" in answer["Cache-Control"]
    assert not answer.cookies  # no session, no CSRF cookie


def test_a_worker_never_seen_answers_503():
    answer, body = _ask()
    assert answer.status_code == 503 and body["ok"] is False
    assert body["checks"]["worker"] == {"ok": False, "seen_seconds_ago": None}
    assert body["checks"]["database"]["ok"] and body["checks"]["migrations"]["ok"]


def test_the_worker_counts_for_three_heartbeats_then_not():
    _seen(3 * BEAT - 5)
    assert _ask()[0].status_code == 200
    _seen(3 * BEAT + 5)
    answer, body = _ask()
    assert answer.status_code == 503 and body["checks"]["worker"]["ok"] is False
    assert body["checks"]["worker"]["seen_seconds_ago"] >= 3 * BEAT + 5


def test_the_newest_heartbeat_of_any_host_counts():
    _seen(10 * BEAT)
    worker_beat_record(host="worker-2")
    assert _ask()[0].status_code == 200


def test_a_migration_not_applied_answers_503():
    _seen(1)
    MigrationRecorder(connection).record_unapplied("tournaments", "0019_worker_heartbeat")
    answer, body = _ask()
    assert answer.status_code == 503
    assert body["checks"]["migrations"] == {"ok": False, "unapplied": 1}
    assert body["checks"]["database"] == {"ok": True}
    MigrationRecorder(connection).record_applied("tournaments", "0019_worker_heartbeat")
    assert _ask()[0].status_code == 200  # asked again: not kept while something was missing


def test_a_database_that_does_not_answer_gives_503_naming_it(caplog):
    _seen(1)

    def refused(execute, sql, params, many, context):
        raise OperationalError("connection to server at 10.0.0.6 failed: Connection refused")

    with connection.execute_wrapper(refused):
        answer, body = _ask()
    assert answer.status_code == 503 and body["ok"] is False
    assert body["checks"]["database"] == {"ok": False, "error": "OperationalError"}
    assert "10.0.0.6" not in answer.content.decode()  # the log has it, not the public answer
    assert "10.0.0.6" in caplog.text


def test_one_query_a_call_once_the_migrations_were_found(django_assert_num_queries):
    _seen(1)
    client = Client()
    assert _ask(client)[0].status_code == 200
    with django_assert_num_queries(1):
        assert _ask(client)[0].status_code == 200


def test_a_logged_in_browser_gets_no_new_session_or_cookie():
    _seen(1)
    client = Client()
    client.force_login(factories.UserFactory())
    before = client.cookies["sessionid"].value
    answer, body = _ask(client)
    assert answer.status_code == 200 and not answer.cookies
    assert client.cookies["sessionid"].value == before


def test_only_reads():
    assert Client().post("/healthz").status_code == 405


@pytest.mark.django_db(transaction=True)
def test_the_worker_writes_its_heartbeat():
    """manage.py worker's heartbeat thread (one round: stop already set) — then /healthz is 200."""
    assert _ask()[0].status_code == 503
    stop = threading.Event()
    stop.set()
    thread = threading.Thread(target=worker._beat_loop, args=(stop,))
    thread.start()
    thread.join(timeout=60)
    assert WorkerBeat.objects.count() == 1
    assert _ask()[0].status_code == 200


def test_a_503_here_is_not_logged_as_a_server_error(caplog):
    """A monitor asks every few seconds: no ERROR line (and no mail to the admins) each time."""
    answer, _body = _ask()  # no worker seen: 503
    assert answer.status_code == 503
    assert not [r for r in caplog.records if r.name == "django.request"]


def test_other_503s_are_still_logged():
    from tournaments.views import health as view

    record = logging.LogRecord("django.request", logging.ERROR, "", 0, "x", None, None)
    record.status_code = 503
    record.request = type("R", (), {"resolver_match": None})()
    assert view._Unlogged().filter(record) is True
