"""The client's address, believed from forwarding headers only when a trusted proxy sent them.

Used by login rate limiting (django-axes: ``AXES_CLIENT_IP_CALLABLE``), allauth's rate limits
and the tournament PIN throttle, so all three count the same address:

- the immediate sender (``REMOTE_ADDR``) is not in ``TRUSTED_PROXIES``: it is the client, and
  any ``X-Forwarded-For`` or ``X-Real-IP`` it sent is ignored (anyone can write those);
- it is a trusted proxy: the ``X-Forwarded-For`` chain (parsed by python-ipware, the engine of
  django-ipware) is read from the right, skipping trusted proxies; the first address that is
  not one is the client. A client cannot push itself past the proxies, because each proxy
  appends the address it received the request from. Without ``X-Forwarded-For``, the proxy's
  ``X-Real-IP``. When every hop is a trusted proxy, the leftmost.

See docs/deploy.md, "Trusted proxies", for setting it on one server and on several.
"""

from __future__ import annotations

from functools import lru_cache

from django.conf import settings
from python_ipware.modern.parsers import parse_ip, split_proxy_chain

from config.proxies import is_trusted, parse_trusted


@lru_cache(maxsize=8)
def _trusted(entries: tuple[str, ...]):
    return parse_trusted(entries)


def trusted_proxies():
    return _trusted(tuple(getattr(settings, "TRUSTED_PROXIES", ()) or ()))


def client_address(request) -> str | None:
    meta = request.META
    remote = meta.get("REMOTE_ADDR")
    networks = trusted_proxies()
    if not remote or not networks or not is_trusted(remote, networks):
        return remote
    chain = split_proxy_chain(meta.get("HTTP_X_FORWARDED_FOR"), False) or []
    if not chain:
        real = parse_ip(meta.get("HTTP_X_REAL_IP") or "")
        return str(real) if real is not None else remote
    for hop in reversed(chain):
        if not is_trusted(hop, networks):
            return str(hop)
    return str(chain[0])
