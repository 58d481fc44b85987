"""Invitations into a club, claims of "this is me" on a player, and player merges."""

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from .clubs import Club, Player, Role


def new_token() -> str:
    return secrets.token_urlsafe(24)


class Invitation(models.Model):
    """A link (and QR code) that lets ``max_uses`` people join ``club`` as ``role`` until
    ``expires_at``, unless revoked. May name the player the person is."""

    ROLES = [(Role.MEMBER, Role.MEMBER.label), (Role.SCOREKEEPER, Role.SCOREKEEPER.label)]

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invitations")
    token = models.CharField(max_length=64, unique=True, default=new_token, editable=False)
    role = models.CharField(_("role"), max_length=16, choices=ROLES, default=Role.MEMBER)
    player = models.ForeignKey(
        Player,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="invitations",
        verbose_name=_("player"),
    )
    max_uses = models.PositiveIntegerField(_("number of people"), default=1)
    uses = models.PositiveIntegerField(_("used"), default=0)
    expires_at = models.DateTimeField(_("expires"))
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)
    note = models.CharField(_("note"), max_length=100, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    reissued_from = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    history = HistoricalRecords(excluded_fields=["token"])

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(uses__lte=models.F("max_uses")), name="invitation_uses_max"
            ),
            models.CheckConstraint(condition=models.Q(max_uses__gte=1), name="invitation_uses_min"),
        ]
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")

    def __str__(self) -> str:
        return f"{self.club} {self.role} ({self.uses}/{self.max_uses})"


class ClaimStatus(models.TextChoices):
    PENDING = "pending", _("Waiting for the owner")
    CONFIRMED = "confirmed", _("Confirmed")
    REJECTED = "rejected", _("Rejected")
    UNDONE = "undone", _("Confirmed, then undone by an owner")


class PlayerClaim(models.Model):
    """A member saying "this player is me"; an owner confirms it (or an invitation naming the
    player does). Confirmation sets ``Player.user``."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="claims")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player_claims"
    )
    status = models.CharField(max_length=16, choices=ClaimStatus.choices)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            # One open claim per person per club.
            models.UniqueConstraint(
                fields=["club", "user"],
                condition=models.Q(status="pending"),
                name="claim_one_pending",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} → {self.player} ({self.status})"


class PlayerMerge(models.Model):
    """A record of two players made one: ``merged_name`` (gone) into ``kept``.

    ``moves`` keeps exactly what the merge changed, so an owner can undo it: for each deal its
    id, the places its data named the merged player (``{"seats": [2], "napoleon": true}``) and
    the deal's version after the merge (a later edit makes the undo refuse that deal); the
    invitations and claims moved; whether the account link moved; the merged player's own
    settings (active)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    kept = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="merges")
    merged_id = models.BigIntegerField()
    merged_name = models.CharField(max_length=64)
    deals = models.PositiveIntegerField(default=0)
    lines = models.PositiveIntegerField(default=0)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)
    moves = models.JSONField(default=dict, blank=True, editable=False)
    undone_at = models.DateTimeField(null=True, blank=True)
    undone_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )

    class Meta:
        ordering = ["-at", "-id"]

    def __str__(self) -> str:
        return f"{self.merged_name} → {self.kept}"
