"""A table's PIN holder was seen (``selectors.events.seen``): a cache entry, no database row,
so no club version moves."""

from __future__ import annotations

import time

from django.core.cache import cache

from ...selectors.events.seen import SEEN_MINUTES, seen_key


def table_seen(*, table_id: int) -> None:
    cache.set(seen_key(table_id), time.time(), SEEN_MINUTES * 60)
