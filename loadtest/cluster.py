"""The PostgreSQL pair of the multi-server tryout (loadtest/multi.py, deploy/try-multi-server):
a primary cluster of its own on a chosen port, prepared for a standby exactly as docs/deploy.md
§5b says (a replication role with a password, a ``host replication`` line in pg_hba.conf, the
primary listening on an address), and a standby made from it over TCP with that role
(``pg_basebackup -R``). Being the run's own, the primary may be restarted under load without
touching anybody else's database. Needs root (the clusters run as the postgres user).
"""

from __future__ import annotations

import os
import secrets
import subprocess
from pathlib import Path

from loadtest.parts import Primary, Standby

REPLICATION_ROLE = "replicator"


def _as_postgres(*args: str, env: dict | None = None, timeout: float = 300) -> str:
    done = subprocess.run(
        ["runuser", "-u", "postgres", "--", *args],
        capture_output=True, text=True, timeout=timeout, cwd="/", env=env,
    )  # fmt: skip
    if done.returncode != 0:
        raise RuntimeError(f"{Path(args[0]).name} failed: {done.stderr[-2000:]}")
    return done.stdout


class OwnPrimary(Primary):
    """``initdb`` on ``port``; efuda's role and database; the standby steps of docs/deploy.md."""

    def __init__(self, bindir: Path, datadir: Path, *, port: int, database: str):
        super().__init__(bindir, datadir)
        self.port, self.database = port, database
        self.password = secrets.token_urlsafe(16)
        self.replication_password = secrets.token_urlsafe(16)

    def url(self, database: str | None = None) -> str:
        return (f"postgres://efuda:{self.password}@127.0.0.1:{self.port}/"
                f"{database or self.database}")  # fmt: skip

    def create(self) -> None:
        _as_postgres(str(self.bindir / "initdb"), "-D", str(self.datadir), "-U", "postgres",
                     "--auth-local=peer", "--auth-host=scram-sha-256", "-E", "UTF8",
                     "--locale=C.UTF-8", "--no-sync")  # fmt: skip
        with (self.datadir / "postgresql.conf").open("a") as conf:
            conf.write(
                # docs/deploy.md: the primary listens on an address the standby reaches
                f"port = {self.port}\nlisten_addresses = '127.0.0.1'\n"
                f"unix_socket_directories = '{self.datadir}'\nfsync = off\n"
                "shared_buffers = 32MB\nmax_connections = 100\n"
            )
        # docs/deploy.md: efuda's servers, and the standby's replication connection
        (self.datadir / "pg_hba.conf").write_text(
            "local all postgres peer\n"
            "host all efuda 127.0.0.1/32 scram-sha-256\n"
            f"host replication {REPLICATION_ROLE} 127.0.0.1/32 scram-sha-256\n"
        )
        self.start()
        self.psql("postgres", f"CREATE ROLE efuda LOGIN PASSWORD '{self.password}'")
        self.psql("postgres", f'CREATE DATABASE "{self.database}" OWNER efuda')
        self.psql("postgres", f"CREATE ROLE {REPLICATION_ROLE} WITH REPLICATION LOGIN "
                              f"PASSWORD '{self.replication_password}'")  # fmt: skip

    def stop(self, mode: str = "fast") -> None:
        if self.postmaster_pid():
            super().stop(mode)


class ReplicaOf(Standby):
    """A hot standby of ``primary`` on ``port``, made over TCP with the replication role."""

    def __init__(self, primary: OwnPrimary, datadir: Path, *, port: int):
        super().__init__(primary.bindir, datadir, primary.port)
        self.primary, self.port = primary, port

    def url(self) -> str:
        return f"postgres://efuda:{self.primary.password}@127.0.0.1:{self.port}/{self.primary.database}"

    def create(self) -> None:
        env = {**os.environ, "PGPASSWORD": self.primary.replication_password}
        _as_postgres(str(self.bindir / "pg_basebackup"), "-D", str(self.datadir), "-R",
                     "-X", "stream", "-c", "fast", "-h", "127.0.0.1", "-p",
                     str(self.primary.port), "-U", REPLICATION_ROLE, env=env)  # fmt: skip
        with (self.datadir / "postgresql.conf").open("a") as conf:
            conf.write(
                f"port = {self.port}\nlisten_addresses = '127.0.0.1'\n"
                f"unix_socket_directories = '{self.datadir}'\nhot_standby = on\n"
                "max_standby_streaming_delay = 5s\n"
            )
        subprocess.run(["chown", "-R", "postgres:postgres", str(self.datadir)], check=True)

    def stop(self, mode: str = "fast") -> None:
        if self.postmaster_pid():
            super().stop(mode)
