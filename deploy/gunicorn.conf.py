"""gunicorn configuration for efuda: ``gunicorn -c deploy/gunicorn.conf.py config.wsgi``.

Every value can be overridden from the environment (see efuda.env.example). gunicorn listens on
loopback only; nginx in front of it terminates TLS and forwards X-Forwarded-Proto/X-Real-IP.
"""

import multiprocessing
import os

bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
# Sync workers: each request is short (a few indexed queries); 2 × cores + 1 is gunicorn's advice,
# capped so a small VPS does not run out of PostgreSQL connections (one per worker).
workers = int(os.environ.get("GUNICORN_WORKERS", min(2 * multiprocessing.cpu_count() + 1, 9)))
threads = int(os.environ.get("GUNICORN_THREADS", "1"))
worker_class = "gthread" if threads > 1 else "sync"
# PDFs of long standings are the slowest pages; nothing legitimate takes 60 s.
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "60"))
graceful_timeout = 30
keepalive = 5
# Recycle workers now and then so a slow leak can never take the site down.
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", "2000"))
max_requests_jitter = 200
# Load the app before forking: a broken setting fails at start, not in every worker.
preload_app = os.environ.get("GUNICORN_PRELOAD", "1") == "1"
# Only the local proxy may set X-Forwarded-* headers.
forwarded_allow_ips = os.environ.get("GUNICORN_FORWARDED_ALLOW_IPS", "127.0.0.1,::1")
# "-" = stdout (the journal); an empty value turns the access log off.
accesslog = os.environ.get("GUNICORN_ACCESSLOG", "-") or None
errorlog = "-"
loglevel = os.environ.get("GUNICORN_LOGLEVEL", "info")
proc_name = "efuda"
# gunicorn's control socket (``gunicornc``): one per server, named after its address, so two
# servers on one host (docs/deploy.md, "Past one machine") do not claim the same socket. Under
# systemd (PrivateTmp) /tmp is the unit's own.
control_socket = os.environ.get("GUNICORN_CONTROL_SOCKET") or (
    "/tmp/efuda-gunicorn-" + bind.replace(":", "-").replace("/", "_").strip("[]") + ".ctl"
)
wsgi_app = "config.wsgi:application"
# Python's default; said here so nobody "optimises" /dev/shm away on systems without it.
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None


def post_fork(server, worker):
    # With preload_app, connections opened while loading must not be shared between workers.
    from django.db import connections

    for conn in connections.all(initialized_only=True):
        conn.close()


def when_ready(server):
    # Runs in the master before the workers are forked. With preload_app, import every view now
    # (the URLconf pulls in WeasyPrint, ~1–2 s) and load the translation catalogues,
    # so forked workers share them and no visitor waits for a cold worker.
    if not preload_app:
        return
    from django.urls import get_resolver
    from django.utils import translation

    get_resolver().url_patterns  # noqa: B018 (the import is the point)
    for code in ("ja", "en"):
        with translation.override(code):
            translation.gettext("efuda")
