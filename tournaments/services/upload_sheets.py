"""What the streamed parts of a workbook claim, counted as expat reads them
(``upload_limits``): an .xlsx's sheets and shared strings, an .ods's sheets.

Each counter is given the parser's element callbacks and a ``scan`` that holds the limits
(``cells_check``, ``rows_check``, ``strings_check``, ``elements_check``: each raises the refusal
naming its limit); a malformed number raises ValueError, which the stream refuses as "not a
spreadsheet efuda can read". Names are compared whole first (no prefix: nearly every file), then
by their local part, so a file cannot hide its rows behind another prefix. Every element costs
one from the file's element budget (``scan.left``), so no part full of other elements makes the
check itself long.
"""

from __future__ import annotations

DIGITS = "0123456789"
# An .ods cell holds something when it has a value (or a formula) or any content.
ODS_VALUE_ATTRS = ("value-type", "value", "date-value", "time-value", "boolean-value",
                   "string-value", "formula")  # fmt: skip


def local_name(name: str) -> str:
    return name.rpartition(":")[2]


def attribute(attrs: dict, local: str) -> str | None:
    """An attribute by its local name, whatever its prefix."""
    for key, value in attrs.items():
        if key == local or key.endswith(":" + local):
            return value
    return None


def _count(value: str | None) -> int:
    """A declared repeat or row number (none: 1; 0 counts as 1, the most it can cost)."""
    if value is None:
        return 1
    if not value.isdecimal():  # no sign, no spaces; int() refuses a number of 4,300 digits
        raise ValueError(value)
    return max(1, int(value))


_COLUMNS: dict[str, int] = {}


def _column(letters: str) -> int:
    """A column's number from its letters (A: 1, CV: 100, XFD: 16,384)."""
    number = _COLUMNS.get(letters)
    if number is None:
        number = 0
        for letter in letters.upper():
            if not "A" <= letter <= "Z":
                raise ValueError(letters)
            number = number * 26 + ord(letter) - 64
        if len(letters) <= 3:  # a sheet's own: at most 18,278 of them
            _COLUMNS[letters] = number
    return number


class SharedStrings:
    """An .xlsx's shared strings: as declared, then as counted."""

    def __init__(self, scan, attrs: dict):
        self.scan, self.left = scan, scan.left
        declared = attrs.get("uniqueCount")
        self.scan.strings_check(int(declared) if declared and declared.isdecimal() else 0, True)
        self.count = 0

    def start(self, name: str, attrs: dict) -> None:
        self.left -= 1
        if not self.left:
            self.scan.elements_check()
        if name == "si" or name.endswith(":si"):
            self.count += 1
            self.scan.strings_check(self.count, False)

    def finish(self) -> None:
        self.scan.left = self.left


class XlsxSheet:
    """An .xlsx sheet: its rows by number, each up to its last cell (as openpyxl reads it,
    filling the cells between). Only element starts are seen (half the calls): a row is
    counted when the next one starts, or the sheet ends."""

    def __init__(self, scan, name: str):
        self.scan, self.name, self.left = scan, name, scan.left
        self.wide = scan.max_columns
        self.row = self.rows = self.cells = 0
        self.column = self.width = 0

    def start(self, name: str, attrs: dict) -> None:
        self.left -= 1
        if not self.left:
            self.scan.elements_check()
        if name == "c" or name.endswith(":c"):
            ref = attrs.get("r")
            letters = ref.rstrip(DIGITS) if ref else ""
            column = _column(letters) if letters else self.column + 1
            self.column = column
            if column > self.width:
                self.width = column
                if column > self.wide:
                    self.scan.rows_check(self.name, self.rows, column)
        elif name == "row" or name.endswith(":row"):
            self.finish()
            number = attrs.get("r")
            self.row = _count(number) if number is not None else self.row + 1
            self.rows = max(self.rows, self.row)
            self.column = self.width = 0
            self.scan.rows_check(self.name, self.rows, 0)

    def finish(self) -> None:
        """The row read last is counted."""
        self.cells += self.width
        self.width = 0
        self.scan.cells_check(self.name, self.cells, self.cells)
        self.scan.left = self.left


class OdsSheets:
    """The sheets (``table:table``) of an .ods's content: each row and cell as many times as it
    says it repeats, the sheet up to its last row and column holding something (calamine
    builds exactly that, and skips what is empty after it)."""

    def __init__(self, scan):
        self.scan, self.left = scan, scan.left
        self.sheet = None  # the name of the sheet being read
        self.rows = self.last_row = self.width = 0
        self.row_repeat = 0  # 0: not in a row
        self.column = self.row_end = 0
        self.cell_depth = 0  # > 0: inside a cell (1: the cell itself)
        self.cell_repeat, self.cell_full = 1, False

    def start(self, name: str, attrs: dict) -> None:
        self.left -= 1
        if not self.left:
            self.scan.elements_check()
        if self.cell_depth:  # anything inside a cell is something
            self.cell_depth += 1
            self.cell_full = True
            return
        local = local_name(name)
        if local in ("table-cell", "covered-table-cell") and self.row_repeat:
            self.cell_depth = 1
            self.cell_repeat, self.cell_full = 1, False
            for key, value in attrs.items():
                local_key = local_name(key)
                if local_key == "number-columns-repeated":
                    self.cell_repeat = _count(value)
                elif local_key in ODS_VALUE_ATTRS:
                    self.cell_full = True
        elif local == "table-row" and self.sheet is not None:
            if self.row_repeat:  # a row in a row, outside any cell: no spreadsheet's
                raise ValueError(name)
            self.row_repeat = _count(attribute(attrs, "number-rows-repeated"))
            self.column = self.row_end = 0
        elif local == "table":
            if self.sheet is not None:  # a sheet in a sheet, outside any cell: the same
                raise ValueError(name)
            self.sheet = attribute(attrs, "name") or ""
            self.rows = self.last_row = self.width = 0

    def end(self, name: str) -> None:
        if self.cell_depth:
            self.cell_depth -= 1
            if not self.cell_depth:
                self.column += self.cell_repeat
                if self.cell_full:
                    self.row_end = self.column
            return
        local = local_name(name)
        if local == "table-row" and self.row_repeat:
            if self.row_end:
                self.last_row = self.rows + self.row_repeat
                self.width = max(self.width, self.row_end)
            self.rows += self.row_repeat
            self.row_repeat = 0
            cells = self.last_row * self.width
            self.scan.cells_check(self.sheet, cells, self.scan.cells + cells)
            self.scan.rows_check(self.sheet, self.last_row, self.width)
        elif local == "table" and self.sheet is not None:
            self.scan.cells += self.last_row * self.width
            self.sheet = None

    def finish(self) -> None:
        self.scan.left = self.left
