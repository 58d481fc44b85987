"""The shared cache (``CACHE_URL=redis://…``): django-redis, told to fail open.

A cache that is down or unreachable must make efuda slower, never answer 500. django-redis's own
``IGNORE_EXCEPTIONS`` already turns a lost connection into a miss (``get`` gives the default,
``set`` and ``delete`` do nothing), with short socket timeouts so a hung server costs a fraction
of a second, not a request. One operation needs the other answer: allauth's rate limiter takes a
lock with ``cache.add`` and refuses the request when it cannot; a lost connection would then
refuse every login and sign-up. Here a lost connection counts as the lock taken, so those limits
let requests through while the cache is away (django-axes, which guards the passwords, keeps its
counts in the database and goes on counting). See docs/deploy.md, "When a shared part fails".
"""

from __future__ import annotations

from django_redis.cache import RedisCache, omit_exception


class FailOpenRedisCache(RedisCache):
    @omit_exception(return_value=True)
    def add(self, *args, **kwargs):
        return self.client.add(*args, **kwargs)
