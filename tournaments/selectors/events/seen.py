"""When a table's PIN holders were last seen (their table's page, a preview, a deal), for the
staff finishing a timed round: the tables that may still be playing. Kept in the cache, not the
database: a hint that expires, never a record (with a process's own memory cache it knows that
process's requests only; the shared Redis cache knows them all). Written by
``services.events.table_seen``."""

from __future__ import annotations

import time

from django.core.cache import cache

SEEN_MINUTES = 10  # "seen in the last minutes"


def seen_key(table_id: int) -> str:
    return f"efuda:table-seen:{int(table_id)}"


def tables_seen(table_ids, *, minutes: int = SEEN_MINUTES) -> set[int]:
    """The tables among ``table_ids`` whose PIN holders were seen in the last ``minutes``."""
    ids = [int(t) for t in table_ids]
    found = cache.get_many([seen_key(t) for t in ids])
    since = time.time() - minutes * 60
    return {t for t in ids if (found.get(seen_key(t)) or 0) >= since}
