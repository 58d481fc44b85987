"""Scoring once per deal shape: a file's deals scored by the scoring core, each distinct shape once.

Ten years of a club's results repeat themselves: the same bid, trump, honours and discards with
the Napoleon and the adjutant in the same seats, only the people differ. The scoring core is a
pure function of the deal, and it treats player keys as names only (it compares them, never
reads them), so a deal whose keys are renamed scores exactly as the deal did, with its keys
renamed. A deal is therefore scored with placeholder keys in their place — the first seated
player is the first placeholder, and so on (``_canonical``) — and what the core gives for that
*shape* under that rule set is kept (``Shape``): the outcome as JSON text and the score lines,
the placeholders in them stamped with the deal's real player ids for each deal of the shape.

Where the players sit changes nothing but the order: a Napoleon deal's points and roles go by
who the Napoleon and the adjutant are (``scoring.napoleon.napoleon_reseated``). So a Napoleon
deal is scored once *by role* — the Napoleon the first placeholder, the adjutant the second, the
others in seat order — and each seating of it is built from that (``_reseated``): the outcome's
points and roles put in the seats' order, each score line given its seat.

A deal the core refuses is scored again as it is, so its message names its players as
``deal_record`` would; nothing of a refused shape is kept.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import rules
from core.errors import EfudaError
from scoring.napoleon import napoleon_reseated

from ...models import Game
from ..scoring_bridge import counters, line_specs, line_tuple, outcome_dict, score

# Player keys no player can have (ids are positive) and no other JSON text of a deal holds:
# what the scoring core sees in their place. They read as whole numbers, as real keys do.
_BASE = -9_000_000_000
_PLACEHOLDERS = tuple(str(_BASE - i) for i in range(64))
_NAMES = tuple(str(i) for i in range(64))
_encode = json.JSONEncoder().encode


def _placeholder(i: int) -> str:
    return _PLACEHOLDERS[i] if i < len(_PLACEHOLDERS) else str(_BASE - i)


class _Stamp:
    """JSON text with placeholder keys, as a %-format of the real keys (a key as a value, and
    a key inside a text, e.g. an explanation's list of players). Placeholders all have the
    same number of digits, so one is never part of another."""

    __slots__ = ("text",)

    def __init__(self, text: str, count: int):
        text = text.replace("%", "%%")
        for i in range(count):
            text = text.replace(_placeholder(i), f"%({i})s")
        self.text = text

    @classmethod
    def joined(cls, texts) -> _Stamp:
        """Stamps' texts (``text``) joined into one."""
        stamp = cls.__new__(cls)
        stamp.text = "".join(texts)
        return stamp

    def __call__(self, keys: tuple[str, ...]) -> str:
        names = _NAMES if len(keys) <= len(_NAMES) else tuple(map(str, range(len(keys))))
        return self.text % dict(zip(names, keys, strict=False))


@dataclass(frozen=True, eq=False)  # compared and hashed as itself: counted per line
class ShapeLine:
    """A score line of a shape: whose it is (placeholder index) and the rest of its columns."""

    who: int
    rest: tuple  # ``line_tuple`` without the player id (seat, points, role, …)
    counted: tuple  # ``counters(line)`` as (name, value) pairs
    bid: tuple | None  # (bid, trump) for the Napoleon's own line, else None


@dataclass(frozen=True)
class Shape:
    """What the core gave for one shape: the outcome's JSON text and the score lines, with
    placeholders; ``outcome_json(keys)`` stamps the keys."""

    outcome_json: _Stamp
    lines: tuple[ShapeLine, ...]
    first: int | None  # Daifugō: the placeholder index of the round's first out (next round's)


def _canonical(game: str, data: dict) -> tuple[dict, tuple[str, ...]]:
    """``data`` with every player key replaced by a placeholder (in order of first mention,
    the seats or the order first), and the real keys in placeholder order."""
    index: dict[str, str] = {}
    keys: list[str] = []

    def ph(key):
        if key is None:
            return None
        found = index.get(key)
        if found is None:
            found = index[key] = _placeholder(len(keys))
            keys.append(key)
        return found

    canon = dict(data)
    if game == Game.NAPOLEON:
        canon["seats"] = [ph(k) for k in data["seats"]]
        if "napoleon" in data:
            canon["napoleon"] = ph(data["napoleon"])
        if "adjutant" in data:
            canon["adjutant"] = ph(data["adjutant"])
    else:
        canon["order"] = [ph(k) for k in data["order"]]
        canon["forbidden"] = [ph(k) for k in data["forbidden"]]
        canon["previous_daifugo"] = ph(data.get("previous_daifugo"))
    return canon, tuple(keys)


def _seated(data: dict, ruleset: rules.RuleSet) -> tuple[tuple, tuple[str, ...], bool] | None:
    """A Napoleon deal's memo key, keys and whether it is scored by role, quickly: when its
    seats are distinct and its Napoleon and adjutant seated (or none), the key is the seats'
    count, the two seat numbers and the deal's other values (None otherwise: ``_canonical``
    then). A deal with a Napoleon and another adjutant (or none) is scored by role
    (``_by_role``): its keys are the Napoleon, the adjutant, then the others in seat order;
    any other deal's keys are its seats."""
    seats = data["seats"]
    seat = {k: i for i, k in enumerate(seats)}
    napoleon, adjutant = data.get("napoleon"), data.get("adjutant")
    if len(seat) != len(seats) or (napoleon is not None and napoleon not in seat):
        return None
    if adjutant is not None and adjutant not in seat:
        return None
    rest = tuple((k, v) for k, v in data.items() if k not in _PLAYER_FIELDS)
    where = (len(seats), seat.get(napoleon), seat.get(adjutant), "napoleon" in data,
             "adjutant" in data)  # fmt: skip
    if napoleon is None or napoleon == adjutant or data.get("redeal") is not False:
        return (id(ruleset), where, rest), tuple(seats), False
    first = (napoleon,) if adjutant is None else (napoleon, adjutant)
    keys = first + tuple(k for k in seats if k not in first)
    return (id(ruleset), where, rest), keys, True


_PLAYER_FIELDS = frozenset({"seats", "napoleon", "adjutant"})


def _frozen(canon: dict) -> tuple:
    return tuple((k, tuple(v) if isinstance(v, list) else v) for k, v in canon.items())


def _shape(game: str, canon: dict, count: int, ruleset: rules.RuleSet, kinds: dict) -> Shape:
    """Score the shape (raises what the core raises)."""
    result = score(game, canon, ruleset)
    lines = tuple(_line(spec, kinds) for spec in line_specs(game, canon, result))
    first = None
    if game == Game.DAIFUGO:
        first = _BASE - int(result.final_order[0])
    return Shape(_Stamp(_encode(outcome_dict(game, result)), count), lines, first)


def _line(spec, kinds: dict, who: int | None = None) -> ShapeLine:
    values = line_tuple(spec)
    rest = values[1:]
    counted = kinds.get(rest)
    if counted is None:  # a line's counters are a function of its columns: a few kinds
        counted = tuple(counters(spec).items())
        counted = kinds[rest] = kinds.setdefault(counted, counted)
    bid = (spec.bid, spec.trump) if spec.role == "napoleon" and spec.bid is not None else None
    return ShapeLine(_BASE - values[0] if who is None else who, rest, counted, bid)


@dataclass(frozen=True)
class _ByRole:
    """The core's result for a Napoleon deal by role, its outcome as JSON holds it and its
    score lines by placeholder index, for every seating of the deal (``_reseated``)."""

    result: object
    outcome: tuple[str, str, str]  # the outcome's stamp text around its points and its roles
    lines: dict[int, ShapeLine]


# Stand-ins for the outcome's points and roles in its JSON text, where each seating's go.
_POINTS, _ROLES = "\x00points", "\x00roles"
_AROUND = (_encode(_POINTS), _encode(_ROLES))


def _around(outcome: dict, count: int) -> tuple[str, str, str]:
    """The outcome's stamp text before its points, between them and its roles, and after."""
    text = _Stamp(_encode(dict(outcome, points=_POINTS, roles=_ROLES)), count).text
    head, rest = text.split(_AROUND[0])
    middle, tail = rest.split(_AROUND[1])
    return head, middle, tail


def _by_role(data: dict, keys: tuple[str, ...]) -> tuple[dict, dict]:
    """The deal with placeholders by role (the Napoleon the first, the adjutant, if any, the
    second, the others in seat order: ``keys``' order), as the core scores it once for every
    seating (``by_role``), and the deal with the same placeholders in its own seats."""
    solo = len(keys) > 1 and data.get("adjutant") != keys[1]
    placeholders = [_placeholder(i) for i in range(len(keys))]
    by_role = dict(data, seats=placeholders, napoleon=placeholders[0])
    if "adjutant" in data:
        by_role["adjutant"] = None if solo else placeholders[1]
    where = {k: p for k, p in zip(keys, placeholders, strict=True)}
    return by_role, dict(by_role, seats=[where[k] for k in data["seats"]])


class ShapeScorer:
    """Scores deals of one import, each distinct (rule set, shape) once."""

    def __init__(self, game: str):
        self.game = game
        self.shapes: dict[tuple, Shape] = {}
        self.kinds: dict[tuple, tuple] = {}
        self.by_role: dict[tuple, object] = {}  # Napoleon: the core's result per deal by role
        self.scored = 0  # how many times the core was called (for the bench and the tests)

    def score(self, data: dict, ruleset: rules.RuleSet) -> tuple[Shape, tuple[str, ...]]:
        """The deal's shape and its real keys in placeholder order; raises ``EfudaError`` as
        ``scoring_bridge.score`` would for the deal itself."""
        quick = _seated(data, ruleset) if self.game == Game.NAPOLEON else None
        if quick is not None:
            memo_key, keys, by_role = quick
            shape = self.shapes.get(memo_key)
            if shape is None and by_role:
                shape = self.shapes[memo_key] = self._reseated(data, keys, ruleset)
            if shape is not None:
                return shape, keys
        canon, keys = _canonical(self.game, data)
        memo_key = (id(ruleset), _frozen(canon))
        if quick is not None:
            memo_key = quick[0]
        shape = self.shapes.get(memo_key)
        if shape is None:
            try:
                self.scored += 1
                shape = _shape(self.game, canon, len(keys), ruleset, self.kinds)
            except EfudaError:
                score(self.game, data, ruleset)  # raises the deal's own message, its own names
                raise  # (a renamed deal scores as the deal does: not reached)
            self.shapes[memo_key] = shape
        return shape, keys

    def _reseated(self, data: dict, keys: tuple[str, ...], ruleset: rules.RuleSet) -> Shape:
        """A Napoleon deal's shape from the core's result for its deal by role, scored once for
        every seating of the Napoleon and the adjutant and reseated (``napoleon_reseated``):
        the outcome's points and roles in the seats' order, each score line with its seat."""
        by_role, seated = _by_role(data, keys)
        role_key = (id(ruleset), _frozen(by_role))
        core = self.by_role.get(role_key)
        if core is None:
            try:
                self.scored += 1
                result = score(self.game, by_role, ruleset)
            except EfudaError:
                score(self.game, data, ruleset)  # raises the deal's own message, its own names
                raise  # (a renamed, reseated deal scores as the deal does: not reached)
            lines = {_BASE - spec.player_id: _line(spec, self.kinds)
                     for spec in line_specs(self.game, by_role, result)}  # fmt: skip
            around = _around(outcome_dict(self.game, result), len(keys))
            core = self.by_role[role_key] = _ByRole(result, around, lines)
        seats = seated["seats"]
        result = napoleon_reseated(core.result, seats)
        head, middle, tail = core.outcome  # the rest of the outcome is the same in any seats
        points = _Stamp(_encode(dict(result.points)), len(keys)).text
        roles = _Stamp(_encode(dict(result.roles)), len(keys)).text
        outcome = _Stamp.joined((head, points, middle, roles, tail))
        return Shape(outcome, self._lines(core, seats), None)

    def _lines(self, core: _ByRole, seats: list[str]) -> tuple[ShapeLine, ...]:
        """The deal by role's score lines in these seats: each with its seat, in seat order."""
        kinds, lines = self.kinds, []
        for seat, placeholder in enumerate(seats, start=1):
            who = _BASE - int(placeholder)
            line = core.lines[who]
            rest = (seat, *line.rest[1:])
            counted = kinds.get(rest)
            if counted is None:
                counted = kinds[rest] = kinds.setdefault(line.counted, line.counted)
            lines.append(ShapeLine(who, rest, counted, line.bid))
        return tuple(lines)
