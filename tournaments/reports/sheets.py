"""Session sheets: the completed sheet (deal by deal, totals, signatures) and the blank sheet a
table fills in by hand, with the rule set's point table to score from."""

from __future__ import annotations

from dataclasses import dataclass

import rules
from scoring.errors import EfudaError

from ..models import Game, GameSession
from ..selectors.sessions import session_detail
from ..services.rulesets import session_rules
from .pdf import render_pdf

BLANK_ROWS = {Game.NAPOLEON: 18, Game.DAIFUGO: 18}
EMPTY_SEATS = 5


def session_sheet_pdf(session: GameSession) -> bytes:
    detail = session_detail(session)
    return render_pdf("tournaments/reports/session_sheet.html", {
        "detail": detail, "session": session, "club": session.club,
        "players": detail.players,
    })


@dataclass(frozen=True)
class PointTableBlock:
    players: int
    rows: list  # rules.PointTableRow


def _point_tables(ruleset: rules.RuleSet, seat_count: int | None) -> list[PointTableBlock]:
    counts = [seat_count] if seat_count in ruleset.point_tables else sorted(ruleset.point_tables)
    blocks = []
    for count in counts:
        try:
            blocks.append(PointTableBlock(count, rules.point_table_rows(ruleset, count)))
        except EfudaError:
            continue
    return blocks


def _title_points(ruleset: rules.RuleSet) -> list[tuple[str, int]]:
    return [(rules.TITLE_LABELS[code][0], ruleset.title_points.get(code, 0))
            for code in rules.TITLES]


def blank_sheet_pdf(session: GameSession) -> bytes:
    detail = session_detail(session)
    names = [name for _pid, name in detail.players]
    ruleset = session_rules(session)
    seats = names or [""] * EMPTY_SEATS
    context = {
        "session": session, "club": session.club, "ruleset": ruleset,
        "ruleset_name": detail.ruleset_name, "seats": seats, "named": bool(names),
        "rows": range(1, BLANK_ROWS[session.game] + 1),
        "positions": range(1, len(seats) + 1),
    }
    if session.game == Game.NAPOLEON:
        context["point_tables"] = _point_tables(ruleset, len(names) or None)
        context["bids"] = {n: ruleset.bids.get(n) for n in ruleset.point_tables}
    else:
        context["title_points"] = _title_points(ruleset)
    return render_pdf("tournaments/reports/blank_sheet.html", context)
