"""The environment file has one format that every reader reads the same way.

deploy/efuda.env.example is read by systemd (EnvironmentFile=), by the cron line (``/bin/sh``:
``set -a && . FILE``) and by an operator's bash (``set -a; . FILE; set +a``, docs/deploy.md). An
unquoted ``DEFAULT_FROM_EMAIL=efuda <…>`` once stopped sh with a syntax error (no nightly backup)
and bash at that line (every later name lost). The format: NAME=value, a value holding anything
but a safe character in single quotes, never holding a single quote itself; systemd, sh and bash
then agree on every value. These tests source the real file with the real shells.
"""

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.core.management.utils import get_random_secret_key

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "deploy" / "efuda.env.example"
SAFE = re.compile(r"[A-Za-z0-9.,/:@_+=-]*")
ASSIGNMENT = re.compile(r"([A-Z_][A-Z0-9_]*)=(.*)")


def expected_values(text: str) -> dict[str, str]:
    """What the file means, by the format's own rule (systemd's reading of it: a value in single
    quotes is taken as it is, quotes removed)."""
    values = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        match = ASSIGNMENT.fullmatch(line)
        assert match, f"line {number} is not NAME=value: {line!r}"
        name, value = match.groups()
        if value.startswith("'"):
            assert value.endswith("'") and len(value) >= 2, f"line {number}: unclosed quote"
            inner = value[1:-1]
            assert "'" not in inner, f"line {number}: a single quote inside single quotes"
            value = inner
        else:
            assert SAFE.fullmatch(value), f"line {number}: {name}'s value needs single quotes"
        values[name] = value
    return values


def sourced(shell: str, path: Path) -> dict[str, str]:
    """Every variable the shell exports after ``set -a; . FILE`` (as the docs and cron do)."""
    script = f"set -a && . '{path}' && set +a && env -0"
    result = subprocess.run(
        [shell, "-c", script], capture_output=True, env={"PATH": "/usr/bin:/bin"}, timeout=30
    )
    assert result.returncode == 0, result.stderr.decode()
    pairs = (item.split("=", 1) for item in result.stdout.decode().split("\0") if "=" in item)
    return dict(pairs)


SHELLS = [shell for shell in ("sh", "bash", "dash") if shutil.which(shell)]


@pytest.mark.parametrize("shell", SHELLS)
def test_every_name_of_the_example_arrives_with_its_value(shell):
    expected = expected_values(EXAMPLE.read_text())
    assert {"DEFAULT_FROM_EMAIL", "LINE_CHANNEL_ID", "SECRET_KEY"} <= set(expected)
    assert expected["DEFAULT_FROM_EMAIL"] == "efuda <efuda@efuda.example.org>"
    got = sourced(shell, EXAMPLE)
    assert {name: got.get(name) for name in expected} == expected


@pytest.mark.parametrize("shell", SHELLS)
def test_a_generated_secret_key_quoted_as_the_docs_say(shell, tmp_path):
    key = get_random_secret_key() + "$&()*!#%^"  # Django's alphabet, its awkward ones for sure
    text = EXAMPLE.read_text()
    text = re.sub(r"(?m)^SECRET_KEY=.*$", lambda _: f"SECRET_KEY='{key}'", text)
    env = tmp_path / "efuda.env"
    env.write_text(text)
    expected = expected_values(text)
    assert expected["SECRET_KEY"] == key
    got = sourced(shell, env)
    assert {name: got.get(name) for name in expected} == expected


def test_an_unquoted_value_with_spaces_is_refused_by_the_format():
    with pytest.raises(AssertionError, match="DEFAULT_FROM_EMAIL's value needs single quotes"):
        expected_values("DEFAULT_FROM_EMAIL=efuda <efuda@efuda.example.org>\n")


def test_the_cron_line_sources_the_file_under_sh():
    cron = (ROOT / "deploy" / "efuda-backup.cron").read_text()
    assert "SHELL=/bin/sh" in cron
    assert "set -a && . /etc/efuda/efuda.env &&" in cron
