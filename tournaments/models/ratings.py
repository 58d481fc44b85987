"""Skill ratings (openskill, Weng-Lin): stored, so pages read rows and never recompute.

``RatingState`` is one row per club and game: how far the ratings have got (the number of deals
rated, the last one and when it was computed) and the learned side-and-contract handicaps.
``Rating`` is each player's current μ and σ; ``RatingHistory`` is a player's μ and σ after each
deal they played, for the chart on the player page, kept in generations (``RatingState.generation``
is the current one). All three are derived from score lines and can be rebuilt at any time by
``services.ratings.ratings_replay``.
"""

from django.db import models

from .clubs import Club, Player
from .play import Deal, Game


class RatingState(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    game = models.CharField(max_length=16, choices=Game.choices)
    deals = models.PositiveIntegerField(default=0)
    last_deal = models.ForeignKey(
        Deal, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    last_date = models.DateField(null=True, blank=True)
    computed_at = models.DateTimeField(null=True, blank=True)
    handicaps = models.JSONField(default=dict, blank=True)
    params = models.JSONField(default=dict, blank=True)
    # Raised in the same transaction by every change to the club's score lines in this game
    # (a deal edited, deleted, restored or back-dated; an import; a replay written) except a
    # deal added after all history, learned incrementally: a replay computed holding no lock
    # is written only if the version it started from is still current (services/ratings.py).
    version = models.PositiveBigIntegerField(default=0)
    # The rating history is kept in generations: readers see only the rows of ``generation``.
    # A replay takes a new number from ``next_generation`` (monotonic), writes its history rows
    # under it holding no lock, and switches ``generation`` to it under the lock; the rows of
    # older generations are deleted afterwards (services/ratings.py).
    generation = models.PositiveBigIntegerField(default=0)
    next_generation = models.PositiveBigIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["club", "game"], name="ratingstate_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.club_id} {self.game}: {self.deals} deals"


class Rating(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    game = models.CharField(max_length=16, choices=Game.choices)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    mu = models.FloatField()
    sigma = models.FloatField()
    score = models.FloatField(help_text="μ − 3σ, the headline")
    deals = models.PositiveIntegerField(default=0)
    last_played = models.DateField(null=True)
    # The player page's rating chart: the history rows it shows (every n of
    # ``selectors.ratings.chart_ns(deals)``), one line each ("n YYYY-MM-DD μ μ−3σ", as the
    # chart shows them), kept by the services that write the history
    # (services/rating_curves.py): the page reads this row, not the history. Text, not JSON:
    # a new deal drops or keeps the last line and adds one, with no decoding or encoding.
    # Empty: not kept (a row restored from a backup made before it was); the page then reads
    # the history rows themselves.
    curve = models.TextField(blank=True, default="", db_default="")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["club", "game", "player"], name="rating_unique"),
        ]
        indexes = [models.Index(fields=["club", "game", "-score"], name="rating_rank")]

    def __str__(self) -> str:
        return f"{self.game} player {self.player_id}: {self.mu:.2f} ± {self.sigma:.2f}"


class RatingHistory(models.Model):
    """A player's rating after their ``n``-th rated deal (n = 1, 2, …) in this game.

    A replay rewrites a club's rows in bulk (a million at most), so the table carries no index
    the two below do not already give (club and player lookups are their leading columns) and
    no database foreign-key constraints: PostgreSQL checks deferred constraints row by row at
    commit, which took 40 % of a replay. The rows are derived from score lines; Django still
    deletes them with their club, player or deal (``on_delete=CASCADE``).

    Only the rows whose ``generation`` is the club's ``RatingState.generation`` are the history;
    others are a replay's rows being written, or an old generation about to be deleted."""

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="+", db_index=False, db_constraint=False
    )
    game = models.CharField(max_length=16, choices=Game.choices)
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="+", db_index=False, db_constraint=False
    )
    deal = models.ForeignKey(Deal, on_delete=models.CASCADE, related_name="+", db_constraint=False)
    n = models.PositiveIntegerField()
    date = models.DateField()
    mu = models.FloatField()
    sigma = models.FloatField()
    generation = models.PositiveBigIntegerField(default=0)

    class Meta:
        indexes = [
            models.Index(fields=["player", "game", "generation", "n"], name="ratinghistory_gen"),
            models.Index(fields=["club", "game", "generation"], name="ratinghistory_club_gen"),
        ]

    def __str__(self) -> str:
        return f"player {self.player_id} after deal {self.deal_id}: {self.mu:.2f}"
