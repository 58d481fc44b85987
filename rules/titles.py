"""Daifugō titles by finishing position, and their default points.

Titles follow docs/rules.md "Daifugō: how one round is scored": the Hyōsube rules
(「大富豪・大貧民」) name 大富豪 富豪 平民 貧民 大貧民 for five players and add 平民
for more; the common-rules post gives 富豪 to the second and 貧民 to the second-to-last.
With three players there is no 富豪/貧民: 大富豪, 平民, 大貧民.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from core.errors import EfudaError
from core.i18n import N_

TITLES: tuple[str, ...] = ("daifugo", "fugo", "heimin", "hinmin", "daihinmin")

TITLE_LABELS: Mapping[str, tuple[str, str]] = MappingProxyType({
    "daifugo": ("大富豪", N_("Grand millionaire")),
    "fugo": ("富豪", N_("Millionaire")),
    "heimin": ("平民", N_("Commoner")),
    "hinmin": ("貧民", N_("Poor")),
    "daihinmin": ("大貧民", N_("Grand pauper")),
})  # fmt: skip

DEFAULT_TITLE_POINTS: Mapping[str, int] = MappingProxyType(
    {"daifugo": 2, "fugo": 1, "heimin": 0, "hinmin": -1, "daihinmin": -2}
)

DAIFUGO_PLAYERS: tuple[int, ...] = (3, 4, 5, 6, 7, 8)

_PLAYERS_ERROR = N_("Daifugō needs %(min)s to %(max)s players, not %(players)s.")
_TITLE_UNBALANCED = N_(
    "Title points must sum to zero at every table size; at a %(players)s-player table they "
    "sum to %(total)s."
)
_TITLE_MISSING = N_("Title points need a whole number for each of %(titles)s.")


def daifugo_titles(players: int) -> tuple[str, ...]:
    """Title codes by finishing position for a table of ``players`` (3 to 8)."""
    if not isinstance(players, int) or isinstance(players, bool) or players not in DAIFUGO_PLAYERS:
        raise EfudaError(
            "order", "players_out_of_range", _PLAYERS_ERROR,
            {"min": DAIFUGO_PLAYERS[0], "max": DAIFUGO_PLAYERS[-1], "players": str(players)},
        )  # fmt: skip
    if players == 3:
        return ("daifugo", "heimin", "daihinmin")
    return ("daifugo", "fugo") + ("heimin",) * (players - 4) + ("hinmin", "daihinmin")


def check_title_points(points: Mapping[str, int], field: str = "title_points") -> None:
    """Refuse title points that are not whole numbers or do not balance for 3 to 8 players."""
    if set(points) != set(TITLES) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in points.values()
    ):
        raise EfudaError(field, "title_points_invalid", _TITLE_MISSING,
                         {"titles": ", ".join(TITLES)})  # fmt: skip
    for players in DAIFUGO_PLAYERS:
        total = sum(points[t] for t in daifugo_titles(players))
        if total:
            raise EfudaError(field, "title_points_unbalanced", _TITLE_UNBALANCED,
                             {"players": players, "total": total})  # fmt: skip
