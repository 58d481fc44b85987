"""SQLite has one writer: a short, bounded wait for it, then a clear refusal to try again.

While a large import writes its rows (several seconds for 100,000 lines, docs/performance.md)
every other write on SQLite waits. A deal saved meanwhile waits at most
``settings.SQLITE_DEAL_WAIT_SECONDS`` instead of the connection's 20 s, then ``DatabaseBusy``
is raised: nothing was written, and the page (or the phone's outbox, which keeps the deal and
sends it again) says so. PostgreSQL has no such wait: nothing changes there.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from django.conf import settings
from django.db import OperationalError, connection


class DatabaseBusy(Exception):  # noqa: N818 - an outcome, as the docs name it
    """The database stayed busy with another writer (an import): nothing was written."""


def is_locked(error: BaseException) -> bool:
    """SQLite's "database is locked" / "database is busy" (the busy timeout ran out)."""
    text = str(error).lower()
    return isinstance(error, OperationalError) and ("locked" in text or "busy" in text)


@contextlib.contextmanager
def sqlite_write_wait() -> Iterator[None]:
    """Within this block (opening its own transaction) SQLite waits at most
    ``SQLITE_DEAL_WAIT_SECONDS`` for the writer lock, then ``DatabaseBusy`` is raised."""
    if connection.vendor != "sqlite" or connection.in_atomic_block:
        yield
        return
    connection.ensure_connection()
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA busy_timeout")
        before = cursor.fetchone()[0]
        cursor.execute(f"PRAGMA busy_timeout = {int(settings.SQLITE_DEAL_WAIT_SECONDS * 1000)}")
    try:
        yield
    except OperationalError as error:
        if is_locked(error):
            raise DatabaseBusy from error
        raise
    finally:
        with connection.cursor() as cursor:
            cursor.execute(f"PRAGMA busy_timeout = {int(before)}")
