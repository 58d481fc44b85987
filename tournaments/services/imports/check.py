"""Checking: the rows grouped into sessions, their rule sets resolved, every deal scored.

Nothing is written and no lock is held: rows are scored by the scoring core through
``scoring_bridge`` exactly as ``deal_record`` scores a deal typed at the table. Player ids are
reserved first (``bulk.reserve_ids``), so deals are scored with their final keys and a message
names the player as the file does.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import rules
from core.errors import EfudaError
from scoring.cards import parse_card

from ...models import Club, ClubRuleSet, Game, GameSession, Player
from ...selectors.rulesets import rules_from_snapshot, ruleset_rules, ruleset_snapshot
from .. import bulk
from ..errors import fail
from ..import_files import Source
from ..scoring_bridge import score
from .problems import Collector, ImportFailed, import_error
from .rows import PROGRESS_EVERY, Names, Progress, Row, rows_read
from .shapes import Shape, ShapeScorer


@dataclass
class Rules:
    """A rule set as the import will use it: the club's own, or a preset not yet adopted."""

    code: str
    existing: ClubRuleSet | None
    snapshot: dict
    rules: rules.RuleSet
    name: str = ""
    seen: dict | None = None  # the club's rule set of this code as the check found it


def _defined(code: str, existing: ClubRuleSet | None, definition: tuple[str, str],
             name: str) -> Rules:  # fmt: skip
    """The rule set a file's row describes (its preset and options): the session keeps exactly
    these, whatever the club's rule set of that code says today (as a session recorded before a
    rule set was changed keeps the rules it was played under)."""
    preset_code, options_json = definition
    try:
        preset = rules.get_preset(preset_code)
    except EfudaError:
        raise fail("rules_preset", "ruleset_unknown", code=preset_code) from None
    if existing is not None and existing.preset != preset.code:
        raise import_error("rules_preset", "preset_differs", code=code,
                           club_preset=existing.preset, preset=preset.code)  # fmt: skip
    snapshot = {"preset": preset.code, "options": json.loads(options_json), "code": code}
    built = rules_from_snapshot(snapshot)  # an option that does not check names its key
    if existing is not None:
        return Rules(code, existing, snapshot, built, existing.name, ruleset_snapshot(existing))
    return Rules(code, None, snapshot, built, name=name)  # as the file names it


def _resolved(club: Club, code: str, definition: tuple[str, str] | None, name: str) -> Rules:
    """The rule set a session's code (and the file's description of it, if any) names."""
    existing = ClubRuleSet.objects.filter(club=club, code=code).first()
    if definition is not None:
        return _defined(code, existing, definition, name)
    if existing is not None:
        snapshot = ruleset_snapshot(existing)
        return Rules(code, existing, snapshot, ruleset_rules(existing), seen=snapshot)
    try:
        preset = rules.get_preset(code)
    except EfudaError:
        raise fail("rules", "ruleset_unknown", code=code) from None
    snapshot = {"preset": preset.code, "options": {}, "code": code}
    return Rules(code, None, snapshot, rules_from_snapshot(snapshot), name=preset.name_ja)


def rules_for(club: Club, code: str, game: str, cache: dict,
              definition: tuple[str, str] | None = None, name: str = "") -> Rules:  # fmt: skip
    if (code, definition) in cache:
        found = cache[(code, definition)]
    else:
        try:
            found = _resolved(club, code, definition, name)
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


def _one_rule_set(group: list[Row], found: Collector) -> None:
    """A session (same date and table) has one rule set: every row says what its first says."""
    first = group[0]
    for row in group[1:]:
        if row.rules != first.rules:
            found.add(row.line, import_error("rules", "rules_differ", line=first.line,
                                             first=first.rules))  # fmt: skip
        elif row.definition != first.definition:
            found.add(row.line, import_error("rules_options", "definition_differs",
                                             line=first.line))  # fmt: skip


def sessions_check(club: Club, game: str, rows: list[Row], found: Collector,
                   cache: dict) -> dict:  # fmt: skip
    """Group rows into sessions (date, table) in file order; resolve and check their rules."""
    sessions: dict[tuple, list[Row]] = {}
    for row in rows:
        sessions.setdefault((row.date, row.table), []).append(row)
    existing = existing_sessions(club, game, sessions)
    resolved = {}
    for (day, table), group in sessions.items():
        _one_rule_set(group, found)
        first = group[0]
        try:
            plan = rules_for(club, first.rules, game, cache, first.definition, first.rules_name)
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


def existing_sessions(club: Club, game: str, wanted) -> set[tuple]:
    """Which of the ``wanted`` (date, table) sessions the club has already."""
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


def _listed_twice(game: str, row: Row, found: Collector) -> bool:
    """A player named twice in a deal is a problem of the row, before it is scored."""
    twice = _duplicates(row.names)
    if twice is None:
        return False
    column = "players" if game == Game.NAPOLEON else "order"
    found.add(row.line, import_error(column, "name_twice", player=twice), column)
    return True


def _called(text: str, jokers, cards: dict) -> str:
    """The called card's code (each distinct cell read once per import)."""
    found = cards.get((text, jokers))
    if found is None:
        found = cards[(text, jokers)] = parse_card(text, "called", jokers=jokers).code
    return found


def _deal_data(game: str, row: Row, ids: dict[str, int], ruleset: rules.RuleSet,
               previous: str | None, cards: dict | None = None) -> dict:  # fmt: skip
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
        called = _called(called, ruleset.jokers, {} if cards is None else cards)
    return {
        "seats": seats, "napoleon": key(v["napoleon"]), "bid": v["bid"], "trump": v["trump"],
        "called": called, "adjutant": key(v["adjutant"]), "solo": v["solo"],
        "honours": v["honours"],
        "discarded": v["discarded"], "last_trick": v["last_trick"], "redeal": False,
    }  # fmt: skip


@dataclass
class Scored:
    row: Row
    data: dict
    shape: Shape  # the outcome and score lines of the deal's shape (``shapes``)
    keys: tuple[str, ...]  # the deal's player keys, in the shape's placeholder order


def score_dry(game: str, resolved: dict, ids: dict[str, int], found: Collector,
              progress: Progress, total: int) -> dict:  # fmt: skip
    """Score every row as ``deal_record`` would, through ``scoring_bridge``, each distinct deal
    shape once (``shapes``); nothing written."""
    scored: dict[tuple, list[Scored]] = {}
    scorer = ShapeScorer(game)
    cards: dict = {}
    done = 0
    for session_key, (plan, group) in resolved.items():
        previous = None
        out = scored[session_key] = []
        for row in group:
            done += 1
            if done % PROGRESS_EVERY == 0:
                progress("scoring", done, total)
            if _listed_twice(game, row, found):
                continue
            try:
                data = _deal_data(game, row, ids, plan.rules, previous, cards)
                shape, keys = scorer.score(data, plan.rules)
            except EfudaError as err:
                found.add(row.line, err)
                continue
            if game == Game.DAIFUGO:
                previous = keys[shape.first]
            out.append(Scored(row, data, shape, keys))
    return scored


def score_broken(club: Club, game: str, rows: list[Row], ids: dict[str, int],
                 found: Collector, cache: dict) -> None:  # fmt: skip
    """Rows with a wrong cell outside the deal (a date, a table…) are checked against their
    rules too, alone (a Daifugō round without the round before it), so their other errors are
    reported with the first; nothing of them is kept."""
    for row in rows:
        try:
            plan = rules_for(club, row.rules, game, cache, row.definition, row.rules_name)
        except EfudaError as err:
            found.add(row.line, err, _rules_column(err))
            continue
        if _listed_twice(game, row, found):
            continue
        try:
            score(game, _deal_data(game, row, ids, plan.rules, None), plan.rules)
        except EfudaError as err:
            found.add(row.line, err)


@dataclass
class Checked:
    """A file that passed every check: its sessions with their rule sets, its deals scored."""

    game: str
    total: int
    names: Names
    ids: dict[str, int]  # display name -> player id (reserved for the players it creates)
    resolved: dict  # (date, table) -> (Rules, [Row])
    scored: dict  # (date, table) -> [Scored]


def _player_ids(names: Names, found: Collector) -> dict[str, int]:
    ids = dict(names.ids)
    if not found.problems and names.new:
        ids.update(zip(names.new, bulk.reserve_ids(Player, len(names.new)), strict=True))
    else:  # not written anyway: any key that cannot be a player id will do for the messages
        ids.update({name: -1 - i for i, name in enumerate(names.new)})
    found.names = {str(pid): name for name, pid in ids.items()}
    return ids


def source_check(club: Club, source: Source, progress: Progress) -> Checked:
    """Read, check and score every row of ``source``; ``ImportFailed`` lists every problem."""
    parsed = rows_read(club, source, progress)
    game, found, total = parsed.game, parsed.found, parsed.total
    cache: dict = {}
    resolved = sessions_check(club, game, [r for r in parsed.rows if not r.broken], found, cache)
    ids = _player_ids(parsed.names, found)
    scored = score_dry(game, resolved, ids, found, progress, total)
    score_broken(club, game, [r for r in parsed.rows if r.broken], ids, found, cache)
    if found.problems:
        raise ImportFailed(found.problems)
    return Checked(game, total, parsed.names, ids, resolved, scored)
