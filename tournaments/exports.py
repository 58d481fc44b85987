"""Every CSV efuda writes goes through here: standings for ``export_standings`` and the
``?format=csv`` downloads, and anything else that offers a spreadsheet.

Spreadsheet safety (OWASP “CSV injection”): a text cell that begins with ``=``, ``+``, ``-``,
``@``, a tab or a carriage return (or their full-width forms, which Japanese Excel also takes
as a formula) would run as a formula when the file is opened, so it is written with a leading
single quote (``'=HYPERLINK(…)``): the spreadsheet shows the text and runs nothing. Numbers stay
numbers: ``-3`` points is written as ``-3``; only text cells are changed.

Files are UTF-8 with a byte-order mark by default, so Excel reads Japanese names correctly;
``bom=False`` gives plain UTF-8 for other programs; ``encoding="cp932"`` gives the Shift_JIS that
older Japanese Excel reads (refused, naming the characters, when a cell holds one Shift_JIS
cannot). A workbook (.xlsx) is written from the same rows (pretix's way: the rows are built once,
each format only writes them): dates are date cells, numbers number cells, and every text is a
text cell, so nothing in it runs as a formula either.
"""

from __future__ import annotations

import csv
import datetime
import io
import re
from collections.abc import Iterable
from decimal import Decimal
from typing import TextIO

from django.http import HttpResponse
from django.utils.translation import gettext_lazy as _

from core.errors import EfudaError
from core.i18n import N_

from .i18n import heading
from .results_format import FORMULA_START
from .selectors.standings import Standings
from .standings_fields import FILE, shown


def standings_rows(standings: Standings):
    """The header, in the words of the active language (the one rule for both standings CSVs:
    the download in the reader's language, ``export_standings`` in its ``--language``), then
    one list of plain values per player (rates empty when unqualified): the rank, the player
    and the fields ``standings_fields`` puts in the file."""
    fields = shown(standings.game, FILE)
    yield [str(_("Rank")), str(_("Player")), *(heading(f, FILE, html=False) for f in fields)]
    for row in standings.rows:
        values = (getattr(row, f.name) for f in fields)
        yield [row.rank, row.name, *("" if value is None else value for value in values)]


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


SHIFT_JIS = "cp932"
ENCODINGS = ("utf-8", SHIFT_JIS)
NOT_SHIFT_JIS = N_(
    "Shift_JIS cannot hold %(chars)s (in %(cells)s): download the file as UTF-8 instead."
)


def csv_bytes(rows: Iterable[Iterable], *, encoding: str = "utf-8", bom: bool = True) -> bytes:
    """The CSV file's bytes: UTF-8 (with a byte-order mark unless ``bom`` is false) or, with
    ``encoding="cp932"``, Shift_JIS; a cell Shift_JIS cannot hold raises ``EfudaError`` naming
    the characters and the first cells that hold them, and nothing is written."""
    if encoding == SHIFT_JIS:
        rows = [list(row) for row in rows]
        text = csv_text(rows, bom=False)
        try:
            return text.encode(SHIFT_JIS)
        except UnicodeEncodeError:
            raise _not_shift_jis(rows) from None
    return csv_text(rows, bom=bom).encode("utf-8")


def _not_shift_jis(rows: list[list]) -> EfudaError:
    chars: list[str] = []
    cells: list[str] = []
    for row in rows:
        for value in row:
            text = str(value)
            bad = [ch for ch in text if not _in_shift_jis(ch)]
            if bad:
                chars += [ch for ch in bad if ch not in chars]
                if len(cells) < 3:
                    cells.append(f"“{text}”")
    return EfudaError(
        "encoding", "not_shift_jis", NOT_SHIFT_JIS,
        {"chars": " ".join(chars[:10]), "cells": "、".join(cells)},
    )  # fmt: skip


def _in_shift_jis(ch: str) -> bool:
    try:
        ch.encode(SHIFT_JIS)
    except UnicodeEncodeError:
        return False
    return True


def xlsx_bytes(rows: Iterable[Iterable], *, sheet: str = "efuda") -> bytes:
    """The same rows as a workbook of one sheet: ``date`` cells as dates, numbers as numbers,
    every text as a text cell (never a formula, whatever it starts with)."""
    from openpyxl import Workbook
    from openpyxl.cell import WriteOnlyCell

    book = Workbook(write_only=True)
    ws = book.create_sheet(sheet[:31])
    for row in rows:
        cells = []
        for value in row:
            cell = WriteOnlyCell(ws, value=value)
            if isinstance(value, str):
                cell.data_type = "s"  # text, even when it starts with "="
            elif isinstance(value, datetime.date):
                cell.number_format = "yyyy-mm-dd"
            cells.append(cell)
        ws.append(cells)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def file_response(body: bytes, filename: str, content_type: str) -> HttpResponse:
    """A download (``filename`` is built by efuda from slugs, never from user text)."""
    response = HttpResponse(body, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def csv_response(rows: Iterable[Iterable], filename: str, *, bom: bool = True) -> HttpResponse:
    """A CSV download in UTF-8."""
    return file_response(csv_bytes(rows, bom=bom), filename, "text/csv; charset=utf-8")


def wants_bom(request) -> bool:
    """``?bom=0`` asks for plain UTF-8; the default is UTF-8 with a byte-order mark."""
    return request.GET.get("bom", "1") not in ("0", "false", "no")


def write_csv(out: TextIO, standings: Standings, *, bom: bool = True) -> None:
    write_rows(out, standings_rows(standings), bom=bom)


def filename(standings: Standings, ext: str) -> str:
    return f"{standings.club.slug}-{standings.game}-{standings.period.key}.{ext}"
