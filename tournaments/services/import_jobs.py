"""Uploads imported in the background by the task queue (django-tasks), with their progress.

Small CSV files are imported in the request, as before. A file of more than
``settings.IMPORT_BACKGROUND_LINES`` lines, or any workbook, becomes an ``ImportJob`` (once it
has passed every limit, :func:`import_check`): the request only stores it and enqueues
:func:`import_job_run` (the task, defined here beside the service it runs); the worker
(``manage.py worker``) imports it with ``results_import`` — the same all-or-nothing import,
bounded by the same check — and writes its progress and every error to the job, which the
upload page polls.

The job's outcome is the truth of what was committed: "imported", with its counts, is written in
the import's own write transaction, so a worker that dies after that commit leaves a job that
says so, and one that dies before it leaves nothing imported. A job whose worker died is taken
up again by the next worker (:func:`import_jobs_take_up`), once; after a second death it is
shown failed, with its file kept for the owner to start again.
"""

from __future__ import annotations

import datetime
import threading
import time

from django.conf import settings
from django.db import OperationalError, connections, transaction
from django.utils import timezone, translation
from django_tasks import task

from core.i18n import N_

from ..models import Club, ImportJob
from ..models.imports import STOPPED
from .errors import make_fail
from .imports import ImportFailed, ImportProblem, results_import
from .upload_limits import Checked, FileProblem, upload_check

_fail = make_fail({
    "import_not_restartable": N_(
        "Only an import whose worker stopped can be started again; upload the file again."
    ),
    "import_already_done": N_(
        "This file is imported already (deals: %(deals)s; sessions: %(sessions)s); it is not "
        "imported twice."
    ),
    # A job's own problems (stored with it, like the file's, and rendered when read):
    "worker_silent": N_(
        "The import stopped: the task worker gave no sign of life for %(minutes)s min. (it was "
        "stopped or restarted). Nothing was imported. Start the import again."
    ),
    "worker_died": N_(
        "The import stopped: the task worker stopped while importing this file (attempts: "
        "%(runs)s). Nothing was imported. Start the import again."
    ),
    "unexpected": N_("The import stopped on an unexpected error; nothing was imported."),
    "import_queue_club": N_(
        "Imports waiting or running for this club: %(count)s, the most there may be. Wait "
        "until one has finished, then upload again."
    ),
    "import_queue_user": N_(
        "Imports waiting or running for you: %(count)s, the most there may be. Wait until one "
        "has finished, then upload again."
    ),
    "import_time_limit": N_(
        "The import took longer than %(minutes)s min. and was stopped; nothing was imported. "
        "Split the file into smaller ones."
    ),
})  # fmt: skip


def _job_problem(code: str, **params) -> list[dict]:
    """A job's problems when the job itself failed (not the file): one, on the whole file."""
    return [ImportProblem.of(1, "file", _fail("file", code, **params)).stored()]


# Runs of one job in all (its first and each automatic take-up after its worker died) before it
# is shown failed for the owner to start again: a file that kills its worker is not retried for
# ever.
TAKE_UP_RUNS = 2
TASK_PATH = "tournaments.services.import_jobs.import_job_run"

PROGRESS_SHARE = {"checking": (0, 40), "scoring": (40, 80), "writing": (80, 95),
                  "ratings": (95, 99), "done": (99, 100)}  # fmt: skip


def import_check(data: bytes, *, filename: str = "") -> Checked:
    """What an upload is and how many lines it has, once it has passed every limit — the check
    the import itself makes before reading (``read_source``), so a file refused here is refused
    in the request and never stored; ``ImportFailed`` otherwise."""
    try:
        return upload_check(data, filename=filename)
    except FileProblem as problem:
        error = problem.error
        raise ImportFailed([ImportProblem.of(problem.line, error.field, error)]) from None


def import_in_background(checked: Checked) -> bool:
    """A CSV file of more than ``IMPORT_BACKGROUND_LINES`` lines, and every workbook (its
    reader's own cost is not counted in lines), is imported by the task worker."""
    return checked.kind != "csv" or checked.lines > settings.IMPORT_BACKGROUND_LINES


@task()
def import_job_run(*, job_id: int) -> str:
    """The task: import one uploaded file (an ``ImportJob``); its outcome is written to the job."""
    return import_job_execute(job_id=job_id).status


def import_queue_check(*, club: Club, user=None, excluding: int | None = None) -> None:
    """Refuse one more background import when the club, or the person uploading, already has
    ``IMPORT_QUEUE_PER_CLUB`` / ``IMPORT_QUEUE_PER_USER`` waiting or running: the one worker
    takes jobs in turn, so this is what keeps one club's uploads from starving the others'
    (docs/import-format.md). Call inside the transaction that queues the job: the club's row
    is locked, so two uploads at once cannot both pass."""
    Club.objects.select_for_update().filter(pk=club.pk).values_list("pk", flat=True).first()
    open_jobs = ImportJob.objects.filter(
        status__in=[ImportJob.Status.QUEUED, ImportJob.Status.RUNNING]
    ).exclude(pk=excluding)
    limit = settings.IMPORT_QUEUE_PER_CLUB
    if open_jobs.filter(club=club).count() >= limit:
        raise _fail("file", "import_queue_club", count=limit)
    if getattr(user, "is_authenticated", False):
        limit = settings.IMPORT_QUEUE_PER_USER
        if open_jobs.filter(created_by=user).count() >= limit:
            raise _fail("file", "import_queue_user", count=limit)


@transaction.atomic
def import_job_create(
    *, club: Club, data: bytes, user=None, filename: str = "", sheet: str = "",
    language: str = "ja", checked: Checked | None = None,
) -> ImportJob:  # fmt: skip
    """Queue ``data`` (``checked``: what ``import_check`` found, if it was called already; a
    file that passes no limit is refused here, and nothing is stored)."""
    checked = checked or import_check(data, filename=filename)
    import_queue_check(club=club, user=user)
    job = ImportJob.objects.create(
        club=club, data=data, created_by=user if getattr(user, "is_authenticated", False) else None,
        filename=filename[:200], sheet=sheet[:100], language=language,
        lines=min(checked.lines, 2**31 - 1),
    )  # fmt: skip
    transaction.on_commit(lambda: import_job_run.enqueue(job_id=job.pk))
    return job


def _progress(job_id: int, attempt: int):
    deadline = time.monotonic() + settings.IMPORT_TIME_LIMIT_SECONDS

    def report(stage: str, done: int, total: int) -> None:
        if stage in ("checking", "scoring", "writing") and time.monotonic() > deadline:
            # Before the write: nothing is imported (ImportFailed: the job shows the message).
            minutes = max(1, round(settings.IMPORT_TIME_LIMIT_SECONDS / 60))
            error = _fail("file", "import_time_limit", minutes=minutes)
            raise ImportFailed([ImportProblem.of(1, "file", error)])  # rendered when read
        low, high = PROGRESS_SHARE.get(stage, (0, 100))
        share = low + (high - low) * (done / total if total else 1)
        _this_run(job_id, attempt).filter(status=ImportJob.Status.RUNNING).update(
            stage=stage, done=int(share * 10), total=1000, heartbeat_at=timezone.now()
        )  # fmt: skip

    return report


class _JobLostError(Exception):
    """This run no longer owns its job (started again, or shown failed meanwhile)."""


def _this_run(job_id: int, attempt: int):
    """The job while this run owns it (a job started again belongs to its new run)."""
    return ImportJob.objects.filter(pk=job_id, attempt=attempt)


class _Heartbeat:
    """While a job runs, a thread writes the time to it every ``IMPORT_HEARTBEAT_SECONDS``
    (long phases report no progress). If the worker process dies, the heartbeats stop."""

    def __init__(self, job_id: int, attempt: int):
        self.job_id, self.attempt = job_id, attempt
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True, name=f"import-{job_id}")

    def _run(self) -> None:
        try:
            while not self.stop.wait(settings.IMPORT_HEARTBEAT_SECONDS):
                try:
                    _this_run(self.job_id, self.attempt).filter(
                        status=ImportJob.Status.RUNNING
                    ).update(heartbeat_at=timezone.now())
                except OperationalError:  # SQLite busy with the import's own write: next time
                    pass
        finally:
            connections.close_all()  # this thread's connection

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join()
        return False


def import_job_execute(*, job_id: int) -> ImportJob:
    """Run one job (in the worker). Every outcome is written to the job."""
    job = ImportJob.objects.select_related("club", "created_by").get(pk=job_id)
    if job.finished:
        return job
    attempt = job.attempt
    claimed = _this_run(job_id, attempt).filter(status=ImportJob.Status.QUEUED).update(
        status=ImportJob.Status.RUNNING, stage="checking", done=0, total=1000,
        heartbeat_at=timezone.now(),
    )  # fmt: skip
    if not claimed:  # already run, or started again meanwhile (that run is another task)
        return ImportJob.objects.get(pk=job_id)

    def written(report) -> None:
        """Inside the import's write transaction: the job says "imported" exactly when the rows
        are committed. A run that lost its job rolls its rows back instead."""
        done = _this_run(job_id, attempt).filter(status=ImportJob.Status.RUNNING).update(
            status=ImportJob.Status.DONE, finished_at=timezone.now(), data=b"", done=1000,
            total=1000, report={
                "game": report.game, "deals": report.deals, "redeals": report.redeals,
                "sessions": len(report.sessions), "players": report.players_created,
                "source": report.source, "source_kind": report.source_kind,
                "sheet": report.sheet},
        )  # fmt: skip
        if not done:
            raise _JobLostError

    with translation.override(job.language), _Heartbeat(job_id, attempt):
        try:
            results_import(
                club=job.club, file=bytes(job.data), user=job.created_by, filename=job.filename,
                sheet=job.sheet, progress=_progress(job.pk, attempt), on_written=written,
            )  # fmt: skip
        except _JobLostError:
            pass  # nothing written; the job's new run (or its failure) tells its outcome
        except ImportFailed as failed:
            problems = [p.stored() for p in failed.problems]
            _this_run(job_id, attempt).filter(status=ImportJob.Status.RUNNING).update(
                status=ImportJob.Status.FAILED, finished_at=timezone.now(), data=b"", done=1000,
                total=1000, problems=problems,
            )  # fmt: skip
        except Exception:
            # The rows committed (the job says so) or nothing did: only a job still running
            # is marked failed.
            _this_run(job_id, attempt).filter(status=ImportJob.Status.RUNNING).update(
                status=ImportJob.Status.FAILED, finished_at=timezone.now(), data=b"",
                problems=_job_problem("unexpected"),
            )  # fmt: skip
            raise
    return ImportJob.objects.get(pk=job_id)


def import_job_expire(*, job: ImportJob) -> ImportJob:
    """A running job whose worker stopped — no heartbeat for ``IMPORT_STALE_MINUTES`` — is
    marked failed, keeping its file so that the owner can start it again. Nothing of it was
    imported: the import writes in one transaction, which a dead process never committed."""
    minutes = settings.IMPORT_STALE_MINUTES
    cutoff = timezone.now() - datetime.timedelta(minutes=minutes)
    # The progress page calls this on every poll (each second): a job with a recent heartbeat
    # costs no query at all — on SQLite even an UPDATE that matches nothing would wait for the
    # import's own write.
    if job.status != ImportJob.Status.RUNNING or (
        job.heartbeat_at is not None and job.heartbeat_at >= cutoff
    ):
        return job
    ImportJob.objects.filter(
        pk=job.pk, attempt=job.attempt, status=ImportJob.Status.RUNNING, heartbeat_at__lt=cutoff
    ).update(
        status=ImportJob.Status.FAILED, stage=STOPPED, finished_at=timezone.now(),
        problems=_job_problem("worker_silent", minutes=minutes),
    )  # fmt: skip
    return ImportJob.objects.defer("data").get(pk=job.pk)


@transaction.atomic
def import_job_restart(*, job: ImportJob, user=None) -> ImportJob:
    """Queue a job whose worker stopped once more (a new attempt); anything else is refused."""
    job = ImportJob.objects.select_for_update().defer("data").get(pk=job.pk)
    if job.status == ImportJob.Status.DONE:
        report = job.report
        raise _fail("__all__", "import_already_done", deals=report.get("deals", 0),
                    sessions=report.get("sessions", 0))  # fmt: skip
    if not job.restartable:
        raise _fail("__all__", "import_not_restartable")
    import_queue_check(club=job.club, user=user, excluding=job.pk)
    ImportJob.objects.filter(pk=job.pk).update(
        status=ImportJob.Status.QUEUED, stage="", done=0, total=0, problems=[],
        finished_at=None, heartbeat_at=None, attempt=job.attempt + 1,
    )  # fmt: skip
    transaction.on_commit(lambda: import_job_run.enqueue(job_id=job.pk))
    return ImportJob.objects.defer("data").get(pk=job.pk)


def import_jobs_take_up(*, now: datetime.datetime | None = None) -> dict[str, list[int]]:
    """Jobs left running by a worker that died — no heartbeat for three heartbeat intervals,
    while a live worker writes one every interval — are taken up again: queued as a new attempt
    for the next worker, or, after ``TAKE_UP_RUNS`` runs, shown failed with their file kept.
    The dead worker's task row (django-tasks-db keeps it "running" for ever) is marked failed.
    Called by the worker (``manage.py worker``) when it starts and every minute."""
    now = now or timezone.now()
    cutoff = now - datetime.timedelta(seconds=3 * settings.IMPORT_HEARTBEAT_SECONDS)
    outcome: dict[str, list[int]] = {"queued": [], "failed": []}
    stale = ImportJob.objects.filter(status=ImportJob.Status.RUNNING, heartbeat_at__lt=cutoff)
    for job in stale.defer("data"):
        with transaction.atomic():
            mine = ImportJob.objects.filter(
                pk=job.pk, attempt=job.attempt, status=ImportJob.Status.RUNNING,
                heartbeat_at__lt=cutoff,
            )  # fmt: skip
            if job.attempt + 1 < TAKE_UP_RUNS:
                taken = mine.update(
                    status=ImportJob.Status.QUEUED, stage="", done=0, total=0, problems=[],
                    heartbeat_at=None, attempt=job.attempt + 1,
                )  # fmt: skip
                if taken:
                    transaction.on_commit(lambda pk=job.pk: import_job_run.enqueue(job_id=pk))
            else:
                taken = mine.update(
                    status=ImportJob.Status.FAILED, stage=STOPPED, finished_at=now,
                    problems=_job_problem("worker_died", runs=job.attempt + 1),
                )  # fmt: skip
            if taken:
                _dead_task_failed(job.pk, now)
                outcome["queued" if job.attempt + 1 < TAKE_UP_RUNS else "failed"].append(job.pk)
    return outcome


def _dead_task_failed(job_id: int, now: datetime.datetime) -> None:
    """Mark the task row of a dead worker's run failed (the database backend only)."""
    from django_tasks.base import TaskResultStatus
    from django_tasks_db.models import DBTaskResult

    if "django_tasks_db" not in settings.INSTALLED_APPS:
        return
    DBTaskResult.objects.filter(
        status=TaskResultStatus.RUNNING,
        task_path__in=(TASK_PATH, "tournaments.tasks.import_job_run"),
        args_kwargs__kwargs__job_id=job_id,
    ).update(
        status=TaskResultStatus.FAILED,
        finished_at=now,
        exception_class_path="builtins.SystemExit",
        traceback="the worker running this task stopped (efuda took the job up)",
    )
