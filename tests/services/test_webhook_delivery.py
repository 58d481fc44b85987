"""Webhook deliveries as the task worker makes them: signed, retried with backoff, given up,
never redirected, refused when the address became private (docs/api.md, "Webhooks"). Each test
posts to a server of its own on 127.0.0.1."""

import datetime
import hashlib
import hmac
import json

import pytest
from django.utils import timezone

from tests.webhook_server import webhook_receiver
from tournaments.models import DeliveryStatus, WebhookDelivery
from tournaments.services.deals import deal_record
from tournaments.services.webhook_send import (
    BACKOFF,
    webhook_deliveries_take_up,
    webhook_delivery_attempt,
)
from tournaments.services.webhooks import webhook_create, webhook_ping

pytestmark = pytest.mark.django_db


def verify(secret: str, headers: dict, body: bytes, *, now: int, tolerance: int = 300) -> bool:
    """The receiver's check, as docs/api.md shows it."""
    timestamp = headers["X-Efuda-Timestamp"]
    if abs(now - int(timestamp)) > tolerance:
        return False  # an old delivery sent again: a replay
    expected = hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256)
    return hmac.compare_digest("sha256=" + expected.hexdigest(), headers["X-Efuda-Signature"])


def _session_delivery(club, players, session, url, language="ja"):
    hook, secret = webhook_create(club=club, url=url, language=language)
    deal_record(session=session, data={"seats": [p.id for p in players[:5]], "redeal": True})
    delivery = WebhookDelivery.objects.get(webhook=hook, event="session.changed")
    return delivery, secret


def test_a_delivery_is_signed_with_the_hooks_secret(club, players, napoleon_session):
    with webhook_receiver(200) as receiver:
        delivery, secret = _session_delivery(club, players, napoleon_session, receiver.url)
        assert webhook_delivery_attempt(delivery_id=delivery.pk) == "delivered"
    (got,) = receiver.received
    now = int(got.headers["X-Efuda-Timestamp"])
    assert got.path == "/hook/"
    assert got.headers["Content-Type"] == "application/json; charset=utf-8"
    assert got.headers["X-Efuda-Event"] == "session.changed"
    assert verify(secret, got.headers, got.body, now=now)
    assert not verify("whsec_another", got.headers, got.body, now=now)
    assert not verify(secret, got.headers, got.body.replace(b"2026", b"2025"), now=now)
    assert not verify(secret, got.headers, got.body, now=now + 301)  # replayed later
    forged = {**got.headers, "X-Efuda-Timestamp": str(now + 1)}  # a new time, the old signature
    assert not verify(secret, forged, got.body, now=now)
    body = json.loads(got.body)
    assert body["delivery"] == delivery.pk and body["event"] == "session.changed"
    assert body["subject"]["session"] == napoleon_session.pk and body["club"] == club.slug
    delivery.refresh_from_db()
    assert (delivery.status, delivery.status_code, delivery.attempts) == ("delivered", 200, 1)


def test_a_failed_delivery_is_retried_after_its_backoff(club, players, napoleon_session):
    with webhook_receiver(500, 200) as receiver:
        delivery, _ = _session_delivery(club, players, napoleon_session, receiver.url)
        start = delivery.next_attempt_at  # a minute after the change: coalescing
        assert webhook_delivery_attempt(delivery_id=delivery.pk, now=start, early=False) == (
            "pending"
        )
        delivery.refresh_from_db()
        assert (delivery.status_code, delivery.error, delivery.attempts) == (500, "HTTP 500", 1)
        assert delivery.next_attempt_at == start + datetime.timedelta(minutes=1)
        early = delivery.next_attempt_at - datetime.timedelta(seconds=1)
        assert webhook_delivery_attempt(delivery_id=delivery.pk, now=early, early=False) == (
            "skipped"
        )
        assert len(receiver.received) == 1  # not before its time
        due = delivery.next_attempt_at
        assert webhook_delivery_attempt(delivery_id=delivery.pk, now=due, early=False) == (
            "delivered"
        )
    assert len(receiver.received) == 2
    delivery.refresh_from_db()
    assert (delivery.status, delivery.status_code, delivery.attempts) == ("delivered", 200, 2)
    # the task that comes for a delivery already sent does nothing
    assert webhook_delivery_attempt(delivery_id=delivery.pk) == "skipped"


def test_after_five_failed_attempts_a_delivery_is_given_up(club, players, napoleon_session):
    with webhook_receiver(503) as receiver:
        delivery, _ = _session_delivery(club, players, napoleon_session, receiver.url)
        now, waits, outcome = delivery.next_attempt_at, [], None
        while outcome != "failed" and len(receiver.received) < 10:
            outcome = webhook_delivery_attempt(delivery_id=delivery.pk, now=now, early=False)
            delivery.refresh_from_db()
            if outcome == "pending":
                waits.append((delivery.next_attempt_at - now).total_seconds())
                now = delivery.next_attempt_at
    assert waits == list(BACKOFF) == [60, 300, 1800, 7200]
    assert len(receiver.received) == 5
    assert (delivery.status, delivery.status_code, delivery.attempts) == ("failed", 503, 5)


def test_a_redirect_is_not_followed(club, players, napoleon_session):
    with webhook_receiver(302, 200) as receiver:
        delivery, _ = _session_delivery(club, players, napoleon_session, receiver.url)
        assert webhook_delivery_attempt(delivery_id=delivery.pk) == "pending"
    assert [r.path for r in receiver.received] == ["/hook/"]  # never /hook/elsewhere
    delivery.refresh_from_db()
    assert (delivery.status_code, delivery.error) == (302, "redirect not followed")


def test_an_address_refused_at_delivery_time_is_not_posted_to(
    club, players, napoleon_session, settings
):
    with webhook_receiver(200) as receiver:
        delivery, _ = _session_delivery(club, players, napoleon_session, receiver.url, "en")
        settings.WEBHOOK_LOCAL_ADDRESSES = False  # as in production
        assert webhook_delivery_attempt(delivery_id=delivery.pk) == "pending"
    assert receiver.received == []
    delivery.refresh_from_db()
    assert delivery.status_code is None
    assert delivery.error == "A webhook's address must start with https://."


def test_a_closed_port_counts_as_a_failed_attempt(club, players, napoleon_session):
    with webhook_receiver(200) as receiver:
        url = receiver.url
    delivery, _ = _session_delivery(club, players, napoleon_session, url)  # nobody listens now
    assert webhook_delivery_attempt(delivery_id=delivery.pk) == "pending"
    delivery.refresh_from_db()
    assert delivery.status_code is None and delivery.error.startswith("ConnectionRefusedError")


def test_a_delivery_left_sending_by_a_stopped_worker_is_sent_again(club):
    with webhook_receiver(200) as receiver:
        hook, _ = webhook_create(club=club, url=receiver.url, language="ja")
        ping = webhook_ping(webhook=hook)
        # The worker marked it sending and stopped before it could say how it went.
        long_ago = timezone.now() - datetime.timedelta(hours=1)
        WebhookDelivery.objects.filter(pk=ping.pk).update(
            status=DeliveryStatus.SENDING, attempts=1, attempted_at=long_ago
        )
        assert webhook_deliveries_take_up() == 1  # the tests' task backend runs it at once
    assert len(receiver.received) == 1
    ping.refresh_from_db()
    assert (ping.status, ping.attempts) == ("delivered", 2)
    assert webhook_deliveries_take_up() == 0


def test_a_ping_says_what_a_receiver_needs(club):
    with webhook_receiver(204) as receiver:
        hook, _ = webhook_create(club=club, url=receiver.url, language="en")
        ping = webhook_ping(webhook=hook)
        assert webhook_delivery_attempt(delivery_id=ping.pk) == "delivered"
    body = json.loads(receiver.received[0].body)
    assert body == {"delivery": ping.pk, "event": "ping", "club": club.slug, "language": "en",
                    "subject": {}, "url": f"http://127.0.0.1:8000/c/{club.slug}/"}  # fmt: skip


def test_the_worker_gets_one_task_per_delivery_for_its_time(
    club, players, napoleon_session, settings, django_capture_on_commit_callbacks
):
    from django_tasks_db.models import DBTaskResult

    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}  # the worker's
    path = "tournaments.services.webhook_send.webhook_delivery_run"
    with webhook_receiver(500) as receiver:
        webhook_create(club=club, url=receiver.url, language="ja")
        with django_capture_on_commit_callbacks(execute=True):
            seats = [p.id for p in players[:5]]
            for _ in range(3):
                deal_record(session=napoleon_session, data={"seats": seats, "redeal": True})
        tasks = {t.args_kwargs["kwargs"]["delivery_id"]: t for t in
                 DBTaskResult.objects.filter(task_path=path)}  # fmt: skip
        deliveries = list(WebhookDelivery.objects.all())
        assert sorted(tasks) == sorted(d.pk for d in deliveries) and len(deliveries) == 2
        for delivery in deliveries:  # each task waits for its delivery's time (coalescing)
            assert tasks[delivery.pk].run_after == delivery.next_attempt_at > timezone.now()
        delivery = deliveries[0]
        with django_capture_on_commit_callbacks(execute=True):
            webhook_delivery_attempt(delivery_id=delivery.pk, now=delivery.next_attempt_at)
        delivery.refresh_from_db()
        retry = DBTaskResult.objects.filter(task_path=path).order_by("-enqueued_at").first()
        assert retry.run_after == delivery.next_attempt_at  # the retry's task, a minute later
    assert len(receiver.received) == 1  # nothing sent but the one attempt
