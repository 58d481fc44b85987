"""Club overrides on top of a preset: what may be changed, and checking a change.

``OPTION_SPECS`` tells the Django app which options exist for which preset, so it can build a
form; ``build_ruleset`` applies a club's options and refuses anything else with an EfudaError
whose field is ``options.<key>`` (like Tabbycat's standings options: an unknown one raises).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from core.errors import EfudaError
from core.i18n import N_
from rules.presets import get_preset
from rules.ruleset import RuleSet
from rules.tables import PointTable, check_table, flat_table
from rules.titles import DEFAULT_TITLE_POINTS, TITLES, check_title_points

_NAPOLEON = ("napoleon-originator", "napoleon-wiki", "napoleon-joker")
_DAIFUGO = ("daifugo-hyousube", "daifugo-common")
POINT_TABLE_KEYS = ("napoleon", "adjutant", "ally", "solo_napoleon", "solo_ally")


@dataclass(frozen=True)
class OptionSpec:
    """One club option: its key, value type, allowed values and the presets it applies to.

    ``type`` is "int", "bool", "choice" or "mapping"; for "choice" ``choices`` lists the
    values; for "mapping" ``keys`` lists the keys of the inner mapping.
    """

    key: str
    type: str
    presets: tuple[str, ...]
    label: str
    help: str
    choices: tuple[Any, ...] = ()
    keys: tuple[str, ...] = ()


OPTION_SPECS: tuple[OptionSpec, ...] = (
    OptionSpec(
        key="min_bid", type="int", presets=_NAPOLEON,
        label=N_("Lowest bid"),
        help=N_("Raise the lowest bid for every table size (12 is common)."),
    ),
    OptionSpec(
        key="discard_policy", type="choice", presets=("napoleon-wiki", "napoleon-joker"),
        choices=("nobody", "napoleon", "last_trick"),
        label=N_("Discarded honours"),
        help=N_("Who gets honours among the discards: nobody, the Napoleon army, or whoever "
                "won the last trick."),
    ),
    OptionSpec(
        key="all20_loses", type="bool", presets=("napoleon-joker",),
        label=N_("All 20 loses"),
        help=N_("If the Napoleon army takes all 20 honours, Napoleon loses unless the bid was "
                "20, and the deal's points are doubled."),
    ),
    OptionSpec(
        key="jokers", type="choice", presets=("napoleon-originator",), choices=(0, 1),
        label=N_("Joker"),
        help=N_("Play with one joker: the widow and the exchange get one more card."),
    ),
    OptionSpec(
        key="title_points", type="mapping", presets=_DAIFUGO, keys=TITLES,
        label=N_("Points per title"),
        help=N_("Points for 大富豪 (grand millionaire), 富豪 (millionaire), 平民 (commoner), "
                "貧民 (poor) and 大貧民 (grand pauper); they must sum to zero at every table size "
                "from 3 to 8 players."),
    ),
    OptionSpec(
        key="point_table", type="mapping", presets=_NAPOLEON, keys=POINT_TABLE_KEYS,
        label=N_("Custom point table"),
        help=N_("A flat table per player count (Napoleon, adjutant, each ally, solo Napoleon, "
                "solo each ally); every row must balance."),
    ),
)  # fmt: skip

OPTIONS_BY_KEY: Mapping[str, OptionSpec] = {spec.key: spec for spec in OPTION_SPECS}


def options_for(preset: str) -> tuple[OptionSpec, ...]:
    """The options a club may set on ``preset``."""
    get_preset(preset)
    return tuple(spec for spec in OPTION_SPECS if preset in spec.presets)


def _error(option: str, code: str, message: str, /, **params: Any) -> EfudaError:
    return EfudaError(f"options.{option}", code, message, params)


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def build_ruleset(
    preset: str, options: Mapping[str, Any] | None = None, *, code: str | None = None
) -> RuleSet:
    """``preset`` with a club's ``options`` applied and checked; ``code`` names the result."""
    base = get_preset(preset)
    if options is None:
        options = {}
    if not isinstance(options, Mapping):
        raise EfudaError("options", "options_not_mapping",
                         N_("Options must be a mapping of option name to value."))  # fmt: skip
    if code is not None and (not isinstance(code, str) or not code.strip()):
        raise EfudaError("code", "invalid_code", N_("A rule set needs a non-empty code."))
    changes: dict[str, Any] = {}
    applied: dict[str, Any] = {}
    for key, value in options.items():
        spec = OPTIONS_BY_KEY.get(key) if isinstance(key, str) else None
        if spec is None:
            raise EfudaError(f"options.{key}", "unknown_option", N_("Unknown option “%(key)s”."),
                             {"key": str(key)})  # fmt: skip
        if base.preset not in spec.presets:
            raise _error(key, "option_not_allowed",
                         N_("The option “%(key)s” does not apply to %(preset)s."),
                         key=key, preset=base.preset)  # fmt: skip
        applied[key] = _APPLY[key](base, value, changes)
    changes["options"] = applied
    changes["code"] = code or base.code
    # Each option was checked on its own above, and no combination of them can break the rule
    # set (a raised lowest bid stays inside tables that cover every bid or are flat; the joker
    # only grows the widow); RuleSet checks itself again all the same.
    return dataclasses.replace(base, **changes)


def _min_bid(base: RuleSet, value: Any, changes: dict) -> int:
    lowest = min(low for low, _ in base.bids.values())
    if not _int(value):
        raise _error("min_bid", "not_an_int", N_("The lowest bid must be a whole number."))
    if value < lowest:
        raise _error("min_bid", "min_bid_too_low",
                     N_("The lowest bid cannot be below %(lowest)s in this rule set."),
                     lowest=lowest)  # fmt: skip
    bids = {}
    for players, (low, high) in base.bids.items():
        new_low = max(low, value)
        if new_low > high:
            raise _error("min_bid", "empty_bid_range",
                         N_("With a lowest bid of %(min_bid)s no bid is left at a "
                            "%(players)s-player table (the highest is %(max)s)."),
                         min_bid=value, players=players, max=high)  # fmt: skip
        bids[players] = (new_low, high)
    changes["bids"] = bids
    return value


def _discard_policy(base: RuleSet, value: Any, changes: dict) -> str:
    choices = OPTIONS_BY_KEY["discard_policy"].choices
    if value not in choices or not isinstance(value, str):
        raise _error("discard_policy", "invalid_choice",
                     N_("“%(value)s” is not one of %(choices)s."),
                     value=str(value), choices=", ".join(choices))  # fmt: skip
    changes["discard_policy"] = value
    return value


def _all20_loses(base: RuleSet, value: Any, changes: dict) -> bool:
    if not isinstance(value, bool):
        raise _error("all20_loses", "not_a_bool", N_("“All 20 loses” must be on or off."))
    changes["all20_loses"] = value
    return value


def _jokers(base: RuleSet, value: Any, changes: dict) -> int:
    if not _int(value) or value not in (0, 1):
        raise _error("jokers", "invalid_choice", N_("Play with 0 or 1 joker."))
    # The originator's account: the joker adds one card to the widow and the exchange.
    changes["jokers"] = value
    changes["widow"] = {n: size + value - base.jokers for n, size in base.widow.items()}
    return value


def _title_points(base: RuleSet, value: Any, changes: dict) -> dict[str, int]:
    if not isinstance(value, Mapping):
        raise _error("title_points", "not_a_mapping",
                     N_("Title points must map titles to whole numbers."))  # fmt: skip
    unknown = [str(k) for k in value if k not in TITLES]
    if unknown:
        raise _error("title_points", "unknown_title", N_("Unknown title “%(title)s”."),
                     title=unknown[0])  # fmt: skip
    points = dict(DEFAULT_TITLE_POINTS) | dict(value)
    check_title_points(points, field="options.title_points")
    changes["title_points"] = points
    return dict(value)


def _point_table(base: RuleSet, value: Any, changes: dict) -> dict[str, dict[str, int]]:
    key = "point_table"
    if not isinstance(value, Mapping):
        raise _error(
            key, "not_a_mapping", N_("The point table must map each player count to its points.")
        )
    tables: dict[int, PointTable] = {}
    normalised: dict[str, dict[str, int]] = {}
    for raw_players, row in value.items():
        players = _player_count(raw_players)
        if players not in base.players:
            raise _error(key, "players_not_allowed",
                         N_("This rule set has no %(players)s-player table."),
                         players=str(raw_players))  # fmt: skip
        if not isinstance(row, Mapping) or set(row) != set(POINT_TABLE_KEYS):
            raise _error(key, "row_keys",
                         N_("The %(players)s-player row needs exactly %(keys)s."),
                         players=players, keys=", ".join(POINT_TABLE_KEYS))  # fmt: skip
        if not all(_int(v) and v >= 0 for v in row.values()):
            raise _error(key, "table_not_counts",
                         N_("Points in the %(players)s-player table must be whole numbers "
                            "of 0 or more."), players=players)  # fmt: skip
        table = flat_table(*(row[k] for k in POINT_TABLE_KEYS))
        check_table(table, players, None, f"options.{key}")
        tables[players] = table
        normalised[str(players)] = {k: row[k] for k in POINT_TABLE_KEYS}
    missing = [n for n in base.players if n not in tables]
    if missing:
        raise _error(key, "players_missing",
                     N_("The point table needs a %(players)s-player row."),
                     players=missing[0])  # fmt: skip
    changes["point_tables"] = tables
    return normalised


def _player_count(raw: Any) -> int | None:
    if _int(raw):
        return raw
    if isinstance(raw, str) and raw.strip().isdigit():
        return int(raw.strip())
    return None


_APPLY = {
    "min_bid": _min_bid,
    "discard_policy": _discard_policy,
    "all20_loses": _all20_loses,
    "jokers": _jokers,
    "title_points": _title_points,
    "point_table": _point_table,
}
