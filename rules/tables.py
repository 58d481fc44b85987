"""Napoleon point tables as data, and the balance rule every table must meet.

A table gives, per player count, the points of a Napoleon *win*: a normal row (Napoleon,
adjutant, each ally) and a solo row (Napoleon, each ally). On a loss every sign flips
(docs/rules.md). A row is either flat (one row for every bid: the wiki page and the club handout)
or per bid (the originator's account, where points grow with the bid).

Balance: the points of one deal sum to zero. With n players a normal deal has n − 2 allies and
a solo deal n − 1, so ``napoleon + adjutant = (n − 2) · ally`` and ``napoleon = (n − 1) · ally``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from core.errors import EfudaError
from core.i18n import N_

ANY_BID = 0
"""Key of the single row of a flat table: it applies to every bid."""


@dataclass(frozen=True)
class PointRow:
    """Points of a Napoleon win for one role each; ``adjutant`` is None in a solo row."""

    napoleon: int
    adjutant: int | None
    ally: int


@dataclass(frozen=True)
class PointTable:
    """Rows for one player count: ``normal`` and ``solo`` map a bid (or ANY_BID) to a row."""

    normal: Mapping[int, PointRow]
    solo: Mapping[int, PointRow]

    def __post_init__(self) -> None:
        object.__setattr__(self, "normal", MappingProxyType(dict(self.normal)))
        object.__setattr__(self, "solo", MappingProxyType(dict(self.solo)))

    @property
    def flat(self) -> bool:
        return set(self.normal) == {ANY_BID} and set(self.solo) == {ANY_BID}


@dataclass(frozen=True)
class PointTableRow:
    """One printable line of a table: ``bid`` is None for a flat table (any bid)."""

    bid: int | None
    napoleon: int
    adjutant: int
    ally: int
    solo_napoleon: int
    solo_ally: int


def flat_table(napoleon: int, adjutant: int, ally: int, solo_napoleon: int, solo_ally: int):
    return PointTable(
        normal={ANY_BID: PointRow(napoleon, adjutant, ally)},
        solo={ANY_BID: PointRow(solo_napoleon, None, solo_ally)},
    )


def per_bid_table(normal: Mapping[int, tuple[int, int, int]], solo: Mapping[int, tuple[int, int]]):
    """Rows written as the document prints them: bid → (N, adj, ally) and bid → (N, ally)."""
    return PointTable(
        normal={bid: PointRow(n, a, x) for bid, (n, a, x) in normal.items()},
        solo={bid: PointRow(n, None, x) for bid, (n, x) in solo.items()},
    )


_UNBALANCED = N_(
    "The %(players)s-player table does not balance: Napoleon %(napoleon)s + adjutant "
    "%(adjutant)s must equal %(allies)s allies × %(ally)s."
)
_UNBALANCED_AT_BID = N_(
    "The %(players)s-player table does not balance at bid %(bid)s: Napoleon %(napoleon)s + "
    "adjutant %(adjutant)s must equal %(allies)s allies × %(ally)s."
)
_UNBALANCED_SOLO = N_(
    "The %(players)s-player solo row does not balance: Napoleon %(napoleon)s must "
    "equal %(allies)s allies × %(ally)s."
)
_UNBALANCED_SOLO_AT_BID = N_(
    "The %(players)s-player solo row does not balance at bid %(bid)s: Napoleon %(napoleon)s "
    "must equal %(allies)s allies × %(ally)s."
)
_NEGATIVE = N_("Points in the %(players)s-player table must be whole numbers of 0 or more.")
_MISSING_BID = N_("The %(players)s-player table has no row for bid %(bid)s.")
_NO_TABLE = N_("There is no point table for %(players)s-player tables.")


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def check_table(table: PointTable, players: int, bids: tuple[int, int] | None, field: str):
    """Refuse a table that does not balance or lacks a row for a bid in ``bids``."""
    for solo, rows in ((False, table.normal), (True, table.solo)):
        for bid, row in rows.items():
            values = (row.napoleon, row.ally) + (() if solo else (row.adjutant,))
            if not all(_is_count(v) for v in values):
                raise EfudaError(field, "table_not_counts", _NEGATIVE, {"players": players})
            # One whole sentence per case, so a translation never mixes in an English fragment.
            flat = bid == ANY_BID
            params = {"players": players, "napoleon": row.napoleon, "ally": row.ally}
            if not flat:
                params["bid"] = bid
            if solo and row.napoleon != (players - 1) * row.ally:
                params["allies"] = players - 1
                message = _UNBALANCED_SOLO if flat else _UNBALANCED_SOLO_AT_BID
                raise EfudaError(field, "table_unbalanced", message, params)
            if not solo and row.napoleon + row.adjutant != (players - 2) * row.ally:
                params |= {"allies": players - 2, "adjutant": row.adjutant}
                message = _UNBALANCED if flat else _UNBALANCED_AT_BID
                raise EfudaError(field, "table_unbalanced", message, params)
    if bids is not None and not table.flat:
        for bid in range(bids[0], bids[1] + 1):
            if bid not in table.normal or bid not in table.solo:
                params = {"players": players, "bid": bid}
                raise EfudaError(field, "table_missing_bid", _MISSING_BID, params)


def table_row(table: PointTable, bid: int, solo: bool) -> PointRow:
    rows = table.solo if solo else table.normal
    return rows[ANY_BID] if ANY_BID in rows else rows[bid]


def point_row(ruleset, players: int, bid: int, solo: bool) -> PointRow:
    """Points of a Napoleon win with ``players`` at the table and final ``bid``."""
    table = ruleset.point_tables.get(players)
    if table is None:
        raise EfudaError("seats", "no_point_table", _NO_TABLE, {"players": players})
    low, high = ruleset.bids[players]
    if not low <= bid <= high:
        raise EfudaError(
            "bid", "bid_out_of_range",
            N_("Bid %(bid)s is out of range: at a %(players)s-player table bid %(min)s to "
               "%(max)s."),
            {"bid": bid, "players": players, "min": low, "max": high},
        )  # fmt: skip
    return table_row(table, bid, solo)


def point_table_rows(ruleset, players: int) -> list[PointTableRow]:
    """Rows to print for a hand-scoring table: one per allowed bid, or one (bid None) if flat."""
    table = ruleset.point_tables.get(players)
    if table is None:
        raise EfudaError("seats", "no_point_table", _NO_TABLE, {"players": players})
    low, high = ruleset.bids[players]
    bids: list[int | None] = [None] if table.flat else list(range(low, high + 1))
    rows = []
    for bid in bids:
        normal = table_row(table, bid or low, solo=False)
        solo = table_row(table, bid or low, solo=True)
        rows.append(PointTableRow(bid, normal.napoleon, normal.adjutant, normal.ally,
                                  solo.napoleon, solo.ally))  # fmt: skip
    return rows
