"""A member's secret feed links (docs/api.md, "Secret feed links"): made, made anew, revoked.

A feed reader cannot log in, so a member of a private club gets links holding a key: the
club's Atom feed and its calendar with ``?key=…``. The key is 32 random bytes, shown once in
the links and kept as its SHA-256 only (as the API's tokens: services/api.py), so a lost link
cannot be shown again; making new links revokes the old ones (one live key per membership).
What a key may read is decided at every request (selectors/feeds.py: ``feed_key_reader``).
"""

from __future__ import annotations

import secrets

from django.db import transaction
from django.utils import timezone

from ..models import FeedKey, Membership
from ..selectors.api import token_hash

FEED_KEY_PREFIX = "efudafeed_"


def feed_key_renew(*, membership: Membership) -> str:
    """New secret links for ``membership``: its live key revoked and a new one made; the new
    key itself is returned (shown once, never kept)."""
    raw = FEED_KEY_PREFIX + secrets.token_urlsafe(32)
    with transaction.atomic():
        feed_key_revoke(membership=membership)
        FeedKey.objects.create(membership=membership, key_hash=token_hash(raw))
    return raw


def feed_key_revoke(*, membership: Membership) -> int:
    """Revoke the membership's live key (its links answer 404 from now on); how many were."""
    return FeedKey.objects.filter(membership=membership, revoked_at__isnull=True).update(
        revoked_at=timezone.now()
    )
