"""The benchmark's throwaway databases, and the default connection pointed at one of them: the
database configured in settings is never touched."""

from __future__ import annotations

import shutil
import tempfile
import time
import uuid
from pathlib import Path
from urllib.parse import quote

import psycopg
from django.db import connections


def _sqlite(path: Path) -> dict:
    return {
        "ENGINE": "django.db.backends.sqlite3", "NAME": str(path), "USER": "", "PASSWORD": "",
        "HOST": "", "PORT": "",
        "OPTIONS": {"timeout": 20, "transaction_mode": "IMMEDIATE",
                    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"},
    }  # fmt: skip


class SqliteStore:
    """Synthetic clubs in SQLite files: a migrated template copied once per size."""

    def __init__(self, keep: Path | None):
        self.keep = keep is not None
        self.workdir = keep or Path(tempfile.mkdtemp(prefix="efuda-bench-"))
        self.workdir.mkdir(parents=True, exist_ok=True)

    def template(self) -> Path:
        return self.workdir / "template.sqlite3"

    def copy(self, size: int) -> Path:
        path = self.workdir / f"bench-{size}.sqlite3"
        shutil.copyfile(self.template(), path)
        return path

    def kept(self, size: int) -> Path | None:
        """The size's database an earlier run kept here, if there is one."""
        path = self.workdir / f"bench-{size}.sqlite3"
        return path if path.exists() else None

    def settings(self, path: Path) -> dict:
        return _sqlite(path)

    def cleanup(self) -> None:
        if not self.keep:
            shutil.rmtree(self.workdir, ignore_errors=True)


class PostgresStore:
    """Synthetic clubs in throwaway databases on the configured PostgreSQL server; the
    configured database itself is never touched."""

    def __init__(self, original: dict, keep: bool):
        self.original = original
        self.keep = keep
        self.prefix = f"efuda_bench_{uuid.uuid4().hex[:8]}"
        self.names: list[str] = []

    def _admin(self, sql: str) -> None:
        o = self.original
        with psycopg.connect(
            dbname="postgres", user=o["USER"], password=o["PASSWORD"], host=o["HOST"] or None,
            port=o["PORT"] or None, autocommit=True,
        ) as conn:  # fmt: skip
            conn.execute(sql)

    def template(self) -> str:
        name = f"{self.prefix}_template"
        self._admin(f'CREATE DATABASE "{name}"')
        self.names.append(name)
        return name

    def copy(self, size: int) -> str:
        name = f"{self.prefix}_{size}"
        self._admin(f'CREATE DATABASE "{name}" TEMPLATE "{self.prefix}_template"')
        self.names.append(name)
        return name

    def settings(self, name: str) -> dict:
        return {**self.original, "NAME": name, "CONN_MAX_AGE": 0, "OPTIONS": {}}

    def cleanup(self) -> None:
        if self.keep:
            return
        for name in reversed(self.names):
            for attempt in range(10):
                try:
                    self._admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
                    break
                except psycopg.errors.InsufficientPrivilege:
                    # FORCE may not end the server's own processes (an autovacuum worker on
                    # the freshly written database): wait for them, then try again.
                    if attempt == 9:
                        raise
                    time.sleep(3)


def use(target: dict | None) -> None:
    """Point the default connection at ``target`` settings (None: just close it)."""
    connections["default"].close()
    if target is None:
        return
    settings_dict = connections.settings["default"]
    settings_dict.update(target)
    del connections["default"]


def restore(original: dict) -> None:
    """Point the default connection back at the configured database."""
    connections["default"].close()
    settings_dict = connections.settings["default"]
    settings_dict.clear()
    settings_dict.update(original)
    del connections["default"]


def database_url(settings_dict: dict) -> str:
    """``settings_dict`` as a DATABASE_URL (for a process of its own)."""
    if settings_dict["ENGINE"] == "django.db.backends.sqlite3":
        return f"sqlite:///{settings_dict['NAME']}"
    auth = quote(settings_dict["USER"])
    if settings_dict.get("PASSWORD"):
        auth += ":" + quote(settings_dict["PASSWORD"])
    host = settings_dict.get("HOST") or "127.0.0.1"
    port = settings_dict.get("PORT") or 5432
    return f"postgres://{auth}@{host}:{port}/{settings_dict['NAME']}"
