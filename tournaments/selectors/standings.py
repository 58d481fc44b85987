"""Standings: one query over ``StandingAggregate`` rows, ranked by ``tournaments.ranking``.

Pages never sum the club's score lines: a month, a season or all time is one aggregate row per
player. The aggregates count every deal; the deals a reader may not see (a private
tournament's, a frozen round's: ``selectors/visibility.py``) are subtracted at read time from
their own score lines, which a second query sums per player over the hidden sessions only —
bounded by the hidden tournaments' size, never by the club's history (docs/standings.md).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field, make_dataclass

from django.db.models import Count, Q, Sum
from django.db.models.functions import TruncMonth
from django.utils.translation import gettext_lazy as _

from .. import ranking, standings_fields
from ..models import Club, Game, ScoreLine, StandingAggregate
from ..standings_fields import COUNTER_NAMES, COUNTERS, RATES
from .visibility import Visibility


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


class _Row:
    """A standings row's methods; its fields are made from the definition below."""

    def cells(self, fields: tuple[standings_fields.Field, ...]) -> list[str]:
        """The row's ``fields`` written as the pages write them (points with their sign, a rate
        left empty as –)."""
        return [f.text(getattr(self, f.name)) for f in fields]


# One player's standing: the rank, who, every counter of ``standings_fields`` (0 unless given),
# whether they played the minimum deals for the rates, and each rate (a property, None below
# the minimum).
StandingRow = make_dataclass(
    "StandingRow",
    [
        ("rank", int),
        ("player_id", int),
        ("name", str),
        *((name, int, field(default=0)) for name in COUNTER_NAMES),
        ("qualified", bool, field(default=True)),
    ],
    bases=(_Row,),
    namespace={"__module__": __name__, **{r.name: property(r.value) for r in RATES}},
)


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


def _lines(lines: standings_fields.Lines) -> Q:
    """The score lines ``lines`` counts, as a filter."""
    q = Q()
    if len(lines.roles) == 1:
        q &= Q(role=lines.roles[0])
    elif lines.roles:
        q &= Q(role__in=lines.roles)
    if lines.other_roles:
        q &= ~Q(role__in=lines.other_roles)
    return q & Q(**dict.fromkeys(lines.flags, True))


def _line_counters() -> dict:
    """What score lines add to the aggregate counters, as SQL aggregates: the same sums as
    ``standings_fields.counts`` applied line by line (a test holds them equal)."""
    out = {}
    for counter in COUNTERS:
        if counter.total:
            out[counter.name] = Sum(counter.total, default=0)
        else:
            q = _lines(counter.lines)
            out[counter.name] = Count("id", filter=q) if q else Count("id")
    return out


LINE_COUNTERS = _line_counters()


def period_lines(period: Period) -> Q:
    """The score lines a period's aggregate rows count."""
    # Score lines hold their session's date (no month column: migration 0014).
    if period.kind == "month":
        return Q(date__year=period.year, date__month=period.month)
    if period.kind == "season":
        return Q(date__year=period.year)
    return Q()


def hidden_counters(
    *,
    visibility: Visibility,
    game: str,
    lines: Q | None = None,
    by: tuple[str, ...] = ("player_id",),
) -> dict[tuple, dict[str, int]]:
    """The counters of the score lines ``visibility`` hides (of ``game``, among ``lines``),
    grouped ``by`` (a tuple of columns; "month": the first day of the line's month): what to
    take off the aggregates for this reader. One query over the hidden sessions' lines only (by
    their ids, so along the session index, never along the club's history); none when nothing
    is hidden."""
    if visibility.everything or not visibility.hidden_session_ids:
        return {}
    found = ScoreLine.objects.filter(
        lines or Q(), game=game, session_id__in=visibility.hidden_session_ids
    )
    if "month" in by:  # score lines hold their session's date only
        found = found.annotate(month=TruncMonth("date"))
    rows = found.values(*by).annotate(**LINE_COUNTERS).order_by()
    return {tuple(row.pop(name) for name in by): row for row in rows}


def subtract(row: dict, hidden: dict | None) -> dict:
    """An aggregate row's counters less the hidden lines' (``row`` is changed and returned)."""
    if hidden:
        for name, value in hidden.items():
            if name in row:
                row[name] -= value
    return row


def standings(
    *,
    club: Club,
    game: str,
    period: Period,
    visibility: Visibility,
    min_deals: int = 0,
) -> Standings:
    """The ranked standings of ``game`` in ``period`` as a reader with ``visibility`` sees
    them: one indexed query, at most one row per player who played, less the deals hidden from
    the reader (a second query over those only). Rate columns are left empty for players under
    ``min_deals`` deals."""
    if game not in Game.values:
        raise ValueError(f"unknown game {game!r}")
    values = StandingAggregate.objects.filter(
        club=club, game=game, period=period.key, deals__gt=0
    ).values("player_id", "player__name", *COUNTER_NAMES)
    hidden = hidden_counters(visibility=visibility, game=game, lines=period_lines(period))
    rows = []
    for v in values:
        subtract(v, hidden.get((v["player_id"],)))
        if v["deals"] > 0:
            rows.append(StandingRow(rank=0, name=v.pop("player__name"), **v))
    ranked = ranking.rank(rows, ranking.TIEBREAKS[game])
    out = []
    for position, row in ranked:
        row.rank = position
        row.qualified = row.deals >= min_deals
        out.append(row)
    return Standings(club=club, game=game, period=period, min_deals=min_deals, rows=out)


def leaders(
    *, club: Club, game: str, period: Period, visibility: Visibility, count: int = 3
) -> list[StandingRow]:
    return standings(club=club, game=game, period=period, visibility=visibility).rows[:count]
