"""PostgreSQL restarted under load costs no 500 and no worker.

A cluster of its own (``initdb`` on a free port, as the postgres user: root only) holds a copy
of the test database's schema and the demo club; a real gunicorn with the production settings
(psycopg's pool, checked connections) serves it. Readers — visitors, logged-in members, a
scorekeeper's entry form — keep reading while ``pg_ctl restart -m fast`` runs: every answer is
200 or a 503 with ``Retry-After``, and every request after the restart is 200. A real
``manage.py worker`` sees the database stop, says so in one line, waits, and once it is back
runs an import queued afterwards.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import pytest
from django.db import connections
from django.urls import reverse

from loadtest.parts import Primary, pg_bindir, wait_for
from loadtest.server import PYTHON, ROOT, Server, manage, server_env

# django_db: the suite's test database is set up (its schema is copied), though no test uses it.
pytestmark = [pytest.mark.shared_parts, pytest.mark.django_db]

DATABASE = "efuda"
READERS = 5


def _copy_schema(primary: Primary) -> None:
    """The suite's migrated test database (schema, migrations, content types) into ``efuda``."""
    db = connections["default"].settings_dict
    env = {**os.environ, "PGPASSWORD": db["PASSWORD"] or ""}
    dump = subprocess.run(
        [str(primary.bindir / "pg_dump"), "--no-owner", "--no-acl", "-h", db["HOST"] or "127.0.0.1",
         "-p", str(db["PORT"] or 5432), "-U", db["USER"], "-d", db["NAME"]],
        capture_output=True, text=True, env=env, timeout=120, check=True,
    ).stdout  # fmt: skip
    primary.psql("postgres", f"CREATE DATABASE {DATABASE}")
    loaded = subprocess.run(
        [str(primary.bindir / "psql"), "-h", "127.0.0.1", "-p", str(primary.port), "-U",
         "postgres", "-d", DATABASE, "-v", "ON_ERROR_STOP=1", "-q"],
        input=dump, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert loaded.returncode == 0, loaded.stderr[-2000:]


@pytest.fixture(scope="module")
def site(django_db_setup, django_db_blocker):
    """The cluster, the demo club in it and gunicorn on it; torn down after the module."""
    default = connections["default"]
    if default.vendor != "postgresql":
        pytest.skip("restarting the database needs PostgreSQL (DATABASE_URL=postgres://…)")
    if os.geteuid() != 0 or shutil.which("runuser") is None:
        pytest.skip("a cluster of its own is run as the postgres user: root only")
    with django_db_blocker.unblock():
        bindir = pg_bindir(default.pg_version)
        if bindir is None or not (bindir / "initdb").exists():
            pytest.skip("no PostgreSQL server binaries for the suite's version")
        work = Path(tempfile.mkdtemp(prefix="efuda-restart-"))
        shutil.chown(work, "postgres", "postgres")
        primary = Primary(bindir, work / "data")
        server = None
        try:
            primary.create()
            primary.start()
            _copy_schema(primary)
            env = server_env(primary.url(DATABASE), work / "static", LOG_LEVEL="INFO",
                             DB_POOL_TIMEOUT="2", DB_POOL_MIN_SIZE="2")  # fmt: skip
            static = subprocess.Popen(
                [PYTHON, "manage.py", "collectstatic", "--noinput", "-v", "0", "--ignore",
                 "admin"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE, text=True,
            )  # fmt: skip
            manage(env, "demo_data", "--reset", "--deals", "300")
            assert static.wait(timeout=300) == 0, static.stderr.read()[-2000:]
            server = Server(env, workers=2, log=work / "gunicorn.log").start()
            yield primary, server, env, work
        finally:
            if server is not None:
                server.stop()
            primary.stop("immediate")
            shutil.rmtree(work, ignore_errors=True)


class Reader(threading.Thread):
    """One browser reading its pages in turn until told to stop (bounded: 2,000 requests)."""

    def __init__(self, server: Server, pages: list[str], login: tuple[str, str] | None):
        super().__init__(daemon=True)
        self.client = server.client()
        self.pages, self.login = pages, login
        self.answers: list[tuple[float, int, str | None]] = []  # (sent at, status, Retry-After)
        self.stop = threading.Event()

    def run(self) -> None:
        if self.login:
            self.client.login(*self.login)
        for n in range(2000):
            if self.stop.is_set():
                return
            sent = time.monotonic()
            try:
                response = self.client.get(self.pages[n % len(self.pages)])
                self.answers.append((sent, response.status, response.headers.get("retry-after")))
            except OSError:  # gunicorn itself gone: never expected
                self.answers.append((sent, 0, None))
                self.client.close()

    def after(self, moment: float) -> list[int]:
        return [status for sent, status, _retry in self.answers if sent > moment]


def _entry_page(primary: Primary) -> str:
    sql = (
        "SELECT max(id) FROM tournaments_gamesession WHERE game = 'napoleon' AND id NOT IN "
        "(SELECT session_id FROM tournaments_tournamenttable WHERE session_id IS NOT NULL)"
    )
    session = primary.psql(DATABASE, sql).strip()
    return reverse("deal_new", args=["demo", int(session)])


def test_a_restart_of_postgresql_under_readers_answers_no_500(site):
    primary, server, _env, _work = site
    public = [reverse("club_home", args=["demo"]),
              reverse("standings_all", args=["demo", "napoleon"])]  # fmt: skip
    readers = [Reader(server, public, None), Reader(server, public, None),
               Reader(server, public, ("member", "member-pass")),
               Reader(server, public, ("member", "member-pass")),
               Reader(server, [_entry_page(primary)], ("scorer", "scorer-pass"))]  # fmt: skip
    for reader in readers:
        reader.start()
    try:
        wait_for(lambda: all(len(r.answers) >= 3 for r in readers), timeout=60,
                 what="every reader to read")  # fmt: skip
        before = primary.postmaster_pid()
        primary.restart("fast")
        restarted = time.monotonic()
        assert primary.postmaster_pid() != before  # a new server, every connection ended
        wait_for(lambda: all(len(r.after(restarted)) >= 5 for r in readers), timeout=60,
                 what="every reader to read after the restart")  # fmt: skip
    finally:
        for reader in readers:
            reader.stop.set()
        for reader in readers:
            reader.join(timeout=60)
    answers = [a for r in readers for a in r.answers]
    assert {status for _sent, status, _retry in answers} <= {200, 503}, answers
    assert all(retry for _sent, status, retry in answers if status == 503)
    assert all(set(r.after(restarted)) == {200} for r in readers)
    assert server.process.poll() is None


ENQUEUE = """
import json
from tournaments.models import Club
from tournaments.services.import_jobs import import_job_create
rows = ["date,table,rules,order,forbidden"]
rows += [f"2024-05-0{1 + i // 10},W,daifugo-common,太郎;花子;健一;ゆき," for i in range(30)]
job = import_job_create(club=Club.objects.get(slug="demo"), data="\\n".join(rows).encode(),
                        filename="after-restart.csv", language="en")
print(json.dumps({"job": job.pk}))
"""


def _health(server: Server) -> tuple[int, dict]:
    answer = server.client().get("/healthz")
    return answer.status, json.loads(answer.body)


def test_the_worker_waits_for_a_database_that_went_away_and_goes_on(site):
    """…and /healthz, through the real gunicorn, says so: 503 naming the database while it is
    stopped, 200 once it is back with the worker's heartbeat."""
    primary, server, env, work = site
    log = work / "worker.log"
    with log.open("ab") as out:
        worker = subprocess.Popen(
            [PYTHON, "manage.py", "worker", "--no-reload", "--no-startup-delay", "--interval",
             "0.1", "-v", "0"], cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
    try:
        time.sleep(1)  # polling the queue
        primary.stop("fast")
        try:
            wait_for(lambda: "the database went away" in log.read_text(), timeout=60,
                     what="the worker to meet the stopped database")  # fmt: skip
            assert worker.poll() is None, log.read_text()[-3000:]
            status, health = _health(server)
            assert status == 503 and health["checks"]["database"]["ok"] is False, health
        finally:
            primary.start()
        wait_for(lambda: "the database is back" in log.read_text(), timeout=60,
                 what="the worker to find the database again")  # fmt: skip
        job = json.loads(manage(env, "shell", "-c", ENQUEUE).strip().splitlines()[-1])["job"]
        done = f"SELECT status FROM tournaments_importjob WHERE id = {job}"
        wait_for(lambda: primary.psql(DATABASE, done).strip() == "done", timeout=120,
                 what="the worker to run the import queued after the restart")  # fmt: skip
        assert worker.poll() is None
        # the worker's next heartbeat (it tries again every 2 s after one failed); read from the
        # answer that said 200: another gunicorn process may still hold a connection from before
        # the restart, and answer its one 503 (database) before it connects again
        answers = []
        wait_for(lambda: answers.append(_health(server)) or answers[-1][0] == 200, timeout=60,
                 what="/healthz to answer 200")  # fmt: skip
        assert answers[-1][1]["checks"]["worker"]["ok"] is True
        text = log.read_text()
        assert text.count("the database went away") == 1 and "Traceback" not in text, text
    finally:
        if worker.poll() is None:
            os.killpg(worker.pid, 15)
            worker.wait(timeout=30)
