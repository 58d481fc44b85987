"""Uploads imported in the background by the task queue (django-tasks), with their progress.

Small files are imported in the request, as before. A file of more than
``settings.IMPORT_BACKGROUND_LINES`` lines becomes an ``ImportJob``: the request only stores it
and enqueues ``tournaments.tasks.import_job_run``; the worker (``manage.py db_worker``) imports
it with ``results_import`` — the same all-or-nothing import — and writes its progress and every
error to the job, which the upload page polls.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone, translation

from ..models import Club, ImportJob
from .imports import ImportFailed, results_import

PROGRESS_SHARE = {"checking": (0, 40), "scoring": (40, 80), "writing": (80, 95),
                  "ratings": (95, 99), "done": (99, 100)}  # fmt: skip


def import_lines(data: bytes) -> int:
    """About how many lines a file has (a workbook counts as many: always in the background)."""
    if data.startswith(b"PK\x03\x04"):
        return 10**9
    return data.count(b"\n") + (0 if data.endswith(b"\n") else 1)


@transaction.atomic
def import_job_create(
    *, club: Club, data: bytes, user=None, filename: str = "", sheet: str = "",
    language: str = "ja",
) -> ImportJob:  # fmt: skip
    from ..tasks import import_job_run

    job = ImportJob.objects.create(
        club=club, data=data, created_by=user if getattr(user, "is_authenticated", False) else None,
        filename=filename[:200], sheet=sheet[:100], language=language,
        lines=min(import_lines(data), 2**31 - 1),
    )  # fmt: skip
    transaction.on_commit(lambda: import_job_run.enqueue(job_id=job.pk))
    return job


def _progress(job_id: int):
    def report(stage: str, done: int, total: int) -> None:
        low, high = PROGRESS_SHARE.get(stage, (0, 100))
        share = low + (high - low) * (done / total if total else 1)
        ImportJob.objects.filter(pk=job_id).update(stage=stage, done=int(share * 10), total=1000)

    return report


def import_job_execute(*, job_id: int) -> ImportJob:
    """Run one job (in the worker). Every outcome is written to the job."""
    job = ImportJob.objects.select_related("club", "created_by").get(pk=job_id)
    if job.finished:
        return job
    ImportJob.objects.filter(pk=job_id).update(status=ImportJob.Status.RUNNING, stage="checking",
                                               done=0, total=1000)  # fmt: skip
    with translation.override(job.language):
        try:
            report = results_import(
                club=job.club, file=bytes(job.data), user=job.created_by, filename=job.filename,
                sheet=job.sheet, progress=_progress(job.pk),
            )  # fmt: skip
        except ImportFailed as failed:
            problems = [[p.line, p.field, p.message] for p in failed.problems]
            fields = {"status": ImportJob.Status.FAILED, "problems": problems}
        except Exception:
            ImportJob.objects.filter(pk=job_id).update(
                status=ImportJob.Status.FAILED, finished_at=timezone.now(), data=b"",
                problems=[[1, "file", _unexpected()]],
            )  # fmt: skip
            raise
        else:
            fields = {"status": ImportJob.Status.DONE, "report": {
                "deals": report.deals, "redeals": report.redeals,
                "sessions": len(report.sessions), "players": report.players_created,
                "source": report.source}}  # fmt: skip
    ImportJob.objects.filter(pk=job_id).update(finished_at=timezone.now(), data=b"", done=1000,
                                               total=1000, **fields)  # fmt: skip
    return ImportJob.objects.get(pk=job_id)


def _unexpected() -> str:
    from django.utils.translation import gettext

    return gettext("The import stopped on an unexpected error; nothing was imported.")
