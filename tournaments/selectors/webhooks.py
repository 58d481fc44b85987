"""A club's webhooks and their last deliveries, for the owner's pages."""

from __future__ import annotations

from ..models import Club, Webhook, WebhookDelivery

DELIVERIES_SHOWN = 20


def club_webhooks(*, club: Club) -> list[Webhook]:
    return list(Webhook.objects.filter(club=club))


def webhook_deliveries(*, webhook: Webhook, limit: int = DELIVERIES_SHOWN) -> list[WebhookDelivery]:
    """The hook's last deliveries, newest first."""
    return list(webhook.deliveries.order_by("-created_at", "-id")[:limit])
