"""System checks of efuda's own (``manage.py check --deploy``)."""

from pathlib import Path

from django.conf import settings
from django.core.cache import caches
from django.core.checks import Error, Tags, Warning, register
from django.db import connections
from django.db.utils import load_backend

from config.keys import refusal
from config.proxies import ProxyListError, parse_trusted, trusts_everyone


@register(Tags.security, deploy=True)
def secret_key_not_published(app_configs=None, **kwargs):
    reason = refusal(settings.SECRET_KEY, settings.BASE_DIR)
    if reason is None:
        return []
    return [Error(reason, id="efuda.E001")]


# --- the shared parts of a multi-server set-up (docs/deploy.md, "Past one machine") -----------
# Each is checked by ``manage.py check --deploy`` on the server it runs on: what it cannot reach,
# or finds missing there, would make that server slower (or, for static files, fail) in use.


@register("efuda_shared_parts", deploy=True)
def shared_cache_reachable(app_configs=None, **kwargs):
    backend = settings.CACHES.get("default", {}).get("BACKEND", "")
    if "redis" not in backend.lower():
        return []
    location = settings.CACHES["default"].get("LOCATION", "")
    try:
        cache = caches["default"]
        client = cache.client.get_client(write=True) if hasattr(cache, "client") else None
        if client is None:  # Django's own RedisCache
            client = cache._cache.get_client(write=True)
        client.ping()
    except ImportError as error:
        return [Error(f"CACHE_URL names Redis but its client is missing ({error}).",
                      hint="scripts/install (it installs uv.lock)",
                      id="efuda.E010")]  # fmt: skip
    except Exception as error:  # noqa: BLE001 - any failure to reach it is the finding
        return [Error(
            f"The shared cache {_redacted(location)} cannot be reached from this server "
            f"({type(error).__name__}: {error}). Pages would render uncached.",
            hint="Start redis there, open the port to this server, or correct CACHE_URL.",
            id="efuda.E011",
        )]  # fmt: skip
    return []


@register("efuda_shared_parts", deploy=True)
def replica_not_the_primary(app_configs=None, **kwargs):
    replica = settings.DATABASES.get("replica")
    if replica is None:
        return []
    if _where(settings.DATABASES["default"]) == _where(replica):
        return [Error(
            "DATABASE_REPLICA_URL names the primary database itself (same host, port and name).",
            hint="Point it at the streaming standby, or leave it unset.", id="efuda.E012",
        )]  # fmt: skip
    return []


@register("efuda_shared_parts", deploy=True)
def replica_reachable(app_configs=None, **kwargs):
    replica = settings.DATABASES.get("replica")
    if replica is None:
        return []
    databases = connections.configure_settings(
        {"default": dict(settings.DATABASES["default"]), "replica": dict(replica)}
    )
    wrapper = load_backend(databases["replica"]["ENGINE"]).DatabaseWrapper(
        databases["replica"], "replica"
    )
    try:
        wrapper.ensure_connection()
        with wrapper.cursor() as cursor:
            cursor.execute("SELECT 1")
    except Exception as error:  # noqa: BLE001 - any failure to reach it is the finding
        return [Error(
            f"The read replica {_redacted(replica.get('HOST'))}:{replica.get('PORT')} cannot be "
            f"reached from this server ({type(error).__name__}: {str(error).strip()[:200]}). "
            "The primary would answer every read.",
            hint="Start the standby, allow this server in its pg_hba.conf, or correct "
            "DATABASE_REPLICA_URL.",
            id="efuda.E013",
        )]  # fmt: skip
    finally:
        wrapper.close()
    return []


@register("efuda_shared_parts", deploy=True)
def static_manifest_here(app_configs=None, **kwargs):
    backend = settings.STORAGES.get("staticfiles", {}).get("BACKEND", "")
    if "Manifest" not in backend:
        return []
    manifest = Path(settings.STATIC_ROOT) / "staticfiles.json"
    if manifest.is_file():
        return []
    return [Error(
        f"No static files manifest on this server ({manifest}): every page would fail.",
        hint="Run manage.py collectstatic on each application server (or share STATIC_ROOT), "
        "before it starts.",
        id="efuda.E014",
    )]  # fmt: skip


def _where(database: dict) -> tuple[str, str, str]:
    host = str(database.get("HOST") or "localhost").lower()
    host = "localhost" if host in ("127.0.0.1", "::1", "") else host
    return host, str(database.get("PORT") or "5432"), str(database.get("NAME") or "")


def _redacted(location) -> str:
    """A server's address without a password (redis://:secret@host → redis://host)."""
    text = str(location or "")
    if "@" in text:
        scheme, _sep, rest = text.partition("://")
        return f"{scheme}://{rest.rsplit('@', 1)[1]}" if rest else text.rsplit("@", 1)[1]
    return text


@register(Tags.security, deploy=True)
def trusted_proxies_named(app_configs=None, **kwargs):
    """efuda.E023: TRUSTED_PROXIES holds something that is no address; efuda.W023: it trusts
    every sender, so anyone who reaches the application server directly chooses the client
    address that the login lock-out and the PIN throttle count by."""
    try:
        networks = parse_trusted(getattr(settings, "TRUSTED_PROXIES", ()) or ())
    except ProxyListError as err:
        return [Error(str(err), id="efuda.E023")]
    if trusts_everyone(networks):
        return [
            Warning(
                "TRUSTED_PROXIES trusts every sender: anyone who reaches the application "
                "server directly can choose the client address that the login lock-out and "
                "the PIN throttle count by.",
                hint="Name only your proxies' addresses (docs/deploy.md, 'Trusted proxies').",
                id="efuda.W023",
            )
        ]
    return []
