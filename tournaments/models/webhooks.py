"""A club's webhooks: addresses that get a signed POST when its sessions, a month's standings
or a tournament round change, and the deliveries the task worker makes (docs/api.md,
"Webhooks")."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Webhook(models.Model):
    """One address an owner registered for their club. ``secret`` signs every delivery
    (HMAC-SHA256); it is shown once, when the hook is made, and kept as it is because every
    delivery needs it. ``language`` is the language the receiver is told to write in."""

    club = models.ForeignKey("tournaments.Club", on_delete=models.CASCADE, related_name="webhooks")
    url = models.URLField(_("address"), max_length=500)
    secret = models.CharField(max_length=64, editable=False)
    language = models.CharField(_("language"), max_length=10, choices=settings.LANGUAGES)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return self.url


class DeliveryStatus(models.TextChoices):
    PENDING = "pending", _("waiting")
    SENDING = "sending", _("sending")
    DELIVERED = "delivered", _("delivered")
    FAILED = "failed", _("failed")


class WebhookDelivery(models.Model):
    """One POST to a hook about one subject (``subject``: e.g. ``session:12``). While it waits,
    later changes of the same subject update it instead of adding deliveries (coalescing):
    ``changes`` counts them. ``attempts`` and ``next_attempt_at`` follow the backoff;
    ``status_code`` and ``error`` say how the last attempt went."""

    webhook = models.ForeignKey(Webhook, on_delete=models.CASCADE, related_name="deliveries")
    event = models.CharField(max_length=40)
    subject = models.CharField(max_length=100)
    payload = models.JSONField()
    status = models.CharField(
        max_length=10, choices=DeliveryStatus.choices, default=DeliveryStatus.PENDING
    )
    changes = models.PositiveIntegerField(default=1)
    attempts = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    next_attempt_at = models.DateTimeField()
    attempted_at = models.DateTimeField(null=True, blank=True)
    status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    error = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["webhook", "subject", "status"], name="webhook_delivery_subject"),
            models.Index(fields=["status", "next_attempt_at"], name="webhook_delivery_due"),
        ]

    def __str__(self) -> str:
        return f"{self.event} {self.subject} → {self.webhook_id} ({self.status})"
