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
import functools
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

from django.conf import settings
from django.db import OperationalError, connection

T = TypeVar("T")


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


def sqlite_bounded(write: Callable[[], T]) -> T:
    """Run ``write`` (which opens its own transaction). On SQLite, while a large import writes,
    wait at most ``SQLITE_DEAL_WAIT_SECONDS`` for the writer, then raise ``DatabaseBusy``;
    otherwise (other deals hold the writer for a moment) wait as usual."""
    if connection.vendor != "sqlite" or connection.in_atomic_block or not bulk_write_running():
        return write()
    connection.ensure_connection()
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA busy_timeout")
        before = int(cursor.fetchone()[0])
        cursor.execute(f"PRAGMA busy_timeout = {int(settings.SQLITE_DEAL_WAIT_SECONDS * 1000)}")
    try:
        return write()
    except OperationalError as error:
        if is_locked(error):
            raise DatabaseBusy from error
        raise
    finally:
        with connection.cursor() as cursor:
            cursor.execute(f"PRAGMA busy_timeout = {before}")


def bounded_on_sqlite(write: Callable[..., T]) -> Callable[..., T]:
    """``sqlite_bounded`` as a decorator, outside the function's own ``transaction.atomic``:
    an edit, delete or restore of a deal during a large import's write on SQLite waits as
    briefly as a new deal, then ``DatabaseBusy`` (503 "save again"), nothing written."""

    @functools.wraps(write)
    def bounded(*args, **kwargs) -> T:
        return sqlite_bounded(lambda: write(*args, **kwargs))

    return bounded
