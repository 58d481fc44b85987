"""Sessions, deals, their stored score lines and the per-period aggregates standings read."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from ..standings_fields import COUNTER_NAMES
from .clubs import Club, ClubRuleSet, Player


class Game(models.TextChoices):
    NAPOLEON = "napoleon", _("Napoleon")
    DAIFUGO = "daifugo", _("Daifugō")


class GameSession(models.Model):
    """One table's evening: deals in order, under one rule set.

    ``rules_snapshot`` keeps the preset and options the session was played under, so a later
    change to the club's rule set never silently re-scores old deals when they are edited.
    """

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="sessions")
    game = models.CharField(_("game"), max_length=16, choices=Game.choices)
    date = models.DateField(_("date"))
    table = models.CharField(_("table"), max_length=40, default="A")
    ruleset = models.ForeignKey(
        ClubRuleSet, on_delete=models.PROTECT, related_name="sessions", verbose_name=_("rule set")
    )
    rules_snapshot = models.JSONField(default=dict, editable=False)
    notes = models.CharField(_("notes"), max_length=200, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-date", "table", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "game", "date", "table"], name="session_unique_table_day"
            ),
        ]
        indexes = [models.Index(fields=["club", "-date"], name="session_club_date")]
        verbose_name = _("session")
        verbose_name_plural = _("sessions")

    def __str__(self) -> str:
        return f"{self.date} {self.table} ({self.get_game_display()})"


class Deal(models.Model):
    """One Napoleon deal or one Daifugō round, as recorded at the table.

    ``data`` is the canonical input (player ids as strings); ``outcome`` is the scoring core's
    result, kept for display. Score lines are derived and rewritten on every change.
    """

    session = models.ForeignKey(GameSession, on_delete=models.CASCADE, related_name="deals")
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    game = models.CharField(max_length=16, choices=Game.choices)
    seq = models.PositiveIntegerField(_("deal number"))
    redeal = models.BooleanField(_("redeal"), default=False)
    data = models.JSONField(default=dict)
    outcome = models.JSONField(default=dict)
    # Denormalised for lists and statistics (Napoleon only).
    napoleon = models.ForeignKey(
        Player, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    adjutant = models.ForeignKey(
        Player, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    bid = models.PositiveSmallIntegerField(null=True, blank=True)
    trump = models.CharField(max_length=1, blank=True)
    version = models.PositiveIntegerField(default=1)
    # The id the phone gave this deal when its entry form was shown: a resent form (double tap,
    # lost reply, the phone's outbox) returns this deal instead of recording it again.
    client_id = models.UUIDField(null=True, blank=True, unique=True, editable=False)
    is_deleted = models.BooleanField(default=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    history = HistoricalRecords(excluded_fields=["client_id"])

    class Meta:
        ordering = ["session", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["session", "seq"], name="deal_unique_seq"),
        ]
        verbose_name = _("deal")
        verbose_name_plural = _("deals")

    def __str__(self) -> str:
        return f"{self.session} #{self.seq}"


class ScoreLine(models.Model):
    """One player's result in one deal: what every standing sums. Never edited in place."""

    # No single-column index on deal, club or player: the unique constraint and the two
    # indexes below lead with them and serve the same lookups, and every index costs time on
    # each of the half a million rows a large import writes.
    #
    # No foreign-key constraint in the database either (``db_constraint=False``): a score line
    # is derived from its deal (the deal's own row keeps its constraints), and checking four
    # keys row by row was 70 % of a large import's write on PostgreSQL (docs/performance.md).
    # Django still cascades and protects (``on_delete``); the writers lock the players they
    # name (``services/bulk.py: lock_players``), and a restore checks every line's keys
    # (``services/backup.py``).
    deal = models.ForeignKey(
        Deal, on_delete=models.CASCADE, related_name="lines", db_index=False, db_constraint=False
    )
    session = models.ForeignKey(
        GameSession, on_delete=models.CASCADE, related_name="+", db_constraint=False
    )
    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="+", db_index=False, db_constraint=False
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="lines", db_index=False, db_constraint=False
    )
    game = models.CharField(max_length=16, choices=Game.choices)
    date = models.DateField()
    seat = models.PositiveSmallIntegerField()
    points = models.IntegerField()
    # Napoleon: napoleon / adjutant / ally.  Daifugō: the title code (daifugo … daihinmin).
    role = models.CharField(max_length=16)
    won = models.BooleanField(null=True)
    bid = models.PositiveSmallIntegerField(null=True)
    trump = models.CharField(max_length=1, blank=True)
    solo = models.BooleanField(default=False)
    plan_b = models.BooleanField(default=False)
    all20 = models.BooleanField(default=False)
    position = models.PositiveSmallIntegerField(null=True)
    miyako_ochi = models.BooleanField(default=False)
    forbidden = models.BooleanField(default=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["deal", "player"], name="scoreline_unique"),
        ]
        indexes = [
            models.Index(fields=["player", "game", "date"], name="line_player_date"),
        ]

    def __str__(self) -> str:
        return f"deal {self.deal_id} seat {self.seat}: player {self.player_id}"


class StandingAggregate(models.Model):
    """Running totals per player per period, kept in the deal's own transaction.

    ``period`` is ``YYYY-MM`` (month), ``YYYY`` (season) or ``all``. A standings page reads one
    row per player, however long the club's history. Its counters are ``standings_fields``'s,
    declared here for Django (a test holds them to the definition: names, order, sign).
    """

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    game = models.CharField(max_length=16, choices=Game.choices)
    period = models.CharField(max_length=7)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="aggregates")
    points = models.IntegerField(default=0)
    deals = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    napoleon_deals = models.PositiveIntegerField(default=0)
    napoleon_wins = models.PositiveIntegerField(default=0)
    adjutant_deals = models.PositiveIntegerField(default=0)
    adjutant_wins = models.PositiveIntegerField(default=0)
    solo_deals = models.PositiveIntegerField(default=0)
    solo_wins = models.PositiveIntegerField(default=0)
    plan_b_suffered = models.PositiveIntegerField(default=0)
    plan_b_inflicted = models.PositiveIntegerField(default=0)
    title_daifugo = models.PositiveIntegerField(default=0)
    title_fugo = models.PositiveIntegerField(default=0)
    title_heimin = models.PositiveIntegerField(default=0)
    title_hinmin = models.PositiveIntegerField(default=0)
    title_daihinmin = models.PositiveIntegerField(default=0)
    miyako_ochi = models.PositiveIntegerField(default=0)
    forbidden = models.PositiveIntegerField(default=0)

    COUNTERS = COUNTER_NAMES  # the counters above, in the definition's order

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["club", "game", "period", "player"], name="aggregate_unique"
            ),
        ]
        indexes = [
            models.Index(fields=["club", "game", "period", "-points"], name="aggregate_rank"),
            models.Index(fields=["player", "game", "period"], name="aggregate_player"),
        ]

    def __str__(self) -> str:
        return f"{self.game} {self.period} player {self.player_id}: {self.points}"


class BidAggregate(models.Model):
    """A player's record as Napoleon per bid count and trump, all time (for the player page):
    the counters ``standings_fields.BID_COUNTERS`` of the Napoleon's own lines."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="bid_aggregates")
    bid = models.PositiveSmallIntegerField()
    trump = models.CharField(max_length=1)
    deals = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    solo_deals = models.PositiveIntegerField(default=0)
    solo_wins = models.PositiveIntegerField(default=0)
    points = models.IntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "bid", "trump"], name="bidaggregate_unique"),
        ]

    def __str__(self) -> str:
        return f"player {self.player_id} bid {self.bid}{self.trump}: {self.deals}"
