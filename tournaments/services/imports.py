"""Import results from a CSV file, all or nothing (docs/import-format.md).

The header names the game. Every row is checked first — columns, dates, numbers, names, rule
sets, sessions already in the database — and then scored by the pure core with the players'
display names as keys, so an error message names the player as the file does. Only when no row
has an error are players, sessions and deals written, through the ordinary services
(``session_create``, ``deal_record``), so score lines and aggregates are exactly what entry at
the table would give. Everything runs in one transaction: one bad row, nothing imported.
"""

from __future__ import annotations

import csv
import datetime
import io
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import NamedTuple

from django.db import transaction
from django.utils.translation import gettext

from core.errors import EfudaError
from core.i18n import N_
from scoring.cards import parse_card, parse_suit
from scoring.daifugo import DaifugoRound, score_daifugo
from scoring.napoleon import LAST_TRICK_SIDES, NapoleonDeal, score_napoleon

from ..i18n import error_text
from ..models import Club, ClubRuleSet, Game, GameSession, Player, normalise_name
from ..selectors import rulesets as ruleset_reads
from .deals import deal_record
from .errors import fail, make_fail
from .players import clean_player_name, player_get_or_create
from .ratings import ratings_deferred
from .rulesets import ruleset_resolve
from .sessions import session_create

NAPOLEON_COLUMNS = (
    "date", "table", "rules", "players", "napoleon", "bid", "trump", "called", "adjutant",
    "honours", "discarded",
)  # fmt: skip
NAPOLEON_OPTIONAL = ("last_trick",)
DAIFUGO_COLUMNS = ("date", "table", "rules", "order", "forbidden")
MAX_BYTES = 5 * 1024 * 1024
MAX_TABLE = 40
NAME_SEPARATORS = re.compile("[;；]")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")

MESSAGES = {
    "empty_file": N_("The file is empty."),
    "too_big": N_("The file is larger than %(max)s MB."),
    "not_utf8": N_("The file is not UTF-8 text (line %(line)s): save it as “CSV UTF-8”."),
    "not_csv": N_("This line cannot be read as CSV: %(detail)s."),
    "bad_header": N_(
        "Unknown header. A Napoleon file has the columns %(napoleon)s (and optionally "
        "last_trick); a Daifugō file has the columns %(daifugo)s."
    ),
    "header_missing": N_("The header lacks the columns %(missing)s (expected %(expected)s)."),
    "header_unknown": N_("The header has unknown columns %(unknown)s (expected %(expected)s)."),
    "header_duplicate": N_("The column %(column)s appears twice in the header."),
    "no_rows": N_("The file has a header but no results."),
    "column_count": N_("This line has %(found)s columns; the header has %(expected)s."),
    "required": N_("This column must not be empty."),
    "date_invalid": N_("“%(value)s” is not a date: write YYYY-MM-DD, e.g. 2026-11-20."),
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
}


_fail = make_fail(MESSAGES)


# Scoring-core fields that have another name in the file.
_FIELD_COLUMNS = {"seats": "players", "card": "called", "preset": "rules",
                  "previous_daifugo": "order", "bid_log": "bid", "deal": "players"}  # fmt: skip


class ImportProblem(NamedTuple):
    """One error: the file's line number (header = 1), the column, the message."""

    line: int
    field: str
    message: str

    def __str__(self) -> str:
        return gettext("line %(line)s, field %(field)s: %(message)s") % self._asdict()


class ImportFailed(Exception):  # noqa: N818 - an outcome, named as the spec names it
    """Nothing was imported; ``problems`` lists every error found, by line."""

    def __init__(self, problems: Iterable[ImportProblem]):
        self.problems = sorted(problems, key=lambda p: (p.line, p.field))
        super().__init__("\n".join(str(p) for p in self.problems))


@dataclass
class ImportReport:
    game: str
    sessions: list[GameSession] = field(default_factory=list)
    deals: int = 0
    redeals: int = 0
    players_created: int = 0


@dataclass
class _Row:
    line: int
    date: datetime.date
    table: str
    rules: str
    # Player display names (canonical for the club), and the deal's other fields.
    names: tuple[str, ...]
    values: dict


@dataclass
class _Collector:
    problems: list[ImportProblem] = field(default_factory=list)

    def add(self, line: int, error: EfudaError, column: str | None = None) -> None:
        name = column or _FIELD_COLUMNS.get(error.field, error.field)
        self.problems.append(ImportProblem(line, name, error_text(error)))


# --- reading the file -------------------------------------------------------------------------


def _decode(data: bytes | str) -> str:
    if isinstance(data, str):
        return data.lstrip("\ufeff")
    if len(data) > MAX_BYTES:
        raise ImportFailed([_problem(1, "file", _fail("file", "too_big", max=MAX_BYTES // 2**20))])
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        raise ImportFailed([_problem(line, "file", _fail("file", "not_utf8", line=line))]) from None


def _problem(line: int, column: str, error: EfudaError) -> ImportProblem:
    return ImportProblem(line, column, error_text(error))


def _records(text: str) -> list[tuple[int, list[str]]]:
    """(first line number, cells) of every non-blank CSV record."""
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    records, start = [], 1
    while True:
        try:
            cells = next(reader)
        except StopIteration:
            return records
        except csv.Error as err:
            raise ImportFailed(
                [_problem(start, "file", _fail("file", "not_csv", detail=str(err)))]
            ) from None
        if any(cell.strip() for cell in cells):
            records.append((start, cells))
        start = reader.line_num + 1


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
        (Game.DAIFUGO, DAIFUGO_COLUMNS, ()),
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
                      daifugo=",".join(DAIFUGO_COLUMNS))  # fmt: skip
    raise ImportFailed([_problem(1, "header", error)])


# --- checking one row ---------------------------------------------------------------------------


class _Names:
    """Display names by normalised key: the club's players first, then first use in the file."""

    def __init__(self, club: Club):
        self.known: dict[str, str] = dict(
            Player.objects.filter(club=club).values_list("name_key", "name")
        )

    def canonical(self, text: str, column: str) -> str:
        name = clean_player_name(text, field=column)
        return self.known.setdefault(normalise_name(name), name)


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
    text = value.strip()
    try:
        if _DATE.match(text):
            return datetime.date.fromisoformat(text)
    except ValueError:
        pass
    raise _fail("date", "date_invalid", value=value)


def _common(cells: dict, errors: list) -> tuple:
    day = table = rules = None
    try:
        day = _date(cells["date"])
    except EfudaError as err:
        errors.append((err, "date"))
    table = " ".join(cells["table"].split()) or "A"
    if len(table) > MAX_TABLE:
        errors.append((_fail("table", "table_long", max=MAX_TABLE), "table"))
    rules = cells["rules"].strip()
    if not rules:
        errors.append((_fail("rules", "required"), "rules"))
    return day, table, rules


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


def _row(line: int, cells: list[str], columns: list[str], game: str, names: _Names,
         found: _Collector) -> _Row | None:  # fmt: skip
    if len(cells) != len(columns):
        found.add(line, _fail("file", "column_count", found=len(cells), expected=len(columns)),
                  "file")  # fmt: skip
        return None
    by_column = dict(zip(columns, cells, strict=True))
    errors: list = []
    day, table, rules = _common(by_column, errors)
    reader = _napoleon_values if game == Game.NAPOLEON else _daifugo_values
    players, values = reader(by_column, names, errors)
    for error, column in errors:
        found.add(line, error, column)
    if errors:
        return None
    return _Row(line, day, table, rules, players, values)


# --- scoring, dry, with names as keys -----------------------------------------------------------


def _score_dry(row: _Row, game: str, ruleset, previous: str | None):
    if game == Game.NAPOLEON:
        v = row.values
        if v["redeal"]:
            deal = NapoleonDeal(seats=row.names, redeal=True)
        else:
            called = v["called"]
            if called is not None:
                called = parse_card(called, "called", jokers=ruleset.jokers).code
                v["called"] = called
            deal = NapoleonDeal(
                seats=row.names, napoleon=v["napoleon"], bid=v["bid"], trump=v["trump"],
                called=called, adjutant=v["adjutant"], solo=v["solo"], honours=v["honours"],
                discarded=v["discarded"], last_trick=v["last_trick"],
            )  # fmt: skip
        return score_napoleon(deal, ruleset)
    return score_daifugo(
        DaifugoRound(order=row.names, forbidden=frozenset(row.values["forbidden"]),
                     previous_daifugo=previous),
        ruleset,
    )  # fmt: skip


def _duplicates(names: tuple[str, ...]) -> str | None:
    seen: set[str] = set()
    for name in names:
        if name in seen:
            return name
        seen.add(name)
    return None


def _resolve_rules(club: Club, code: str, game: str) -> ClubRuleSet:
    return ruleset_resolve(club=club, code=code, game=game)


def _check_sessions(club: Club, game: str, rows: list[_Row], found: _Collector) -> dict:
    """Group rows into sessions (date, table) in file order; resolve and check their rules."""
    sessions: dict[tuple, list[_Row]] = {}
    for row in rows:
        sessions.setdefault((row.date, row.table), []).append(row)
    resolved = {}
    for (day, table), group in sessions.items():
        first = group[0]
        for row in group[1:]:
            if row.rules != first.rules:
                found.add(row.line, _fail("rules", "rules_differ", line=first.line,
                                          first=first.rules))  # fmt: skip
        try:
            ruleset = _resolve_rules(club, first.rules, game)
            pure = ruleset_reads.ruleset_rules(ruleset)
        except EfudaError as err:
            found.add(first.line, err, "rules")
            continue
        if GameSession.objects.filter(club=club, game=game, date=day, table=table).exists():
            found.add(first.line, fail("table", "session_exists", game=str(Game(game).label),
                                       table=table, date=str(day)))  # fmt: skip
            continue
        resolved[(day, table)] = (ruleset, pure, group)
    return resolved


def _dry_run(game: str, resolved: dict, found: _Collector) -> None:
    for _ruleset, ruleset_rules, group in resolved.values():
        previous = None
        for row in group:
            twice = _duplicates(row.names)
            if twice is not None:
                column = "players" if game == Game.NAPOLEON else "order"
                found.add(row.line, _fail(column, "name_twice", player=twice), column)
                continue
            try:
                result = _score_dry(row, game, ruleset_rules, previous)
            except EfudaError as err:
                found.add(row.line, err)
                continue
            if game == Game.DAIFUGO:
                previous = result.final_order[0]


# --- writing ------------------------------------------------------------------------------------


def _deal_data(game: str, row: _Row, ids: Mapping[str, int]) -> dict:
    def key(name):
        return None if name is None else str(ids[name])

    if game == Game.DAIFUGO:
        return {"order": [key(n) for n in row.names],
                "forbidden": [key(n) for n in row.values["forbidden"]]}  # fmt: skip
    seats = [key(n) for n in row.names]
    v = row.values
    if v["redeal"]:
        return {"seats": seats, "napoleon": None, "redeal": True}
    return {
        "seats": seats, "napoleon": key(v["napoleon"]), "bid": v["bid"], "trump": v["trump"],
        "called": v["called"], "adjutant": key(v["adjutant"]), "solo": v["solo"],
        "honours": v["honours"],
        "discarded": v["discarded"], "last_trick": v["last_trick"], "redeal": False,
    }  # fmt: skip


def _write(club: Club, game: str, resolved: dict, user, found: _Collector) -> ImportReport:
    report = ImportReport(game=game)
    ids: dict[str, int] = {}
    before = Player.objects.filter(club=club).count()
    for _ruleset, _rules, group in resolved.values():
        for row in group:
            for name in row.names:
                if name not in ids:
                    ids[name] = player_get_or_create(club=club, name=name).id
    report.players_created = Player.objects.filter(club=club).count() - before
    id_names = {str(pid): name for name, pid in ids.items()}
    for (day, table), (ruleset, _rules, group) in resolved.items():
        try:
            session = session_create(club=club, ruleset=ruleset, date=day, table=table, user=user)
        except EfudaError as err:
            found.add(group[0].line, err, "table")
            continue
        report.sessions.append(session)
        for row in group:
            try:
                deal = deal_record(session=session, data=_deal_data(game, row, ids), user=user)
            except EfudaError as err:  # the dry run passed, so this is unexpected: still report
                found.problems.append(ImportProblem(
                    row.line, _FIELD_COLUMNS.get(err.field, err.field), error_text(err, id_names)
                ))  # fmt: skip
                continue
            report.deals += 1
            report.redeals += int(deal.redeal)
    return report


@transaction.atomic
def results_import(
    *, club: Club, file: bytes | str | None = None, rows: Iterable[Iterable[str]] | None = None,
    user=None,
) -> ImportReport:  # fmt: skip
    """Import a results file (bytes or text) or already-split ``rows`` (header first) into
    ``club``. Raises ``ImportFailed`` listing every problem; then nothing is written."""
    if rows is not None:
        records = [(n, [str(c) for c in cells]) for n, cells in enumerate(rows, start=1)]
        records = [(n, cells) for n, cells in records if any(c.strip() for c in cells)]
    else:
        text = _decode(file if file is not None else b"")
        if not text.strip():
            raise ImportFailed([_problem(1, "file", _fail("file", "empty_file"))])
        records = _records(text)
    if not records:
        raise ImportFailed([_problem(1, "file", _fail("file", "empty_file"))])
    game, columns = _header(records[0][1])
    if len(records) == 1:
        raise ImportFailed([_problem(2, "file", _fail("file", "no_rows"))])
    found = _Collector()
    names = _Names(club)
    parsed = [_row(line, cells, columns, game, names, found) for line, cells in records[1:]]
    resolved = _check_sessions(club, game, [r for r in parsed if r is not None], found)
    _dry_run(game, resolved, found)
    if found.problems:
        raise ImportFailed(found.problems)
    with ratings_deferred():  # one replay of the club's ratings, not one per deal
        report = _write(club, game, resolved, user, found)
    if found.problems:
        raise ImportFailed(found.problems)
    return report
