"""An upload being imported in the background: its file, progress and outcome."""

from django.conf import settings
from django.db import models
from django.utils.translation import pgettext_lazy

from .clubs import Club

STOPPED = "stopped"  # the stage of a job whose worker stopped


class ImportJob(models.Model):
    """One uploaded results file, imported by the task queue (``services/import_jobs.py``).

    The file is kept in the row until the import ends (then emptied), so the worker needs no
    shared disk. ``problems`` holds every error as ``{line, field, code, message,
    params}`` — the message's msgid and its parameters, rendered in the reader's language when
    read (``services.imports.ImportProblem``; rows of an older efuda, ``[line, field,
    message]``, hold the uploader's words and are shown as they are); ``report`` the counts of
    a successful import and how the file was read (``source_kind``, ``sheet``)."""

    class Status(models.TextChoices):
        QUEUED = "queued", pgettext_lazy("import status", "waiting")
        RUNNING = "running", pgettext_lazy("import status", "importing")
        DONE = "done", pgettext_lazy("import status", "imported")
        FAILED = "failed", pgettext_lazy("import status", "nothing imported")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="import_jobs")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+",
    )  # fmt: skip
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    filename = models.CharField(max_length=200, blank=True)
    sheet = models.CharField(max_length=100, blank=True)
    language = models.CharField(max_length=10, default="ja")
    data = models.BinaryField(default=bytes)
    lines = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    stage = models.CharField(max_length=20, blank=True)
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    # Written with each progress report while the worker runs the job: a running job whose
    # heartbeat is older than ``settings.IMPORT_STALE_MINUTES`` lost its worker.
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    # Raised each time the owner starts a stopped job again: a worker still running an older
    # attempt can no longer write to the job.
    attempt = models.PositiveIntegerField(default=0)
    problems = models.JSONField(default=list)
    report = models.JSONField(default=dict)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"import {self.pk} ({self.status})"

    @property
    def finished(self) -> bool:
        return self.status in (self.Status.DONE, self.Status.FAILED)

    @property
    def restartable(self) -> bool:
        """Failed because its worker stopped (the file is still kept): it can be started again."""
        return self.status == self.Status.FAILED and self.stage == STOPPED

    @property
    def percent(self) -> int:
        if self.status == self.Status.DONE:
            return 100
        return int(100 * self.done / self.total) if self.total else 0
