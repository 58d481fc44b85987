"""Session sheets: the completed sheet (deal by deal, totals, signatures) and the blank sheet a
table fills in by hand, with the rule set's point table to score from."""

from __future__ import annotations

from dataclasses import dataclass

import rules
from core.errors import EfudaError

from ..models import Game, GameSession
from ..selectors.rulesets import session_rules
from ..selectors.sessions import session_detail
from .pdf import render_pdf

BLANK_ROWS = {Game.NAPOLEON: 18, Game.DAIFUGO: 17}
EMPTY_SEATS = 5


@dataclass(frozen=True)
class SheetLine:
    """One deal of the printed sheet: its summary and one cell per player column."""

    deal: object  # selectors.sessions.DealRow
    cells: list  # points, or "" when the player did not sit in that deal


def sheet_lines(detail) -> list[SheetLine]:
    columns = [pid for pid, _name in detail.players]
    lines = []
    for deal in detail.deals:
        points = {seat.player_id: seat.points for seat in deal.seats}
        lines.append(
            SheetLine(deal, ["" if points.get(pid) is None else points[pid] for pid in columns])
        )
    return lines


def session_sheet_pdf(session: GameSession) -> bytes:
    detail = session_detail(session)
    return render_pdf(
        "tournaments/reports/session_sheet.html",
        {
            "detail": detail,
            "session": session,
            "club": session.club,
            "players": detail.players,
            "lines": sheet_lines(detail),
        },
    )


@dataclass(frozen=True)
class PointGrid:
    """The rule set's point tables side by side: one line per bid (or one for a flat table),
    five cells per player count (Napoleon, adjutant, ally, solo Napoleon, solo ally)."""

    counts: list[int]
    lines: list[tuple[int | None, list]]  # (bid or None, cells; "" where a bid is not allowed)


def point_grid(ruleset: rules.RuleSet, seat_count: int | None) -> PointGrid:
    counts = [seat_count] if seat_count in ruleset.point_tables else sorted(ruleset.point_tables)
    tables: dict[int, dict] = {}
    for count in counts:
        try:
            tables[count] = {row.bid: row for row in rules.point_table_rows(ruleset, count)}
        except EfudaError:
            continue
    bids = sorted(
        {bid for rows in tables.values() for bid in rows}, key=lambda b: -1 if b is None else b
    )
    lines = []
    for bid in bids:
        cells: list = []
        for rows in tables.values():
            row = rows.get(bid) or rows.get(None)
            cells += (
                [row.napoleon, row.adjutant, row.ally, row.solo_napoleon, row.solo_ally]
                if row
                else [""] * 5
            )
        lines.append((bid, cells))
    return PointGrid(counts=list(tables), lines=lines)


def _title_points(ruleset: rules.RuleSet) -> list[tuple[str, int]]:
    return [
        (rules.TITLE_LABELS[code][0], ruleset.title_points.get(code, 0)) for code in rules.TITLES
    ]


def blank_sheet_pdf(session: GameSession) -> bytes:
    detail = session_detail(session)
    names = [name for _pid, name in detail.players]
    ruleset = session_rules(session)
    seats = names or [""] * EMPTY_SEATS
    context = {
        "session": session,
        "club": session.club,
        "ruleset": ruleset,
        "ruleset_name": detail.ruleset_name,
        "seats": seats,
        "named": bool(names),
        "rows": range(1, BLANK_ROWS[session.game] + 1),
        "positions": range(1, len(seats) + 1),
    }
    if session.game == Game.NAPOLEON:
        grid = point_grid(ruleset, len(names) or None)
        context["grid"] = grid
        # Long per-bid tables take room from the blank rows so the sheet stays on one page.
        context["rows"] = range(1, max(8, 17 - len(grid.lines)) + 1)
    else:
        context["title_points"] = _title_points(ruleset)
    return render_pdf("tournaments/reports/blank_sheet.html", context)
