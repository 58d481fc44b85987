"""Reading: the rows of a Source, each cell read into a value, each name into a player's name.

A cell that cannot be read is a problem of its line (``Collector``); a row whose deal itself
cannot be read goes no further, a row with another wrong cell (a date, a table…) is still
checked against its rules so that every error of the row is reported at once.
"""

from __future__ import annotations

import datetime
import json
import re
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from core.errors import EfudaError
from scoring.cards import parse_suit
from scoring.napoleon import LAST_TRICK_SIDES

from ...models import Club, Game, Player, normalise_name
from ...results_format import (
    DAIFUGO_COLUMNS,
    DAIFUGO_OPTIONAL,
    NAPOLEON_COLUMNS,
    NAPOLEON_OPTIONAL,
    SESSION_OPTIONAL,
    unquote,
)
from ..import_files import FileProblem, Source, read_source
from ..names import clean_name
from ..players import clean_player_name
from .problems import Collector, failed, import_error

MAX_TABLE = 40
MAX_NOTES = 200
NAME_SEPARATORS = re.compile("[;；]")
# 2026-11-20, 2026/11/20, 2026/1/5, 2026.11.20 and 2026年11月20日: how Japanese spreadsheets and
# people write a day; a time after the day (a workbook's midnight) is allowed.
_DATE = re.compile(
    r"^(\d{4})\s*(?:[-/.]\s*(\d{1,2})\s*[-/.]\s*(\d{1,2})|年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*日)"
    r"(?:[ T]0{1,2}:00(?::00)?)?$"
)
# A day written as Excel's serial number (a date cell saved as a plain number): 1 is 1900-01-01
# in Excel's count, which counts a 29 February 1900 that never was, hence the 30 December base.
_EXCEL_EPOCH = datetime.date(1899, 12, 30)
_SERIALS = range(36526, 73051)  # 2000-01-01 … 2099-12-31: anything else is not taken for a day
_CODE = re.compile(r"^[-a-zA-Z0-9_]{1,50}$")
PROGRESS_EVERY = 2_000

Progress = Callable[[str, int, int], None]


@dataclass
class Row:
    line: int
    date: datetime.date
    table: str
    rules: str
    # Player display names (canonical for the club), and the deal's other fields.
    names: tuple[str, ...]
    values: dict
    # The session's optional columns: the rule set's (preset, options as JSON) when the file
    # describes it, the rule set's name, the session's notes.
    definition: tuple[str, str] | None = None
    rules_name: str = ""
    notes: str = ""
    # A cell outside the deal itself (date, table, notes…) is wrong: the row is still checked
    # against its rules, so every error of the row is reported at once, but never imported.
    broken: bool = False


def source_of(file, rows: Iterable[Iterable[str]] | None, filename: str, sheet: str) -> Source:
    """The file's numbered rows (``rows`` already split: as they are, blank ones left out)."""
    if rows is not None:
        records = [(n, [str(c) for c in cells]) for n, cells in enumerate(rows, start=1)]
        return Source(
            "utf-8", [(n, cells) for n, cells in records if any(c.strip() for c in cells)]
        )
    try:
        source = read_source(file if file is not None else b"", filename=filename, sheet=sheet)
    except FileProblem as problem:
        column = problem.error.field
        raise failed(problem.line, column, problem.error) from None
    return source


def header(cells: list[str]) -> tuple[str, list[str]]:
    """The game the header names, and its column names in file order."""
    columns = [unicodedata.normalize("NFKC", c).strip().lower() for c in cells]
    for column in columns:
        if columns.count(column) > 1:
            raise failed(1, "header", import_error("header", "header_duplicate", column=column))
    found = set(columns)
    candidates = (
        (Game.NAPOLEON, NAPOLEON_COLUMNS, NAPOLEON_OPTIONAL),
        (Game.DAIFUGO, DAIFUGO_COLUMNS, DAIFUGO_OPTIONAL),
    )
    for game, required, optional in candidates:
        if set(required) <= found <= set(required) | set(optional):
            return game, columns
    # Say what is wrong against the game the header resembles most, if any.
    game, required, optional = max(candidates, key=lambda c: len(found & set(c[1])))
    expected = ",".join(required + optional)
    if len(found & set(required)) > len(set(NAPOLEON_COLUMNS) & set(DAIFUGO_COLUMNS)):
        missing = [c for c in required if c not in found]
        unknown = [c for c in columns if c not in required + optional]
        error = (
            import_error("header", "header_missing", missing=",".join(missing),
                         expected=expected)
            if missing
            else import_error("header", "header_unknown", unknown=",".join(unknown),
                              expected=expected)
        )  # fmt: skip
    else:
        error = import_error("header", "bad_header", napoleon=",".join(NAPOLEON_COLUMNS),
                             daifugo=",".join(DAIFUGO_COLUMNS),
                             session=",".join(SESSION_OPTIONAL))  # fmt: skip
    raise failed(1, "header", error)


class Names:
    """Display names by normalised key: the club's players first, then first use in the file."""

    def __init__(self, club: Club):
        self.ids: dict[str, int] = {}  # display name -> id, for the club's players
        self.known: dict[str, str] = {}
        for pid, key, name in Player.objects.filter(club=club).values_list("id", "name_key",
                                                                            "name"):  # fmt: skip
            self.known[key] = name
            self.ids[name] = pid
        self.new: dict[str, str] = {}  # display name -> key, first use in the file, in order
        self._seen: dict[tuple[str, str], str] = {}
        self.lists: dict[tuple[str, str], tuple[str, ...]] = {}  # cells read without an error

    def canonical(self, text: str, column: str) -> str:
        seen = self._seen.get((text, column))
        if seen is not None:
            return seen
        name = clean_player_name(text, field=column)
        key = normalise_name(name)
        display = self.known.setdefault(key, name)
        if display not in self.ids:
            self.new.setdefault(display, key)
        self._seen[(text, column)] = display
        return display


def _split_names(value: str) -> list[str]:
    return [part for part in (p.strip() for p in NAME_SEPARATORS.split(value)) if part]


def _name_list(value: str, column: str, names: Names, errors: list) -> tuple[str, ...]:
    """The names of a cell (a table's players recur on every line of its night: read once)."""
    found = names.lists.get((value, column))
    if found is not None:
        return found
    result = []
    failed = False
    for part in _split_names(value):
        try:
            result.append(names.canonical(part, column))
        except EfudaError as err:
            errors.append((err, column))
            failed = True
    if not failed:
        names.lists[(value, column)] = tuple(result)
    return tuple(result)


def _number(value: str, column: str) -> int:
    text = unicodedata.normalize("NFKC", value).strip()
    if not text.isdigit():
        raise import_error(column, "number_invalid", value=value)
    return int(text)


_DAYS: dict[str, datetime.date] = {}


def _date(value: str) -> datetime.date:
    """The day a cell names (each distinct cell read once; ``_DAYS`` keeps a few thousand)."""
    found = _DAYS.get(value)
    if found is not None:
        return found
    day = _date_read(value)
    if len(_DAYS) < 100_000:
        _DAYS[value] = day
    return day


def _date_read(value: str) -> datetime.date:
    text = unicodedata.normalize("NFKC", value).strip()
    found = _DATE.match(text)
    try:
        if found:
            year, month, day = (int(g) for g in found.groups() if g is not None)
            return datetime.date(year, month, day)
        if text.isdigit() and int(text) in _SERIALS:
            return _EXCEL_EPOCH + datetime.timedelta(days=int(text))
    except ValueError:
        pass
    raise import_error("date", "date_invalid", value=value)


def _common(cells: dict, errors: list) -> tuple:
    day = table = rules = None
    try:
        day = _date(cells["date"])
    except EfudaError as err:
        errors.append((err, "date"))
    try:
        table = clean_name(cells["table"], field="table") or "A"
    except EfudaError as err:
        errors.append((err, "table"))
        table = "A"
    if len(table) > MAX_TABLE:
        errors.append((import_error("table", "table_long", max=MAX_TABLE), "table"))
    rules = cells["rules"].strip()
    if not rules:
        errors.append((import_error("rules", "required"), "rules"))
    return day, table, rules


def _definition(cells: dict, errors: list) -> tuple[str, str] | None:
    """The rule set a row describes: its preset and options, as the export writes them."""
    preset = cells.get("rules_preset", "").strip()
    options_text = cells.get("rules_options", "").strip()
    definition = None
    if options_text and not preset:
        errors.append((import_error("rules_preset", "preset_needed"), "rules_preset"))
    if preset:
        options: object = {}
        if options_text:
            try:
                options = json.loads(options_text)
            except ValueError:
                options = None
        if isinstance(options, dict):
            definition = (preset, json.dumps(options, sort_keys=True, ensure_ascii=False))
        else:
            errors.append((import_error("rules_options", "options_invalid"), "rules_options"))
        code = cells["rules"].strip()
        if code and not _CODE.match(code):
            errors.append((import_error("rules", "code_invalid"), "rules"))
    return definition


def _session_columns(cells: dict, errors: list) -> tuple[tuple[str, str] | None, str, str]:
    """The optional columns that describe the session: its rule set (preset and options, as
    the export writes them) and its notes."""
    definition = _definition(cells, errors)
    name = ""
    try:
        name = clean_name(cells.get("rules_name", ""), field="rules_name")
    except EfudaError as err:
        errors.append((err, "rules_name"))
    notes = " ".join(cells.get("notes", "").split())
    if len(notes) > MAX_NOTES:
        errors.append((import_error("notes", "notes_long", max=MAX_NOTES), "notes"))
    return definition, name, notes


def _napoleon_numbers(cells: dict, names: Names, errors: list, values: dict) -> None:
    """The Napoleon, the adjutant, the bid, the trump, the honours and the discards."""
    for column in ("napoleon", "adjutant"):
        text = cells[column].strip()
        try:
            values[column] = names.canonical(text, column) if text else None
        except EfudaError as err:
            errors.append((err, column))
    for column, default in (("bid", None), ("honours", None), ("discarded", 0)):
        text = cells[column].strip()
        try:
            if not text and default is None:
                raise import_error(column, "required")
            values[column] = _number(text, column) if text else default
        except EfudaError as err:
            errors.append((err, column))
    try:
        if not cells["trump"].strip():
            raise import_error("trump", "required")
        values["trump"] = parse_suit(cells["trump"], "trump")
    except EfudaError as err:
        errors.append((err, "trump"))


def _napoleon_values(cells: dict, names: Names, errors: list) -> tuple[tuple, dict]:
    seats = _name_list(cells["players"], "players", names, errors)
    if not cells["players"].strip():
        errors.append((import_error("players", "required"), "players"))
    deal_columns = ("bid", "trump", "called", "adjutant", "honours", "discarded")
    if not cells["napoleon"].strip():
        if any(cells[c].strip() for c in deal_columns):
            errors.append((import_error("napoleon", "redeal_fields"), "napoleon"))
        return seats, {"redeal": True}
    values: dict = {"redeal": False}
    _napoleon_numbers(cells, names, errors, values)
    values["called"] = cells["called"].strip() or None
    # The file format's own rule (docs/import-format.md): an empty adjutant, or the Napoleon's
    # own name, means 独り立ち; the core is told so explicitly.
    values["solo"] = values.get("adjutant") is None or values.get("adjutant") == values.get(
        "napoleon"
    )
    if values["solo"]:
        values["adjutant"] = None
    last = cells.get("last_trick", "").strip().lower()
    if last and last not in LAST_TRICK_SIDES:
        errors.append((import_error("last_trick", "last_trick_invalid", value=last), "last_trick"))
    values["last_trick"] = last or None
    return seats, values


def _daifugo_values(cells: dict, names: Names, errors: list) -> tuple[tuple, dict]:
    order = _name_list(cells["order"], "order", names, errors)
    if not cells["order"].strip():
        errors.append((import_error("order", "required"), "order"))
    forbidden = _name_list(cells["forbidden"], "forbidden", names, errors)
    return order, {"forbidden": forbidden}


# The cells a deal is scored from: when one of them cannot be read, the row is not scored.
_DEAL_CELLS = frozenset({
    "file", "players", "napoleon", "bid", "trump", "called", "adjutant", "honours", "discarded",
    "last_trick", "order", "forbidden", "rules_preset", "rules_options",
})  # fmt: skip


def row_read(line: int, cells: list[str], columns: list[str], game: str, names: Names,
             found: Collector) -> Row | None:  # fmt: skip
    """One line of the file as a ``Row``, or None when its deal cannot be read (its problems
    are in ``found``)."""
    if len(cells) != len(columns):
        found.add(line, import_error("file", "column_count", found=len(cells),
                                     expected=len(columns)), "file")  # fmt: skip
        return None
    by_column = dict(zip(columns, (unquote(c) for c in cells), strict=True))
    errors: list = []
    day, table, rules = _common(by_column, errors)
    reader = _napoleon_values if game == Game.NAPOLEON else _daifugo_values
    players, values = reader(by_column, names, errors)
    definition, rules_name, notes = _session_columns(by_column, errors)
    for error, column in errors:
        found.add(line, error, column)
    if any(column in _DEAL_CELLS for _error, column in errors) or not rules:
        return None  # the deal itself cannot be read: nothing more to check
    return Row(line, day, table, rules, players, values, definition, rules_name, notes,
               broken=bool(errors))  # fmt: skip


@dataclass
class Parsed:
    """The file read: its game, the rows that could be read, the names they use."""

    game: str
    rows: list[Row]
    names: Names
    found: Collector
    total: int  # the file's result lines (the header not counted)


def rows_read(club: Club, source: Source, progress: Progress) -> Parsed:
    """Every line of ``source`` read against its header and the club's players."""
    records = source.records
    if not records:
        raise failed(1, "file", import_error("file", "empty_file"))
    game, columns = header(records[0][1])
    if len(records) == 1:
        raise failed(2, "file", import_error("file", "no_rows"))
    total = len(records) - 1
    found = Collector(shift_jis=source.kind == "cp932")
    names = Names(club)
    parsed = []
    for done, (line, cells) in enumerate(records[1:], start=1):
        parsed.append(row_read(line, cells, columns, game, names, found))
        if done % PROGRESS_EVERY == 0:
            progress("checking", done, total)
    rows = [r for r in parsed if r is not None]
    return Parsed(game, rows, names, found, total)
