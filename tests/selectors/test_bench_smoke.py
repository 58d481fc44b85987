"""The benchmark command end to end on a tiny synthetic club (its own throwaway SQLite file)."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_bench_prints_one_json_line_per_step(tmp_path):
    env = dict(os.environ, DJANGO_SETTINGS_MODULE="config.settings.test")
    result = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "bench",
            "--sizes",
            "200",
            "--json",
            "--repeat",
            "2",
            "--pdf-repeat",
            "1",
            "--keep",
            str(tmp_path),
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    rows = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    assert [r["step"] for r in rows] == [
        "record_deal",
        "session_page",
        "standings_month",
        "standings_all",
        "player_page",
        "session_pdf",
        "ratings_page",
    ]
    assert all(r["size"] == 200 and r["median_ms"] > 0 and r["queries"] > 0 for r in rows)
    assert "built 200 score lines" in result.stderr
    assert "ratings replay (napoleon)" in result.stderr
