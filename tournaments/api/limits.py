"""Rate limits of the API: per calling address, and per token (docs/api.md, "Rate limits").

Counted by the limiter the site's sign-in already uses (allauth's, kept in Django's cache:
a sliding window of the calls' times per key). A call past a limit answers 429 with
``Retry-After``: the seconds until the oldest call in the window leaves it. A cache that is
down counts nothing and refuses nothing (config/cache.py: the limiter's lock is then taken at
once and every read a miss): the API is then unlimited, never an error.

The limits are settings, as allauth writes them (``amount/duration``: ``"300/m"``, ``"20/10s"``):
``EFUDA_API_RATE_ADDRESS`` for every call from one address (the one the login lock-out and the
PIN throttle count by: tournaments/client_ip.py), ``EFUDA_API_RATE_TOKEN`` for every call with
one token. Empty: no limit."""

from __future__ import annotations

import math
import time

from allauth.core.internal import ratelimit
from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext as _

from ..client_ip import client_address
from .errors import ApiRefusalError

APP = "efuda.api"
DEFAULTS = {"address": "600/m", "token": "300/m"}


def _rate(kind: str) -> str:
    """The setting's rates, each counted per key (the address, the token) given here."""
    rates = getattr(settings, f"EFUDA_API_RATE_{kind.upper()}", DEFAULTS[kind]) or ""
    parts = [part.strip() for part in rates.split(",") if part.strip()]
    return ",".join(f"{part}/key" if part.count("/") == 1 else part for part in parts)


def _retry_after(request, kind: str, key: str) -> int:
    """Seconds until the oldest call still counted leaves the window (at least 1)."""
    longest = 1
    for rate in ratelimit.parse_rates(_rate(kind)):
        cache_key = ratelimit.get_cache_key(request, app=APP, action=kind, rate=rate, key=key)
        history = cache.get(cache_key) or []
        if len(history) >= rate.amount:
            wait = history[-1] + rate.duration - time.time()
            longest = max(longest, math.ceil(wait))
    return longest


def limit(request, kind: str, key: str) -> None:
    """Count this call for ``key`` (an address, a token); 429 past the ``kind``'s limit."""
    rate = _rate(kind)
    if not rate:
        return
    allowed = ratelimit.consume(request, app=APP, action=kind, config={kind: rate}, key=key,
                                limit_get=True)  # fmt: skip
    if allowed is None:
        raise ApiRefusalError(
            429, field=None, code="rate_limited",
            message=_("Too many requests: wait a little, then try again."),
            headers={"Retry-After": str(_retry_after(request, kind, key))},
        )  # fmt: skip


def limit_address(request) -> None:
    limit(request, "address", f"address:{client_address(request) or 'unknown'}")


def limit_token(request, token) -> None:
    limit(request, "token", f"{type(token).__name__}:{token.pk}")
