"""``manage.py import_results``: exit status, messages, the club created only on success."""

import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from tournaments.models import Club, Deal

from .helpers import NAPOLEON_HEADER, SAMPLES, csv_bytes

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


def test_samples_import_into_a_new_club():
    out = StringIO()
    call_command("import_results", str(SAMPLES / "napoleon.csv"), "--club", "new-club", stdout=out)
    call_command("import_results", str(SAMPLES / "daifugo.csv"), "--club", "new-club", stdout=out)
    club = Club.objects.get(slug="new-club")
    assert club.name == "new-club"
    assert Deal.objects.filter(club=club).count() == 11
    assert "Imported 6 deals (1 redeal) in 2 sessions into club new-club; 9 new players." in (
        out.getvalue()
    )


def test_bad_rows_raise_command_error_listing_every_line(tmp_path):
    path = tmp_path / "bad.csv"
    path.write_bytes(csv_bytes(
        NAPOLEON_HEADER,
        "2026-11-20,A,napoleon-wiki,a;b;c;d;e,a,13,S,SA,b,14,0",
        "2026/11/31,A,napoleon-wiki,a;b;c;d;e,a,13,S,SA,b,14,0",
        "2026-11-20,A,napoleon-wiki,a;b;c;d;e,a,13,S,SA,b,many,0",
    ))  # fmt: skip
    with pytest.raises(CommandError) as caught:
        call_command("import_results", str(path), "--club", "fresh")
    message = str(caught.value)
    assert "line 3, column date: “2026/11/31” is not a date" in message
    assert "line 4, column honours: “many” is not a whole number" in message
    assert "2 errors; nothing was imported." in message
    assert not Club.objects.filter(slug="fresh").exists()  # not even the club


def test_bad_club_slug_and_missing_file(tmp_path):
    with pytest.raises(CommandError, match="--club"):
        call_command("import_results", str(SAMPLES / "daifugo.csv"), "--club", "no spaces")
    with pytest.raises(CommandError, match="Cannot read"):
        call_command("import_results", str(tmp_path / "missing.csv"), "--club", "x")


def test_exit_status_of_the_real_command(tmp_path):
    """The process exits non-zero with the message on stderr (no database needed for this)."""
    result = subprocess.run(
        [sys.executable, "manage.py", "import_results", str(tmp_path / "none.csv"),
         "--club", "x"],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
        env={"PATH": "/usr/bin:/bin", "DJANGO_SETTINGS_MODULE": "config.settings.test",
             "DATABASE_URL": f"sqlite:///{tmp_path / 'unused.sqlite3'}"},
    )  # fmt: skip
    assert result.returncode == 1
    assert "Cannot read" in result.stderr
