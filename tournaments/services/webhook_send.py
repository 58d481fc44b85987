"""Webhook deliveries posted by the task worker (docs/api.md, "Webhooks").

The task :func:`webhook_delivery_run` posts one waiting delivery when it is due: the body is
the delivery's JSON, signed with the hook's secret (HMAC-SHA256 of ``timestamp.body``; the
headers ``X-Efuda-Timestamp`` and ``X-Efuda-Signature: sha256=…``), with a short timeout and no
redirect followed. A 2xx answer delivers it; anything else (another status, a redirect, a
timeout, an address refused) is retried after ``BACKOFF`` — 1 min, 5 min, 30 min, 2 h — and
after the fifth failed attempt it is marked failed. The owner sees each delivery's last status
code on the hook's page.

A delivery being sent is marked so (``sending``), outside any transaction while the POST
runs, so that changes recorded meanwhile queue a new delivery instead of waiting on a lock.
:func:`webhook_deliveries_take_up` (the worker, every minute) sends again what a stopped
worker left sending and enqueues what waited past its time (a lost task).
"""

from __future__ import annotations

import datetime
import hashlib
import hmac
import http.client
import json
import socket
import ssl
import time
from urllib.parse import urlsplit

from django.conf import settings
from django.db import transaction
from django.utils import timezone, translation
from django_tasks import task

from core.errors import EfudaError

from ..i18n import error_text
from ..models import DeliveryStatus, WebhookDelivery
from .webhook_urls import webhook_address

BACKOFF = (60, 300, 1800, 7200)  # seconds before the 2nd, 3rd, 4th and 5th attempt
ATTEMPTS = len(BACKOFF) + 1
STALE_SENDING = datetime.timedelta(minutes=10)  # a POST never takes this long: its worker died
LATE = datetime.timedelta(minutes=5)  # waiting this long past its time: its task was lost
USER_AGENT = "efuda-webhooks/1"


def webhook_signature(*, secret: str, timestamp: str, body: bytes) -> str:
    """The ``X-Efuda-Signature`` value: HMAC-SHA256 of ``timestamp`` + "." + ``body``."""
    message = timestamp.encode("ascii") + b"." + body
    return "sha256=" + hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()


@task()
def webhook_delivery_run(*, delivery_id: int) -> str:
    """The task: post one delivery if it is still waiting and due."""
    return webhook_delivery_attempt(delivery_id=delivery_id)


def webhook_delivery_enqueue(*, delivery_id: int, when: datetime.datetime | None = None) -> None:
    """Enqueue the task for ``when``. A backend that cannot wait (the tests' one, which runs a
    task at once) is given no task for later: the take-up sends it once it is late."""
    runner = webhook_delivery_run
    if when is not None and when > timezone.now():
        if not runner.get_backend().supports_defer:
            return
        runner = runner.using(run_after=when)
    runner.enqueue(delivery_id=delivery_id)


@transaction.atomic
def _claim(delivery_id: int, now: datetime.datetime, *, early: bool) -> WebhookDelivery | None:
    delivery = (
        WebhookDelivery.objects.select_for_update()
        .select_related("webhook")
        .filter(pk=delivery_id, status=DeliveryStatus.PENDING)
        .first()
    )
    if delivery is None:
        return None  # sent, failed or removed meanwhile: a task that came twice
    if delivery.next_attempt_at > now and not early:
        return None  # its own task, enqueued for its time, comes later
    delivery.status = DeliveryStatus.SENDING
    delivery.attempts += 1
    delivery.attempted_at = now
    delivery.save(update_fields=["status", "attempts", "attempted_at"])
    return delivery


def webhook_delivery_attempt(
    *, delivery_id: int, now: datetime.datetime | None = None, early: bool | None = None
) -> str:
    """Post the delivery if it is waiting and due (``early``: also before its time; by
    default when the task backend cannot wait, as in tests); record how it went and, after a
    failure, when to try again. Returns the delivery's status afterwards."""
    now = now or timezone.now()
    if early is None:
        early = not webhook_delivery_run.get_backend().supports_defer
    delivery = _claim(delivery_id, now, early=early)
    if delivery is None:
        return "skipped"
    code, error = _post(delivery, now)
    return _record(delivery, now, code=code, error=error)


def _body(delivery: WebhookDelivery) -> bytes:
    data = {"delivery": delivery.pk, **delivery.payload}
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()


def _connection(url: str) -> tuple[http.client.HTTPConnection, str]:
    address, port = webhook_address(url)  # checked now, and the one connected to
    parts = urlsplit(url)
    timeout = settings.WEBHOOK_TIMEOUT_SECONDS
    if parts.scheme == "https":
        conn = http.client.HTTPSConnection(
            parts.hostname, port, timeout=timeout, context=ssl.create_default_context()
        )
    else:
        conn = http.client.HTTPConnection(parts.hostname, port, timeout=timeout)

    def pinned(_where, timeout=timeout, source_address=None):
        # the checked address, never a second look-up; TLS still checks the host's name
        return socket.create_connection((address, port), timeout, source_address)

    conn._create_connection = pinned
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return conn, path


def _post(delivery: WebhookDelivery, now: datetime.datetime) -> tuple[int | None, str]:
    """POST the delivery: (status code, "") or (status code or None, what went wrong)."""
    hook = delivery.webhook
    body = _body(delivery)
    timestamp = str(int(time.time()))
    headers = {
        "Content-Type": "application/json; charset=utf-8",
        "User-Agent": USER_AGENT,
        "X-Efuda-Event": delivery.event,
        "X-Efuda-Delivery": str(delivery.pk),
        "X-Efuda-Timestamp": timestamp,
        "X-Efuda-Signature": webhook_signature(secret=hook.secret, timestamp=timestamp, body=body),
    }
    try:
        conn, path = _connection(hook.url)
        try:
            conn.request("POST", path, body=body, headers=headers)
            response = conn.getresponse()
            response.read(65536)  # the answer is not kept; read a little so the server is done
        finally:
            conn.close()
    except EfudaError as err:  # the address is refused now: said in the hook's language
        with translation.override(hook.language):
            return None, error_text(err)[:200]
    except (OSError, http.client.HTTPException) as err:
        return None, (f"{type(err).__name__}: {err}")[:200]
    if 300 <= response.status < 400:
        return response.status, "redirect not followed"
    return response.status, "" if 200 <= response.status < 300 else f"HTTP {response.status}"


@transaction.atomic
def _record(delivery: WebhookDelivery, now: datetime.datetime, *, code, error: str) -> str:
    delivery.status_code, delivery.error = code, error
    if code is not None and 200 <= code < 300:
        delivery.status = DeliveryStatus.DELIVERED
    elif delivery.attempts >= ATTEMPTS or _replaced(delivery):
        delivery.status = DeliveryStatus.FAILED
    else:
        delivery.status = DeliveryStatus.PENDING
        delivery.next_attempt_at = now + datetime.timedelta(seconds=BACKOFF[delivery.attempts - 1])
        pk, when = delivery.pk, delivery.next_attempt_at
        transaction.on_commit(lambda: webhook_delivery_enqueue(delivery_id=pk, when=when))
    delivery.save(update_fields=["status", "status_code", "error", "next_attempt_at"])
    return delivery.status


def _replaced(delivery: WebhookDelivery) -> bool:
    """A change recorded while this one was sent queued a newer delivery of the same subject:
    that one says everything this one would, so this one is not retried."""
    return (
        WebhookDelivery.objects.filter(
            webhook_id=delivery.webhook_id, event=delivery.event, subject=delivery.subject,
            status=DeliveryStatus.PENDING, pk__gt=delivery.pk,
        ).exists()
    )  # fmt: skip


def webhook_deliveries_take_up(*, now: datetime.datetime | None = None) -> int:
    """Deliveries a stopped worker left ``sending`` wait again (their attempt counted), and
    waiting ones long past their time are enqueued again. Returns how many were enqueued."""
    now = now or timezone.now()
    with transaction.atomic():
        WebhookDelivery.objects.filter(
            status=DeliveryStatus.SENDING, attempted_at__lt=now - STALE_SENDING
        ).update(status=DeliveryStatus.PENDING, next_attempt_at=now - LATE, error="worker stopped")
        late = list(
            WebhookDelivery.objects.select_for_update(skip_locked=True)
            .filter(status=DeliveryStatus.PENDING, next_attempt_at__lte=now - LATE)
            .values_list("pk", flat=True)[:1000]
        )
        # Due now, so that they are not enqueued again at the next take-up.
        WebhookDelivery.objects.filter(pk__in=late).update(next_attempt_at=now)
    for pk in late:
        webhook_delivery_enqueue(delivery_id=pk)
    return len(late)
