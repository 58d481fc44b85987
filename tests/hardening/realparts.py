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
import signal
import socket
import subprocess
import tempfile
import time
import types
from pathlib import Path

import pytest
from django.db import connections


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(predicate, *, timeout: float = 30, what: str = "condition"):
    """Poll until ``predicate()`` is true (no timing is asserted: this only bounds a hang)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"gave up waiting for {what}")


# --- redis ------------------------------------------------------------------------------------


class RedisServer:
    """One ``redis-server`` on 127.0.0.1 that a test may stop, start, pause and resume."""

    def __init__(self, binary: str, workdir: Path):
        self.binary, self.workdir = binary, workdir
        self.port = free_port()
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.workdir), "--loglevel", "warning"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        )  # fmt: skip
        wait_for(self.answers, timeout=20, what="redis-server")

    def answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s:
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGCONT)
            self.process.kill()  # as a crash would: no goodbye to the clients
            self.process.wait(timeout=10)

    def pause(self) -> None:
        self.process.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        self.process.send_signal(signal.SIGCONT)

    def keys(self) -> int:
        with socket.create_connection(("127.0.0.1", self.port), timeout=2) as s:
            s.sendall(b"DBSIZE\r\n")
            return int(s.recv(64).strip().lstrip(b":"))


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
    from config.settings.base import redis_cache

    if not redis_server.answers():
        redis_server.resume()
        redis_server.stop()
        redis_server.start()
    settings.CACHES = {"default": redis_cache(redis_server.url)}
    from django.core.cache import cache

    cache.clear()
    yield redis_server
    redis_server.resume()
    if not redis_server.answers():
        redis_server.stop()
        redis_server.start()


# --- PostgreSQL standby ----------------------------------------------------------------------


def _as_postgres(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["runuser", "-u", "postgres", "--", *args],
        capture_output=True, text=True, timeout=timeout, cwd="/",
    )  # fmt: skip


class Standby:
    """A hot standby streaming from the test's primary, in a data directory of its own."""

    def __init__(self, bindir: Path, datadir: Path, primary_port: int):
        self.bindir, self.datadir, self.primary_port = bindir, datadir, primary_port
        self.port = free_port()

    def create(self) -> None:
        made = _as_postgres(
            str(self.bindir / "pg_basebackup"), "-D", str(self.datadir), "-R", "-X", "stream",
            "-c", "fast", "-h", "/var/run/postgresql", "-p", str(self.primary_port),
        )  # fmt: skip
        if made.returncode != 0:
            raise RuntimeError(f"pg_basebackup failed: {made.stderr[-2000:]}")
        (self.datadir / "postgresql.conf").write_text(
            f"port = {self.port}\nlisten_addresses = '127.0.0.1'\n"
            f"unix_socket_directories = '{self.datadir}'\nhot_standby = on\n"
            "shared_buffers = 16MB\nfsync = off\n"
            "max_standby_streaming_delay = 5s\n"
        )
        (self.datadir / "pg_hba.conf").write_text(
            "local all all trust\nhost all all 127.0.0.1/32 scram-sha-256\n"
        )
        (self.datadir / "pg_ident.conf").write_text("")
        subprocess.run(["chown", "-R", "postgres:postgres", str(self.datadir)], check=True)

    def start(self) -> None:
        started = _as_postgres(
            str(self.bindir / "pg_ctl"), "-D", str(self.datadir), "-l",
            str(self.datadir / "server.log"), "-w", "-t", "60", "start",
        )  # fmt: skip
        if started.returncode != 0:
            log = (self.datadir / "server.log").read_text(errors="replace")[-2000:]
            raise RuntimeError(f"standby did not start: {started.stderr}{log}")

    def stop(self, mode: str = "fast") -> None:
        self.resume()
        _as_postgres(str(self.bindir / "pg_ctl"), "-D", str(self.datadir), "-m", mode, "-w",
                     "stop")  # fmt: skip

    def postmaster_pid(self) -> int | None:
        with contextlib.suppress(OSError, ValueError, IndexError):
            return int((self.datadir / "postmaster.pid").read_text().split()[0])
        return None

    def pause(self) -> None:
        """SIGSTOP the postmaster: connections are accepted by the kernel, never answered."""
        os.kill(self.postmaster_pid(), signal.SIGSTOP)

    def resume(self) -> None:
        pid = self.postmaster_pid()
        if pid:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)


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


def _pg_bindir(version_num: int) -> Path | None:
    major = version_num // 10000
    candidate = Path(f"/usr/lib/postgresql/{major}/bin")
    return candidate if (candidate / "pg_basebackup").exists() else None


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
    bindir = _pg_bindir(version)
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
