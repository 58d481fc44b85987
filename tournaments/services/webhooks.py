"""A club's webhooks (docs/api.md, "Webhooks"): made and removed by an owner, and the
deliveries that the services recording a change queue for them.

A delivery is queued by the service that records the change, inside its transaction: a change
rolled back leaves no delivery, and the task that sends it is enqueued only on commit. Nothing
is posted in a request: the task worker posts (services/webhook_send.py).

Coalescing: a change waits ``WEBHOOK_COALESCE_SECONDS`` before its POST. Further changes of
the same subject for the same hook (say, every deal of an evening's session) update that one
waiting delivery (``changes`` counts them) instead of adding deliveries; a change after it was
sent queues a new one. The services writing a club's rows hold the club's row (their
``club_version_bump``), so two changes of one club never both add a delivery for a subject.

Delivery rows are not versioned (services/cache.py, ``UNVERSIONED``): no read page shows them,
and a delivery's progress must not make every cached page and API poller of the club read
anew. Making or removing a hook moves the club's version like any other setting.
"""

from __future__ import annotations

import datetime
import secrets

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.urls import reverse
from django.utils import timezone

from core.i18n import N_

from ..models import Club, DeliveryStatus, GameSession, TournamentRound, Webhook, WebhookDelivery
from .cache import club_version_bump
from .errors import make_fail
from .webhook_urls import webhook_address, webhook_url_clean

_fail = make_fail({
    "webhooks_too_many": N_("A club may have at most %(count)s webhooks."),
    "webhook_language": N_("Choose the language of the webhook's messages."),
})  # fmt: skip

SECRET_PREFIX = "whsec_"
SESSION_CHANGED = "session.changed"
STANDINGS_CHANGED = "standings.changed"
ROUND_DRAWN = "round.drawn"
ROUND_FINISHED = "round.finished"
PING = "ping"


@transaction.atomic
def webhook_create(*, club: Club, url: str, language: str, user=None) -> tuple[Webhook, str]:
    """A new hook for ``club`` and its secret (shown once). The address must pass
    ``webhook_address`` (https, public); the caller has checked the user is an owner."""
    url = webhook_url_clean(url)
    if language not in dict(settings.LANGUAGES):
        raise _fail("language", "webhook_language")
    webhook_address(url)
    club_version_bump(club_id=club.pk)  # locks the club's row: the count below holds
    limit = settings.WEBHOOKS_PER_CLUB
    if Webhook.objects.filter(club=club).count() >= limit:
        raise _fail("url", "webhooks_too_many", count=limit)
    secret = SECRET_PREFIX + secrets.token_hex(24)
    hook = Webhook.objects.create(
        club=club, url=url, secret=secret, language=language,
        created_by=user if getattr(user, "is_authenticated", False) else None,
    )  # fmt: skip
    return hook, secret


@transaction.atomic
def webhook_delete(*, webhook: Webhook) -> None:
    """Remove a hook with its deliveries (one waiting is not sent)."""
    club_version_bump(club_id=webhook.club_id)
    webhook.delete()


def _absolute(viewname: str, *args) -> str:
    return settings.SITE_URL + reverse(viewname, args=args)


def _payload(hook: Webhook, event: str, subject: dict, url: str) -> dict:
    return {
        "event": event,
        "club": hook.club.slug,
        "language": hook.language,
        "subject": subject,
        "url": url,
    }


def _enqueue_on_commit(delivery: WebhookDelivery) -> None:
    from .webhook_send import webhook_delivery_enqueue  # the task lives beside its sender

    pk, when = delivery.pk, delivery.next_attempt_at
    # robust: a queue that fails here loses nothing: the worker takes up waiting deliveries
    transaction.on_commit(lambda: webhook_delivery_enqueue(delivery_id=pk, when=when), robust=True)


def _queue(hook: Webhook, event: str, key: str, payload: dict, *, delay: int) -> WebhookDelivery:
    waiting = (
        WebhookDelivery.objects.filter(
            webhook=hook, event=event, subject=key, status=DeliveryStatus.PENDING
        )
        .order_by("-id")
        .first()
    )
    if waiting is not None:
        WebhookDelivery.objects.filter(pk=waiting.pk).update(
            payload=payload, changes=F("changes") + 1
        )
        return waiting
    delivery = WebhookDelivery.objects.create(
        webhook=hook, event=event, subject=key, payload=payload,
        next_attempt_at=timezone.now() + datetime.timedelta(seconds=delay),
    )  # fmt: skip
    _enqueue_on_commit(delivery)
    return delivery


def _hooks(club_id: int) -> list[Webhook]:
    return list(Webhook.objects.filter(club_id=club_id).select_related("club"))


def webhooks_session_changed(*, session: GameSession, hooked: bool | None = None) -> None:
    """Queue, for every hook of the session's club, "the session changed" and "the standings
    of its month changed" (a deal recorded, edited, deleted or restored; a session started).
    Call inside the transaction that records the change. ``hooked``: whether the club has
    hooks, when the caller read it with its own rows (recording a deal: no query more)."""
    hooks = _hooks(session.club_id) if hooked is not False else []
    if not hooks:
        return
    month = f"{session.date:%Y-%m}"
    delay = settings.WEBHOOK_COALESCE_SECONDS
    for hook in hooks:
        slug = hook.club.slug
        url = _absolute("session_detail", slug, session.pk)
        subject = {"session": session.pk, "date": session.date.isoformat(), "game": session.game}
        _queue(hook, SESSION_CHANGED, f"session:{session.pk}",
               _payload(hook, SESSION_CHANGED, subject, url), delay=delay)  # fmt: skip
        url = _absolute("standings_month", slug, session.game, session.date.year,
                        session.date.month)  # fmt: skip
        subject = {"game": session.game, "month": month}
        _queue(hook, STANDINGS_CHANGED, f"standings:{session.game}:{month}",
               _payload(hook, STANDINGS_CHANGED, subject, url), delay=delay)  # fmt: skip


def webhooks_round_changed(*, rnd: TournamentRound, event: str) -> None:
    """Queue ``event`` (``ROUND_DRAWN`` or ``ROUND_FINISHED``) for every hook of the round's
    club. Call inside the transaction that draws or finishes the round."""
    tournament = rnd.tournament
    hooks = _hooks(tournament.club_id)
    subject = {"tournament": tournament.pk, "round": rnd.number}
    for hook in hooks:
        payload = _payload(hook, event, subject, _absolute("tournament_detail", tournament.pk))
        _queue(hook, event, f"round:{tournament.pk}:{rnd.number}", payload,
               delay=settings.WEBHOOK_COALESCE_SECONDS)  # fmt: skip


@transaction.atomic
def webhook_ping(*, webhook: Webhook) -> WebhookDelivery:
    """A test delivery (event ``ping``), sent as soon as the worker takes it."""
    payload = _payload(webhook, PING, {}, _absolute("club_home", webhook.club.slug))
    return _queue(webhook, PING, "ping", payload, delay=0)
