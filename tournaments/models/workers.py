"""The task worker's sign of life, read by the health endpoint (``/healthz``)."""

from django.db import models


class WorkerBeat(models.Model):
    """When ``manage.py worker`` on a host was last seen: it writes its row every
    ``settings.WORKER_HEARTBEAT_SECONDS``. One row per host (the worker's host name), so a
    worker moved to another machine adds a row and the newest one counts. No club's data; not
    in backups (a restored database has not seen any worker)."""

    host = models.CharField(max_length=255, primary_key=True)
    seen_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"worker on {self.host}, seen {self.seen_at:%Y-%m-%d %H:%M:%S}"
