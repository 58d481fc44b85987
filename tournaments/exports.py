"""Every CSV efuda writes goes through here: standings for ``export_standings`` and the
``?format=csv`` downloads, and anything else that offers a spreadsheet.

Spreadsheet safety (OWASP “CSV injection”): a text cell that begins with ``=``, ``+``, ``-``,
``@``, a tab or a carriage return (or their full-width forms, which Japanese Excel also takes
as a formula) would run as a formula when the file is opened, so it is written with a leading
single quote (``'=HYPERLINK(…)``): the spreadsheet shows the text and runs nothing. Numbers stay
numbers: ``-3`` points is written as ``-3``; only text cells are changed.

Files are UTF-8 with a byte-order mark by default, so Excel reads Japanese names correctly;
``bom=False`` gives plain UTF-8 for other programs.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable
from decimal import Decimal
from typing import TextIO

from django.http import HttpResponse

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


FORMULA_START = tuple("=+-@\t\r＝＋－＠")
BOM = "\ufeff"
_PLAIN_NUMBER = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)$")


def safe_cell(value) -> str | int | float | Decimal:
    """A cell a spreadsheet shows as written and never runs as a formula."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, (int, float, Decimal)):
        return value
    text = str(value)
    if text.startswith(FORMULA_START) and not _PLAIN_NUMBER.match(text):
        return "'" + text
    return text


def write_rows(out: TextIO, rows: Iterable[Iterable], *, bom: bool = True) -> None:
    """Write ``rows`` as CSV to ``out``, every cell through ``safe_cell``."""
    if bom:
        out.write(BOM)
    writer = csv.writer(out, lineterminator="\r\n")
    for row in rows:
        writer.writerow([safe_cell(v) for v in row])


def csv_text(rows: Iterable[Iterable], *, bom: bool = True) -> str:
    out = io.StringIO()
    write_rows(out, rows, bom=bom)
    return out.getvalue()


def csv_response(rows: Iterable[Iterable], filename: str, *, bom: bool = True) -> HttpResponse:
    """A CSV download (``filename`` is built by efuda from slugs, never from user text)."""
    response = HttpResponse(
        csv_text(rows, bom=bom).encode("utf-8"), content_type="text/csv; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def wants_bom(request) -> bool:
    """``?bom=0`` asks for plain UTF-8; the default is UTF-8 with a byte-order mark."""
    return request.GET.get("bom", "1") not in ("0", "false", "no")


def write_csv(out: TextIO, standings: Standings, *, bom: bool = True) -> None:
    write_rows(out, standings_rows(standings), bom=bom)


def filename(standings: Standings, ext: str) -> str:
    return f"{standings.club.slug}-{standings.game}-{standings.period.key}.{ext}"
