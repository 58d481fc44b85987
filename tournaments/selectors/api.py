"""A person's API tokens, for their tokens page."""

from ..models import ApiToken


def api_tokens(*, user):
    """The person's tokens, newest first, revoked ones included (they say when)."""
    return ApiToken.objects.filter(user=user).order_by("-created_at", "-id")
