"""The fields of a player's standing, defined once: the counters the aggregates keep per player
and period, and the rates read from them, in the order every standings lists them.

A counter is a column of ``StandingAggregate`` (tests/selectors/test_standings_fields.py holds
the model to ``COUNTERS``). What one score line adds to it (``counts``: the deal services and the
bulk import) and the same sum in SQL over the lines a reader may not see
(``selectors.standings.LINE_COUNTERS``) are both read from its ``lines`` (or ``total``). A rate is
computed from two counters when a row is read. The standings file (CSV), the standings table
and its PDF, and the player page show the fields whose ``places`` name them, in this order,
under the headings given here; the ranking's metrics are these counters too (``ranking.py``).

Plain Python, like ``ranking.py`` that reads it: labels are msgids marked with ``N_`` and
translated where they are shown; a label that is a game term (大富豪, 都落ち) is shown as it is,
glossed on an English page.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Mapping
from dataclasses import KW_ONLY, dataclass, replace
from types import MappingProxyType, SimpleNamespace
from typing import Any

from core.i18n import N_
from rules import TITLE_LABELS, TITLES

NAPOLEON, DAIFUGO = "napoleon", "daifugo"  # the games' codes (``models.Game``)

# Where a field is shown: the standings file (CSV and ``export_standings``), the standings table
# (the page and its PDF), the player page.
FILE, TABLE, PLAYER = "file", "table", "player"
EVERYWHERE = (FILE, TABLE, PLAYER)

# Daifugō counts rounds (回戦), never deals: its standings say "rounds" where Napoleon's say
# "deals".
ROUNDS: Mapping[str, str] = MappingProxyType(
    {N_("Deals"): N_("Rounds"), N_("average per deal"): N_("average per round")}
)

ARMY = ("napoleon", "adjutant")  # the side 作戦B (Plan B) is played against


@dataclass(frozen=True)
class Lines:
    """The score lines a counter counts, one each: every condition given holds."""

    roles: tuple[str, ...] = ()  # the line's role is one of these (any role when empty)
    other_roles: tuple[str, ...] = ()  # and none of these
    flags: tuple[str, ...] = ()  # these yes/no columns of the line are true

    def match(self, line: Any) -> bool:
        return (
            (not self.roles or line.role in self.roles)
            and line.role not in self.other_roles
            and all(getattr(line, flag) for flag in self.flags)
        )


@dataclass(frozen=True)
class Field:
    """What every field has: its name (the row's attribute, the CSV's column key) and headings."""

    name: str
    label: str  # the heading (the CSV's): an ``N_`` msgid, or a game term when ``term``
    _: KW_ONLY
    game: str | None = None  # the game whose standings have it; None: both games
    places: tuple[str, ...] = (FILE,)  # where it is shown: FILE, TABLE, PLAYER
    term: bool = False  # ``label`` is a game term (``i18n.GLOSSES``), never translated
    short: str | None = None  # the heading in the table and its PDF, when not ``label``
    fact: str | None = None  # the heading on the player page, when not ``label``
    hint: str | None = None  # the table heading's tooltip

    def heading(self, place: str) -> str:
        """The heading in ``place`` (a msgid, or the game term)."""
        if place == TABLE and self.short:
            return self.short
        if place == PLAYER and self.fact:
            return self.fact
        return self.label

    def worded(self, game: str) -> Field:
        """The field as ``game``'s standings word it (Daifugō: rounds, never deals)."""
        if game != DAIFUGO:
            return self
        texts = {"label": self.label, "short": self.short, "fact": self.fact, "hint": self.hint}
        return replace(self, **{k: ROUNDS.get(v, v) for k, v in texts.items() if v})


@dataclass(frozen=True, kw_only=True)
class Counter(Field):
    """A count kept per player and period: one per score line ``lines`` matches, or the sum of
    the lines' ``total`` column."""

    lines: Lines | None = None
    total: str | None = None
    signed: bool = False  # written with its sign (+2, -1, 0)
    won: str | None = None  # on the player page as "won / played" with this counter of wins
    per_bid: bool = False  # also kept per bid and trump for the Napoleon (``BidAggregate``)
    higher_is_better: bool = True  # as a ranking metric (fewer 大貧民 is better)

    def text(self, value: int) -> str:
        if self.signed:
            return f"{value:+d}" if value else "0"
        return str(value)


@dataclass(frozen=True, kw_only=True)
class Rate(Field):
    """A rate of two counters of a row (``of``: numerator, denominator), empty for a row under
    the standings' minimum of deals (``row.qualified``) or with no denominator."""

    of: tuple[str, str]
    percent: bool = False  # in percent with one decimal; else with two decimals and its sign

    def value(self, row: Any) -> float | None:
        numerator, denominator = (getattr(row, name) for name in self.of)
        if not row.qualified or not denominator:
            return None
        if self.percent:
            return round(100 * numerator / denominator, 1)
        return round(numerator / denominator, 2)

    def text(self, value: float | None) -> str:
        if value is None:
            return "–"
        if self.percent:
            return f"{value:.1f}%"
        return f"{value:+.2f}" if value else "0.00"


def _title(code: str) -> Counter:
    return Counter(
        f"title_{code}", TITLE_LABELS[code][0], game=DAIFUGO, places=EVERYWHERE, term=True,
        lines=Lines(roles=(code,)), higher_is_better=code != "daihinmin",
    )  # fmt: skip


FIELDS: tuple[Field, ...] = (
    Counter("points", N_("Points"), places=EVERYWHERE, total="points", signed=True, per_bid=True),
    Counter("deals", N_("Deals"), places=EVERYWHERE, lines=Lines(), per_bid=True),
    Rate("average", N_("Average"), places=(FILE, TABLE), short=N_("Avg"),
         hint=N_("average per deal"), of=("points", "deals")),
    Counter("wins", N_("Wins"), places=(), lines=Lines(flags=("won",)), per_bid=True),
    Counter("napoleon_deals", N_("As Napoleon"), game=NAPOLEON, places=EVERYWHERE,
            fact=N_("As Napoleon (won / played)"), lines=Lines(roles=("napoleon",)),
            won="napoleon_wins"),
    Counter("napoleon_wins", N_("Napoleon wins"), game=NAPOLEON, places=(FILE, TABLE),
            lines=Lines(roles=("napoleon",), flags=("won",))),
    Rate("win_rate", N_("Win rate"), game=NAPOLEON, places=(FILE, TABLE),
         of=("napoleon_wins", "napoleon_deals"), percent=True),
    Counter("adjutant_deals", N_("As adjutant"), game=NAPOLEON, places=EVERYWHERE,
            fact=N_("As adjutant (won / played)"), lines=Lines(roles=("adjutant",)),
            won="adjutant_wins"),
    Counter("adjutant_wins", N_("Adjutant wins"), game=NAPOLEON,
            lines=Lines(roles=("adjutant",), flags=("won",))),
    Counter("solo_deals", N_("Solo deals"), game=NAPOLEON, places=(FILE, PLAYER),
            fact=N_("Solo (won / played)"), lines=Lines(roles=("napoleon",), flags=("solo",)),
            won="solo_wins", per_bid=True),
    Counter("solo_wins", N_("Solo wins"), game=NAPOLEON, places=(FILE, TABLE),
            lines=Lines(roles=("napoleon",), flags=("solo", "won")), per_bid=True),
    Counter("plan_b_suffered", N_("Plan B suffered"), game=NAPOLEON, places=(FILE, PLAYER),
            fact=N_("作戦B (Plan B) suffered"), lines=Lines(roles=ARMY, flags=("plan_b",))),
    Counter("plan_b_inflicted", N_("Plan B inflicted"), game=NAPOLEON, places=(FILE, PLAYER),
            fact=N_("作戦B (Plan B) inflicted"),
            lines=Lines(other_roles=ARMY, flags=("plan_b",))),
    *(_title(code) for code in TITLES),
    Counter("miyako_ochi", "都落ち", game=DAIFUGO, places=EVERYWHERE, term=True,
            lines=Lines(flags=("miyako_ochi",))),
    Counter("forbidden", N_("Forbidden finishes"), game=DAIFUGO,
            lines=Lines(flags=("forbidden",))),
)  # fmt: skip

COUNTERS: tuple[Counter, ...] = tuple(f for f in FIELDS if isinstance(f, Counter))
COUNTER_NAMES: tuple[str, ...] = tuple(c.name for c in COUNTERS)
RATES: tuple[Rate, ...] = tuple(f for f in FIELDS if isinstance(f, Rate))
# What the Napoleon's own line also adds to their record per bid and trump (``BidAggregate``).
BID_COUNTERS: tuple[str, ...] = tuple(c.name for c in COUNTERS if c.per_bid)


def shown(game: str, place: str) -> tuple[Field, ...]:
    """The fields ``game``'s standings show in ``place``, in order, worded for the game."""
    return tuple(f.worded(game) for f in FIELDS if place in f.places and f.game in (None, game))


_TOTALS = tuple(c for c in COUNTERS if c.total)
_COUNTED = tuple(c for c in COUNTERS if c.lines is not None)
_FLAGS = tuple(sorted({flag for c in _COUNTED for flag in c.lines.flags}))
_KIND = operator.attrgetter("role", *_FLAGS)  # what decides which counters a line counts


@functools.cache
def _counted(kind: tuple) -> dict[str, int]:
    """The counters a line of this ``_KIND`` counts (one each): a handful of kinds of line,
    worked out once each (a large import adds half a million lines)."""
    role, *flags = kind
    line = SimpleNamespace(role=role, **dict(zip(_FLAGS, flags, strict=True)))
    return {c.name: 1 for c in _COUNTED if c.lines.match(line)}


def counts(line: Any) -> dict[str, int]:
    """What one score line (a ``LineSpec`` or a stored line) adds to its player's counters;
    the counters it leaves at zero are left out."""
    added = dict(_counted(_KIND(line)))
    for counter in _TOTALS:
        value = getattr(line, counter.total)
        if value:
            added[counter.name] = value
    return added
