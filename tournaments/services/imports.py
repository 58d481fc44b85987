"""Import results from a CSV file or an Excel workbook, all or nothing (docs/import-format.md).

The header names the game. The import runs in two phases so that a club can go on recording
deals while a file of ten years of results goes in:

1. **Check and score, holding no lock.** Every row is checked — columns, dates, numbers, names,
   rule sets, sessions already in the database — and scored by the scoring core through
   ``scoring_bridge`` exactly as ``deal_record`` scores a deal typed at the table. Player ids
   are reserved first (``bulk.reserve_ids``), so deals are scored with their final keys and an
   error message names the player as the file does. Any error: ``ImportFailed`` lists them all
   and nothing is written.
2. **Write in one short transaction.** Sessions, deals, score lines and the deals' history rows
   are prepared as database parameters before the transaction opens; inside it only bulk
   inserts run, and the standings aggregates, summed once per player and period, are added
   with one upsert each (``INSERT … ON CONFLICT DO UPDATE SET c = c + excluded.c``), last, so
   a deal saved meanwhile waits for a moment at most. One bad row, or a fault at any point:
   nothing is imported.
"""

from __future__ import annotations

import datetime
import json
import re
import unicodedata
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext, ngettext

import rules
from core.errors import EfudaError
from core.i18n import N_
from scoring.cards import parse_card, parse_suit
from scoring.napoleon import LAST_TRICK_SIDES

from ..i18n import render_message, stored_params
from ..models import (
    BidAggregate,
    Club,
    ClubRuleSet,
    Deal,
    Game,
    GameSession,
    Player,
    ScoreLine,
    StandingAggregate,
    normalise_name,
)
from ..results_format import (
    DAIFUGO_COLUMNS,
    DAIFUGO_OPTIONAL,
    NAPOLEON_COLUMNS,
    NAPOLEON_DEAL_OPTIONAL,
    NAPOLEON_OPTIONAL,
    SESSION_OPTIONAL,
    unquote,
)
from ..selectors.rulesets import rules_from_snapshot, ruleset_rules, ruleset_snapshot
from . import bulk
from .busy import bulk_write
from .cache import club_version_bump
from .errors import fail, make_fail
from .import_files import (
    MAX_BYTES,
    FileProblem,
    Source,
    read_source,
    source_label,
)
from .names import clean_name
from .players import clean_player_name
from .ratings import ratings_lines_changed, ratings_replay
from .scoring_bridge import (
    BID_COUNTERS,
    LINE_COLUMNS,
    bid_counters,
    counters,
    deal_columns,
    line_specs,
    line_tuple,
    outcome_dict,
    periods,
    score,
)

__all__ = [
    "DAIFUGO_COLUMNS", "MAX_BYTES", "NAPOLEON_COLUMNS", "NAPOLEON_DEAL_OPTIONAL",
    "SESSION_OPTIONAL", "ImportFailed", "ImportProblem", "ImportReport", "import_summary",
    "results_import",
]  # fmt: skip

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
PROGRESS_EVERY = 2_000

MESSAGES = {
    "empty_file": N_("The file is empty."),
    "bad_header": N_(
        "Unknown header. A Napoleon file has the columns %(napoleon)s (and optionally "
        "last_trick); a Daifugō file has the columns %(daifugo)s. Either may also have "
        "%(session)s."
    ),
    "header_missing": N_("The header lacks the columns %(missing)s (expected %(expected)s)."),
    "header_unknown": N_("The header has unknown columns %(unknown)s (expected %(expected)s)."),
    "header_duplicate": N_("The column %(column)s appears twice in the header."),
    "no_rows": N_("The file has a header but no results."),
    "column_count": N_("Columns on this line: %(found)s; in the header: %(expected)s."),
    "required": N_("This column must not be empty."),
    "date_invalid": N_(
        "“%(value)s” is not a date: write YYYY-MM-DD or YYYY/MM/DD, e.g. 2026-11-20."
    ),
    "suit_shift_jis": N_(
        "“%(value)s” is not a suit. This file was saved as Shift_JIS, which cannot hold ♠ ♥ ♦ ♣ "
        "(Excel writes them as “?”): write the suit letters S, H, D or C instead."
    ),
    "card_shift_jis": N_(
        "“%(value)s” is not a card. This file was saved as Shift_JIS, which cannot hold ♠ ♥ ♦ ♣ "
        "(Excel writes them as “?”): write the suit letters, e.g. SA, H10, D3 or C2."
    ),
    "number_invalid": N_("“%(value)s” is not a whole number of 0 or more."),
    "table_long": N_("A table label can be at most %(max)s characters."),
    "last_trick_invalid": N_("Write napoleon or allies (who won the last trick), not “%(value)s”."),
    "redeal_fields": N_(
        "With an empty napoleon the row is a redeal; leave bid, trump, called, adjutant, "
        "honours and discarded empty too."
    ),
    "rules_differ": N_(
        "A session (same date and table) has one rule set: line %(line)s uses “%(first)s”."
    ),
    "name_twice": N_("%(player)s is listed twice."),
    "code_invalid": N_(
        "A rule set's code is letters, digits, hyphens and underscores (at most 50), as the "
        "export wrote it."
    ),
    "notes_long": N_("Notes can be at most %(max)s characters."),
    "options_invalid": N_('Write the options as the export wrote them (e.g. {"min_bid": 12}).'),
    "preset_needed": N_("Options need the preset they change: fill in rules_preset too."),
    "preset_differs": N_(
        "The club's rule set “%(code)s” is based on %(club_preset)s; this file says %(preset)s. "
        "Give the file's rule set another code."
    ),
    "definition_differs": N_(
        "A session (same date and table) has one rule set: line %(line)s describes it differently."
    ),
    "changed_meanwhile": N_(
        "The club's players, rule sets or sessions changed while the file was being checked; "
        "nothing was imported. Import the file again."
    ),
}


_fail = make_fail(MESSAGES)


# Scoring-core fields that have another name in the file.
_FIELD_COLUMNS = {"seats": "players", "card": "called", "preset": "rules",
                  "previous_daifugo": "order", "deal": "players"}  # fmt: skip

Progress = Callable[[str, int, int], None]


WHOLE_FILE = ("file", "sheet")


class ImportProblem(NamedTuple):
    """One error: the file's line number (header = 1), the column, and the message as its msgid
    (``text``, English, marked with ``N_``) with its parameters (player keys already turned
    into names) and its code. It is rendered in the reader's language when read
    (``message``), so a job's problems read alike by an English and a Japanese owner.

    A problem stored by an older efuda (``[line, field, message]``) has its message rendered
    already and no code: it is shown as it was stored."""

    line: int
    field: str
    text: str
    params: dict | None = None
    code: str = ""

    @classmethod
    def of(cls, line: int, column: str, error: EfudaError, names=None) -> ImportProblem:
        return cls(line, column, error.message, stored_params(error.params, names), error.code)

    @classmethod
    def from_stored(cls, row) -> ImportProblem:
        """A problem as a job stores it (``stored()``), or an older job's ``[line, field,
        message]``."""
        if isinstance(row, dict):
            return cls(row["line"], row["field"], row["message"], row.get("params") or {},
                       row.get("code", ""))  # fmt: skip
        return cls(*row[:3])

    def stored(self) -> dict:
        return {"line": self.line, "field": self.field, "code": self.code,
                "message": self.text, "params": self.params or {}}  # fmt: skip

    @property
    def message(self) -> str:
        """The message in the active language (an older job's as it was stored)."""
        return render_message(self.text, self.params) if self.code else self.text

    def where(self) -> str:
        """Where to look, in words: a column by its name in the file's header; a problem of the
        whole file or its header line by the line alone (``file`` is no column)."""
        if self.field in WHOLE_FILE:
            return gettext("line %(line)s") % {"line": self.line}
        if self.field == "header":
            return gettext("line %(line)s (the header)") % {"line": self.line}
        return gettext("line %(line)s, column %(field)s") % {"line": self.line,
                                                              "field": self.field}  # fmt: skip

    def __str__(self) -> str:
        return f"{self.where()}: {self.message}"


def import_summary(
    *, game: str, deals: int, redeals: int, sessions: int, players: int, club: str = ""
) -> str:
    """What an import added, in the active language, each number with its own plural: Napoleon
    deals (and their redeals), Daifugō rounds (回戦), never "1 deals"."""
    parts = {
        "sessions": ngettext("%(n)s session", "%(n)s sessions", sessions) % {"n": sessions},
        "players": ngettext("%(n)s new player", "%(n)s new players", players) % {"n": players},
        "club": club,
    }
    if game == "daifugo":
        parts["rounds"] = ngettext("%(n)s Daifugō round", "%(n)s Daifugō rounds", deals) % {
            "n": deals}  # fmt: skip
        text = (
            gettext("Imported %(rounds)s in %(sessions)s into club %(club)s; %(players)s.")
            if club else gettext("Imported %(rounds)s in %(sessions)s; %(players)s.")
        )  # fmt: skip
    else:
        parts["deals"] = ngettext("%(n)s deal", "%(n)s deals", deals) % {"n": deals}
        parts["redeals"] = ngettext("%(n)s redeal", "%(n)s redeals", redeals) % {"n": redeals}
        text = (
            gettext("Imported %(deals)s (%(redeals)s) in %(sessions)s into club %(club)s; "
                    "%(players)s.") if club
            else gettext("Imported %(deals)s (%(redeals)s) in %(sessions)s; %(players)s.")
        )  # fmt: skip
    return text % parts


class ImportFailed(Exception):  # noqa: N818 - an outcome, named as the spec names it
    """Nothing was imported; ``problems`` lists every error found, by line."""

    def __init__(self, problems: Iterable[ImportProblem]):
        self.problems = sorted(problems, key=lambda p: (p.line, p.field))
        super().__init__("\n".join(str(p) for p in self.problems))


class _ChangedError(Exception):
    """The club changed between the check and the write: check again."""


@dataclass
class ImportReport:
    game: str
    sessions: list[GameSession] = field(default_factory=list)
    deals: int = 0
    redeals: int = 0
    players_created: int = 0
    source: str = ""  # how the file was read (translated), e.g. "Shift_JIS (CP932)"
    source_kind: str = ""  # the same as a key of ENCODING_LABELS (a job stores this)
    sheet: str = ""  # the workbook's sheet that was read


@dataclass
class _Row:
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


@dataclass
class _Collector:
    names: dict[str, str] = field(default_factory=dict)  # player key -> display name
    problems: list[ImportProblem] = field(default_factory=list)
    shift_jis: bool = False  # the file was read as Shift_JIS: suits must be letters

    def add(self, line: int, error: EfudaError, column: str | None = None) -> None:
        name = column or _FIELD_COLUMNS.get(error.field, error.field)
        if self.shift_jis and error.code in ("invalid_suit", "invalid_card"):
            code = "suit_shift_jis" if error.code == "invalid_suit" else "card_shift_jis"
            error = _fail(error.field, code, **error.params)
        self.problems.append(ImportProblem.of(line, name, error, self.names))


def _problem(line: int, column: str, error: EfudaError) -> ImportProblem:
    return ImportProblem.of(line, column, error)


def _header(cells: list[str]) -> tuple[str, list[str]]:
    """The game the header names, and its column names in file order."""
    columns = [unicodedata.normalize("NFKC", c).strip().lower() for c in cells]
    for column in columns:
        if columns.count(column) > 1:
            raise ImportFailed(
                [_problem(1, "header", _fail("header", "header_duplicate", column=column))]
            )
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
            _fail("header", "header_missing", missing=",".join(missing), expected=expected)
            if missing
            else _fail("header", "header_unknown", unknown=",".join(unknown), expected=expected)
        )
    else:
        error = _fail("header", "bad_header", napoleon=",".join(NAPOLEON_COLUMNS),
                      daifugo=",".join(DAIFUGO_COLUMNS),
                      session=",".join(SESSION_OPTIONAL))  # fmt: skip
    raise ImportFailed([_problem(1, "header", error)])


# --- checking one row ---------------------------------------------------------------------------


class _Names:
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


def _name_list(value: str, column: str, names: _Names, errors: list) -> tuple[str, ...]:
    result = []
    for part in _split_names(value):
        try:
            result.append(names.canonical(part, column))
        except EfudaError as err:
            errors.append((err, column))
    return tuple(result)


def _number(value: str, column: str) -> int:
    text = unicodedata.normalize("NFKC", value).strip()
    if not text.isdigit():
        raise _fail(column, "number_invalid", value=value)
    return int(text)


def _date(value: str) -> datetime.date:
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
    raise _fail("date", "date_invalid", value=value)


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
        errors.append((_fail("table", "table_long", max=MAX_TABLE), "table"))
    rules = cells["rules"].strip()
    if not rules:
        errors.append((_fail("rules", "required"), "rules"))
    return day, table, rules


_CODE = re.compile(r"^[-a-zA-Z0-9_]{1,50}$")


def _session_columns(cells: dict, errors: list) -> tuple[tuple[str, str] | None, str, str]:
    """The optional columns that describe the session: its rule set (preset and options, as
    the export writes them) and its notes."""
    preset = cells.get("rules_preset", "").strip()
    options_text = cells.get("rules_options", "").strip()
    definition = None
    if options_text and not preset:
        errors.append((_fail("rules_preset", "preset_needed"), "rules_preset"))
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
            errors.append((_fail("rules_options", "options_invalid"), "rules_options"))
        code = cells["rules"].strip()
        if code and not _CODE.match(code):
            errors.append((_fail("rules", "code_invalid"), "rules"))
    name = ""
    try:
        name = clean_name(cells.get("rules_name", ""), field="rules_name")
    except EfudaError as err:
        errors.append((err, "rules_name"))
    notes = " ".join(cells.get("notes", "").split())
    if len(notes) > MAX_NOTES:
        errors.append((_fail("notes", "notes_long", max=MAX_NOTES), "notes"))
    return definition, name, notes


def _napoleon_values(cells: dict, names: _Names, errors: list) -> tuple[tuple, dict]:
    seats = _name_list(cells["players"], "players", names, errors)
    if not cells["players"].strip():
        errors.append((_fail("players", "required"), "players"))
    deal_columns = ("bid", "trump", "called", "adjutant", "honours", "discarded")
    if not cells["napoleon"].strip():
        if any(cells[c].strip() for c in deal_columns):
            errors.append((_fail("napoleon", "redeal_fields"), "napoleon"))
        return seats, {"redeal": True}
    values: dict = {"redeal": False}
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
                raise _fail(column, "required")
            values[column] = _number(text, column) if text else default
        except EfudaError as err:
            errors.append((err, column))
    try:
        if not cells["trump"].strip():
            raise _fail("trump", "required")
        values["trump"] = parse_suit(cells["trump"], "trump")
    except EfudaError as err:
        errors.append((err, "trump"))
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
        errors.append((_fail("last_trick", "last_trick_invalid", value=last), "last_trick"))
    values["last_trick"] = last or None
    return seats, values


def _daifugo_values(cells: dict, names: _Names, errors: list) -> tuple[tuple, dict]:
    order = _name_list(cells["order"], "order", names, errors)
    if not cells["order"].strip():
        errors.append((_fail("order", "required"), "order"))
    forbidden = _name_list(cells["forbidden"], "forbidden", names, errors)
    return order, {"forbidden": forbidden}


# The cells a deal is scored from: when one of them cannot be read, the row is not scored.
_DEAL_CELLS = frozenset({
    "file", "players", "napoleon", "bid", "trump", "called", "adjutant", "honours", "discarded",
    "last_trick", "order", "forbidden", "rules_preset", "rules_options",
})  # fmt: skip


def _row(line: int, cells: list[str], columns: list[str], game: str, names: _Names,
         found: _Collector) -> _Row | None:  # fmt: skip
    if len(cells) != len(columns):
        found.add(line, _fail("file", "column_count", found=len(cells), expected=len(columns)),
                  "file")  # fmt: skip
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
    return _Row(line, day, table, rules, players, values, definition, rules_name, notes,
                broken=bool(errors))  # fmt: skip


# --- sessions and rule sets, read only -----------------------------------------------------------


@dataclass
class _Rules:
    """A rule set as the import will use it: the club's own, or a preset not yet adopted."""

    code: str
    existing: ClubRuleSet | None
    snapshot: dict
    rules: rules.RuleSet
    name: str = ""
    seen: dict | None = None  # the club's rule set of this code as the check found it


def _defined(code: str, existing: ClubRuleSet | None, definition: tuple[str, str],
             name: str) -> _Rules:  # fmt: skip
    """The rule set a file's row describes (its preset and options): the session keeps exactly
    these, whatever the club's rule set of that code says today (as a session recorded before a
    rule set was changed keeps the rules it was played under)."""
    preset_code, options_json = definition
    try:
        preset = rules.get_preset(preset_code)
    except EfudaError:
        raise fail("rules_preset", "ruleset_unknown", code=preset_code) from None
    if existing is not None and existing.preset != preset.code:
        raise _fail("rules_preset", "preset_differs", code=code, club_preset=existing.preset,
                    preset=preset.code)  # fmt: skip
    snapshot = {"preset": preset.code, "options": json.loads(options_json), "code": code}
    built = rules_from_snapshot(snapshot)  # an option that does not check names its key
    if existing is not None:
        return _Rules(code, existing, snapshot, built, existing.name, ruleset_snapshot(existing))
    return _Rules(code, None, snapshot, built, name=name)  # as the file names it


def _rules_for(club: Club, code: str, game: str, cache: dict,
               definition: tuple[str, str] | None = None, name: str = "") -> _Rules:  # fmt: skip
    if (code, definition) in cache:
        found = cache[(code, definition)]
    else:
        existing = ClubRuleSet.objects.filter(club=club, code=code).first()
        try:
            if definition is not None:
                found = _defined(code, existing, definition, name)
            elif existing is not None:
                snapshot = ruleset_snapshot(existing)
                found = _Rules(code, existing, snapshot, ruleset_rules(existing), seen=snapshot)
            else:
                try:
                    preset = rules.get_preset(code)
                except EfudaError:
                    raise fail("rules", "ruleset_unknown", code=code) from None
                snapshot = {"preset": preset.code, "options": {}, "code": code}
                built = rules_from_snapshot(snapshot)
                found = _Rules(code, None, snapshot, built, name=preset.name_ja)
        except EfudaError as err:
            found = err
        cache[(code, definition)] = found
    if isinstance(found, EfudaError):
        raise found
    preset_game = rules.get_preset(found.snapshot["preset"]).game
    if preset_game != game:
        raise fail("rules", "ruleset_game", code=code, expected=str(Game(preset_game).label),
                   game=str(Game(game).label))  # fmt: skip
    return found


def _check_sessions(club: Club, game: str, rows: list[_Row], found: _Collector,
                    cache: dict) -> dict:  # fmt: skip
    """Group rows into sessions (date, table) in file order; resolve and check their rules."""
    sessions: dict[tuple, list[_Row]] = {}
    for row in rows:
        sessions.setdefault((row.date, row.table), []).append(row)
    existing = _existing_sessions(club, game, sessions)
    resolved = {}
    for (day, table), group in sessions.items():
        first = group[0]
        for row in group[1:]:
            if row.rules != first.rules:
                found.add(row.line, _fail("rules", "rules_differ", line=first.line,
                                          first=first.rules))  # fmt: skip
            elif row.definition != first.definition:
                found.add(row.line, _fail("rules_options", "definition_differs",
                                          line=first.line))  # fmt: skip
        try:
            plan = _rules_for(club, first.rules, game, cache, first.definition, first.rules_name)
        except EfudaError as err:
            found.add(first.line, err, _rules_column(err))
            continue
        if (day, table) in existing:
            found.add(first.line, fail("table", "session_exists", game=str(Game(game).label),
                                       table=table, date=str(day)))  # fmt: skip
            continue
        resolved[(day, table)] = (plan, group)
    return resolved


def _rules_column(err: EfudaError) -> str:
    if err.field.startswith("options") or err.field == "rules_options":
        return "rules_options"
    return "rules_preset" if err.field == "rules_preset" else "rules"


def _existing_sessions(club: Club, game: str, wanted) -> set[tuple]:
    days = {day for day, _table in wanted}
    if not days:
        return set()
    return set(
        GameSession.objects.filter(
            club=club, game=game, date__gte=min(days), date__lte=max(days)
        ).values_list("date", "table")
    ) & set(wanted)


# --- scoring through the bridge ---------------------------------------------------------------


def _duplicates(names: tuple[str, ...]) -> str | None:
    seen: set[str] = set()
    for name in names:
        if name in seen:
            return name
        seen.add(name)
    return None


def _deal_data(game: str, row: _Row, ids: dict[str, int], ruleset: rules.RuleSet,
               previous: str | None) -> dict:  # fmt: skip
    """The deal as ``Deal.data`` stores it (player ids as strings), every value explicit."""

    def key(name):
        return None if name is None else str(ids[name])

    if game == Game.DAIFUGO:
        return {"order": [key(n) for n in row.names],
                "forbidden": [key(n) for n in row.values["forbidden"]],
                "previous_daifugo": previous}  # fmt: skip
    seats = [key(n) for n in row.names]
    v = row.values
    if v["redeal"]:
        return {"seats": seats, "napoleon": None, "redeal": True}
    called = v["called"]
    if called is not None:
        called = parse_card(called, "called", jokers=ruleset.jokers).code
    return {
        "seats": seats, "napoleon": key(v["napoleon"]), "bid": v["bid"], "trump": v["trump"],
        "called": called, "adjutant": key(v["adjutant"]), "solo": v["solo"],
        "honours": v["honours"],
        "discarded": v["discarded"], "last_trick": v["last_trick"], "redeal": False,
    }  # fmt: skip


@dataclass
class _Scored:
    row: _Row
    data: dict
    outcome: dict
    specs: list


def _score_dry(game: str, resolved: dict, ids: dict[str, int], found: _Collector,
               progress: Progress, total: int) -> dict:  # fmt: skip
    """Score every row as ``deal_record`` would, through ``scoring_bridge``; nothing written."""
    scored: dict[tuple, list[_Scored]] = {}
    done = 0
    for session_key, (plan, group) in resolved.items():
        previous = None
        out = scored[session_key] = []
        for row in group:
            done += 1
            if done % PROGRESS_EVERY == 0:
                progress("scoring", done, total)
            twice = _duplicates(row.names)
            if twice is not None:
                column = "players" if game == Game.NAPOLEON else "order"
                found.add(row.line, _fail(column, "name_twice", player=twice), column)
                continue
            try:
                data = _deal_data(game, row, ids, plan.rules, previous)
                result = score(game, data, plan.rules)
            except EfudaError as err:
                found.add(row.line, err)
                continue
            if game == Game.DAIFUGO:
                previous = result.final_order[0]
            out.append(_Scored(row, data, outcome_dict(game, result),
                               line_specs(game, data, result)))  # fmt: skip
    return scored


def _score_broken(club: Club, game: str, rows: list[_Row], ids: dict[str, int],
                  found: _Collector, cache: dict) -> None:  # fmt: skip
    """Rows with a wrong cell outside the deal (a date, a table…) are checked against their
    rules too, alone (a Daifugō round without the round before it), so their other errors are
    reported with the first; nothing of them is kept."""
    for row in rows:
        try:
            plan = _rules_for(club, row.rules, game, cache, row.definition, row.rules_name)
        except EfudaError as err:
            found.add(row.line, err, _rules_column(err))
            continue
        twice = _duplicates(row.names)
        if twice is not None:
            column = "players" if game == Game.NAPOLEON else "order"
            found.add(row.line, _fail(column, "name_twice", player=twice), column)
            continue
        try:
            score(game, _deal_data(game, row, ids, plan.rules, None), plan.rules)
        except EfudaError as err:
            found.add(row.line, err)


# --- writing ------------------------------------------------------------------------------------


@dataclass
class _Plan:
    """Everything the write transaction inserts, already converted for the database."""

    sessions: list[tuple[GameSession, _Rules]]
    players: bulk.Table
    deals: bulk.Table
    lines: bulk.Table
    history: bulk.Table
    standing: dict
    bids: dict
    new_players: dict[str, str]  # name -> key
    named: set[int] = field(default_factory=set)  # every player id the score lines name
    new_ids: set[int] = field(default_factory=set)  # the ids of the players it creates
    deal_count: int = 0
    redeals: int = 0


_DEAL_COLUMNS = ("id", "session_id", "club_id", "game", "seq", "data", "outcome",
                 "created_by_id", "updated_by_id", "napoleon_id", "adjutant_id", "bid", "trump",
                 "redeal", "created_at", "updated_at")  # fmt: skip
_LINE_COLUMNS = LINE_COLUMNS


def _prepare(club: Club, game: str, scored: dict, resolved: dict, names: _Names, ids: dict,
             user) -> _Plan:  # fmt: skip
    user = user if getattr(user, "is_authenticated", False) else None
    user_id = user.pk if user else None
    session_ids = iter(bulk.reserve_ids(GameSession, len(scored)))
    # Deal ids follow the file's lines (not its sessions): a club's history is ordered by date
    # and then by deal id (ratings learn in that order), so the file's order is kept.
    lines = sorted(item.row.line for deals in scored.values() for item in deals)
    deal_ids = dict(zip(lines, bulk.reserve_ids(Deal, len(lines)), strict=True))
    history_model = Deal.history.model
    tracked = {f.attname for f in history_model.tracked_fields}
    # The history row copies the deal's tracked fields; the rest are the history's own.
    history_columns = [c for c in _DEAL_COLUMNS if c in tracked]
    keep = [i for i, c in enumerate(_DEAL_COLUMNS) if c in tracked]
    history_columns += ["history_date", "history_type", "history_user_id"]
    now = timezone.now()
    plan = _Plan(
        sessions=[], players=bulk.Table(Player, ("id", "club_id", "name", "name_key")),
        deals=bulk.Table(Deal, _DEAL_COLUMNS), lines=bulk.Table(ScoreLine, _LINE_COLUMNS),
        history=bulk.Table(history_model, history_columns),
        standing=defaultdict(lambda: defaultdict(int)), bids=defaultdict(lambda: defaultdict(int)),
        new_players=dict(names.new),
    )  # fmt: skip
    for name, key in names.new.items():
        plan.players.add(ids[name], club.pk, name, key)
        plan.new_ids.add(ids[name])
    # Values shared by many rows are converted for the database once; each deal's JSON is
    # encoded once, for the deal and its history row alike.
    adapt = plan.deals.adapt
    now_db = adapt("created_at", now)
    encode = json.JSONEncoder().encode
    deals_add, history_add = plan.deals.add_adapted, plan.history.add_adapted
    lines_add = plan.lines.add_adapted
    club_id = club.pk
    standing, bids = plan.standing, plan.bids
    for (day, table), deals in scored.items():
        rules_plan, group = resolved[(day, table)]
        session = GameSession(id=next(session_ids), club=club, game=game, date=day, table=table,
                              rules_snapshot=rules_plan.snapshot, created_by=user,
                              notes=group[0].notes)  # fmt: skip
        plan.sessions.append((session, rules_plan))
        session_id = session.id
        day_db = plan.lines.adapt("date", day)
        # Standings: summed per player over the session (one day), then added to its periods.
        sums: dict[int, dict[str, int]] = defaultdict(lambda: defaultdict(int))
        for seq, item in enumerate(deals, start=1):
            deal_id = deal_ids[item.row.line]
            d = deal_columns(game, item.data)
            values = (deal_id, session_id, club_id, game, seq, encode(item.data),
                      encode(item.outcome), user_id, user_id, d["napoleon_id"], d["adjutant_id"],
                      d["bid"], d["trump"], d["redeal"], now_db, now_db)  # fmt: skip
            deals_add(values)
            history_add((*(values[i] for i in keep), now_db, "+", user_id))
            plan.deal_count += 1
            plan.redeals += int(d["redeal"])
            for s in item.specs:
                plan.named.add(s.player_id)
                lines_add((deal_id, session_id, club_id, game, day_db, *line_tuple(s)))
                player_sums = sums[s.player_id]
                for counter, value in counters(s).items():
                    player_sums[counter] += value
                bid = bid_counters(s)
                if bid is not None:
                    b = bids[(s.player_id, s.bid, s.trump)]
                    for counter, value in bid.items():
                        b[counter] += value
        for period in periods(day):
            for player_id, player_sums in sums.items():
                total = standing[(period, player_id)]
                for counter, value in player_sums.items():
                    total[counter] += value
    return plan


@transaction.atomic
def _write(club: Club, game: str, plan: _Plan, committed=None) -> None:
    """The one short transaction: re-check what may have changed, then bulk inserts only;
    ``committed()`` last, so that what it writes commits with the rows or not at all."""
    if connection.vendor == "postgresql":
        # Foreign keys are checked row by row as the rows go in, not all at COMMIT: the rows
        # the club's deals also lock (aggregates, the club's data version) are written last and
        # held only for the moment until COMMIT.
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            # The club row first (what the sessions' foreign keys lock anyway), before any
            # player: a merge locks the club row, then its players (services/merge.py). A
            # key-share lock: a deal's FOR NO KEY UPDATE does not wait for it.
            cursor.execute(
                f"SELECT 1 FROM {connection.ops.quote_name(Club._meta.db_table)} "  # noqa: S608
                "WHERE id = %s FOR KEY SHARE",
                [club.pk],
            )
    if (
        plan.new_players
        and Player.objects.filter(club=club, name_key__in=list(plan.new_players.values())).exists()
    ):
        raise _ChangedError
    # Score lines have no foreign-key constraint: the club's players they name are locked as
    # the constraint's checks would have locked them, once each instead of once a line.
    existing = plan.named - plan.new_ids
    if bulk.players_locked(existing) != existing:
        raise _ChangedError  # a player was merged or removed since the check
    wanted = {(s.date, s.table) for s, _rules in plan.sessions}
    if _existing_sessions(club, game, wanted):
        raise _ChangedError
    rulesets: dict[str, ClubRuleSet] = {}
    # A rule set the club does not have yet is created as the file's last session of its code
    # describes it (the latest the file knows); each session keeps its own snapshot.
    latest = {r.code: r for _s, r in plan.sessions if r.existing is None}
    for session, rules_plan in plan.sessions:
        code = rules_plan.code
        if code not in rulesets:
            current = ClubRuleSet.objects.filter(club=club, code=code).first()
            if current is None and rules_plan.existing is None:
                last = latest[code]
                current = ClubRuleSet.objects.create(club=club, code=code,
                                                     preset=last.snapshot["preset"],
                                                     options=last.snapshot["options"],
                                                     name=last.name)  # fmt: skip
            elif (
                current is None
                or rules_plan.existing is None
                or ruleset_snapshot(current) != rules_plan.seen
            ):
                raise _ChangedError
            rulesets[code] = current
        session.ruleset = rulesets[code]
    columns = ("id", "club_id", "game", "date", "table", "ruleset_id", "rules_snapshot",
               "created_by_id", "notes")  # fmt: skip
    sessions = bulk.Table(GameSession, columns)
    for session, _rules in plan.sessions:
        sessions.add(*(getattr(session, name) for name in columns))
    plan.players.insert()
    sessions.insert()
    plan.deals.insert()
    plan.lines.insert()
    plan.history.insert()
    # Last, so rows a concurrent deal also updates are held for the shortest time, and in a
    # deal's lock order: the club row, the aggregates, the club's rating state.
    club_version_bump(club_id=club.pk)  # cached read pages of the club render anew
    bulk.upsert_add(
        StandingAggregate, keys=("club", "game", "period", "player"),
        counters=StandingAggregate.COUNTERS,
        rows=sorted(
            (club.pk, game, period, player_id, *(c.get(n, 0) for n in StandingAggregate.COUNTERS))
            for (period, player_id), c in plan.standing.items()
        ),
    )  # fmt: skip
    bulk.upsert_add(
        BidAggregate, keys=("player", "bid", "trump"), fixed=("club",), counters=BID_COUNTERS,
        rows=sorted((pid, bid, trump, club.pk, *(c[n] for n in BID_COUNTERS))
                    for (pid, bid, trump), c in plan.bids.items()),
    )  # fmt: skip
    # The club's ratings are replayed after COMMIT; a replay computed meanwhile from the old
    # score lines must not be written.
    ratings_lines_changed(club_id=club.pk, game=game)
    if committed is not None:
        committed()


def _noop(stage: str, done: int, total: int) -> None:
    return None


def results_import(
    *, club: Club, file: bytes | str | None = None, rows: Iterable[Iterable[str]] | None = None,
    user=None, filename: str = "", sheet: str = "", progress: Progress | None = None,
    on_written: Callable[[ImportReport], None] | None = None,
) -> ImportReport:  # fmt: skip
    """Import a results file (CSV bytes or text, or an .xlsx workbook) or already-split
    ``rows`` (header first) into ``club``. Raises ``ImportFailed`` listing every problem; then
    nothing is written. ``progress(stage, done, total)`` is called now and then;
    ``on_written(report)`` inside the write transaction, after the rows, so that what it writes
    (a background job's outcome) is committed with them or not at all."""
    progress = progress or _noop
    source = _read(file, rows, filename, sheet)
    try:
        return _import(club, source, user, progress, on_written)
    except _ChangedError:
        pass
    try:  # the club changed between the check and the write: check everything again, once
        return _import(club, source, user, progress, on_written)
    except _ChangedError:
        raise ImportFailed([_problem(1, "file", _fail("file", "changed_meanwhile"))]) from None


def _read(file, rows, filename: str, sheet: str) -> Source:
    if rows is not None:
        records = [(n, [str(c) for c in cells]) for n, cells in enumerate(rows, start=1)]
        return Source(
            "utf-8", [(n, cells) for n, cells in records if any(c.strip() for c in cells)]
        )
    try:
        source = read_source(file if file is not None else b"", filename=filename, sheet=sheet)
    except FileProblem as problem:
        column = problem.error.field
        raise ImportFailed([_problem(problem.line, column, problem.error)]) from None
    return source


def _import(club: Club, source: Source, user, progress: Progress, on_written=None) -> ImportReport:
    records = source.records
    if not records:
        raise ImportFailed([_problem(1, "file", _fail("file", "empty_file"))])
    game, columns = _header(records[0][1])
    if len(records) == 1:
        raise ImportFailed([_problem(2, "file", _fail("file", "no_rows"))])
    total = len(records) - 1
    found = _Collector(shift_jis=source.kind == "cp932")
    names = _Names(club)
    parsed = []
    for done, (line, cells) in enumerate(records[1:], start=1):
        parsed.append(_row(line, cells, columns, game, names, found))
        if done % PROGRESS_EVERY == 0:
            progress("checking", done, total)
    rows = [r for r in parsed if r is not None]
    cache: dict = {}
    resolved = _check_sessions(club, game, [r for r in rows if not r.broken], found, cache)
    ids = dict(names.ids)
    if not found.problems and names.new:
        ids.update(zip(names.new, bulk.reserve_ids(Player, len(names.new)), strict=True))
    else:  # not written anyway: any key that cannot be a player id will do for the messages
        ids.update({name: -1 - i for i, name in enumerate(names.new)})
    found.names = {str(pid): name for name, pid in ids.items()}
    scored = _score_dry(game, resolved, ids, found, progress, total)
    _score_broken(club, game, [r for r in rows if r.broken], ids, found, cache)
    if found.problems:
        raise ImportFailed(found.problems)
    progress("writing", total, total)
    plan = _prepare(club, game, scored, resolved, names, ids, user)
    report = ImportReport(
        game=game, sessions=[s for s, _r in plan.sessions], deals=plan.deal_count,
        redeals=plan.redeals, players_created=len(plan.new_players),
        source=source_label(source.kind, source.sheet), source_kind=source.kind,
        sheet=source.sheet,
    )  # fmt: skip
    committed = (lambda: on_written(report)) if on_written else None
    tables = (plan.players, plan.deals, plan.lines, plan.history)
    try:
        for table in tables:  # SQLite: copied aside first, holding no lock (services/bulk.py)
            table.stage()
        with bulk_write():  # SQLite: a deal saved meanwhile waits only briefly (busy.py)
            _write(club, game, plan, committed)
    finally:
        for table in tables:  # after a failure: the staged copies go too
            table.unstage()
    # Ratings are derived from the whole history: replayed once, after the import committed,
    # in a transaction of their own (a failure leaves them to the next replay, never the deals).
    progress("ratings", total, total)
    ratings_replay(club_id=club.pk, game=game)
    progress("done", total, total)
    return report
