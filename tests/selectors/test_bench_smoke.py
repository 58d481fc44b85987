"""The benchmark command end to end on a tiny synthetic club (its own throwaway database: an
SQLite file, or on the PostgreSQL leg also a throwaway database on the same server)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]


def _bench(*extra, sqlite=False):
    env = dict(os.environ, DJANGO_SETTINGS_MODULE="config.settings.test")
    if sqlite:
        env.pop("DATABASE_URL", None)
    result = subprocess.run(
        [sys.executable, "manage.py", "bench", "--sizes", "200", "--json", "--repeat", "2",
         "--pdf-repeat", "1", "--rounds", "1", *extra],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-2000:]
    rows = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    assert [r["step"] for r in rows] == [
        "record_deal",
        "session_page",
        "standings_month",
        "standings_all",
        "player_page",
        "session_pdf",
        "cached_page",
        "member_standings",
        "ratings_page",
    ]
    assert all(r["size"] == 200 and r["median_ms"] > 0 and r["queries"] > 0 for r in rows)
    cached = next(r for r in rows if r["step"] == "cached_page")
    assert cached["queries"] == 1  # the club's data version; the page itself from the cache
    member = next(r for r in rows if r["step"] == "member_standings")
    assert member["queries"] == 3  # the session, the user, the club with their role
    # each step's multiple of the cached page and its growth (one size: none), wall and CPU
    assert cached["x_cached"] == cached["x_cached_cpu"] == 1.0
    assert all(r["growth"] == r["growth_cpu"] == 1.0 and r["cpu_ms"] > 0 for r in rows)
    return result.stderr


def test_bench_prints_one_json_line_per_step(tmp_path):
    log = _bench("--keep", str(tmp_path), sqlite=True)
    assert "built 200 score lines" in log
    assert "ratings replay (napoleon)" in log
    # the kept database is used again, not built again
    log = _bench("--keep", str(tmp_path), "--reuse", sqlite=True)
    assert "reused a kept club" in log and "built 200" not in log


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the PostgreSQL leg only")
def test_bench_runs_on_postgresql():
    assert "built 200 score lines" in _bench("--database", "postgresql")
