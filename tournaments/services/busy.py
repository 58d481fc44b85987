"""SQLite has one writer: a deal waits only briefly for a large import's write, then is refused
with "save again in a moment".

While a large import writes its rows (several seconds for 100,000 lines, docs/performance.md)
every other write on SQLite waits. The import marks its write with a file beside the database
(``<database>.bulk-write``, holding its process id; removed when the write ends, and ignored
once that process is gone). A deal saved while that mark is there waits for the writer at most
``settings.SQLITE_DEAL_WAIT_SECONDS``, then gets ``DatabaseBusy``: nothing was written, and the
page (or the phone's outbox, which keeps the deal and sends it again) says so. Without the mark
(scorekeepers saving at the same moment) it waits the connection's usual busy timeout.
PostgreSQL has no such wait: nothing changes there.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

from django.conf import settings
from django.db import OperationalError, connection


class DatabaseBusy(Exception):  # noqa: N818 - an outcome, as the docs name it
    """The database stayed busy with a large import's write: nothing was written."""


def is_locked(error: BaseException) -> bool:
    """SQLite's "database is locked" / "database is busy" (the busy timeout ran out)."""
    text = str(error).lower()
    return isinstance(error, OperationalError) and ("locked" in text or "busy" in text)


def _mark() -> Path | None:
    if connection.vendor != "sqlite":
        return None
    name = str(connection.settings_dict.get("NAME") or "")
    if not name or name == ":memory:" or "mode=memory" in name:
        return None
    return Path(name + ".bulk-write")


@contextlib.contextmanager
def bulk_write() -> Iterator[None]:
    """Around a large write transaction on SQLite: deals meanwhile wait only briefly."""
    mark = _mark()
    if mark is None:
        yield
        return
    mark.write_text(str(os.getpid()))
    try:
        yield
    finally:
        mark.unlink(missing_ok=True)


def bulk_write_running() -> bool:
    mark = _mark()
    if mark is None:
        return False
    try:
        pid = int(mark.read_text() or 0)
        os.kill(pid, 0)  # the writing process is still there (SQLite is on this machine)
    except (OSError, ValueError):
        return False
    return True


@contextlib.contextmanager
def bounded_wait() -> Iterator[None]:
    """Writes inside wait for SQLite's writer at most ``SQLITE_DEAL_WAIT_SECONDS`` while a large
    import writes (its mark is there), then raise ``DatabaseBusy``; otherwise they wait as usual
    (other scorekeepers hold the writer for a moment only). Every web request runs inside it
    (``middleware.DatabaseBusyMiddleware``), so whatever it writes — a deal, an edit, a session,
    a tournament table's deal — is bounded alike. The busy timeout is a setting of the
    connection, not of a transaction: it holds in nested transactions too. PostgreSQL: nothing
    changes."""
    if connection.vendor != "sqlite" or not bulk_write_running():
        yield
        return
    connection.ensure_connection()
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA busy_timeout")
        before = int(cursor.fetchone()[0])
        cursor.execute(f"PRAGMA busy_timeout = {int(settings.SQLITE_DEAL_WAIT_SECONDS * 1000)}")
    try:
        yield
    except OperationalError as error:
        if is_locked(error):
            raise DatabaseBusy from error
        raise
    finally:
        with connection.cursor() as cursor:
            cursor.execute(f"PRAGMA busy_timeout = {before}")
