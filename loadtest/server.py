"""Start and stop a real efuda server for scripts and tests: a database prepared with
``manage.py``, gunicorn with deploy/gunicorn.conf.py on 127.0.0.1, production settings.

Everything binds to loopback; the server runs in its own process group so it can be stopped
(or killed with SIGKILL, as a crash would) without touching any other process.
"""

from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from loadtest.webclient import WebClient

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
GUNICORN = str(Path(PYTHON).with_name("gunicorn"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def server_env(database_url: str, static_root: Path, **extra: str) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GUNICORN_", "DJANGO_"))}
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.production",
        SECRET_KEY=secrets.token_urlsafe(64),
        ALLOWED_HOSTS="127.0.0.1,localhost",
        DATABASE_URL=database_url,
        STATIC_ROOT=str(static_root),
        LOG_LEVEL="WARNING",
        GUNICORN_ACCESSLOG="",  # no access log: it would dominate the load test's I/O
        GUNICORN_LOGLEVEL="warning",
        AXES_FAILURE_LIMIT="50",
    )
    env.update(extra)
    return env


def manage(env: dict, *args: str, timeout: float = 600, stdin: str | None = None) -> str:
    result = subprocess.run(
        [PYTHON, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        input=stdin,
    )
    if result.returncode != 0:
        raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{result.stderr[-3000:]}")
    return result.stdout


def prepare(env: dict, *, skip_admin_static: bool = False) -> None:
    """Migrate the database and collect static files (what a deployment does first), both at
    once. ``skip_admin_static`` leaves out the admin's ~800 files (tests that never open the
    admin save ~10 s of compressing them)."""
    collect = [PYTHON, "manage.py", "collectstatic", "--noinput", "-v", "0"]
    if skip_admin_static:
        collect += ["--ignore", "admin"]
    static = subprocess.Popen(
        collect, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    try:
        manage(env, "migrate", "--noinput", "-v", "0")
    finally:
        _out, err = static.communicate(timeout=600)
    if static.returncode != 0:
        raise RuntimeError(f"collectstatic failed:\n{err[-3000:]}")


class Server:
    """gunicorn on 127.0.0.1:<port>, started with the project's deploy configuration."""

    def __init__(
        self,
        env: dict,
        *,
        port: int | None = None,
        workers: int = 2,
        threads: int = 1,
        log: Path | None = None,
    ):
        self.port = port or free_port()
        self.env = {
            **env,
            "GUNICORN_BIND": f"127.0.0.1:{self.port}",
            "GUNICORN_WORKERS": str(workers),
            "GUNICORN_THREADS": str(threads),
        }
        self.log = log
        self.process: subprocess.Popen | None = None

    def start(self, timeout: float = 60) -> Server:
        out = open(self.log, "ab") if self.log else subprocess.DEVNULL  # noqa: SIM115
        self.process = subprocess.Popen(
            [GUNICORN, "-c", str(ROOT / "deploy" / "gunicorn.conf.py")],
            cwd=ROOT,
            env=self.env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: kill it and its workers only
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn exited with {self.process.returncode}")
            try:
                client = WebClient("127.0.0.1", self.port, forwarded_https=True, timeout=5)
                if client.get("/").status == 200:
                    client.close()
                    return self
            except OSError:
                pass
            time.sleep(0.2)
        self.stop()
        raise RuntimeError("gunicorn did not answer in time")

    def kill(self) -> None:
        """SIGKILL the whole server (master and workers), as a crash or power cut would."""
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=40)
        except subprocess.TimeoutExpired:
            self.kill()

    def client(self) -> WebClient:
        return WebClient("127.0.0.1", self.port, forwarded_https=True)

    def __enter__(self) -> Server:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
