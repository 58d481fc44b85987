"""Tournaments: a club's multi-table event, its entries, rounds, drawn tables and the staff's
confirmations and adjustments. Each drawn table plays as one ``GameSession``."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from .clubs import Club, ClubRuleSet, Player
from .play import Deal, Game, GameSession


class DrawMethod(models.TextChoices):
    MIXING = "mixing", _("Mixing (fewest repeated opponents)")
    SWISS = "swiss", _("Swiss (similar standing together)")
    RANDOM = "random", _("Random")
    FIXED = "fixed", _("Fixed (entry order, then swap by hand)")


class StandingsMode(models.TextChoices):
    RAW = "raw", _("Total points")
    RANK = "rank", _("Rank points per table and round")


class Tournament(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="tournaments")
    name = models.CharField(_("name"), max_length=100)
    date = models.DateField(_("date"))
    game = models.CharField(_("game"), max_length=16, choices=Game.choices)
    ruleset = models.ForeignKey(
        ClubRuleSet,
        on_delete=models.PROTECT,
        related_name="tournaments",
        verbose_name=_("rule set"),
    )
    rounds_planned = models.PositiveSmallIntegerField(_("rounds"), default=4)
    deals_per_round = models.PositiveSmallIntegerField(_("deals per round"), null=True, blank=True)
    minutes_per_round = models.PositiveSmallIntegerField(
        _("minutes per round"), null=True, blank=True
    )
    draw_method = models.CharField(
        _("seating method"), max_length=10, choices=DrawMethod.choices, default=DrawMethod.MIXING
    )
    table_size = models.PositiveSmallIntegerField(
        _("preferred table size"),
        null=True,
        blank=True,
        help_text=_("Leave empty for 5 players where the rules allow it."),
    )
    standings_mode = models.CharField(
        _("standings"), max_length=8, choices=StandingsMode.choices, default=StandingsMode.RAW
    )
    require_confirmation = models.BooleanField(
        _("deals need a second player's confirmation"), default=False
    )
    is_public = models.BooleanField(_("public"), default=False)
    seed = models.PositiveIntegerField(_("draw seed"), default=0)
    # The mixing draw plans every round still to play at once; the plan is kept here and used
    # round by round while the field and the rounds played are as it assumed (see draw/plan.py).
    draw_plan = models.JSONField(default=dict, blank=True, editable=False)
    standings_hidden_rounds = models.PositiveSmallIntegerField(
        _("hide the standings for the final rounds"),
        default=0,
        help_text=_("The live standings stop at the round before these rounds until revealed."),
    )
    standings_revealed = models.BooleanField(_("standings revealed"), default=False)
    # Set when the last round is finished (or staff end the tournament after an earlier one):
    # no round is drawn after it; the results are final (corrections still re-count them).
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    # Self-registration (services/events/registration.py): open until ``registration_closes``
    # (none: until round 1 is drawn), at most ``registration_cap`` entries (more wait in
    # order), club members only unless ``registration_anyone`` on a public tournament.
    registration_open = models.BooleanField(_("registration open"), default=False)
    registration_closes = models.DateTimeField(_("registration closes"), null=True, blank=True)
    registration_cap = models.PositiveSmallIntegerField(_("most entries"), null=True, blank=True)
    registration_anyone = models.BooleanField(
        _("anyone with an efuda account and the link may register"), default=False
    )
    # Check-in at the desk: the desk code changes every minute, derived from this secret.
    checkin_open = models.BooleanField(_("check-in open"), default=False)
    checkin_secret = models.CharField(max_length=64, blank=True, editable=False)
    extra_staff = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="staffed_tournaments",
        verbose_name=_("extra staff"),
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    history = HistoricalRecords(
        m2m_fields=[extra_staff], excluded_fields=["draw_plan", "checkin_secret"]
    )

    class Meta:
        ordering = ["-date", "-id"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")

    def __str__(self) -> str:
        return self.name


class CheckInHow(models.TextChoices):
    CODE = "code", _("desk code")
    STAFF = "staff", _("by the staff")


class TournamentEntry(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    checked_in = models.BooleanField(_("checked in"), default=False)
    checked_in_at = models.DateTimeField(null=True, blank=True)
    checked_in_how = models.CharField(max_length=8, choices=CheckInHow.choices, blank=True)
    checked_in_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+",
    )  # fmt: skip
    # The account that registered itself (None: entered by the staff), and whether the entry
    # waits for a place (registration past the cap).
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="tournament_entries",
    )  # fmt: skip
    waiting = models.BooleanField(_("waiting list"), default=False)
    dropped_at_round = models.PositiveSmallIntegerField(
        _("dropped from round"), null=True, blank=True
    )
    pin_hash = models.CharField(max_length=64, blank=True, editable=False)
    pin_issued_at = models.DateTimeField(null=True, blank=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    history = HistoricalRecords(excluded_fields=["pin_hash"])

    class Meta:
        ordering = ["tournament", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="entry_unique"),
        ]
        indexes = [models.Index(fields=["tournament", "pin_hash"], name="entry_pin")]
        verbose_name = _("entry")
        verbose_name_plural = _("entries")

    def __str__(self) -> str:
        return str(self.player)


class TournamentRound(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField(_("round"))
    method = models.CharField(max_length=10, choices=DrawMethod.choices)
    seed = models.PositiveIntegerField(default=0)
    sitouts = models.JSONField(default=list, blank=True)  # player ids
    drawn_at = models.DateTimeField(auto_now=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    timer_ends_at = models.DateTimeField(null=True, blank=True)  # set while the clock runs
    timer_left = models.PositiveIntegerField(null=True, blank=True)  # seconds, while stopped
    history = HistoricalRecords()

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_unique"),
        ]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")

    def __str__(self) -> str:
        return f"{self.tournament} R{self.number}"


class TournamentTable(models.Model):
    round = models.ForeignKey(TournamentRound, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(_("table"))
    seats = models.JSONField(default=list)  # player ids in seat order
    # Substitutions once the round has started, in order: [{"seat": 1-based seat, "out": player
    # id, "in": player id, "from_seq": the first deal the substitute plays}]. ``seats`` holds
    # who plays each seat now; these say who played it before (services/events/changes.py).
    replacements = models.JSONField(default=list, blank=True)
    session = models.OneToOneField(
        GameSession, on_delete=models.PROTECT, null=True, blank=True, related_name="event_table"
    )
    history = HistoricalRecords()

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="table_unique"),
        ]
        verbose_name = _("tournament table")
        verbose_name_plural = _("tournament tables")

    def __str__(self) -> str:
        return f"R{self.round.number}-T{self.number}"


class ConfirmationState(models.TextChoices):
    PENDING = "pending", _("Waiting for confirmation")
    CONFIRMED = "confirmed", _("Confirmed")
    DISPUTED = "disputed", _("Disputed")


class DealConfirmation(models.Model):
    """Whether a deal recorded at a tournament table counts in the official standings."""

    deal = models.OneToOneField(Deal, on_delete=models.CASCADE, related_name="confirmation")
    table = models.ForeignKey(
        TournamentTable, on_delete=models.CASCADE, related_name="confirmations"
    )
    state = models.CharField(
        max_length=10, choices=ConfirmationState.choices, default=ConfirmationState.PENDING
    )
    recorded_by = models.ForeignKey(
        TournamentEntry, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    decided_by = models.ForeignKey(
        TournamentEntry, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    decided_by_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    note = models.CharField(_("note"), max_length=200, blank=True)
    # A late deal: recorded after its round was finished, counted because the staff allowed
    # it (who, and when the phone made it, when it says so).
    late = models.BooleanField(_("late"), default=False)
    late_allowed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    made_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("deal confirmation")
        verbose_name_plural = _("deal confirmations")

    def __str__(self) -> str:
        return f"deal {self.deal_id}: {self.state}"


class Adjustment(models.Model):
    """A penalty (negative) or correction (positive) by the staff, with the reason shown."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="adjustments")
    entry = models.ForeignKey(TournamentEntry, on_delete=models.CASCADE, related_name="adjustments")
    round_number = models.PositiveSmallIntegerField(_("round"), null=True, blank=True)
    points = models.DecimalField(_("points"), max_digits=7, decimal_places=1)
    reason = models.CharField(_("reason"), max_length=200)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    is_deleted = models.BooleanField(default=False)
    history = HistoricalRecords()

    class Meta:
        ordering = ["tournament", "created_at", "id"]
        verbose_name = _("adjustment")
        verbose_name_plural = _("adjustments")

    def __str__(self) -> str:
        return f"{self.entry_id}: {self.points} ({self.reason})"


class PinAttempt(models.Model):
    """A failed PIN entry, for rate limiting per client address and the entry guessed (none
    when the PIN was typed without choosing a name)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    address = models.CharField(max_length=64)
    entry = models.ForeignKey(
        TournamentEntry, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        indexes = [
            models.Index(fields=["tournament", "address"], name="pinattempt_addr"),
            models.Index(fields=["entry", "address"], name="pinattempt_entry"),
        ]

    def __str__(self) -> str:
        return f"PIN failure {self.address} at {self.created_at}"
