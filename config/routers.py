"""Database router for an optional read replica (``DATABASE_REPLICA_URL``).

Only the public read pages rendered for the shared page cache read from the replica, and only
when the replica has already caught up with the club's data version that the primary holds
(tournaments/views/page_cache.py checks it first). Everything else, above all a scorekeeper
reading back what was just recorded, reads the primary. Writes always go to the primary.
"""

from __future__ import annotations

import contextlib
import contextvars

REPLICA = "replica"
_use_replica: contextvars.ContextVar[bool] = contextvars.ContextVar("efuda_replica", default=False)


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
