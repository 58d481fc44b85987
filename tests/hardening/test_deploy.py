"""Production settings: Django's deployment checks pass, and insecure settings are refused."""

import os
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _manage(*args, **env_over):
    # A clean environment: e.g. DJANGO_ALLOW_ASYNC_UNSAFE (set for browser tests) would rightly
    # fail the deployment checks.
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("SECRET_KEY", "ALLOWED_HOSTS") and not k.startswith("DJANGO_")
    }
    env.update(DJANGO_SETTINGS_MODULE="config.settings.production", **env_over)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_passes_with_production_settings(tmp_path):
    (tmp_path / "staticfiles.json").write_text('{"paths": {}, "version": "1.1"}')  # collected
    result = _manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        SECRET_KEY=secrets.token_urlsafe(64),
        ALLOWED_HOSTS="efuda.example.org",
        STATIC_ROOT=str(tmp_path),
    )
    assert result.returncode == 0, result.stderr + result.stdout
    assert "no issues" in result.stdout


def test_production_settings_are_secure():
    code = (
        "from django.conf import settings as s;"
        "print(s.DEBUG, s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.SECURE_SSL_REDIRECT,"
        " s.SECURE_HSTS_SECONDS >= 31536000, s.SECURE_CONTENT_TYPE_NOSNIFF, s.X_FRAME_OPTIONS,"
        " s.SECURE_REFERRER_POLICY, s.SECURE_PROXY_SSL_HEADER[0], s.SESSION_COOKIE_HTTPONLY)"
    )
    result = _manage(
        "shell", "-c", code, SECRET_KEY=secrets.token_urlsafe(64), ALLOWED_HOSTS="efuda.example.org"
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1].split() == [
        "False",
        "True",
        "True",
        "True",
        "True",
        "True",
        "DENY",
        "same-origin",
        "HTTP_X_FORWARDED_PROTO",
        "True",
    ]


def _import_settings(**env_over):
    """Import the production settings module alone (what every process does first)."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("SECRET_KEY", "ALLOWED_HOSTS") and not k.startswith("DJANGO_")
    }
    env.update(env_over)
    return subprocess.run(
        [sys.executable, "-c", "import config.settings.production"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_production_refuses_the_default_or_a_short_key():
    for key in (None, "insecure-development-key-change-me", "short-key", "a" * 60):
        env = {"ALLOWED_HOSTS": "efuda.example.org"}
        if key is not None:
            env["SECRET_KEY"] = key
        result = _import_settings(**env)
        assert result.returncode != 0, key
        assert "ImproperlyConfigured" in result.stderr and "SECRET_KEY" in result.stderr
    good = _import_settings(SECRET_KEY=secrets.token_urlsafe(64), ALLOWED_HOSTS="efuda.example.org")
    assert good.returncode == 0, good.stderr


def test_production_refuses_missing_allowed_hosts():
    result = _import_settings(SECRET_KEY=secrets.token_urlsafe(64))
    assert result.returncode != 0
    assert "ALLOWED_HOSTS" in result.stderr


def test_gunicorn_config_binds_to_loopback():
    namespace: dict = {}
    exec((ROOT / "deploy" / "gunicorn.conf.py").read_text(), namespace)  # noqa: S102
    assert namespace["bind"].startswith("127.0.0.1:")
    assert namespace["wsgi_app"] == "config.wsgi:application"
    assert namespace["workers"] >= 2


def _example_key() -> str:
    for line in (ROOT / "deploy" / "efuda.env.example").read_text().splitlines():
        if line.startswith("SECRET_KEY="):
            return line.split("=", 1)[1].strip("'")
    raise AssertionError("no SECRET_KEY in deploy/efuda.env.example")


def test_production_refuses_the_example_key_naming_the_file():
    key = _example_key()
    assert len(key) >= 50  # long enough: only the repository check can refuse it
    result = _import_settings(SECRET_KEY=key, ALLOWED_HOSTS="efuda.example.org")
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert "deploy/efuda.env.example" in result.stderr and "SECRET_KEY" in result.stderr


def test_check_deploy_reports_a_published_key(tmp_path):
    """The system check (efuda.E001) refuses a key found in the repository, under any settings."""
    from django.test import override_settings

    from tournaments.checks import secret_key_not_published

    key = secrets.token_urlsafe(64)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "notes.md").write_text(f"we used SECRET_KEY={key} once\n")
    with override_settings(SECRET_KEY=key, BASE_DIR=tmp_path):
        errors = secret_key_not_published()
    assert [e.id for e in errors] == ["efuda.E001"]
    assert "docs/notes.md" in errors[0].msg
    with override_settings(SECRET_KEY=secrets.token_urlsafe(64), BASE_DIR=tmp_path):
        assert secret_key_not_published() == []
