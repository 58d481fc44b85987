"""A backup or a restore that fails — the disk full, a file size limit — ends in one line saying
why and a non-zero exit, with no traceback, no partial backup file and nothing restored.

The limit is set in the command's own process (``RLIMIT_FSIZE``: a write past it fails with
"File too large", as on a full disk), which runs on a copy of the test database."""

import io
import os
import resource
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connections

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 100_000  # bytes: more than SQLite's shared-memory file (32 KB), less than the backup


def _database_url(tmp_path: Path) -> str:
    """The test database for a command in another process (SQLite's in-memory one copied)."""
    connection = connections["default"]
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        path = tmp_path / "copy.sqlite3"
        connection.ensure_connection()
        with sqlite3.connect(path) as target:
            connection.connection.backup(target)
        return f"sqlite:///{path}"
    host, port = db["HOST"] or "127.0.0.1", db["PORT"] or 5432
    return f"postgres://{db['USER']}:{db['PASSWORD']}@{host}:{port}/{db['NAME']}"


def _manage(*args: str, url: str, limit: int | None = None) -> subprocess.CompletedProcess:
    def limited():
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env.update(DJANGO_SETTINGS_MODULE="config.settings.test", DATABASE_URL=url, LANG="C.UTF-8")
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True,
        text=True, timeout=300, preexec_fn=limited if limit else None,
    )  # fmt: skip


def _one_line(run: subprocess.CompletedProcess) -> str:
    assert run.returncode == 1, (run.returncode, run.stderr[-2000:])
    assert "Traceback" not in run.stderr + run.stdout
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1, run.stderr
    assert lines[0].startswith("CommandError: ")
    return lines[0]


def test_a_backup_past_the_file_size_limit_says_why_in_one_line_and_leaves_no_file(tmp_path):
    call_command("demo_data", "--deals", "2000", stdout=io.StringIO())
    url = _database_url(tmp_path)
    folder = tmp_path / "backups"
    folder.mkdir()

    line = _one_line(_manage("backup", str(folder / "efuda.json.gz"), url=url, limit=LIMIT))
    assert "File too large" in line and "efuda.json.gz" in line
    assert list(folder.iterdir()) == []  # neither the file nor its temporary copy

    # The same command without the limit writes the file (the limit was the only cause).
    done = _manage("backup", str(folder / "efuda.json.gz"), url=url)
    assert done.returncode == 0, done.stderr
    assert [p.name for p in folder.iterdir()] == ["efuda.json.gz"]
    assert (folder / "efuda.json.gz").stat().st_size > LIMIT


def test_a_backup_into_a_missing_folder_says_why_in_one_line(tmp_path):
    run = _manage(
        "backup", str(tmp_path / "no-such-folder" / "b.json.gz"), url=_database_url(tmp_path)
    )
    assert "No such file or directory" in _one_line(run)


def test_a_restore_that_fills_the_disk_says_why_in_one_line_and_restores_nothing(tmp_path):
    if connections["default"].vendor != "sqlite":
        pytest.skip("the server writes PostgreSQL's files, not the restoring process")
    empty = _database_url(tmp_path)  # migrated, nothing in it yet
    call_command("demo_data", "--deals", "2000", stdout=io.StringIO())
    backup = tmp_path / "efuda.json.gz"
    call_command("backup", str(backup), stderr=io.StringIO())

    line = _one_line(_manage("restore", str(backup), url=empty, limit=LIMIT))
    assert "disk is full" in line or "disk I/O error" in line
    with sqlite3.connect(empty.removeprefix("sqlite:///")) as db:
        assert db.execute("SELECT count(*) FROM tournaments_deal").fetchone() == (0,)
        assert db.execute("SELECT count(*) FROM auth_user").fetchone() == (0,)

    done = _manage("restore", str(backup), url=empty)
    assert done.returncode == 0, done.stderr
    with sqlite3.connect(empty.removeprefix("sqlite:///")) as db:
        assert db.execute("SELECT count(*) FROM tournaments_deal").fetchone() == (2000,)


def test_a_restore_of_a_missing_file_says_why_in_one_line(tmp_path):
    run = _manage("restore", str(tmp_path / "nothing.json.gz"), url=_database_url(tmp_path))
    assert "No such file or directory" in _one_line(run)
