"""Database router for an optional read replica (``DATABASE_REPLICA_URL``).

Only the public read pages rendered for the shared page cache read from the replica, and only
when the replica has already caught up with the club's data version that the primary holds
(tournaments/views/page_cache.py checks it first). Everything else, above all a scorekeeper
reading back what was just recorded, reads the primary. Writes always go to the primary.

A replica that fails (down, hung, or an error mid-page) is left alone for
``REPLICA_RETRY_SECONDS``: :func:`replica_usable` says no, and the primary answers meanwhile. Each
process keeps its own note, so each pays at most one connect timeout
(``REPLICA_CONNECT_TIMEOUT``) per period to learn that the replica is still away.
"""

from __future__ import annotations

import contextlib
import contextvars
import logging
import time

from django.conf import settings

REPLICA = "replica"
_use_replica: contextvars.ContextVar[bool] = contextvars.ContextVar("efuda_replica", default=False)
_down_until = 0.0  # monotonic time until which this process leaves the replica alone
log = logging.getLogger("efuda.replica")


def replica_configured() -> bool:
    return REPLICA in settings.DATABASES


def replica_usable() -> bool:
    """A replica is configured and has not failed within ``REPLICA_RETRY_SECONDS``."""
    return replica_configured() and time.monotonic() >= _down_until


def replica_failed(error: BaseException) -> None:
    """Leave the replica alone for ``REPLICA_RETRY_SECONDS`` (its connection is dropped)."""
    global _down_until
    _down_until = time.monotonic() + settings.REPLICA_RETRY_SECONDS
    log.warning(
        "read replica unusable (%s: %s); the primary answers for %s s",
        type(error).__name__, str(error).strip()[:200], settings.REPLICA_RETRY_SECONDS,
    )  # fmt: skip
    from django.db import connections

    with contextlib.suppress(Exception):
        connections[REPLICA].close()


def replica_reset() -> None:
    """Forget a failure (tests; an operator never needs it: the note expires by itself)."""
    global _down_until
    _down_until = 0.0


@contextlib.contextmanager
def reading_replica():
    """Route the reads inside the block to the replica (when one is configured)."""
    token = _use_replica.set(True)
    try:
        yield
    finally:
        _use_replica.reset(token)


class PublicPagesReplicaRouter:
    def db_for_read(self, model, **hints):
        return REPLICA if _use_replica.get() else None

    def db_for_write(self, model, **hints):
        return "default"

    def allow_relation(self, obj1, obj2, **hints):
        return True  # the same data on both

    def allow_migrate(self, db, app_label, model_name=None, **hints):
        return db == "default"  # the replica follows the primary by replication
