"""Read the files clubs really have into numbered rows: CSV in UTF-8 or Shift_JIS, .xlsx or .ods.

A CSV file is read as UTF-8 first (with or without a byte-order mark), then as CP932 (the
Shift_JIS that Japanese Excel writes for “CSV (コンマ区切り)”); the report says which. An Excel
workbook (.xlsx) is read directly (openpyxl), and so is a LibreOffice/OpenOffice spreadsheet
(.ods, python-calamine): the first sheet, or the one named. Either way the result is
the same list of ``(line number, cells)``: line numbers are the file's lines or the sheet's rows,
so a message points at what the owner sees in the spreadsheet.

What a file may cost is bounded by what it claims, before anything is built from it: the file's
kind is taken from its content (never from its name), and a workbook's declared rows, columns,
cells, shared strings and unpacked size are checked by ``upload_limits.upload_check`` — the
same check the upload page makes to decide whether to import at once or in the background. While
reading, a row numbered past ``MAX_LINES`` or a column past ``MAX_COLUMNS`` stops it too, and at
most ``MAX_ROWS`` rows may hold something. Each limit is refused with a message saying which,
and nothing is imported (docs/import-format.md, "Limits").
"""

from __future__ import annotations

import csv
import datetime
import io
import unicodedata
import zipfile
from dataclasses import dataclass

from django.utils.translation import gettext

from core.i18n import N_

from .errors import make_fail
from .upload_limits import MAX_BYTES as MAX_BYTES  # what the upload page reads of a file
from .upload_limits import MAX_COLUMNS, MAX_LINES, FileProblem, upload_check
from .upload_limits import MESSAGES as LIMIT_MESSAGES

MAX_ROWS = 200_000  # rows holding something

MESSAGES = {
    **LIMIT_MESSAGES,
    "empty_file": N_("The file is empty."),
    "too_many_rows": N_("The file has more than %(max)s lines; split it into several files."),
    "not_text": N_(
        "The file is neither UTF-8 nor Shift_JIS (CP932) text (line %(line)s): save it as "
        "“CSV UTF-8” or “CSV (コンマ区切り)”, or upload the .xlsx workbook."
    ),
    "not_csv": N_("This line cannot be read as CSV: %(detail)s."),
    "sheet_unknown": N_("The workbook has no sheet “%(sheet)s” (it has %(sheets)s)."),
}
fail = make_fail(MESSAGES)

ENCODING_LABELS = {
    "utf-8": N_("UTF-8"),
    "utf-8-sig": N_("UTF-8 with a byte-order mark"),
    "cp932": N_("Shift_JIS (CP932)"),
    "xlsx": N_("Excel workbook, sheet “%(sheet)s”"),
    "ods": N_("OpenDocument spreadsheet, sheet “%(sheet)s”"),
}
WORKBOOK_KINDS = ("xlsx", "ods")


def source_label(kind: str, sheet: str = "") -> str:
    """How a file was read, in the active language (``kind``: a key of ENCODING_LABELS)."""
    label = gettext(ENCODING_LABELS[kind])
    return label % {"sheet": sheet} if kind in WORKBOOK_KINDS else label


@dataclass
class Source:
    """What was read: ``kind`` is a key of ENCODING_LABELS; ``sheet`` for workbooks."""

    kind: str
    records: list[tuple[int, list[str]]]
    sheet: str = ""


def read_source(data: bytes | str, *, filename: str = "", sheet: str = "") -> Source:
    if isinstance(data, str):
        return Source("utf-8", _csv_records(data.lstrip("\ufeff")))
    kind = upload_check(data, filename=filename).kind  # MAX_BYTES, MAX_LINES, every claim
    if kind == "ods":
        return _ods(data, sheet)
    if kind == "xlsx":
        return _xlsx(data, sheet)
    kind, text = _decode(data)
    return Source(kind, _csv_records(text))


def _decode(data: bytes) -> tuple[str, str]:
    if data.startswith(b"\xef\xbb\xbf"):
        kind, body = "utf-8-sig", data[3:]
    else:
        kind, body = "utf-8", data
    try:
        return kind, body.decode("utf-8")
    except UnicodeDecodeError as err:
        utf8_error = err
    if kind == "utf-8":
        try:
            text = data.decode("cp932")
        except UnicodeDecodeError:
            pass
        else:
            # CP932 maps a few unused bytes to private-use or C1 control characters: a file
            # holding those is not Shift_JIS text either.
            if not any(_odd(ch) for ch in text):
                return "cp932", text
    line = data.count(b"\n", 0, utf8_error.start) + 1
    raise FileProblem(line, fail("file", "not_text", line=line))


def _odd(ch: str) -> bool:
    return unicodedata.category(ch) == "Co" or "\x80" <= ch <= "\x9f"


def _csv_records(text: str) -> list[tuple[int, list[str]]]:
    """(first line number, cells) of every non-blank CSV record."""
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    records, start = [], 1
    while True:
        try:
            cells = next(reader)
        except StopIteration:
            return records
        except csv.Error as err:
            raise FileProblem(start, fail("file", "not_csv", detail=str(err))) from None
        if any(cell.strip() for cell in cells):
            records.append((start, cells))
            if len(records) > MAX_ROWS:
                raise FileProblem(start, fail("file", "too_many_rows", max=MAX_ROWS))
        start = reader.line_num + 1
        if start > MAX_LINES + 1:  # a text given as such (not bytes) was not counted before
            raise FileProblem(start - 1, fail("file", "too_many_lines", max=MAX_LINES))


def _cell(value) -> str:
    if value is None:
        return ""
    if isinstance(value, datetime.datetime):
        if value.time() == datetime.time(0):
            return value.date().isoformat()
        return value.isoformat(sep=" ")
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _sheet_bounds(ws, name: str) -> None:
    """Refuse a sheet whose declared dimension reaches past the limits, before any row."""
    rows, columns = ws.max_row, ws.max_column
    if rows is not None and rows > MAX_LINES:
        raise FileProblem(
            1, fail("file", "sheet_too_long", sheet=name, rows=f"{rows:,}", max=f"{MAX_LINES:,}")
        )
    if columns is not None and columns > MAX_COLUMNS:
        _too_wide(1, name, columns)


def _too_wide(line: int, name: str, columns: int):
    from openpyxl.utils import get_column_letter

    raise FileProblem(
        line,
        fail("file", "sheet_too_wide", sheet=name, columns=get_column_letter(columns),
             max=get_column_letter(MAX_COLUMNS)),
    )  # fmt: skip


# What openpyxl raises on a workbook it cannot read (expat's ParseError is a SyntaxError).
XLSX_ERRORS = (zipfile.BadZipFile, KeyError, ValueError, OSError, TypeError, SyntaxError)


def _xlsx(data: bytes, sheet: str) -> Source:
    import openpyxl  # only for workbooks

    try:
        book = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except XLSX_ERRORS:
        raise FileProblem(1, fail("file", "not_xlsx")) from None
    try:
        names = book.sheetnames
        if sheet and sheet not in names:
            raise FileProblem(
                1, fail("sheet", "sheet_unknown", sheet=sheet, sheets="、".join(names))
            )
        if not names:
            raise FileProblem(1, fail("file", "empty_file"))
        chosen = sheet or names[0]
        records = []
        try:
            ws = book[chosen]
            _sheet_bounds(ws, chosen)
            # Then the rows as they are, not as the dimension says (it may be missing, or
            # smaller than the data: openpyxl would stop at it and drop the rest unsaid).
            ws.reset_dimensions()
            for number, values in enumerate(ws.iter_rows(values_only=True), start=1):
                if number > MAX_LINES:
                    raise FileProblem(
                        1, fail("file", "sheet_too_long", sheet=chosen,
                                rows=f"{MAX_LINES + 1:,}", max=f"{MAX_LINES:,}"),
                    )  # fmt: skip
                if len(values) > MAX_COLUMNS:
                    _too_wide(number, chosen, len(values))
                cells = [_cell(v) for v in values]
                while cells and not cells[-1].strip():
                    cells.pop()  # cells formatted but empty at the right of a row
                if any(c.strip() for c in cells):
                    records.append((number, cells))
                    if len(records) > MAX_ROWS:
                        raise FileProblem(number, fail("file", "too_many_rows", max=MAX_ROWS))
        except XLSX_ERRORS:
            raise FileProblem(1, fail("file", "not_xlsx")) from None
    finally:
        book.close()
    _pad(records)
    return Source("xlsx", records, chosen)


def _pad(records: list[tuple[int, list[str]]]) -> None:
    """A row whose right-hand cells are empty comes out shorter than the header: pad it, as a
    CSV line ending in commas would be; longer rows are left for the column-count check."""
    if not records:
        return
    width = len(records[0][1])
    for _line, cells in records[1:]:
        if len(cells) < width:
            cells.extend([""] * (width - len(cells)))


# --- OpenDocument spreadsheets (.ods) -------------------------------------------------------------


def _ods(data: bytes, sheet: str) -> Source:
    """An OpenDocument spreadsheet, read as a workbook is: the first sheet or the one named,
    row numbers as LibreOffice shows them, dates as dates, formulas by their computed value."""
    from python_calamine import CalamineError, CalamineWorkbook  # only for .ods files

    try:
        book = CalamineWorkbook.from_filelike(io.BytesIO(data))
        names = list(book.sheet_names)
    except (CalamineError, ValueError, OSError, TypeError):
        raise FileProblem(1, fail("file", "not_ods")) from None
    if sheet and sheet not in names:
        raise FileProblem(1, fail("sheet", "sheet_unknown", sheet=sheet, sheets="、".join(names)))
    if not names:
        raise FileProblem(1, fail("file", "empty_file"))
    chosen = sheet or names[0]
    try:
        # From the sheet's first row and column, so line numbers are the sheet's own.
        rows = book.get_sheet_by_name(chosen).to_python(skip_empty_area=False)
    except (CalamineError, ValueError, OSError, TypeError):
        raise FileProblem(1, fail("file", "not_ods")) from None
    records = []
    for number, values in enumerate(rows, start=1):
        cells = [_cell(v) for v in values]
        while cells and not cells[-1].strip():
            cells.pop()
        if any(c.strip() for c in cells):
            records.append((number, cells))
            if len(records) > MAX_ROWS:
                raise FileProblem(number, fail("file", "too_many_rows", max=MAX_ROWS))
    _pad(records)
    return Source("ods", records, chosen)
