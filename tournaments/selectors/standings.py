"""Standings: one query over ``StandingAggregate`` rows, ranked by ``tournaments.ranking``.

Pages never sum score lines: a month, a season or all time is one aggregate row per player.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from django.utils.translation import gettext_lazy as _

from .. import ranking
from ..models import Club, Game, StandingAggregate

TITLE_FIELDS = ("title_daifugo", "title_fugo", "title_heimin", "title_hinmin", "title_daihinmin")


@dataclass(frozen=True)
class Period:
    """A standings period: ``kind`` is "month", "season" or "all"."""

    kind: str
    year: int | None = None
    month: int | None = None

    @classmethod
    def of(cls, year: int | None = None, month: int | None = None) -> Period:
        if year is None:
            return cls("all")
        if month is None:
            return cls("season", year)
        if not 1 <= month <= 12:
            raise ValueError("month out of range")
        return cls("month", year, month)

    @classmethod
    def parse(cls, text: str) -> Period:
        """``YYYY-MM``, ``YYYY`` or ``all`` (the aggregate keys); ValueError otherwise."""
        if text == "all":
            return cls("all")
        parts = text.split("-")
        if len(parts) == 1 and len(parts[0]) == 4 and parts[0].isdigit():
            return cls.of(int(parts[0]))
        if len(parts) == 2 and len(parts[0]) == 4 and all(p.isdigit() for p in parts):
            return cls.of(int(parts[0]), int(parts[1]))
        raise ValueError(f"not a period: {text!r}")

    @property
    def key(self) -> str:
        if self.kind == "all":
            return "all"
        if self.kind == "season":
            return f"{self.year:04d}"
        return f"{self.year:04d}-{self.month:02d}"

    @property
    def label(self) -> str:
        return str(_("All time")) if self.kind == "all" else self.key

    def previous(self) -> Period | None:
        if self.kind == "season":
            return Period("season", self.year - 1)
        if self.kind == "month":
            return Period(
                "month", *((self.year - 1, 12) if self.month == 1 else (self.year, self.month - 1))
            )
        return None

    def next(self) -> Period | None:
        if self.kind == "season":
            return Period("season", self.year + 1)
        if self.kind == "month":
            return Period(
                "month", *((self.year + 1, 1) if self.month == 12 else (self.year, self.month + 1))
            )
        return None

    @classmethod
    def this_month(cls, today: datetime.date) -> Period:
        return cls("month", today.year, today.month)


@dataclass
class StandingRow:
    rank: int
    player_id: int
    name: str
    points: int
    deals: int
    wins: int = 0
    napoleon_deals: int = 0
    napoleon_wins: int = 0
    adjutant_deals: int = 0
    adjutant_wins: int = 0
    solo_deals: int = 0
    solo_wins: int = 0
    plan_b_suffered: int = 0
    plan_b_inflicted: int = 0
    title_daifugo: int = 0
    title_fugo: int = 0
    title_heimin: int = 0
    title_hinmin: int = 0
    title_daihinmin: int = 0
    miyako_ochi: int = 0
    forbidden: int = 0
    qualified: bool = True  # played at least the minimum deals for the rate columns

    @property
    def average(self) -> float | None:
        if not self.qualified or not self.deals:
            return None
        return round(self.points / self.deals, 2)

    @property
    def points_text(self) -> str:
        return f"{self.points:+d}" if self.points else "0"

    @property
    def average_text(self) -> str:
        value = self.average
        return "–" if value is None else (f"{value:+.2f}" if value else "0.00")

    @property
    def win_rate_text(self) -> str:
        value = self.win_rate
        return "–" if value is None else f"{value:.1f}%"

    @property
    def win_rate(self) -> float | None:
        """Share of deals as Napoleon that were won, in percent."""
        if not self.qualified or not self.napoleon_deals:
            return None
        return round(100 * self.napoleon_wins / self.napoleon_deals, 1)


@dataclass
class Standings:
    club: Club
    game: str
    period: Period
    min_deals: int
    rows: list[StandingRow] = field(default_factory=list)

    @property
    def tiebreak_keys(self) -> tuple[str, ...]:
        return ranking.TIEBREAKS[self.game]

    @property
    def tiebreak_labels(self) -> list[str]:
        labels = {**TIEBREAK_LABELS, **(DAIFUGO_LABELS if self.game == "daifugo" else {})}
        return [labels[key] for key in self.tiebreak_keys]


TIEBREAK_LABELS = {
    "points": _("points"),
    "average": _("average per deal"),
    "napoleon_wins": _("wins as Napoleon"),
    "wins": _("deals won"),
    "title_daifugo": _("times 大富豪 (grand millionaire)"),
    "title_daihinmin": _("fewer times 大貧民 (grand pauper)"),
}
DAIFUGO_LABELS = {"average": _("average per round")}  # Daifugō counts rounds, never deals

_FIELDS = (
    "points",
    "deals",
    *[c for c in StandingAggregate.COUNTERS if c not in ("points", "deals")],
)


def standings(*, club: Club, game: str, period: Period, min_deals: int = 0) -> Standings:
    """The ranked standings of ``game`` in ``period``: one indexed query, at most one row per
    player who played. Rate columns are left empty for players under ``min_deals`` deals."""
    if game not in Game.values:
        raise ValueError(f"unknown game {game!r}")
    values = StandingAggregate.objects.filter(
        club=club, game=game, period=period.key, deals__gt=0
    ).values("player_id", "player__name", *_FIELDS)
    rows = [StandingRow(rank=0, name=v.pop("player__name"), **v) for v in values]
    ranked = ranking.rank(rows, ranking.TIEBREAKS[game])
    out = []
    for position, row in ranked:
        row.rank = position
        row.qualified = row.deals >= min_deals
        out.append(row)
    return Standings(club=club, game=game, period=period, min_deals=min_deals, rows=out)


def leaders(*, club: Club, game: str, period: Period, count: int = 3) -> list[StandingRow]:
    return standings(club=club, game=game, period=period).rows[:count]
