"""The shared parts of the load runs and of a multi-server set-up, started on this machine for
the fault tests (tests/hardening) and the load runs (loadtest/run.py, ratio.py, evening.py,
multi.py, deploy/try-multi-server): a run's database filled by ``loadtest.seed``, its report
lines and JSON file, a ``redis-server`` (a run's shared cache) and a streaming standby of a local
PostgreSQL primary (``pg_basebackup -R`` into a second cluster on another port, run as the
``postgres`` user; needs root).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg

from loadtest.server import PYTHON, ROOT, prepare


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


@contextlib.contextmanager
def load_cache(kind: str):
    """A load run's shared cache, as a venue's servers share one: ``kind`` "redis" starts a
    ``redis-server`` of its own (in a temporary directory) and yields it, stopped afterwards;
    "local" (each worker's own memory) yields None."""
    if kind != "redis":
        yield None
        return
    with tempfile.TemporaryDirectory(prefix="efuda-redis-") as workdir:
        redis = RedisServer(shutil.which("redis-server"), Path(workdir))
        redis.start()
        try:
            yield redis
        finally:
            redis.stop()


# --- a load run's database and report -------------------------------------------------------


def recreate_database(url: str) -> None:
    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    admin = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def seed_world(env: dict, *, history: int, scorekeepers: int | None = None) -> dict:
    """``loadtest.seed --demo`` in the run's environment: the world it prints last."""
    command = [PYTHON, "-m", "loadtest.seed", "--demo", "--history", str(history)]
    if scorekeepers is not None:
        command += ["--scorekeepers", str(scorekeepers)]
    seeded = subprocess.run(
        command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=1800
    )
    if seeded.returncode != 0:
        raise SystemExit(seeded.stderr[-3000:])
    return json.loads(seeded.stdout.strip().splitlines()[-1])


def fresh_world(
    env: dict, database_url: str, *, history: int, reuse: bool = False,
    scorekeepers: int | None = None, skip_admin_static: bool = False,
) -> dict:  # fmt: skip
    """The run's database (re)created (``reuse``: kept, and no history added), migrated, its
    static files collected, and filled by ``loadtest.seed``: the world it prints."""
    if not reuse:
        recreate_database(database_url)
    prepare(env, skip_admin_static=skip_admin_static)
    return seed_world(env, history=0 if reuse else history, scorekeepers=scorekeepers)


def write_json(path: Path, result: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(result, indent=2, ensure_ascii=False))


def print_load_average(machine: dict) -> None:
    """The line of the machine's load average before and after the run."""
    before, after = machine["before"], machine["after"]
    print(f"load average before {before['load_average']}, after {after['load_average']}")


def print_latencies(load: dict, *, label: str, width: int, errors: str, errors_width: int):
    """The table of requests, errors and p50/p95/max per kind of request (``run.summary``),
    then the error samples."""
    print(f"{label:<{width}}{'requests':>9}{errors:>{errors_width}}{'p50 ms':>9}{'p95 ms':>9}"
          f"{'max ms':>9}")  # fmt: skip
    for kind, k in load["kinds"].items():
        print(f"{kind:<{width}}{k['requests']:>9}{k['errors']:>{errors_width}}{k['p50_ms']:>9}"
              f"{k['p95_ms']:>9}{k['max_ms']:>9}")  # fmt: skip
    for sample in load["error_samples"]:
        print("  error:", sample)


def verify_line(v: dict, *, aggregates: bool = False) -> str:
    """What ``run.verify`` found, in one line (``aggregates``: with its aggregate check)."""
    gaps = f"gaps {v['sessions_with_gaps']}"
    if aggregates:
        gaps += f", aggregate mismatches {v['aggregate_rows_not_matching_lines']}"
    return (
        f"deals confirmed {v['confirmed']}, stored once {v['stored_with_those_keys']}, "
        f"missing {v['missing']}, duplicated {v['duplicated']}, {gaps} -> "
        f"{'OK' if v['ok'] else 'FAILED'}"
    )


# --- PostgreSQL standby ----------------------------------------------------------------------


def as_postgres(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
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
        made = as_postgres(
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
        started = as_postgres(
            str(self.bindir / "pg_ctl"), "-D", str(self.datadir), "-l",
            str(self.datadir / "server.log"), "-w", "-t", "60", "start",
        )  # fmt: skip
        if started.returncode != 0:
            log = (self.datadir / "server.log").read_text(errors="replace")[-2000:]
            raise RuntimeError(f"standby did not start: {started.stderr}{log}")

    def stop(self, mode: str = "fast") -> None:
        self.resume()
        as_postgres(str(self.bindir / "pg_ctl"), "-D", str(self.datadir), "-m", mode, "-w",
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


def pg_bindir(version_num: int) -> Path | None:
    major = version_num // 10000
    candidate = Path(f"/usr/lib/postgresql/{major}/bin")
    return candidate if (candidate / "pg_basebackup").exists() else None


class Primary(Standby):
    """A PostgreSQL cluster of its own (``initdb``) on a free port that a test may restart or
    stop and start: trust authentication on 127.0.0.1 and its own socket only, fsync off."""

    def __init__(self, bindir: Path, datadir: Path):
        super().__init__(bindir, datadir, primary_port=0)

    def url(self, database: str) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}"

    def create(self) -> None:
        made = as_postgres(
            str(self.bindir / "initdb"), "-D", str(self.datadir), "-U", "postgres",
            "-A", "trust", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync",
        )  # fmt: skip
        if made.returncode != 0:
            raise RuntimeError(f"initdb failed: {made.stderr[-2000:]}")
        with (self.datadir / "postgresql.conf").open("a") as conf:
            conf.write(
                f"port = {self.port}\nlisten_addresses = '127.0.0.1'\n"
                f"unix_socket_directories = '{self.datadir}'\nfsync = off\n"
                "shared_buffers = 16MB\nmax_connections = 60\n"
            )

    def psql(self, database: str, sql: str) -> str:
        done = as_postgres(str(self.bindir / "psql"), "-h", str(self.datadir), "-p",
                           str(self.port), "-d", database, "-v", "ON_ERROR_STOP=1", "-qAt",
                           "-c", sql)  # fmt: skip
        if done.returncode != 0:
            raise RuntimeError(f"psql failed: {done.stderr[-2000:]}")
        return done.stdout

    def restart(self, mode: str = "fast") -> None:
        """``pg_ctl restart``: every connection ends; back when it accepts connections."""
        done = as_postgres(str(self.bindir / "pg_ctl"), "-D", str(self.datadir), "-m", mode,
                           "-l", str(self.datadir / "server.log"), "-w", "restart")  # fmt: skip
        if done.returncode != 0:
            raise RuntimeError(f"restart failed: {done.stderr[-2000:]}")
