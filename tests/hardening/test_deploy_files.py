"""docs/deploy.md works as written: the shipped nginx site passes ``nginx -t`` (Debian 12's nginx,
which scripts/test installs), the shipped systemd units pass ``systemd-analyze verify`` where
systemd is installed, every unit and file the doc names is shipped, and the doc's commands need
no ``sudo`` and run ``manage.py`` with the environment, checking only after collectstatic."""

import os
import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
DOC = (ROOT / "docs" / "deploy.md").read_text()
SITE = DEPLOY / "nginx-efuda.conf"
UNITS = sorted(DEPLOY.glob("*.service"))


def _shell_blocks(text: str) -> list[str]:
    return re.findall(r"```sh\n(.*?)```", text, re.S)


def _section(number: str) -> str:
    start = DOC.index(f"\n## {number} ")
    end = DOC.find("\n## ", start + 1)
    return DOC[start:end]


# --- nginx --------------------------------------------------------------------------------


def _throwaway_certificate(folder: Path) -> tuple[Path, Path]:
    cert, key = folder / "fullchain.pem", folder / "privkey.pem"
    made = subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", "/CN=efuda.example.org", "-keyout", str(key), "-out", str(cert)],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    return cert, key


def _nginx_test(tmp_path: Path, site_text: str) -> subprocess.CompletedProcess:
    """``nginx -t`` of a minimal nginx.conf that includes the site file, as Debian's does,
    with its certificate paths pointed at a throwaway certificate and everything nginx writes
    under ``tmp_path`` (so it runs as any user)."""
    cert, key = _throwaway_certificate(tmp_path)
    site = tmp_path / "efuda.conf"
    site.write_text(
        site_text.replace(
            "/etc/letsencrypt/live/efuda.example.org/fullchain.pem", str(cert)
        ).replace("/etc/letsencrypt/live/efuda.example.org/privkey.pem", str(key))
    )
    temp = "\n".join(
        f"    {kind}_temp_path {tmp_path / kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    conf = tmp_path / "nginx.conf"
    conf.write_text(
        f"pid {tmp_path / 'nginx.pid'};\nerror_log {tmp_path / 'error.log'};\n"
        "events { worker_connections 64; }\n"
        f"http {{\n    access_log {tmp_path / 'access.log'};\n{temp}\n    include {site};\n}}\n"
    )
    return subprocess.run(
        ["nginx", "-t", "-p", str(tmp_path), "-e", str(tmp_path / "error.log"), "-c", str(conf)],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip


needs_nginx = pytest.mark.skipif(
    not (shutil.which("nginx") or Path("/usr/sbin/nginx").exists()) or not shutil.which("openssl"),
    reason="nginx or openssl is not installed (scripts/test installs Debian's: apt-get install "
    "nginx openssl)",
)


@pytest.fixture
def nginx_path(monkeypatch):
    monkeypatch.setenv("PATH", "/usr/sbin:/sbin:" + os.environ.get("PATH", ""))


@needs_nginx
def test_nginx_accepts_the_shipped_site_file(tmp_path, nginx_path):
    result = _nginx_test(tmp_path, SITE.read_text())
    assert result.returncode == 0, result.stderr
    assert "syntax is ok" in result.stderr and "test is successful" in result.stderr
    assert "[warn]" not in result.stderr and "[emerg]" not in result.stderr, result.stderr


@needs_nginx
def test_nginx_test_fails_on_a_broken_site_file(tmp_path, nginx_path):
    """The test above can fail: the form Debian 12's nginx 1.22 does not know is refused."""
    broken = SITE.read_text().replace("listen 443 ssl http2;", "listen 443 ssl;\n    http2 on;")
    result = _nginx_test(tmp_path, broken)
    assert result.returncode != 0 and 'unknown directive "http2"' in result.stderr, result.stderr


# --- systemd ------------------------------------------------------------------------------


def _verify(tmp_path: Path, units: dict[str, str]) -> subprocess.CompletedProcess:
    """``systemd-analyze verify`` of the units as shipped, but for their code path: the
    commands under /srv/efuda/app are stand-ins in ``tmp_path`` (verify refuses a command that
    is not there)."""
    app = tmp_path / "app"
    (app / ".venv" / "bin").mkdir(parents=True)
    for name in ("gunicorn", "python"):
        stand_in = app / ".venv" / "bin" / name
        stand_in.write_text("#!/bin/sh\n")
        stand_in.chmod(0o755)
    names = []
    for name, text in units.items():
        (tmp_path / name).write_text(text.replace("/srv/efuda/app", str(app)))
        names.append(name.replace("@.service", "@8001.service"))
    return subprocess.run(
        ["systemd-analyze", "verify", "--man=no", "--generators=no", *names],
        cwd=tmp_path, capture_output=True, text=True, timeout=120,
    )  # fmt: skip


needs_systemd = pytest.mark.skipif(
    shutil.which("systemd-analyze") is None,
    reason="systemd is not installed here (no systemd-analyze): the units are not verified",
)


@needs_systemd
def test_systemd_verifies_the_shipped_units(tmp_path):
    assert {u.name for u in UNITS} >= {"efuda.service", "efuda@.service", "efuda-worker.service"}
    result = _verify(tmp_path, {u.name: u.read_text() for u in UNITS})
    assert result.returncode == 0, result.stderr
    assert not result.stderr.strip(), result.stderr  # not even an unknown key, ignored


@needs_systemd
def test_systemd_verify_finds_a_broken_unit(tmp_path):
    text = (DEPLOY / "efuda-worker.service").read_text().replace("Type=simple", "Typ=simple")
    result = _verify(tmp_path, {"efuda-worker.service": text})
    assert "Unknown key" in result.stderr


# --- the doc ------------------------------------------------------------------------------


def test_every_unit_and_file_the_doc_names_is_shipped():
    units = set(re.findall(r"\b(efuda[\w@-]*\.service)\b", DOC))
    assert units >= {"efuda.service", "efuda@.service", "efuda-worker.service"}
    missing = [u for u in units if not (DEPLOY / re.sub(r"@\w+\.", "@.", u)).exists()]
    assert not missing, f"named in docs/deploy.md, not in deploy/: {missing}"
    files = set(re.findall(r"`(deploy/[\w.@-]+)`", DOC))
    assert not [f for f in files if not (ROOT / f).exists()], files


def test_the_doc_needs_no_sudo():
    """Run as root: ``runuser`` (util-linux, on every Debian) where a command runs as another
    user; ``sudo`` is not on a minimal Debian."""
    lines = [line for block in _shell_blocks(DOC) for line in block.splitlines()]
    assert not [line for line in lines if re.search(r"(^|\s)sudo\s", line)]


def test_manage_py_runs_with_the_environment():
    """In every shell block, a ``manage.py`` line comes after the environment file was read,
    and runs as efuda with ``runuser``, which keeps the environment."""
    for block in _shell_blocks(DOC):
        lines = block.splitlines()
        for number, line in enumerate(lines):
            if "manage.py" not in line or line.lstrip().startswith("#"):
                continue
            before = "\n".join(lines[:number])
            assert ". /etc/efuda/efuda.env" in before, f"without the environment: {line}"
            assert "runuser -u efuda --" in line or "cron" in block, line


def test_the_configuration_is_checked_after_collectstatic():
    """check --deploy fails with efuda.E014 before collectstatic has written the manifest."""
    steps = [line for block in _shell_blocks(DOC) for line in block.splitlines()]
    collect = next(i for i, line in enumerate(steps) if "collectstatic" in line)
    checks = [i for i, line in enumerate(steps) if "check --deploy" in line]
    assert checks and all(i > collect for i in checks)


# --- the nightly backup's script ----------------------------------------------------------

SCRIPT = DEPLOY / "efuda-backup"
STAND_IN = """#!/bin/sh
# manage.py backup FILE, as far as the script can tell: writes FILE, or fails in one line
[ -n "${FAIL:-}" ] && { echo "CommandError: No backup was written to $3: disk full" >&2; exit 1; }
echo backup > "$3"
"""


def _backups(tmp_path: Path, **env) -> subprocess.CompletedProcess:
    python = tmp_path / "python"
    python.write_text(STAND_IN)
    python.chmod(0o755)
    (tmp_path / "b").mkdir(exist_ok=True)
    return subprocess.run(
        [str(SCRIPT)],
        env={"PATH": "/usr/bin:/bin", "PYTHON": str(python), "BACKUP_DIR": str(tmp_path / "b"),
             **env},
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip


def _aged(folder: Path, name: str, days: int) -> Path:
    path = folder / name
    path.write_text("old")
    when = time.time() - days * 86400
    os.utime(path, (when, when))
    return path


def test_the_backup_script_keeps_30_days_and_12_monthly_files(tmp_path):
    folder = tmp_path / "b"
    folder.mkdir()
    young = _aged(folder, "efuda-20261101.json.gz", 27)
    kept_daily = _aged(folder, "efuda-20261030.json.gz", 29)
    old_daily = _aged(folder, "efuda-20261020.json.gz", 39)
    monthly = _aged(folder, "efuda-20260601.json.gz", 180)
    old_monthly = _aged(folder, "efuda-20250901.json.gz", 450)
    other = _aged(folder, "notes.txt", 400)
    done = _backups(tmp_path)
    assert done.returncode == 0, done.stderr
    today = sorted(folder.glob("efuda-*.json.gz"), key=lambda p: p.stat().st_mtime)[-1]
    assert today.read_text() == "backup\n"
    assert young.exists() and kept_daily.exists() and monthly.exists() and other.exists()
    assert not old_daily.exists() and not old_monthly.exists()


def test_the_backup_script_copies_the_new_file_off_the_machine(tmp_path):
    offsite = tmp_path / "offsite"
    offsite.mkdir()
    done = _backups(tmp_path, BACKUP_COPY_TO=str(offsite) + "/", BACKUP_COPY_WITH="cp")
    assert done.returncode == 0, done.stderr
    assert [p.read_text() for p in offsite.iterdir()] == ["backup\n"]


def test_a_failed_backup_or_copy_is_one_line_non_zero_and_rotates_nothing(tmp_path):
    folder = tmp_path / "b"
    folder.mkdir()
    old = _aged(folder, "efuda-20201020.json.gz", 900)
    done = _backups(tmp_path, FAIL="1")
    assert done.returncode == 1 and old.exists()
    assert done.stderr.splitlines()[-1] == "efuda-backup: no backup written (see above)"
    done = _backups(tmp_path, BACKUP_COPY_TO="/nowhere/at/all/", BACKUP_COPY_WITH="cp")
    assert done.returncode == 1 and old.exists()
    assert done.stderr.splitlines()[-1].startswith("efuda-backup: ")
    assert "was written but not copied to /nowhere/at/all/" in done.stderr
