"""The shared cache (``CACHE_URL=redis://…``): django-redis, told to fail open.

A cache that is down or unreachable must make efuda slower, never answer 500. django-redis's own
``IGNORE_EXCEPTIONS`` already turns a lost connection into a miss (``get`` gives the default,
``set`` and ``delete`` do nothing), with short socket timeouts so a hung server costs a fraction
of a second, not a request. One operation needs the other answer: allauth's rate limiter takes a
lock with ``cache.add`` and refuses the request when it cannot; a lost connection would then
refuse every login and sign-up. Here a lost connection counts as the lock taken, so those limits
let requests through while the cache is away (django-axes, which guards the passwords, keeps its
counts in the database and goes on counting). See docs/deploy.md, "When a shared part fails".

A hung server (it accepts connections and never answers) would still cost every cache call its
socket timeout, and a member's page makes several. So the first call that fails (no
connection, or no answer within the timeout) marks the cache away for this process for
``CACHE_AWAY_SECONDS`` (5 s): meanwhile no call is sent, each is a miss at once and every page
renders uncached, as it does with no cache. The first call after that asks the server again:
back, and the cache is used from then on; still away, and it waits another period. Nothing
kept depends on a write reaching the cache (every key holds the club's data version), so the
calls not sent change no page.

An outage is logged twice per process, whatever its length and however many calls it turned
into misses: one WARNING when the first call finds the cache away (with the reason), one INFO
when a call is answered again (with how long it lasted). django-redis's own "Exception ignored"
record, an ERROR with a traceback for every call that met a lost connection, is dropped for
those calls: the outage is not news on every page. Any other error it ignored is still logged.
"""

from __future__ import annotations

import logging
import time

from django.conf import settings
from django_redis.cache import RedisCache, omit_exception
from redis import Redis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger("efuda.cache")


class CacheAwayError(RedisConnectionError):
    """A call not sent: the cache is marked away (see module doc)."""


class _NotTheOutageAgain(logging.Filter):
    """django-redis logs every call it turned into a miss (DJANGO_REDIS_LOGGER is this logger);
    a call that met a lost connection, a timeout or the cache marked away is part of an outage,
    whose beginning and end are logged once (``GuardedRedis``), not worth a traceback each."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        cause = getattr(error, "__cause__", None)
        return not isinstance(cause, RedisConnectionError | RedisTimeoutError)


logger.addFilter(_NotTheOutageAgain())

_clock = time.monotonic  # the tests move it on
_away_until = 0.0  # the _clock() before which this process does not ask the cache
_away_since: float | None = None  # the _clock() when the outage this process is in began


def cache_away() -> bool:
    """Whether this process is leaving the shared cache alone for now (see module doc)."""
    return _clock() < _away_until


def cache_back() -> None:
    """Ask the cache again from the next call on, as if it had never been away (tests; a
    deployment never needs to)."""
    global _away_until, _away_since
    _away_until = 0.0
    _away_since = None


def _went_away(error: Exception) -> None:
    global _away_until, _away_since
    seconds = settings.CACHE_AWAY_SECONDS
    _away_until = _clock() + seconds
    if _away_since is None:
        _away_since = _clock()
        logger.warning(
            "the shared cache is away (%s): pages render uncached; asked again every %s s",
            error, seconds,
        )  # fmt: skip


def _came_back() -> None:
    global _away_since
    if _away_since is not None:
        logger.info("the shared cache is back after %.0f s", _clock() - _away_since)
        _away_since = None


class GuardedRedis(Redis):
    """redis-py's client (``REDIS_CLIENT_CLASS``) that sends nothing while the cache is marked
    away, and marks it away when a command finds no connection or no answer."""

    def execute_command(self, *args, **options):
        if cache_away():
            raise CacheAwayError("the cache is marked away (config/cache.py)")
        try:
            answer = super().execute_command(*args, **options)
        except (RedisConnectionError, RedisTimeoutError) as error:
            _went_away(error)
            raise
        if _away_since is not None:
            _came_back()
        return answer


class FailOpenRedisCache(RedisCache):
    @omit_exception(return_value=True)
    def add(self, *args, **kwargs):
        return self.client.add(*args, **kwargs)
