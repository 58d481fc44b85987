"""What ``/healthz`` answers: the database answers, every migration is applied, the task worker
was seen lately. Cheap enough for a proxy or a monitor to ask every few seconds: one query once
the migrations were found applied (that answer is kept for the life of the process: the code
cannot gain a migration without a restart), nothing cached of the rest.

Failures name only the kind of error (the log has the rest): the answer is public.
"""

from __future__ import annotations

import datetime
import logging

from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections
from django.db.migrations.loader import MigrationLoader
from django.db.models import Max
from django.utils import timezone

from ..models import WorkerBeat

log = logging.getLogger("efuda.health")
_applied: set[str] = set()  # database aliases found with every migration applied


def _unapplied(using: str) -> int:
    """How many migrations on disk the database has not applied (0 is remembered)."""
    if using in _applied:
        return 0
    # Every migration on disk, not only the newest of each app: a migration missing in the
    # middle (its table absent) while a later one is recorded is still a migration not applied.
    loader = MigrationLoader(connections[using], ignore_no_migrations=True)
    unapplied = sum(1 for node in loader.graph.nodes if node not in loader.applied_migrations)
    if not unapplied:
        _applied.add(using)
    return unapplied


def _failed(part: str, error: DatabaseError) -> dict:
    reason = (str(error).strip() or type(error).__name__).splitlines()[0]
    log.warning("health: %s: %s", part, reason)
    return {"ok": False, "error": type(error).__name__}


def health_report(
    *, worker_within: float, now: datetime.datetime | None = None, using: str = DEFAULT_DB_ALIAS
) -> dict:
    """``{"ok": bool, "checks": {"database": …, "migrations": …, "worker": …}}``; ``ok`` only
    when all three are. The worker counts as seen when its newest heartbeat is at most
    ``worker_within`` seconds old."""
    now = now or timezone.now()
    try:
        unapplied = _unapplied(using)
        # Before ``migrate`` the heartbeat's table may not be there yet: not asked then.
        beats = WorkerBeat.objects.using(using)
        last = beats.aggregate(last=Max("seen_at"))["last"] if not unapplied else None
    except DatabaseError as error:
        failed = _failed("database", error)
        unknown = {"ok": False, "error": "database"}
        checks = {"database": failed, "migrations": unknown, "worker": unknown}
        return {"ok": False, "checks": checks}
    age = None if last is None else round((now - last).total_seconds())
    checks = {
        "database": {"ok": True},
        "migrations": {"ok": unapplied == 0, "unapplied": unapplied},
        "worker": {"ok": age is not None and age <= worker_within, "seen_seconds_ago": age}
        if not unapplied
        else {"ok": False, "error": "migrations"},
    }
    return {"ok": all(c["ok"] for c in checks.values()), "checks": checks}
