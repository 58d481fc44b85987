"""Standings as CSV: the one exporter behind ``export_standings`` and the ``?format=csv``
downloads, so both give the same rows."""

from __future__ import annotations

import csv
from typing import TextIO

from .models import Game
from .selectors.standings import TITLE_FIELDS, Standings

COMMON = ("rank", "player", "points", "deals", "average")
NAPOLEON = (
    "napoleon_deals",
    "napoleon_wins",
    "win_rate",
    "adjutant_deals",
    "adjutant_wins",
    "solo_deals",
    "solo_wins",
    "plan_b_suffered",
    "plan_b_inflicted",
)
DAIFUGO = (*TITLE_FIELDS, "miyako_ochi", "forbidden")


def columns(game: str) -> tuple[str, ...]:
    return COMMON + (NAPOLEON if game == Game.NAPOLEON else DAIFUGO)


def standings_rows(standings: Standings):
    """The header, then one list of plain values per player (rates empty when unqualified)."""
    header = columns(standings.game)
    yield list(header)
    for row in standings.rows:
        values = []
        for name in header:
            if name == "player":
                value = row.name
            else:
                value = getattr(row, name)
            values.append("" if value is None else value)
        yield values


def write_csv(out: TextIO, standings: Standings) -> None:
    writer = csv.writer(out, lineterminator="\n")
    writer.writerows(standings_rows(standings))


def filename(standings: Standings, ext: str) -> str:
    return f"{standings.club.slug}-{standings.game}-{standings.period.key}.{ext}"
