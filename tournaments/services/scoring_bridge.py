"""The one bridge between stored deal data and the pure scoring core.

Stored ``Deal.data`` uses player ids as strings; the scoring core sees exactly those strings as
player keys, so its results map back to players without a lookup table.
"""

import datetime
import operator
from dataclasses import dataclass, fields

import rules
from scoring.daifugo import DaifugoRound, score_daifugo
from scoring.napoleon import NapoleonDeal, score_napoleon

from .. import standings_fields
from ..models import Game
from ..standings_fields import BID_COUNTERS


def _key(value) -> str | None:
    if value is None or value == "":
        return None
    return str(value)


def _keys(values) -> tuple:
    if values is None:
        return ()
    if isinstance(values, (str, bytes)):
        return (values,)
    return tuple(str(v) for v in values)


def napoleon_deal_from_data(data: dict) -> NapoleonDeal:
    """Nothing is filled in here: a missing Napoleon, bid, trump, adjutant-or-solo, honours or
    discard count reaches the scoring core as missing and is refused there, with its field."""
    return NapoleonDeal(
        seats=_keys(data.get("seats")),
        napoleon=_key(data.get("napoleon")),
        bid=data.get("bid"),
        trump=data.get("trump") or None,
        called=data.get("called") or None,
        adjutant=_key(data.get("adjutant")),
        solo=data.get("solo", False),
        honours=data.get("honours"),
        discarded=data.get("discarded"),
        last_trick=data.get("last_trick") or None,
        redeal=data.get("redeal", False),
    )


def daifugo_round_from_data(data: dict) -> DaifugoRound:
    """``players`` (everyone at the table), when the data has it, must all be in the order."""
    players = data.get("players")
    return DaifugoRound(
        order=_keys(data.get("order")),
        forbidden=frozenset(_keys(data.get("forbidden"))),
        previous_daifugo=_key(data.get("previous_daifugo")),
        players=None if players is None else _keys(players),
    )


def score(game: str, data: dict, ruleset: "rules.RuleSet"):
    """Score one deal's stored data; raises EfudaError for anything the core refuses."""
    if game == Game.NAPOLEON:
        return score_napoleon(napoleon_deal_from_data(data), ruleset)
    return score_daifugo(daifugo_round_from_data(data), ruleset)


def _explanation(result) -> list:
    return [[m.text, dict(m.params)] for m in result.explanation]


def outcome_dict(game: str, result) -> dict:
    """What the deal page shows later, in plain JSON."""
    if game == Game.NAPOLEON:
        return {
            "redeal": result.redeal,
            "points": dict(result.points),
            "roles": dict(result.roles),
            "army_count": result.army_count,
            "won": result.won,
            "solo": result.solo,
            "plan_b": result.plan_b,
            "all20": result.all20,
            "multiplier": result.multiplier,
            "explanation": _explanation(result),
        }
    return {
        "points": dict(result.points),
        "final_order": list(result.final_order),
        "titles": dict(result.titles),
        "miyako_ochi": result.miyako_ochi,
        "forbidden_applied": list(result.forbidden_applied),
        "exchanges": [[e.giver, e.receiver, e.count] for e in result.exchanges],
        "next_leader": result.next_leader,
        "explanation": _explanation(result),
    }


@dataclass(frozen=True)
class LineSpec:
    """A score line before it is stored (plain values, no model).

    Its fields are the score line's own fields, listed here once (``SCORE_LINE_FIELDS``):
    ``ScoreLine`` has a column of the same name for each; the session, club, game and dates
    come from the deal.
    """

    player_id: int
    seat: int
    points: int
    role: str
    won: bool | None = None
    bid: int | None = None
    trump: str = ""
    solo: bool = False
    plan_b: bool = False
    all20: bool = False
    position: int | None = None
    miyako_ochi: bool = False
    forbidden: bool = False


SCORE_LINE_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(LineSpec))


# The columns a stored score line takes from its deal; with ``SCORE_LINE_FIELDS`` they are every
# column of ``ScoreLine`` (bulk writers list their columns as ``LINE_COLUMNS``).
LINE_DEAL_FIELDS: tuple[str, ...] = ("deal_id", "session_id", "club_id", "game", "date")
LINE_COLUMNS: tuple[str, ...] = LINE_DEAL_FIELDS + SCORE_LINE_FIELDS

# A LineSpec's values in ``SCORE_LINE_FIELDS`` order, as a tuple (C speed, for bulk writers).
line_tuple = operator.attrgetter(*SCORE_LINE_FIELDS)


def line_values(spec: LineSpec) -> dict:
    """The score line's own column values (``ScoreLine(**line_values(spec), deal=...)``)."""
    return {name: getattr(spec, name) for name in SCORE_LINE_FIELDS}


# The deal's own columns derived from its data: what lists and the merge select deals by.
DEAL_DERIVED_FIELDS: tuple[str, ...] = ("napoleon_id", "adjutant_id", "bid", "trump", "redeal")


def deal_columns(game: str, data: dict) -> dict:
    """The deal's derived columns (``DEAL_DERIVED_FIELDS``) from its stored data. A Napoleon
    deal without a Napoleon is a redeal (流れ); a Daifugō round has none of them."""
    if game != Game.NAPOLEON or data.get("redeal") or not data.get("napoleon"):
        return {"napoleon_id": None, "adjutant_id": None, "bid": None, "trump": "",
                "redeal": game == Game.NAPOLEON}  # fmt: skip
    adjutant = data.get("adjutant")
    return {
        "napoleon_id": int(data["napoleon"]),
        "adjutant_id": None if data.get("solo") else int(adjutant),
        "bid": data.get("bid"),
        "trump": data.get("trump") or "",
        "redeal": False,
    }


def line_specs(game: str, data: dict, result) -> list[LineSpec]:
    if game == Game.NAPOLEON:
        if result.redeal:
            return []
        seats = [str(s) for s in data.get("seats", [])]
        specs = []
        for key, points in result.points.items():
            role = result.roles[key]
            army = role in ("napoleon", "adjutant")
            specs.append(
                LineSpec(
                    player_id=int(key),
                    seat=seats.index(key) + 1,
                    points=points,
                    role=role,
                    won=result.won if army else not result.won,
                    bid=data.get("bid"),
                    trump=data.get("trump") or "",
                    solo=result.solo,
                    plan_b=result.plan_b,
                    all20=result.all20,
                )
            )
        return specs
    order = list(result.final_order)
    went_out = [str(s) for s in data.get("order", [])]
    return [
        LineSpec(
            player_id=int(key),
            seat=went_out.index(key) + 1,
            points=result.points[key],
            role=result.titles[key],
            position=order.index(key) + 1,
            miyako_ochi=key == result.miyako_ochi,
            forbidden=key in result.forbidden_applied,
        )
        for key in order
    ]


def periods(day: datetime.date) -> tuple[str, str, str]:
    """The aggregate periods a deal on ``day`` counts in: month, season (year), all time."""
    return (f"{day.year:04d}-{day.month:02d}", f"{day.year:04d}", "all")


def bid_counters(spec: LineSpec) -> dict[str, int] | None:
    """What the Napoleon's own line adds to their per-bid, per-trump record (``BID_COUNTERS``,
    every one given); None for every other line."""
    if spec.role != "napoleon" or spec.bid is None:
        return None
    added = counters(spec)
    return {name: added.get(name, 0) for name in BID_COUNTERS}


def counters(spec: LineSpec) -> dict[str, int]:
    """What one score line adds to its player's aggregates (pure; the service applies it), as
    ``standings_fields`` defines each counter."""
    return standings_fields.counts(spec)
