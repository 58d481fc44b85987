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
    names = dict(Player.objects.filter(club=club).values_list("id", "name"))
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

    def name(key) -> str:
        if key is None or key == "":
            return ""
        return names.get(int(key), str(key))

    def name_list(keys) -> str:
        return NAME_SEPARATOR.join(name(k) for k in keys or ())

    for deal in deals.iterator(chunk_size=CHUNK):
        session = deal.session
        snapshot = session.rules_snapshot or {}
        options = snapshot.get("options") or {}
        row = {
            "date": session.date,
            "table": session.table,
            "rules": session.ruleset.code,
            "rules_name": session.ruleset.name,
            "rules_preset": snapshot.get("preset", ""),
            "rules_options": json.dumps(options, ensure_ascii=False, sort_keys=True)
            if options
            else "",
            "notes": session.notes,
        }
        data = deal.data or {}
        if game == Game.NAPOLEON:
            row["players"] = name_list(data.get("seats"))
            if not (data.get("redeal") or not data.get("napoleon")):
                solo = bool(data.get("solo")) or data.get("adjutant") in (None, "")
                row |= {
                    "napoleon": name(data.get("napoleon")),
                    "bid": data.get("bid"),
                    "trump": data.get("trump") or "",
                    "called": data.get("called") or "",
                    "adjutant": "" if solo else name(data.get("adjutant")),
                    "honours": data.get("honours"),
                    "discarded": data.get("discarded"),
                    "last_trick": data.get("last_trick") or "",
                }
        else:
            row["order"] = name_list(data.get("order"))
            row["forbidden"] = name_list(data.get("forbidden"))
        yield [_plain(row.get(column)) for column in header]


def _plain(value):
    return "" if value is None else value
