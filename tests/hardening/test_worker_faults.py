"""The task worker may die without losing or misreporting an import: a real ``manage.py worker``
process imports a file and is SIGKILLed — right after the import's commit, or in the middle of
it — and the job says what was committed; a new worker takes an interrupted job up again."""

import datetime
import os
import signal
import subprocess
import sys

import pytest
from django.db import connections
from django.utils import timezone, translation

from core.errors import EfudaError
from tournaments.models import Deal, ImportJob
from tournaments.services.import_jobs import import_job_restart, import_job_run
from tournaments.services.imports import ImportProblem

from .realparts import wait_for

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LINES = 3000


def _file(count: int = LINES) -> bytes:
    rows = ["date,table,rules,order,forbidden"]
    for i in range(count):
        day = f"2025-{1 + i // 200 % 12:02d}-{1 + i // 20 % 10:02d}"
        rows.append(f"{day},T{i // 2400},daifugo-common,a;b;c;d,")
    return ("\n".join(rows) + "\n").encode()


def _database_url() -> str:
    db = connections["default"].settings_dict
    if db["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{db['NAME']}"
    host, port = db["HOST"] or "127.0.0.1", db["PORT"] or 5432
    return f"postgres://{db['USER']}:{db['PASSWORD']}@{host}:{port}/{db['NAME']}"


class Worker:
    def __init__(self):
        env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
        env.update(
            DJANGO_SETTINGS_MODULE="config.settings.local", DEBUG="0",
            DATABASE_URL=_database_url(), IMPORT_HEARTBEAT_SECONDS="1",
        )  # fmt: skip
        self.process = subprocess.Popen(
            [sys.executable, "manage.py", "worker", "--no-reload", "--no-startup-delay",
             "--interval", "0.1", "-v", "0"],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            start_new_session=True,
        )  # fmt: skip

    def kill(self):
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)


@pytest.fixture
def queued_job(threaded_db, settings):
    from tests import factories

    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    club = factories.ClubFactory()
    owner = factories.UserFactory()
    job = ImportJob.objects.create(club=club, data=_file(), created_by=owner, filename="big.csv",
                                   language="en", lines=LINES + 1)  # fmt: skip
    import_job_run.enqueue(job_id=job.pk)  # committed: the worker sees it
    workers = []
    yield job, workers
    for worker in workers:
        worker.kill()


def test_a_worker_killed_right_after_the_commit_leaves_a_job_that_says_imported(queued_job):
    job, workers = queued_job
    workers.append(Worker())
    # SIGKILL the moment the deals are visible, i.e. just after the import's COMMIT.
    wait_for(lambda: Deal.objects.filter(club=job.club_id).exists(), timeout=180,
             what="the import to commit")  # fmt: skip
    workers[0].kill()
    job.refresh_from_db()
    assert job.status == ImportJob.Status.DONE, (job.status, job.stage, job.problems)
    assert job.report["deals"] == LINES and job.data == b""
    with pytest.raises(EfudaError) as refused:
        import_job_restart(job=job)
    assert refused.value.code == "import_already_done"
    assert refused.value.params == {"deals": LINES, "sessions": job.report["sessions"]}
    assert Deal.objects.filter(club=job.club_id).count() == LINES  # once, nothing lost


def test_a_job_whose_worker_died_mid_import_is_taken_up_by_the_next_worker(queued_job):
    from django_tasks_db.models import DBTaskResult

    job, workers = queued_job
    workers.append(Worker())
    wait_for(lambda: ImportJob.objects.filter(pk=job.pk, status="running").exists(),
             timeout=120, what="the worker to start the import")  # fmt: skip
    workers[0].kill()
    assert not Deal.objects.filter(club=job.club_id).exists()  # nothing half-written
    job.refresh_from_db()
    assert job.status == ImportJob.Status.RUNNING  # as the dead worker left it
    # Time passes: no heartbeat for longer than three heartbeat intervals.
    ImportJob.objects.filter(pk=job.pk).update(
        heartbeat_at=timezone.now() - datetime.timedelta(minutes=10)
    )
    workers.append(Worker())
    wait_for(lambda: ImportJob.objects.filter(pk=job.pk, status="done").exists(), timeout=180,
             what="the new worker to take the import up")  # fmt: skip
    job.refresh_from_db()
    assert job.attempt == 1 and job.report["deals"] == LINES
    assert Deal.objects.filter(club=job.club_id).count() == LINES  # once
    runs = DBTaskResult.objects.filter(args_kwargs__kwargs__job_id=job.pk)
    wait_for(lambda: runs.filter(status="SUCCESSFUL").exists(), timeout=60,
             what="the task to finish after the import's commit (ratings)")  # fmt: skip
    assert sorted(runs.values_list("status", flat=True)) == ["FAILED", "SUCCESSFUL"]


@pytest.mark.django_db
def test_a_file_whose_worker_died_twice_is_shown_failed_not_retried_for_ever(settings):
    from tests import factories
    from tournaments.services.import_jobs import import_jobs_take_up

    settings.IMPORT_HEARTBEAT_SECONDS = 30
    club = factories.ClubFactory()
    stale = timezone.now() - datetime.timedelta(seconds=91)
    fresh = timezone.now() - datetime.timedelta(seconds=60)
    twice = ImportJob.objects.create(club=club, data=b"x", language="en", status="running",
                                     attempt=1, heartbeat_at=stale)  # fmt: skip
    alive = ImportJob.objects.create(club=club, data=b"x", status="running", heartbeat_at=fresh)
    assert import_jobs_take_up() == {"queued": [], "failed": [twice.pk]}
    twice.refresh_from_db()
    alive.refresh_from_db()
    assert twice.status == "failed" and twice.restartable and twice.data == b"x"
    (problem,) = [ImportProblem.from_stored(p) for p in twice.problems]  # rendered when read
    with translation.override("en"):
        assert "stopped while importing this file (attempts: 2). Nothing was imported" in str(
            problem
        )
    assert alive.status == "running" and alive.attempt == 0  # its worker is alive: left alone
