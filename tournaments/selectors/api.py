"""A person's API tokens, for their tokens page; what is kept of a secret (tokens, feed keys)."""

import hashlib

from ..models import ApiToken


def token_hash(raw: str) -> str:
    """What is kept of an API token, a table token or a feed key: its SHA-256 (32 random bytes
    need no slow hash). Shown once when made; a lookup hashes what the caller sends."""
    return hashlib.sha256(raw.encode()).hexdigest()


def api_tokens(*, user):
    """The person's tokens, newest first, revoked ones included (they say when)."""
    return ApiToken.objects.filter(user=user).order_by("-created_at", "-id")
