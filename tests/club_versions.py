"""Every transaction that writes a club's rows moves the club's data version.

Cached read pages are keyed by ``Club.data_version`` and each service moves it itself
(``services/cache.py``), so a service that forgets leaves pages stale. This check finds such a
write in any test, whatever the service: while a test runs, every SQL statement its code sends
is read as it goes (an execute wrapper on the test's connections and on every connection a
thread opens), and every ``atomic`` block's end is watched (``Atomic.__exit__`` is wrapped for
the test run). A transaction ends where the code's outermost ``atomic`` block commits (the
test's own transaction, which rolls everything back at the end, is not the code's: it and the
blocks below it are left out), or with the statement itself in autocommit mode. If it wrote a
club table (``tournaments_*``, except ``cache.UNVERSIONED``; an ``UPDATE`` or ``DELETE``
that changed no row writes nothing) and did not ``UPDATE tournaments_club SET data_version``
(or delete the club), the test fails, naming the tables and where the transaction ended. A
block that rolls back (to its savepoint) counts for nothing.

Tests that set up a state no service makes (a row changed by hand to stage a race, an old
database) say so around those lines: ``with club_versions.unchecked(): ...``.
"""

from __future__ import annotations

import contextlib
import re
import threading
import traceback
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.db import connections, transaction
from django.db.backends.signals import connection_created

from tournaments.services.cache import UNVERSIONED

_WRITE = re.compile(
    r"""^\s*(?:INSERT\s+(?:OR\s+\w+\s+)?INTO|UPDATE|DELETE\s+FROM)\s+
        (?:"?\w+"?\.)?"?(tournaments_\w+)"?""",
    re.IGNORECASE | re.VERBOSE,
)
_BUMP = re.compile(r'^\s*UPDATE\s+"?tournaments_club"?\s+SET\s+"?data_version"?', re.IGNORECASE)
_NOTHING = re.compile(r"^\s*(UPDATE|DELETE)\s", re.IGNORECASE)  # may have changed no row
_CLUB_GONE = re.compile(r'^\s*DELETE\s+FROM\s+"?tournaments_club"?(\s|;|$)', re.IGNORECASE)
_ROOT = Path(__file__).resolve().parent.parent


class _Transaction:
    """What one transaction (or one atomic block inside it) has written so far."""

    __slots__ = ("tables", "versioned")

    def __init__(self) -> None:
        self.tables: set[str] = set()
        self.versioned = False

    def read(self, sql: str) -> None:
        if _BUMP.match(sql) or _CLUB_GONE.match(sql):
            self.versioned = True
            return
        found = _WRITE.match(sql)
        if found and found.group(1).lower() not in UNVERSIONED:
            self.tables.add(found.group(1).lower())

    def take(self, inner: _Transaction) -> None:
        self.tables |= inner.tables
        self.versioned = self.versioned or inner.versioned


def _where() -> str:
    """The project's frames of the current stack (not this module's), innermost last."""
    here = Path(__file__).resolve()
    frames = []
    for frame in traceback.extract_stack():
        if frame.filename.startswith("<"):  # <frozen runpy> and the like
            continue
        path = Path(frame.filename).resolve()
        if path.is_relative_to(_ROOT) and path != here and "site-packages" not in path.parts:
            frames.append(f"{path.relative_to(_ROOT)}:{frame.lineno} {frame.name}")
    return "\n      ".join(frames[-8:])


def _base(connection) -> int:
    """How many of the connection's open atomic blocks belong to the test harness: the test
    case's own (which roll back at its end) and any below them (a module's shared data)."""
    base = 0
    for depth, block in enumerate(connection.atomic_blocks, start=1):
        if getattr(block, "_from_testcase", False):
            base = depth
    return base


class Watch:
    """The transactions of one test: what each open block wrote, and what went unversioned."""

    def __init__(self) -> None:
        self.problems: list[str] = []
        self.paused = 0
        self._blocks: dict[tuple[int, int], _Transaction] = {}  # (connection, depth) -> writes
        self._lock = threading.Lock()

    def statement(self, connection, sql: str) -> None:
        if self.paused or not isinstance(sql, str):
            return
        depth = len(connection.atomic_blocks) - _base(connection)
        if depth <= 0:  # autocommit: the statement is its own transaction
            alone = _Transaction()
            alone.read(sql)
            self._check(alone)
            return
        with self._lock:
            block = self._blocks.setdefault((id(connection), depth), _Transaction())
        block.read(sql)

    def block_ended(self, connection, depth: int, committed: bool) -> None:
        """The atomic block at ``depth`` (counted past the test's own) ended."""
        with self._lock:
            block = self._blocks.pop((id(connection), depth), None)
            if block is None or not committed:
                return
            if depth > 1:  # a savepoint released: its writes belong to the enclosing block
                self._blocks.setdefault((id(connection), depth - 1), _Transaction()).take(block)
                return
        self._check(block)

    def _check(self, block: _Transaction) -> None:
        if block.tables and not block.versioned:
            self.problems.append(
                f"a transaction wrote {', '.join(sorted(block.tables))} without moving the "
                f"club's data version (services.cache.club_version_bump); it ended at\n"
                f"      {_where()}"
            )


_active: Watch | None = None  # the running test's watch (all its threads report to it)
_original_exit = transaction.Atomic.__exit__


def _exit(self, exc_type, exc_value, tb):
    watch = _active
    if watch is None:
        return _original_exit(self, exc_type, exc_value, tb)
    connection = transaction.get_connection(self.using)
    depth = len(connection.atomic_blocks) - _base(connection)
    committed = (
        exc_type is None and not connection.needs_rollback and not connection.closed_in_transaction
    )
    try:
        result = _original_exit(self, exc_type, exc_value, tb)
    except BaseException:
        if depth > 0:
            watch.block_ended(connection, depth, committed=False)
        raise
    if depth > 0:
        watch.block_ended(connection, depth, committed=committed)
    return result


transaction.Atomic.__exit__ = _exit


def _read(execute, sql, params, many, context):
    """The statement reader each watched connection runs every statement through. An
    ``UPDATE`` or ``DELETE`` that changed no row (``rowcount`` 0: deleting a user sends one for
    every table that could point at them) wrote nothing. (An ``INSERT``'s count is not known
    yet where it returns the new id: it always counts.)"""
    result = execute(sql, params, many, context)
    watch = _active
    if watch is not None and not (_NOTHING.match(sql) and context["cursor"].rowcount == 0):
        watch.statement(context["connection"], sql)
    return result


def _install() -> contextlib.ExitStack:
    """The reader on this thread's connections, and on every connection opened while it is
    installed (another thread's); removed when the returned stack closes."""
    stack = contextlib.ExitStack()

    def add(connection) -> None:
        if _read not in connection.execute_wrappers:
            connection.execute_wrappers.append(_read)
            stack.callback(_remove, connection)

    def opened(sender, connection, **kwargs):
        add(connection)

    for connection in connections.all():
        add(connection)
    connection_created.connect(opened, weak=False)
    stack.callback(connection_created.disconnect, opened)
    return stack


def _remove(connection) -> None:
    if _read in connection.execute_wrappers:
        connection.execute_wrappers.remove(_read)


@contextlib.contextmanager
def watching() -> Iterator[Watch]:
    """Watch the transactions run inside the block with a watch of their own (the test's own
    watch sees none of them): for the tests of this check itself."""
    global _active
    outer, watch = _active, Watch()
    _active = watch
    try:
        with _install():
            yield watch
    finally:
        _active = outer


@contextlib.contextmanager
def unchecked() -> Iterator[None]:
    """Writes inside the block are not checked: a test staging by hand a state no service
    makes (say which in a comment)."""
    watch = _active
    if watch is None:
        yield
        return
    watch.paused += 1
    try:
        yield
    finally:
        watch.paused -= 1


@pytest.fixture(autouse=True)
def club_versions_checked(request):
    """Every test: its fixtures' and its own transactions are watched (module doc)."""
    global _active
    watch = Watch()
    request.node.club_versions = watch
    _active = watch
    try:
        with _install():
            yield watch
    finally:
        _active = None


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    """Fail a test that passed if a transaction of its fixtures or its own forgot the
    version. Its teardown (the test database rolled back or flushed) is not watched."""
    global _active
    try:
        result = yield
    finally:
        _active = None
    watch = getattr(item, "club_versions", None)
    if watch is not None and watch.problems:
        pytest.fail(
            "club tables written without the club's data version moving:\n  - "
            + "\n  - ".join(watch.problems),
            pytrace=False,
        )
    return result
