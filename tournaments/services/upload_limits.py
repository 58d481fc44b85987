"""What an uploaded results file is, and what it claims, checked before any sheet is built.

The kind comes from the content, never from the file's name or its first bytes: a zip (found by
its central directory, wherever it starts in the file) holding ``xl/workbook.xml`` is an Excel
workbook (.xlsx), one holding ``content.xml`` an OpenDocument spreadsheet (.ods); any other zip,
or a damaged one, is refused; anything else is read as CSV.

A small workbook can claim a great deal: 800 bytes of .ods (one row repeated 1,000 times holding
one cell repeated 16,384 times) is sixteen million cells once a reader builds the sheet; a few KB
of nested XML entities expand to gigabytes; three million tiny shared strings compress to 125 KB.
So :func:`upload_check` reads the zip's directory, then streams every part through expat (the
standard library's streaming parser: one chunk in memory, no element kept, no entity expanded),
and refuses, naming the limit (docs/import-format.md, "Limits"): too many parts, or a name twice;
too much unpacked in all, or a large part compressed too far; a document type declaration (where
entities are declared) in any part: "not a spreadsheet efuda can read"; too large a part that a
reader reads whole (styles, relationships); a sheet past the last row, the last column, or with
too many cells (rows × columns as the reader builds them: an .ods row or cell counts as often as
it says it repeats, up to the last cell holding something, and all sheets count together since
calamine builds them all; an .xlsx row counts up to its last cell); too many shared strings
(declared, then counted); more elements in the sheets and shared strings than four per cell
allowed. Every sheet is checked, not only the one imported. The limits are settings
(config/settings/base.py), sized so that a clean file at the line limit passes.
"""

from __future__ import annotations

import io
import posixpath
import zipfile
import zlib
from dataclasses import dataclass
from xml.parsers import expat

from django.conf import settings

from core.errors import EfudaError
from core.i18n import N_

from .errors import make_fail
from .upload_sheets import OdsSheets, SharedStrings, XlsxSheet, attribute, local_name

MAX_BYTES = 16 * 1024 * 1024
MAX_LINES = 250_000  # the last line of a CSV file, the last row of a sheet
MAX_COLUMNS = 100  # the last column of a sheet (a results file has about 15)
XLSX_MAGIC = b"PK\x03\x04"
ODS_MIMETYPE = b"application/vnd.oasis.opendocument.spreadsheet"
CHUNK = 64 * 1024
RATIO_FROM = 1024 * 1024  # smaller parts are not judged by how far they are compressed
# Parts whose root is one of these are streamed by the readers, and counted here; any other XML
# part may be read whole (a DOM), so its size is bounded.
STREAMED_ROOTS = frozenset({"worksheet", "sst", "document-content"})
# The XML elements a workbook's sheets and shared strings may hold in all, for each cell it may
# have: a cell is two or three (<c><v>, <c><is><t>; a cell and its paragraph), a row one more.
ELEMENTS_PER_CELL = 4

MESSAGES = {
    "too_big": N_("The file is larger than %(max)s MB."),
    "too_many_lines": N_(
        "The file has more than %(max)s lines (blank ones included); split it into several files."
    ),
    "sheet_too_long": N_(
        "The sheet “%(sheet)s” reaches row %(rows)s, and a sheet may reach row %(max)s at "
        "most: delete the rows below your results (select them, Delete rows) and save again, "
        "or split the sheet."
    ),
    "sheet_too_wide": N_(
        "The sheet “%(sheet)s” reaches column %(columns)s, and a sheet may reach column "
        "%(max)s at most: delete the columns to the right of your results and save again."
    ),
    "too_many_cells": N_(
        "The sheet “%(sheet)s” declares %(cells)s cells (its rows × its columns, repeated rows "
        "and cells counted); efuda reads at most %(max)s: delete what lies below and to the "
        "right of your results, or save only the results in a new file."
    ),
    "too_many_cells_file": N_(
        "The sheets declare %(cells)s cells together (rows × columns, repeated rows and cells "
        "counted); efuda reads at most %(max)s in a file: save only the results sheet in a new "
        "file."
    ),
    "shared_strings_declared": N_(
        "The workbook declares %(count)s different texts (shared strings); efuda reads at most "
        "%(max)s: save only the results sheet in a new workbook, or upload it as CSV."
    ),
    "shared_strings_many": N_(
        "The workbook holds more than %(max)s different texts (shared strings), the most efuda "
        "reads: save only the results sheet in a new workbook, or upload it as CSV."
    ),
    "xlsx_too_big": N_(
        "The workbook unpacks to more than %(max)s MB: save only the results sheet in a new "
        "workbook, or upload it as CSV."
    ),
    "part_too_big": N_(
        "The part “%(part)s” of the file unpacks to %(size)s MB, and efuda reads such a part up "
        "to %(max)s MB: save only the results sheet in a new file, or upload it as CSV."
    ),
    "compressed_too_far": N_(
        "The part “%(part)s” of the file is compressed %(ratio)s to 1, and efuda reads parts "
        "compressed %(max)s to 1 at most (a spreadsheet's are about 10 to 1): save the file "
        "again in your spreadsheet program, or upload it as CSV."
    ),
    "too_many_parts": N_(
        "The file holds %(count)s parts, and a spreadsheet efuda reads holds %(max)s at most: "
        "save the file again in your spreadsheet program, or upload it as CSV."
    ),
    "too_many_elements": N_(
        "The sheets of the file hold more than %(max)s XML elements, more than any spreadsheet "
        "efuda reads: save only the results sheet in a new file, or upload it as CSV."
    ),
    "not_spreadsheet": N_(
        "This file is not a spreadsheet efuda can read: save it again as an Excel workbook "
        "(.xlsx), an OpenDocument spreadsheet (.ods) or a CSV file."
    ),
    "not_xlsx": N_("The workbook cannot be read: save it again as an Excel workbook (.xlsx)."),
    "not_ods": N_(
        "The spreadsheet cannot be read: save it again as an OpenDocument spreadsheet (.ods) "
        "or an Excel workbook (.xlsx)."
    ),
}
fail = make_fail(MESSAGES)


class FileProblem(Exception):  # noqa: N818 - carries the one problem that stops reading
    def __init__(self, line: int, error: EfudaError):
        self.line = line
        self.error = error
        super().__init__(error.message)


def _refuse(code: str, line: int = 1, **params) -> FileProblem:
    return FileProblem(line, fail("file", code, **params))


@dataclass(frozen=True)
class Checked:
    """A file that passed every limit: ``kind`` "csv", "xlsx" or "ods"; ``lines``: a CSV
    file's lines, a workbook's longest sheet's rows."""

    kind: str
    lines: int


def upload_check(data: bytes, *, filename: str = "") -> Checked:
    """What ``data`` is, once it has passed every limit (``FileProblem`` otherwise). Reads
    nothing but the zip's directory and a streaming pass over its parts; ``filename`` only
    chooses the words for a damaged zip."""
    if len(data) > MAX_BYTES:
        raise _refuse("too_big", max=MAX_BYTES // 2**20)
    archive = _open_zip(data, filename)
    if archive is None:
        lines = data.count(b"\n") + (0 if data.endswith(b"\n") else 1)
        if lines > MAX_LINES:  # counted before anything is decoded or parsed
            raise _refuse("too_many_lines", MAX_LINES + 1, max=MAX_LINES)
        return Checked("csv", lines)
    with archive:
        kind = _kind(archive)
        _directory_check(archive)
        scan = _Scan(_sheet_names(archive) if kind == "xlsx" else {})
        for info in archive.infolist():
            scan.part(archive, info)
    return Checked(kind, scan.lines)


def _open_zip(data: bytes, filename: str) -> zipfile.ZipFile | None:
    """The zip ``data`` is (by its central directory: bytes before it are allowed, as for any
    reader of zips), or None for a file that is no zip at all."""
    try:
        return zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, OSError, EOFError,
            NotImplementedError):  # fmt: skip
        pass
    if data[:64].lstrip().startswith(XLSX_MAGIC) or b"PK\x05\x06" in data[-66_000:]:
        # A damaged zip: said in the words its name suggests (the name decides nothing else).
        name = filename.lower()
        code = "not_ods" if name.endswith(".ods") else "not_xlsx" if ".xls" in name else ""
        raise _refuse(code or "not_spreadsheet")
    return None


def _kind(archive: zipfile.ZipFile) -> str:
    names = archive.namelist()
    if len(names) > settings.IMPORT_MAX_ZIP_MEMBERS:
        raise _refuse("too_many_parts", count=f"{len(names):,}",
                      max=f"{settings.IMPORT_MAX_ZIP_MEMBERS:,}")  # fmt: skip
    if len(set(names)) != len(names):  # two readers could take two different parts
        raise _refuse("not_spreadsheet")
    if "xl/workbook.xml" in names:
        return "xlsx"
    if "content.xml" in names:
        if "mimetype" not in names or _read_small(archive, "mimetype").startswith(ODS_MIMETYPE):
            return "ods"
    raise _refuse("not_spreadsheet")  # a zip, but no spreadsheet (an .odt, a .docx, ...)


def _read_small(archive: zipfile.ZipFile, name: str) -> bytes:
    try:
        with archive.open(name) as part:
            return part.read(200)
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, NotImplementedError,
            RuntimeError, ValueError):  # fmt: skip
        raise _refuse("not_spreadsheet") from None


def _directory_check(archive: zipfile.ZipFile) -> None:
    """What the zip's directory declares: the unpacked total."""
    total = sum(info.file_size for info in archive.infolist())
    if total > settings.IMPORT_MAX_UNPACKED_BYTES:
        raise _refuse("xlsx_too_big", max=settings.IMPORT_MAX_UNPACKED_BYTES // 2**20)


def _ratio_check(info: zipfile.ZipInfo) -> None:
    ratio = info.file_size / max(info.compress_size, 1)
    if info.file_size > RATIO_FROM and ratio > settings.IMPORT_MAX_ZIP_RATIO:
        raise _refuse("compressed_too_far", part=info.filename, ratio=f"{ratio:,.0f}",
                      max=f"{settings.IMPORT_MAX_ZIP_RATIO:,}")  # fmt: skip


class _Stop(Exception):  # noqa: N818 - the part was read as far as needed
    pass


def _no_doctype(*_args) -> None:
    raise _refuse("not_spreadsheet")


def _stream(archive: zipfile.ZipFile, info: zipfile.ZipInfo, start) -> None:
    """Feed one part to expat, chunk by chunk, calling ``start(parser, name, attrs)`` for each
    element (until a handler sets others, or stops with _Stop); a document type declaration
    (where entities are declared) is refused before anything in it is read. A part that is not
    XML from its first bytes (a picture) is left alone: no reader parses it as XML either."""
    parser = expat.ParserCreate()
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    parser.StartDoctypeDeclHandler = _no_doctype
    parser.EntityDeclHandler = _no_doctype
    parser.ExternalEntityRefHandler = _no_doctype
    parser.StartElementHandler = lambda name, attrs: start(parser, name, attrs)
    try:
        with archive.open(info) as part:
            while chunk := part.read(CHUNK):
                parser.Parse(chunk, False)
            parser.Parse(b"", True)
    except _Stop:
        pass
    except expat.ExpatError:
        if parser.CurrentLineNumber == 1 and parser.ErrorByteIndex < 64 and not _xml_name(info):
            return
        raise _refuse("not_spreadsheet") from None
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, NotImplementedError,
            RuntimeError, ValueError):  # fmt: skip
        raise _refuse("not_spreadsheet") from None  # damaged, encrypted, unknown compression


def _xml_name(info: zipfile.ZipInfo) -> bool:
    return info.filename.lower().endswith((".xml", ".rels"))


def _sheet_names(archive: zipfile.ZipFile) -> dict[str, str]:
    """Each worksheet part's sheet name, from the workbook's list of sheets and its
    relationships: only for the messages (every sheet part is checked whatever its name)."""
    ids: dict[str, str] = {}
    targets: dict[str, str] = {}

    def sheet(parser, name, attrs):
        if local_name(name) == "sheet" and attribute(attrs, "id"):
            ids[attribute(attrs, "id")] = attribute(attrs, "name") or ""

    def relationship(parser, name, attrs):
        if local_name(name) == "Relationship" and attrs.get("Id") and attrs.get("Target"):
            target = attrs["Target"]
            path = target.lstrip("/") if target.startswith("/") else "xl/" + target
            targets[attrs["Id"]] = posixpath.normpath(path)

    for part, start in (("xl/workbook.xml", sheet), ("xl/_rels/workbook.xml.rels", relationship)):
        try:
            info = archive.getinfo(part)
        except KeyError:
            continue
        _part_size_check(info)
        _stream(archive, info, start)
    return {targets[rid]: name for rid, name in ids.items() if rid in targets}


def _part_size_check(info: zipfile.ZipInfo) -> None:
    if info.file_size > settings.IMPORT_MAX_PART_BYTES:
        raise _refuse("part_too_big", part=info.filename,
                      size=f"{info.file_size / 2**20:,.1f}",
                      max=settings.IMPORT_MAX_PART_BYTES // 2**20)  # fmt: skip


class _Scan:
    """Every part of one workbook, streamed: the first element of each says what it is, and
    a counter of upload_sheets counts it against the limits held here."""

    def __init__(self, names: dict[str, str]):
        self.names = names
        self.lines = 0
        self.cells = 0  # an .ods: the cells of the sheets already read (all are built)
        self.max_columns = MAX_COLUMNS
        self.left = ELEMENTS_PER_CELL * settings.IMPORT_MAX_CELLS  # elements left to stream

    def part(self, archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> None:
        counters = []

        def root(parser, name, attrs):
            local = local_name(name)
            if local not in STREAMED_ROOTS:
                _part_size_check(info)
                _ratio_check(info)
                raise _Stop  # no entity can be declared past the root: nothing else to see
            if local == "sst":
                counter = SharedStrings(self, attrs)  # what it declares, first
            elif local == "worksheet":
                counter = XlsxSheet(self, self.names.get(info.filename, info.filename))
            else:
                counter = OdsSheets(self)
                parser.EndElementHandler = counter.end
            _ratio_check(info)
            parser.StartElementHandler = counter.start
            counters.append(counter)

        _stream(archive, info, root)
        for counter in counters:
            counter.finish()

    def cells_check(self, sheet: str, cells: int, total: int) -> None:
        limit = settings.IMPORT_MAX_CELLS
        if cells > limit:
            raise _refuse("too_many_cells", sheet=sheet, cells=f"{cells:,}", max=f"{limit:,}")
        if total > limit:
            raise _refuse("too_many_cells_file", cells=f"{total:,}", max=f"{limit:,}")

    def rows_check(self, sheet: str, rows: int, columns: int) -> None:
        if columns > MAX_COLUMNS:
            raise _refuse("sheet_too_wide", sheet=sheet, columns=_letters(columns),
                          max=_letters(MAX_COLUMNS))  # fmt: skip
        if rows > MAX_LINES:
            raise _refuse("sheet_too_long", sheet=sheet, rows=f"{rows:,}", max=f"{MAX_LINES:,}")
        self.lines = max(self.lines, rows)

    def strings_check(self, count: int, declared: bool) -> None:
        limit = settings.IMPORT_MAX_SHARED_STRINGS
        if count > limit and declared:
            raise _refuse("shared_strings_declared", count=f"{count:,}", max=f"{limit:,}")
        if count > limit:
            raise _refuse("shared_strings_many", max=f"{limit:,}")

    def elements_check(self) -> None:
        """Called when the budget is spent."""
        raise _refuse("too_many_elements", max=f"{ELEMENTS_PER_CELL * settings.IMPORT_MAX_CELLS:,}")


def _letters(column: int) -> str:
    """A column's letters as a spreadsheet shows them (1: A, 100: CV, 16,384: XFD)."""
    letters = ""
    while column:
        column, rest = divmod(column - 1, 26)
        letters = chr(65 + rest) + letters
    return letters
