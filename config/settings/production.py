"""Production settings: PostgreSQL through DATABASE_URL, gunicorn, whitenoise, secure cookies.

Everything comes from the environment (see deploy/efuda.env.example and docs/deploy.md). The
settings refuse to load with the development key or without a host name, so a forgotten variable
stops the server at start-up instead of running insecurely.
"""

import os
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

from config.keys import refusal
from config.proxies import ProxyListError, parse_trusted

from .base import *  # noqa: F403
from .base import BASE_DIR, DATABASES, SECRET_KEY, env_bool, env_list

DEBUG = False
WEBHOOK_LOCAL_ADDRESSES = False  # hooks reach public https addresses only (SSRF)

# A short, development or published key (the example in deploy/efuda.env.example, or any
# other written in the repository) stops the server at start-up.
_KEY_REFUSAL = refusal(SECRET_KEY, BASE_DIR)
if _KEY_REFUSAL:
    raise ImproperlyConfigured(_KEY_REFUSAL)

# No development default here: the public host name(s) must be given.
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS")
if not ALLOWED_HOSTS:
    raise ImproperlyConfigured("Set ALLOWED_HOSTS to the site's host name(s), comma-separated.")
# e.g. https://efuda.example.org — needed when the proxy's origin differs from the host header.
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and env_bool("DB_POOL", True):
    # Django's own pool (psycopg_pool): each worker process keeps a few open connections and
    # hands one to each request, so a burst of requests or threads never waits on connecting.
    # DB_POOL_MAX_SIZE × workers × servers must stay under PostgreSQL's max_connections.
    DATABASES["default"]["CONN_MAX_AGE"] = 0  # the pool keeps them; Django must not
    # Each connection is checked as the pool hands it out (psycopg_pool's check_connection),
    # so after a restart of PostgreSQL no request gets a dead one (tournaments/db_errors.py).
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": int(os.environ.get("DB_POOL_MIN_SIZE", "2")),
        "max_size": int(os.environ.get("DB_POOL_MAX_SIZE", "8")),
        "timeout": float(os.environ.get("DB_POOL_TIMEOUT", "10")),
    }
else:
    # Persistent connections: each gunicorn worker keeps one, checked before reuse.
    DATABASES["default"]["CONN_MAX_AGE"] = int(os.environ.get("CONN_MAX_AGE", "60"))
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True

STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", str(BASE_DIR / "staticfiles")))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # whitenoise's CompressedManifestStaticFilesStorage, the modules' imports hashed too
    "staticfiles": {"BACKEND": "config.storage.ModuleManifestStaticFilesStorage"},
}

# TLS ends at the proxy (nginx), which sets X-Forwarded-Proto; gunicorn only listens on loopback.
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"


# Behind the proxy REMOTE_ADDR is nginx, so the client's address comes from X-Forwarded-For —
# believed only when the sender is a proxy named here (tournaments/client_ip.py). By default
# nginx on this machine (deploy/nginx-efuda.conf); several servers: docs/deploy.md.
TRUSTED_PROXIES = env_list("TRUSTED_PROXIES", "127.0.0.1,::1")
try:
    parse_trusted(TRUSTED_PROXIES)
except ProxyListError as err:
    raise ImproperlyConfigured(str(err)) from None

ADMINS = [(addr.split("@")[0], addr) for addr in env_list("ADMIN_EMAILS")]
SERVER_EMAIL = os.environ.get("SERVER_EMAIL", "efuda@localhost")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {
        # Unhandled exceptions (500s) with their traceback go to the journal.
        "django.request": {"handlers": ["console"], "level": "ERROR", "propagate": False},
        "django.security": {"handlers": ["console"], "level": "WARNING", "propagate": False},
    },
}
