"""What an entry page gives the phone to score a deal without a connection.

The phone's scoring (static/js/scoring-core.js) is a port of the pure core; it scores under the
session's rule set as the server builds it (``session_rules``), sent as JSON: the pure
``rules.RuleSet`` with its tables, nothing of the database. The server scores every deal again
when it arrives and its numbers win; tests/services/test_phone_scoring_parity.py keeps the two
cores equal.
"""

from __future__ import annotations

import rules

from ..models import Deal, Game, GameSession
from .rulesets import session_rules


def _table_json(table: rules.PointTable) -> dict:
    """A point table's rows by bid ("0": every bid): [Napoleon, adjutant, ally] and, solo,
    [Napoleon, ally]."""
    return {
        "normal": {str(bid): [r.napoleon, r.adjutant, r.ally] for bid, r in table.normal.items()},
        "solo": {str(bid): [r.napoleon, r.ally] for bid, r in table.solo.items()},
    }


def ruleset_json(ruleset: rules.RuleSet) -> dict:
    """The pure rule set as plain JSON: everything the scoring core reads of it."""
    return {
        "code": ruleset.code,
        "preset": ruleset.preset,
        "game": ruleset.game,
        "players": list(ruleset.players),
        "jokers": ruleset.jokers,
        "widow": {str(n): size for n, size in ruleset.widow.items()},
        "bids": {str(n): [low, high] for n, (low, high) in ruleset.bids.items()},
        "discard_policy": ruleset.discard_policy,
        "plan_b": ruleset.plan_b,
        "all20_loses": ruleset.all20_loses,
        "point_tables": {str(n): _table_json(t) for n, t in ruleset.point_tables.items()},
        "title_points": dict(ruleset.title_points),
        "miyako_ochi": ruleset.miyako_ochi,
        "forbidden_finish": ruleset.forbidden_finish,
        "diamond3_leads_first": ruleset.diamond3_leads_first,
    }


def latest_daifugo(session: GameSession) -> str | None:
    """The 大富豪 of the session's latest live round (the next round's 都落ち), as the deal
    services read it when they score that round."""
    last = (
        Deal.objects.filter(session=session, is_deleted=False).order_by("-seq").only("outcome")
    ).first()
    order = (last.outcome or {}).get("final_order") if last is not None else None
    return str(order[0]) if order else None


def offline_scoring(
    *, session: GameSession, names: dict[str, str], table: list[int] | None = None
) -> dict:
    """The JSON an entry page carries for the phone: the game, the rule set, the names of the
    players its form offers (id → name), the 大富豪 a Daifugō round follows and, at a
    tournament table, its drawn players in seat order (they fix the seats, or the round's
    players, whatever the form sends)."""
    daifugo = session.game == Game.DAIFUGO
    return {
        "game": session.game,
        "rules": ruleset_json(session_rules(session)),
        "names": {str(k): str(v) for k, v in names.items()},
        "previous": latest_daifugo(session) if daifugo else None,
        "table": [int(p) for p in table] if table is not None else None,
    }
