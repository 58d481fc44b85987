"""Clubs, the people in them, and the rule sets they play."""

import unicodedata

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

import rules


def normalise_name(name: str) -> str:
    """The key that makes two spellings of a display name the same player.

    NFKC folds full-width and half-width forms (ＡＢＣ = ABC, ｶﾀｶﾅ = カタカナ); casefold and
    collapsed spaces stop "Taro" and "taro " from becoming two players.
    """
    text = unicodedata.normalize("NFKC", name or "")
    return " ".join(text.split()).casefold()


# Club fields that only their own services write (Club.save leaves them out).
KEPT_BY_SERVICES = frozenset({"data_version", "has_private_tournament", "has_standings_freeze"})


class Club(models.Model):
    slug = models.SlugField(_("address"), max_length=50, unique=True)
    name = models.CharField(_("name"), max_length=100)
    is_public = models.BooleanField(
        _("standings are public"),
        default=False,
        help_text=_("Anyone may read the club's standings, sessions and player pages."),
    )
    # The sites allowed to show the club's standings in a frame (views/embeds.py), one origin
    # a line (``https://host[:port]``), checked and written by services/clubs.py.
    embed_origins = models.TextField(_("sites allowed to embed the standings"), blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # Bumped in the transaction of every write to the club's records: cached read pages are
    # keyed by it, so a page is never served from before the last write (services/cache.py).
    data_version = models.PositiveBigIntegerField(default=0, editable=False)
    # What may hide deals or players from some readers (selectors/visibility.py): the club has
    # a private tournament; a tournament's standings freeze is set and not revealed. Both False
    # (almost every club): nothing is hidden and the rule asks the database nothing. Rewritten
    # from the tournaments by services.cache.club_hiding_refresh in the transaction of every
    # write that can change them, never by saving a Club loaded earlier.
    has_private_tournament = models.BooleanField(default=False, editable=False)
    has_standings_freeze = models.BooleanField(default=False, editable=False)

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs):
        # data_version only moves through services.cache.club_version_bump (an F() increment),
        # the hiding flags through club_hiding_refresh: saving a Club loaded earlier must never
        # write back older values.
        if not self._state.adding and kwargs.get("update_fields") is None:
            kwargs["update_fields"] = [
                f.name
                for f in self._meta.concrete_fields
                if not f.primary_key and f.name not in KEPT_BY_SERVICES
            ]
        super().save(*args, **kwargs)

    @property
    def embed_origin_list(self) -> list[str]:
        return self.embed_origins.split()


class Role(models.TextChoices):
    OWNER = "owner", _("Owner")
    SCOREKEEPER = "scorekeeper", _("Scorekeeper")
    MEMBER = "member", _("Member")


class Membership(models.Model):
    """A user's role in one club. Owners manage members and rule sets; scorekeepers record."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(_("role"), max_length=16, choices=Role.choices, default=Role.MEMBER)
    display_name = models.CharField(_("display name"), max_length=64, blank=True)
    # Who let this person in, and through which invitation (kept in the history too).
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("invited by"),
    )
    invitation = models.ForeignKey(
        "tournaments.Invitation",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="memberships",
    )
    history = HistoricalRecords()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="membership_unique"),
        ]
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")

    def __str__(self) -> str:
        return f"{self.user} @ {self.club} ({self.role})"


class Player(models.Model):
    """A person as a club knows them. The same person may be a player in several clubs,
    optionally linked to one user account."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(_("name"), max_length=64)
    name_key = models.CharField(max_length=64, editable=False)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="players",
    )
    active = models.BooleanField(_("active"), default=True)
    created_at = models.DateTimeField(auto_now_add=True)
    history = HistoricalRecords(excluded_fields=["name_key", "created_at"])

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name_key"], name="player_name_unique"),
            # "This is me": an account is at most one player of a club (and, being a foreign
            # key on the player, a player is at most one account).
            models.UniqueConstraint(
                fields=["club", "user"],
                condition=models.Q(user__isnull=False),
                name="player_one_per_account",
            ),
        ]
        verbose_name = _("player")
        verbose_name_plural = _("players")

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs):
        # Derived key only; validation of names lives in services.players.
        self.name_key = normalise_name(self.name)
        super().save(*args, **kwargs)


class ClubRuleSet(models.Model):
    """A preset from rules/ plus the club's overrides. ``code`` is what imports and forms use."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="rulesets")
    code = models.SlugField(_("code"), max_length=50)
    name = models.CharField(_("name"), max_length=100, blank=True)
    preset = models.CharField(_("preset"), max_length=40)
    options = models.JSONField(_("options"), default=dict, blank=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["code"]
        constraints = [
            models.UniqueConstraint(fields=["club", "code"], name="ruleset_code_unique"),
        ]
        verbose_name = _("rule set")
        verbose_name_plural = _("rule sets")

    def __str__(self) -> str:
        return self.name or self.code

    @property
    def game(self) -> str:
        return rules.get_preset(self.preset).game
