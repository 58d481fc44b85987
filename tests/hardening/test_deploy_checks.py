"""``check --deploy`` catches what an operator of several servers can get wrong: a shared cache or
replica this server cannot reach, the cache's client library missing, a replica URL that names
the primary, and static files not collected on this server."""

import os
import secrets
import subprocess
import sys

import pytest

from .realparts import free_port
from .test_deploy import ROOT, _manage

DEPLOY = ("check", "--deploy", "--fail-level", "WARNING")


def _env(tmp_path, *, manifest=True, **extra):
    if manifest:
        (tmp_path / "staticfiles.json").write_text('{"paths": {}, "version": "1.1"}')
    return {"SECRET_KEY": secrets.token_urlsafe(64), "ALLOWED_HOSTS": "efuda.example.org",
            "STATIC_ROOT": str(tmp_path), "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
            **extra}  # fmt: skip


def test_an_unreachable_cache_a_replica_naming_the_primary_and_no_static_manifest(tmp_path):
    primary = f"postgres://efuda:pw@127.0.0.1:5432/efuda_{secrets.token_hex(3)}"
    result = _manage(*DEPLOY, **_env(
        tmp_path, manifest=False, CACHE_URL=f"redis://127.0.0.1:{free_port()}/0",
        DATABASE_URL=primary, DATABASE_REPLICA_URL=primary.replace("127.0.0.1", "localhost"),
    ))  # fmt: skip
    output = result.stdout + result.stderr
    assert result.returncode != 0
    for code in ("efuda.E011", "efuda.E012", "efuda.E014"):
        assert code in output, output
    assert "cannot be reached" in output and "collectstatic" in output


def test_an_unreachable_replica(tmp_path):
    replica = f"postgres://efuda:pw@127.0.0.1:{free_port()}/efuda"
    result = _manage(*DEPLOY, **_env(tmp_path, DATABASE_REPLICA_URL=replica))
    output = result.stdout + result.stderr
    assert result.returncode != 0 and "efuda.E013" in output, output
    assert "E011" not in output and "E012" not in output and "E014" not in output


def test_a_redis_cache_url_without_its_client_is_refused_at_start(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env.update(DJANGO_SETTINGS_MODULE="config.settings.production",
               **_env(tmp_path, CACHE_URL="redis://127.0.0.1:6379/0"))  # fmt: skip
    hide = (
        "import sys; sys.modules['django_redis'] = None\n"  # as if never installed
        "from django.core.management import execute_from_command_line\n"
        "execute_from_command_line(['manage.py', 'check', '--deploy'])\n"
    )
    result = subprocess.run([sys.executable, "-c", hide], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=120)  # fmt: skip
    assert result.returncode != 0
    hint = "its client is not installed: scripts/install (it installs uv.lock; docs/deploy.md)"
    assert hint in result.stderr


@pytest.mark.shared_parts
def test_a_reachable_redis_passes(tmp_path, redis_server):
    result = _manage(*DEPLOY, **_env(tmp_path, CACHE_URL=redis_server.url))
    assert result.returncode == 0 and "no issues" in result.stdout, result.stdout + result.stderr


def test_the_environment_file_lists_every_variable_the_settings_read():
    import re
    from pathlib import Path

    root = Path(ROOT)
    read = set()
    for path in [*sorted((root / "config").rglob("*.py")), root / "deploy" / "gunicorn.conf.py"]:
        text = path.read_text(encoding="utf-8")
        read |= set(re.findall(r'(?:environ\.get|env_bool|env_list)\(\s*"([A-Z_]+)"', text))
        read |= set(re.findall(r'environ\["([A-Z_]+)"\]', text))
    read.add("DATABASE_URL")  # dj_database_url.config reads it
    example = (root / "deploy" / "efuda.env.example").read_text(encoding="utf-8")
    listed = set(re.findall(r"^#? ?([A-Z_]+)=", example, re.M))
    assert read - listed == set()
    assert {"CACHE_URL", "DATABASE_REPLICA_URL"} <= listed
