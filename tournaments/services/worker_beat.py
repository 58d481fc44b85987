"""The task worker's heartbeat (``manage.py worker`` writes it; ``/healthz`` reads it)."""

from __future__ import annotations

import datetime

from django.utils import timezone

from ..models import WorkerBeat


def worker_beat_record(*, host: str, now: datetime.datetime | None = None) -> None:
    """Say that the worker on ``host`` is alive now (one row per host, written over)."""
    WorkerBeat.objects.update_or_create(host=host, defaults={"seen_at": now or timezone.now()})
