"""Real shared parts for the fault tests, started once per test session: a ``redis-server`` and a
streaming standby of the test's PostgreSQL cluster (``pg_basebackup -R`` into a second cluster on
another port). Tests using them are marked ``shared_parts``; each fixture skips where its part
cannot be had (Debian's ``redis-server`` missing; not PostgreSQL, not root, or no server binaries
for the standby). ``scripts/test`` installs the packages and runs as root in CI.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
import types
from pathlib import Path

import pytest
from django.db import connections

from loadtest.parts import RedisServer, Standby, free_port, pg_bindir, wait_for  # noqa: F401


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory):
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("redis-server is not installed (Debian package redis-server)")
    server = RedisServer(binary, tmp_path_factory.mktemp("redis"))
    server.start()
    yield server
    server.stop()


@pytest.fixture
def shared_cache(redis_server, settings):
    """Django's default cache pointed at the real redis (the production cache settings)."""
    from config.cache import cache_back
    from config.settings.base import redis_cache

    cache_back()  # a cache marked away by an earlier test is asked again
    if not redis_server.answers():
        redis_server.resume()
        redis_server.stop()
        redis_server.start()
    settings.CACHES = {"default": redis_cache(redis_server.url)}
    from django.core.cache import cache

    cache.clear()
    yield redis_server
    cache_back()
    redis_server.resume()
    if not redis_server.answers():
        redis_server.stop()
        redis_server.start()


def _allow_outside_the_test_databases(connection) -> None:
    """Django's test case refuses connections to an alias it was not told about; the replica
    alias exists only for the test that asked for it, so its connection keeps Django's own
    ``ensure_connection`` (the refusal wraps it; the original is in the wrapper's closure)."""
    from django.db.backends.base.base import BaseDatabaseWrapper

    patched = BaseDatabaseWrapper.ensure_connection
    for cell in getattr(patched, "__closure__", None) or ():
        original = cell.cell_contents
        if callable(original) and getattr(original, "__name__", "") == "ensure_connection":
            connection.ensure_connection = types.MethodType(original, connection)
            return


@pytest.fixture(scope="session")
def standby_server(django_db_setup, django_db_blocker):
    """A streaming standby of the primary holding the test database (PostgreSQL, as root)."""
    default = connections["default"]
    if default.vendor != "postgresql":
        pytest.skip("the replica tests need PostgreSQL (DATABASE_URL=postgres://…)")
    if os.geteuid() != 0 or shutil.which("runuser") is None:
        pytest.skip("starting a standby cluster needs root (scripts/test runs as root in CI)")
    with django_db_blocker.unblock():
        version = default.pg_version
    bindir = pg_bindir(version)
    if bindir is None:
        pytest.skip("no PostgreSQL server binaries for the primary's version")
    host = default.settings_dict.get("HOST") or "127.0.0.1"
    if host not in ("127.0.0.1", "localhost", "::1", ""):
        pytest.skip("the standby is made from a primary on this machine only")
    datadir = Path(tempfile.mkdtemp(prefix="efuda-standby-")) / "data"
    shutil.chown(datadir.parent, "postgres", "postgres")
    standby = Standby(bindir, datadir, int(default.settings_dict.get("PORT") or 5432))
    try:  # everything it needs is there: a failure here is an error, not a skip
        standby.create()
        standby.start()
    except BaseException:
        standby.stop("immediate")
        shutil.rmtree(datadir.parent, ignore_errors=True)
        raise
    yield standby
    standby.stop("immediate")
    shutil.rmtree(datadir.parent, ignore_errors=True)


@pytest.fixture
def replica(standby_server, transactional_db):
    """The ``replica`` alias pointed at the standby's copy of the test database, as
    DATABASE_REPLICA_URL would configure it; removed afterwards."""
    from config.routers import replica_reset
    from config.settings.base import replica_database

    default = connections["default"].settings_dict
    url = (
        f"postgres://{default['USER']}:{default['PASSWORD']}@127.0.0.1:{standby_server.port}/"
        f"{default['NAME']}"
    )
    alias = {**default, **replica_database(url)}
    alias["OPTIONS"] = {k: v for k, v in alias["OPTIONS"].items() if k != "pool"}
    standby_server.resume()
    if standby_server.postmaster_pid() is None:
        standby_server.start()
    connections.settings["replica"] = alias
    _allow_outside_the_test_databases(connections["replica"])
    replica_reset()
    yield standby_server
    with contextlib.suppress(Exception):
        connections["replica"].close()
    del connections.settings["replica"]
    with contextlib.suppress(AttributeError):
        delattr(connections._connections, "replica")
    replica_reset()
    standby_server.resume()
    if standby_server.postmaster_pid() is None:
        standby_server.start()
