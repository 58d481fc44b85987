"""Settings shared by every environment. The environment is read here, in one place."""

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent.parent


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


SECRET_KEY = os.environ.get("SECRET_KEY", "insecure-development-key-change-me")
DEBUG = env_bool("DEBUG", False)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")
CSRF_FAILURE_VIEW = "tournaments.views.errors.csrf_failure_view"  # in the site's frame

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.forms",  # the built-in widget templates, for efuda's own (templates/widgets/)
    "django_tables2",
    "simple_history",
    "axes",
    "allauth",
    "allauth.account",
    "allauth.socialaccount",
    "csp",
    "ninja",  # the API's docs page from the Swagger UI files it ships (no CDN)
    "django_tasks",
    "django_tasks_db",
    "tournaments",
]

# Background imports (django-tasks): the database backend keeps the queue in efuda's own
# database, so no other server is needed; ``manage.py worker`` runs the tasks.
TASKS = {
    "default": {
        "BACKEND": os.environ.get("TASKS_BACKEND", "django_tasks_db.DatabaseBackend"),
    }
}
# Uploads of more lines than this are imported in the background, with a progress bar.
IMPORT_BACKGROUND_LINES = int(os.environ.get("IMPORT_BACKGROUND_LINES", "2000"))
# The worker writes a heartbeat to a running import every IMPORT_HEARTBEAT_SECONDS; a running
# import without one for IMPORT_STALE_MINUTES lost its worker and shows as failed, to start again.
IMPORT_HEARTBEAT_SECONDS = int(os.environ.get("IMPORT_HEARTBEAT_SECONDS", "30"))
IMPORT_STALE_MINUTES = int(os.environ.get("IMPORT_STALE_MINUTES", "5"))
# manage.py worker writes its heartbeat (tournaments.WorkerBeat) this often; /healthz counts the
# worker as running while its last heartbeat is at most three intervals old.
WORKER_HEARTBEAT_SECONDS = int(os.environ.get("WORKER_HEARTBEAT_SECONDS", "30"))
# One import may use the worker for at most this long (reading, checking and scoring; once its
# write has begun it finishes), and one club (one uploader) may have at most this many imports
# waiting or running, so that nobody's uploads hold the one worker for everybody.
IMPORT_TIME_LIMIT_SECONDS = int(os.environ.get("IMPORT_TIME_LIMIT_SECONDS", "600"))
IMPORT_QUEUE_PER_CLUB = int(os.environ.get("IMPORT_QUEUE_PER_CLUB", "2"))
IMPORT_QUEUE_PER_USER = int(os.environ.get("IMPORT_QUEUE_PER_USER", "3"))
# Webhooks (docs/api.md, "Webhooks"): a change waits this long for more changes of the same
# subject before its POST; each POST may take this long; a club may have this many hooks.
# WEBHOOK_LOCAL_ADDRESSES lets hooks reach http://localhost and private addresses (development
# only: in production a hook may reach only public addresses, over https).
WEBHOOK_COALESCE_SECONDS = int(os.environ.get("WEBHOOK_COALESCE_SECONDS", "60"))
WEBHOOK_TIMEOUT_SECONDS = float(os.environ.get("WEBHOOK_TIMEOUT_SECONDS", "5"))
WEBHOOKS_PER_CLUB = int(os.environ.get("WEBHOOKS_PER_CLUB", "5"))
WEBHOOK_LOCAL_ADDRESSES = DEBUG
# What an uploaded spreadsheet may claim, checked before any sheet is built; sized so that a
# clean file at the line limit passes (services/upload_limits.py; docs/import-format.md).
IMPORT_MAX_CELLS = int(os.environ.get("IMPORT_MAX_CELLS", "5000000"))
IMPORT_MAX_SHARED_STRINGS = int(os.environ.get("IMPORT_MAX_SHARED_STRINGS", "1000000"))
IMPORT_MAX_UNPACKED_BYTES = int(os.environ.get("IMPORT_MAX_UNPACKED_BYTES", str(512 * 2**20)))
IMPORT_MAX_PART_BYTES = int(os.environ.get("IMPORT_MAX_PART_BYTES", str(2 * 2**20)))
IMPORT_MAX_ZIP_RATIO = int(os.environ.get("IMPORT_MAX_ZIP_RATIO", "200"))
IMPORT_MAX_ZIP_MEMBERS = int(os.environ.get("IMPORT_MAX_ZIP_MEMBERS", "1000"))
# SQLite only: a deal saved while another process writes (a large import) waits this long for
# the one writer, then is refused with "try again" (HTTP 503; the phone's outbox resends it).
SQLITE_DEAL_WAIT_SECONDS = float(os.environ.get("SQLITE_DEAL_WAIT_SECONDS", "1.5"))

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # a session cookie Django could not have made is no session (before Django reads it)
    "tournaments.middleware.SessionCookieMiddleware",
    "tournaments.middleware.KeptHeadersMiddleware",  # no NUL byte in what axes keeps
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "tournaments.middleware.ReaderMiddleware",  # request.reader: who reads (tournaments/reader.py)
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    "tournaments.middleware.DatabaseBusyMiddleware",
    "tournaments.db_errors.LostConnectionMiddleware",  # a lost database connection: 503
    "tournaments.middleware.WhoHeaderMiddleware",  # the service worker keeps pages per person
    "allauth.account.middleware.AccountMiddleware",
    "axes.middleware.AxesMiddleware",
]
# Django's own database sessions and Django's, allauth's and axes' own backends: who is logged
# in is read as Django reads it (docs/accounts.md).
SESSION_ENGINE = "django.contrib.sessions.backends.db"

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
    # Log in by user name or e-mail address (allauth); axes above still counts every failure.
    "allauth.account.auth_backends.AuthenticationBackend",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                # after Django's built-in csrf processor, which it replaces (page cache)
                "tournaments.context_processors.csrf",
            ],
            # |isolate, |suits, …; {% shared %}: parts of a page kept for every reader alike
            "builtins": [
                "tournaments.templatetags.efuda_text",
                "tournaments.templatetags.efuda_shared",
            ],
        },
    },
]

# Widgets render with the project's templates too (the entry form's tap buttons).
FORM_RENDERER = "django.forms.renderers.TemplatesSetting"

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "0")),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL + a busy timeout let a reader and a scorekeeper work at the same time.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "timeout": 20,
            "transaction_mode": "IMMEDIATE",
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )

# Content-Security-Policy (django-csp): only efuda's own scripts and styles run — no inline
# <script>, no style="…", no on…= handlers, no eval. Code lives in static/js/, styles in
# static/css/efuda.css; data reaches scripts through data-* attributes or json_script.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "manifest-src": ["'self'"],
        "worker-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# An optional streaming replica of the PostgreSQL primary: public read pages rendered for the
# page cache read from it once it has caught up with the club (config/routers.py). A replica that
# is down, hung or slow never holds a request up: connecting gives up after
# REPLICA_CONNECT_TIMEOUT seconds (libpq counts at least 2), and a replica that failed is left
# alone for REPLICA_RETRY_SECONDS while the primary answers (config/routers.py).
REPLICA_CONNECT_TIMEOUT = int(os.environ.get("REPLICA_CONNECT_TIMEOUT", "2"))
REPLICA_RETRY_SECONDS = float(os.environ.get("REPLICA_RETRY_SECONDS", "30"))


def replica_database(url: str) -> dict:
    """The ``replica`` alias for ``DATABASE_REPLICA_URL`` (the tests build theirs here too)."""
    database = dj_database_url.parse(url)
    database.setdefault("OPTIONS", {}).update(
        {
            "connect_timeout": REPLICA_CONNECT_TIMEOUT,
            # a replica that stops answering mid-query is noticed by the kernel, not never
            "keepalives": 1,
            "keepalives_idle": 5,
            "keepalives_interval": 2,
            "keepalives_count": 2,
        }
    )
    database["TEST"] = {"MIRROR": "default"}
    return database


if os.environ.get("DATABASE_REPLICA_URL"):
    DATABASES["replica"] = replica_database(os.environ["DATABASE_REPLICA_URL"])
DATABASE_ROUTERS = ["config.routers.PublicPagesReplicaRouter"]  # without a replica: a no-op

# The cache holds rendered read pages keyed by each club's data version (never stale, see
# tournaments/views/page_cache.py), and allauth's rate-limit counters. Local memory per process by
# default; with several application servers set CACHE_URL to a shared Redis
# (redis://host:6379/0) so a page rendered by one server serves the others (docs/deploy.md). It
# goes through django-redis, which turns a cache that is down into a miss (config/cache.py):
# pages then render uncached, logins still work. Its client is in uv.lock (the
# optional extra ``shared-cache`` of pyproject.toml).
CACHE_URL = os.environ.get("CACHE_URL", "")
CACHE_SOCKET_TIMEOUT = float(os.environ.get("CACHE_SOCKET_TIMEOUT", "0.5"))
# After a cache call found no connection or no answer, this process leaves the cache alone for
# this long (pages render uncached meanwhile), then asks again (config/cache.py).
CACHE_AWAY_SECONDS = float(os.environ.get("CACHE_AWAY_SECONDS", "5"))


def redis_cache(url: str) -> dict:
    """The ``default`` cache for a Redis ``CACHE_URL`` (the tests build theirs here too)."""
    return {
        "BACKEND": "config.cache.FailOpenRedisCache",
        "LOCATION": url,
        "OPTIONS": {
            "IGNORE_EXCEPTIONS": True,  # a cache that is down is a miss, never a 500
            "SOCKET_CONNECT_TIMEOUT": CACHE_SOCKET_TIMEOUT,
            "SOCKET_TIMEOUT": CACHE_SOCKET_TIMEOUT,
            # sends nothing for CACHE_AWAY_SECONDS after a call found the server away
            "REDIS_CLIENT_CLASS": "config.cache.GuardedRedis",
        },
    }


if CACHE_URL.startswith(("redis://", "rediss://", "unix://")):
    try:  # refused at start, not a 500 on every page
        import django_redis  # noqa: F401
    except ImportError:
        raise ImproperlyConfigured(
            "CACHE_URL names a Redis server but its client is not installed: "
            "scripts/install (it installs uv.lock; docs/deploy.md)"
        ) from None
    CACHES = {"default": redis_cache(CACHE_URL)}
    # Each operation that found the cache away is logged (one line with its cause).
    DJANGO_REDIS_LOG_IGNORED_EXCEPTIONS = True
    DJANGO_REDIS_LOGGER = "efuda.cache"
elif CACHE_URL:
    # memcached was supported until its client marked a server that had failed as dead for a
    # fixed time after it came back; one shared cache, kept tested against a real server, is
    # enough: Redis.
    raise ImproperlyConfigured(
        f"CACHE_URL must name a Redis server (redis://host:6379/0), not {CACHE_URL.split(':')[0]}:"
    )
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "OPTIONS": {"MAX_ENTRIES": int(os.environ.get("CACHE_MAX_ENTRIES", "5000"))},
        }
    }
# Seconds a rendered page is kept (0 turns the page cache off). Freshness does not depend on
# it: a write changes the key. It only bounds the memory of pages nobody reads any more.
EFUDA_PAGE_CACHE_SECONDS = int(os.environ.get("EFUDA_PAGE_CACHE_SECONDS", "3600"))
# The API's rate limits (tournaments/api/limits.py, docs/api.md "Rate limits"): per calling
# address and per token, allauth's "amount/duration" ("600/m", "20/10s", several joined by
# commas); empty: no limit
EFUDA_API_RATE_ADDRESS = os.environ.get("EFUDA_API_RATE_ADDRESS", "600/m")
EFUDA_API_RATE_TOKEN = os.environ.get("EFUDA_API_RATE_TOKEN", "300/m")

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "ja"
LANGUAGES = [("ja", _("Japanese")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = os.environ.get("TIME_ZONE", "Asia/Tokyo")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]

LOGIN_URL = "login"  # allauth's login view (config/urls.py)
LOGIN_REDIRECT_URL = "after_login"  # the user's club when they have exactly one
LOGOUT_REDIRECT_URL = "home"

# Login rate limiting (django-axes): lock a username+IP pair after repeated failures.
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = 0.25  # hours (templates/account/lockout.html says 15 minutes)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
# The lockout page in the visitor's language (axes answers in plain English text otherwise).
AXES_LOCKOUT_TEMPLATE = "account/lockout.html"
# allauth's login form calls the field "login" and passes {"username": ...} or {"email": ...}:
# one callable gives axes the account's user name for either, so both count towards one lock.
AXES_USERNAME_CALLABLE = "tournaments.accounts.axes_username"
# The client's address for axes, allauth's rate limits and the PIN throttle: forwarding headers
# are believed only from these senders (addresses or networks, comma-separated; "*" for every
# sender, which check --deploy warns about). None here: the sender is the client
# (runserver, tests). Production defaults to the local proxy (production.py, docs/deploy.md).
TRUSTED_PROXIES = env_list("TRUSTED_PROXIES")
AXES_CLIENT_IP_CALLABLE = "tournaments.client_ip.client_address"

# The absolute address of the site: QR codes and e-mailed links.
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000").rstrip("/")

# Accounts (django-allauth): sign-up, login by user name or e-mail, verification, reset.
ACCOUNT_ADAPTER = "tournaments.accounts.AccountAdapter"
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "username*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "mandatory"
ACCOUNT_CONFIRM_EMAIL_ON_GET = False  # a link opened by a mail scanner confirms nothing
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
ACCOUNT_LOGIN_ON_PASSWORD_RESET = False
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_PREVENT_ENUMERATION = True
ACCOUNT_EMAIL_SUBJECT_PREFIX = "[efuda] "
ACCOUNT_DEFAULT_HTTP_PROTOCOL = "https" if SITE_URL.startswith("https:") else "http"
# Failed logins are counted by django-axes per user name *and* address; allauth's own counter is
# per login key from any address, which would let a stranger lock a member out: off. Sign-up,
# password reset and the verification mail keep allauth's limits (Django's cache).
ACCOUNT_RATE_LIMITS = {"login_failed": None}
SOCIALACCOUNT_EMAIL_AUTHENTICATION = False
SOCIALACCOUNT_LOGIN_ON_GET = False

# LINE login: only when a LINE Login channel is configured; otherwise no LINE button, no URLs.
LINE_CHANNEL_ID = os.environ.get("LINE_CHANNEL_ID", "")
LINE_CHANNEL_SECRET = os.environ.get("LINE_CHANNEL_SECRET", "")
SOCIALACCOUNT_PROVIDERS = {}
if LINE_CHANNEL_ID and LINE_CHANNEL_SECRET:
    INSTALLED_APPS.insert(
        INSTALLED_APPS.index("tournaments"), "allauth.socialaccount.providers.line"
    )
    SOCIALACCOUNT_PROVIDERS["line"] = {
        "APPS": [{"client_id": LINE_CHANNEL_ID, "secret": LINE_CHANNEL_SECRET, "key": ""}],
        "SCOPE": ["profile", "openid", "email"],
    }

# E-mail: printed on the console unless an SMTP server is configured (EMAIL_HOST).
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
EMAIL_BACKEND = (
    "django.core.mail.backends.smtp.EmailBackend"
    if EMAIL_HOST
    else "django.core.mail.backends.console.EmailBackend"
)
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "efuda <efuda@localhost>")

DJANGO_TABLES2_TEMPLATE = "django_tables2/semantic.html"

# Japanese font used for PDFs (installed from Debian's fonts-ipaexfont-gothic).
PDF_FONT_PATHS = [
    Path(p)
    for p in env_list(
        "PDF_FONT_PATHS",
        "/usr/share/fonts/opentype/ipaexfont-gothic/ipaexg.ttf,"
        "/usr/share/fonts/truetype/fonts-japanese-gothic.ttf",
    )
]

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}
