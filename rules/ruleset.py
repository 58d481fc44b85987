"""The pure rule set: everything the scoring functions need to know about a club's rules.

A ``RuleSet`` checks itself when it is built, so a rule set whose point table does not balance
cannot exist (docs/rules.md: every table balances; a rule set that does not is refused).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from core.errors import EfudaError
from core.i18n import N_
from rules.tables import PointTable, check_table
from rules.titles import DEFAULT_TITLE_POINTS, check_title_points

GAMES = ("napoleon", "daifugo")
DISCARD_POLICIES = ("allies", "nobody", "napoleon", "last_trick")


@dataclass(frozen=True)
class RuleSet:
    """A preset with a club's options applied. Build one with ``rules.build_ruleset``."""

    code: str
    preset: str
    game: str
    name_ja: str
    name_en: str
    source: str  # the title of the document the preset follows
    players: tuple[int, ...]
    jokers: int = 0
    # Napoleon
    widow: Mapping[int, int] = field(default_factory=dict)
    bids: Mapping[int, tuple[int, int]] = field(default_factory=dict)
    discard_policy: str | None = None
    plan_b: bool = False
    all20_loses: bool = False
    point_tables: Mapping[int, PointTable] = field(default_factory=dict)
    # Daifugō
    title_points: Mapping[str, int] = field(default_factory=lambda: dict(DEFAULT_TITLE_POINTS))
    miyako_ochi: bool = False
    forbidden_finish: bool = False
    diamond3_leads_first: bool = False
    # The club's overrides that produced this rule set from its preset.
    options: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name in ("widow", "bids", "point_tables", "title_points", "options"):
            object.__setattr__(self, name, MappingProxyType(dict(getattr(self, name))))
        object.__setattr__(self, "players", tuple(self.players))
        self.check()

    def __hash__(self) -> int:
        # The mappings are not hashable; equal rule sets share code, preset and option keys.
        return hash((self.code, self.preset, tuple(sorted(self.options))))

    def check(self) -> None:
        """Raise EfudaError if this rule set is inconsistent or a table does not balance."""
        if self.game not in GAMES:
            raise EfudaError("preset", "unknown_game", N_("Unknown game “%(game)s”."),
                             {"game": str(self.game)})  # fmt: skip
        if self.game == "daifugo":
            check_title_points(self.title_points)
            return
        if self.discard_policy not in DISCARD_POLICIES:
            raise EfudaError(
                "discard_policy", "unknown_discard_policy",
                N_("Unknown discard rule “%(value)s”."), {"value": str(self.discard_policy)},
            )  # fmt: skip
        for players in self.players:
            if players not in self.bids or players not in self.widow:
                raise EfudaError("players", "players_incomplete",
                                 N_("No bid range or widow for a %(players)s-player table."),
                                 {"players": players})  # fmt: skip
            low, high = self.bids[players]
            if not 1 <= low <= high <= 20:
                raise EfudaError(
                    "bids", "empty_bid_range",
                    N_("At a %(players)s-player table no bid is left between %(min)s and %(max)s."),
                    {"players": players, "min": low, "max": high},
                )  # fmt: skip
            table = self.point_tables.get(players)
            if table is None:
                raise EfudaError("point_table", "no_point_table",
                                 N_("There is no point table for %(players)s-player tables."),
                                 {"players": players})  # fmt: skip
            check_table(table, players, (low, high), "point_table")
