"""Where a webhook may post (docs/api.md, "Webhooks"): the check of an address when a hook is
made, and again at every delivery.

A hook's address is typed by an owner and fetched by the server, so it must not become a way
into the server's own network (SSRF): only ``https``, no user name or password in it, and a
host whose every address is public (``ipaddress.is_global``: no loopback, private, link-local,
shared or reserved range). The delivery connects to the very address checked here, so a name
that resolves to a public address for the check and to a private one a moment later (DNS
rebinding) gains nothing; redirects are never followed (services/webhook_send.py).

``settings.WEBHOOK_LOCAL_ADDRESSES`` (development and tests only; never in production) also
allows ``http`` and local or private addresses.
"""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit

from django.conf import settings

from core.i18n import N_

from .errors import make_fail

_fail = make_fail({
    "webhook_url_scheme": N_("A webhook's address must start with https://."),
    "webhook_url_invalid": N_("This is not a web address a webhook can post to."),
    "webhook_url_credentials": N_(
        "A webhook's address may not contain a user name or password; use the signature to "
        "check that a delivery comes from efuda."
    ),
    "webhook_url_unknown": N_("The host “%(host)s” cannot be found."),
    "webhook_url_private": N_(
        "The host “%(host)s” is a local or private address; a webhook may post only to public "
        "addresses."
    ),
})  # fmt: skip

LOCAL_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})


def _local_allowed() -> bool:
    return bool(getattr(settings, "WEBHOOK_LOCAL_ADDRESSES", False))


def webhook_url_clean(url: str) -> str:
    """``url`` as it will be stored, or an ``EfudaError`` on ``url``; no name is looked up."""
    url = (url or "").strip()
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - a port out of range raises ValueError
    except ValueError:
        raise _fail("url", "webhook_url_invalid") from None
    if not parts.hostname:
        raise _fail("url", "webhook_url_invalid")
    if parts.username is not None or parts.password is not None:
        raise _fail("url", "webhook_url_credentials")
    local = _local_allowed() and parts.hostname.lower() in LOCAL_NAMES
    if parts.scheme != "https" and not (parts.scheme == "http" and local):
        raise _fail("url", "webhook_url_scheme")
    return url


def _public(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%", 1)[0])  # an IPv6 scope id is not the address
    if ip.version == 6 and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_global and not ip.is_multicast


def webhook_address(url: str) -> tuple[str, int]:
    """The checked address (IP, port) a delivery to ``url`` connects to; ``EfudaError`` when
    the address is not allowed or its host cannot be found."""
    url = webhook_url_clean(url)
    parts = urlsplit(url)
    host = parts.hostname
    port = parts.port or (443 if parts.scheme == "https" else 80)
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        raise _fail("url", "webhook_url_unknown", host=host) from None
    addresses = [info[4][0] for info in found]
    if not addresses:
        raise _fail("url", "webhook_url_unknown", host=host)
    # Every address of the name must be public: a name with one private address among public
    # ones could be answered with that one at delivery time.
    if not _local_allowed() and not all(_public(a) for a in addresses):
        raise _fail("url", "webhook_url_private", host=host)
    return addresses[0], port
