"""Personal API tokens and the Idempotency-Key of a deal posted through the API (docs/api.md)."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class TokenScope(models.TextChoices):
    READ = "read", _("read only")
    WRITE = "write", _("read and write")


class ApiToken(models.Model):
    """A person's token for ``Authorization: Bearer``. Only its SHA-256 is kept (the token is
    shown once, when made); ``prefix`` is its first characters, to tell tokens apart. A token
    acts as its person and nothing more: their roles are read per request, so a membership
    ended ends what the token may do, and the token dies with the account (deleted: cascade;
    deactivated: refused at every request)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(_("name"), max_length=100)
    key_hash = models.CharField(max_length=64, unique=True, editable=False)
    prefix = models.CharField(max_length=16, editable=False)
    scope = models.CharField(
        _("access"), max_length=8, choices=TokenScope.choices, default=TokenScope.READ
    )
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(_("last used"), null=True, blank=True)
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    @property
    def can_write(self) -> bool:
        return self.scope == TokenScope.WRITE


class ApiIdempotencyKey(models.Model):
    """An ``Idempotency-Key`` one person sent with a deal: the deal it recorded and what the
    request said (a hash of its body), so a retry returns that deal and the same key with
    another body is refused. The deal itself is kept exactly once by its ``client_id``,
    derived from the person and the key (services/api.py), the phone outbox's guarantee."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=255)
    body_hash = models.CharField(max_length=64)
    deal = models.ForeignKey("tournaments.Deal", on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="api_idempotency_key_unique")
        ]

    def __str__(self) -> str:
        return self.key


class ApiTableToken(models.Model):
    """A PIN holder's token for one tournament table in one round (docs/api.md): made when a
    player at the table gives their PIN (under the PIN form's own lock-out), kept as its
    SHA-256. It lets its holder record deals at that table only, like the PIN on the table's
    page, and dies as that PIN does (``pin_hash``: the PIN's hash when it was given; a new PIN
    or a revoked one no longer matches) and when the table's round finishes."""

    entry = models.ForeignKey(
        "tournaments.TournamentEntry", on_delete=models.CASCADE, related_name="+"
    )
    table = models.ForeignKey(
        "tournaments.TournamentTable", on_delete=models.CASCADE, related_name="+"
    )
    key_hash = models.CharField(max_length=64, unique=True, editable=False)
    pin_hash = models.CharField(max_length=64, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"table {self.table_id}, entry {self.entry_id}"
