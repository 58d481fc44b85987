"""A club's recorded deals as rows of the results file the import reads (docs/import-format.md).

One row per live deal (a deleted deal is left out; a redeal is a row with an empty napoleon), in
the order efuda learns its ratings from: the day played, then the order the deals were recorded.
The import keeps that order, so a file exported here and imported into an empty club gives the
same sessions, deals, points, standings and ratings. Every session's row also says which rule
set it was played under — its code, name, preset and options as the session kept them — so the
club's own rule sets travel with the file.

The rows are plain values (a date is a ``datetime.date``, numbers are ``int``): the CSV and the
workbook are both written from them (``tournaments/exports.py``).
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Iterator

from ..models import Club, Deal, Game, Player
from ..results_format import DAIFUGO_EXPORT, NAME_SEPARATOR, NAPOLEON_EXPORT

CHUNK = 2_000


def results_header(game: str) -> tuple[str, ...]:
    return NAPOLEON_EXPORT if game == Game.NAPOLEON else DAIFUGO_EXPORT


def results_count(
    *, club: Club, game: str, date_from: datetime.date | None = None,
    date_to: datetime.date | None = None,
) -> int:  # fmt: skip
    """How many rows the file will have (without its header)."""
    return _deals(club, game, date_from, date_to).count()


def _deals(club, game, date_from, date_to):
    deals = Deal.objects.filter(club=club, game=game, is_deleted=False)
    if date_from is not None:
        deals = deals.filter(session__date__gte=date_from)
    if date_to is not None:
        deals = deals.filter(session__date__lte=date_to)
    return deals


def results_rows(
    *, club: Club, game: str, date_from: datetime.date | None = None,
    date_to: datetime.date | None = None,
) -> Iterator[list]:  # fmt: skip
    """The header, then one row per live deal of ``club`` in ``game`` between the two dates
    (both included; either may be left out)."""
    header = results_header(game)
    yield list(header)
    names = _Names(dict(Player.objects.filter(club=club).values_list("id", "name")))
    deals = (
        _deals(club, game, date_from, date_to)
        .select_related("session__ruleset")
        .only(
            "id",
            "data",
            "session__date",
            "session__table",
            "session__rules_snapshot",
            "session__notes",
            "session__ruleset__code",
            "session__ruleset__name",
        )  # fmt: skip
        .order_by("session__date", "id")
    )
    for deal in deals.iterator(chunk_size=CHUNK):
        row = _session_cells(deal.session)
        data = deal.data or {}
        if game == Game.NAPOLEON:
            row |= _napoleon_cells(data, names)
        else:
            row["order"] = names.listed(data.get("order"))
            row["forbidden"] = names.listed(data.get("forbidden"))
        yield [_plain(row.get(column)) for column in header]


class _Names:
    """Player keys as the file names them: the player's name (a key no player has, as is)."""

    def __init__(self, names: dict[int, str]):
        self.names = names

    def one(self, key) -> str:
        if key is None or key == "":
            return ""
        return self.names.get(int(key), str(key))

    def listed(self, keys) -> str:
        return NAME_SEPARATOR.join(self.one(k) for k in keys or ())


def _session_cells(session) -> dict:
    """The session's columns: its day and table, its rule set as the session kept it, notes."""
    snapshot = session.rules_snapshot or {}
    options = snapshot.get("options") or {}
    return {
        "date": session.date,
        "table": session.table,
        "rules": session.ruleset.code,
        "rules_name": session.ruleset.name,
        "rules_preset": snapshot.get("preset", ""),
        "rules_options": json.dumps(options, ensure_ascii=False, sort_keys=True) if options else "",
        "notes": session.notes,
    }


def _napoleon_cells(data: dict, names: _Names) -> dict:
    """A Napoleon deal's columns (a redeal: its players only)."""
    row = {"players": names.listed(data.get("seats"))}
    if data.get("redeal") or not data.get("napoleon"):
        return row
    solo = bool(data.get("solo")) or data.get("adjutant") in (None, "")
    return row | {
        "napoleon": names.one(data.get("napoleon")),
        "bid": data.get("bid"),
        "trump": data.get("trump") or "",
        "called": data.get("called") or "",
        "adjutant": "" if solo else names.one(data.get("adjutant")),
        "honours": data.get("honours"),
        "discarded": data.get("discarded"),
        "last_trick": data.get("last_trick") or "",
    }


def _plain(value):
    return "" if value is None else value
