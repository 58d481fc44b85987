"""Session sheets: the completed sheet (deal by deal, totals, signatures) and the blank sheet a
table fills in by hand, with the rule set's point table to score from."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

import rules
from core.errors import EfudaError

from ..models import Club, Game, GameSession
from ..selectors.rulesets import session_rules
from ..selectors.sessions import session_detail
from .pdf import render_pdf
from .qr import absolute_url, qr_svg


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


SESSION_TEMPLATE = "tournaments/reports/session_sheet.html"


def session_sheet_context(session: GameSession) -> dict:
    """The completed sheet, with a QR code of the session's page (absolute, ``SITE_URL``) where
    the deals go on updating."""
    detail = session_detail(session)
    live_url = absolute_url("session_detail", session.club.slug, session.pk)
    return {
        "detail": detail,
        "session": session,
        "club": session.club,
        "players": detail.players,
        "lines": sheet_lines(detail),
        "live_url": live_url,
        "qr": qr_svg(live_url),
    }


def session_sheet_pdf(session: GameSession) -> bytes:
    return render_pdf(SESSION_TEMPLATE, session_sheet_context(session))


@dataclass(frozen=True)
class PointGrid:
    """The rule set's point tables side by side: one line per bid (or one for a flat table),
    five cells per player count (Napoleon, adjutant, ally, solo Napoleon, solo ally), each the
    points that player gets when the Napoleon wins — the case the printed caption names — with
    its sign: the allies' cells are negative (on a loss every sign flips)."""

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
            # The scoring core gives the allies -sign × ally (scoring/napoleon.py).
            cells += (
                [row.napoleon, row.adjutant, -row.ally, row.solo_napoleon, -row.solo_ally]
                if row
                else [""] * 5
            )
        lines.append((bid, cells))
    return PointGrid(counts=list(tables), lines=lines)


def _title_points(ruleset: rules.RuleSet) -> list[tuple[str, int]]:
    return [
        (rules.TITLE_LABELS[code][0], ruleset.title_points.get(code, 0)) for code in rules.TITLES
    ]


@dataclass(frozen=True)
class BlankSheet:
    """What a blank sheet is printed for: a rule set, a player count, names where known."""

    club: Club
    ruleset: rules.RuleSet
    ruleset_name: str
    players: int
    names: tuple[str, ...] = ()  # up to ``players``; the rest are printed as blank lines
    date: datetime.date | None = None
    table: str = ""


# Deal rows on the first page (at least 20: a table without phones plays an evening) while the
# point table fits under them.
BLANK_ROWS = {Game.NAPOLEON: 22, Game.DAIFUGO: 21}
# Rows the first page holds when the point table goes to a page of its own (base.css .blank-sheet:
# 7.5 mm a row). The point table stays under the rows while it has at most POINT_LINES_BELOW
# lines (originator's rules need a second page; the one-line tables fit).
FULL_PAGE_ROWS = {Game.NAPOLEON: 24, Game.DAIFUGO: 24}
POINT_LINES_BELOW = 3
EMPTY_SEATS = 5


def blank_sheet_context(sheet: BlankSheet) -> dict:
    """The layout of a blank sheet: deal rows, player columns (points and running total), the
    totals row and, under the rows or on a second page, the rule set's point table, with the
    rules that make all 20 honours on a bid under 20 a loss (作戦B, all 20 loses)."""
    ruleset = sheet.ruleset
    names = list(sheet.names[: sheet.players]) + [""] * (sheet.players - len(sheet.names))
    context = {
        "sheet": sheet,
        "club": sheet.club,
        "game": ruleset.game,
        "is_napoleon": ruleset.game == Game.NAPOLEON,
        "ruleset_name": sheet.ruleset_name,
        "seats": names,
        "rows": range(1, BLANK_ROWS[ruleset.game] + 1),
        "grid_page": False,
    }
    if ruleset.game == Game.NAPOLEON:
        grid = point_grid(ruleset, sheet.players)
        context["grid"] = grid
        # The table shows a win; the rules that make all 20 honours a loss say so under it.
        context["plan_b"], context["all20_loses"] = ruleset.plan_b, ruleset.all20_loses
        if len(grid.lines) > POINT_LINES_BELOW:
            # The point table takes a page of its own; the first page is all deal rows.
            context["grid_page"] = True
            context["rows"] = range(1, FULL_PAGE_ROWS[Game.NAPOLEON] + 1)
    else:
        context["title_points"] = _title_points(ruleset)
    return context


BLANK_TEMPLATE = "tournaments/reports/blank_sheet.html"


def club_blank_sheet_pdf(sheet: BlankSheet) -> bytes:
    return render_pdf(BLANK_TEMPLATE, blank_sheet_context(sheet))


def session_blank_sheet(session: GameSession) -> BlankSheet:
    """A session's blank sheet: its rule set, players and date filled in."""
    detail = session_detail(session)
    names = tuple(name for _pid, name in detail.players)
    ruleset = session_rules(session)
    if names:
        players = len(names)
    else:
        players = EMPTY_SEATS if EMPTY_SEATS in ruleset.players else max(ruleset.players)
    return BlankSheet(
        club=session.club,
        ruleset=ruleset,
        ruleset_name=detail.ruleset_name,
        players=players,
        names=names,
        date=session.date,
        table=session.table,
    )


def blank_sheet_pdf(session: GameSession) -> bytes:
    """The blank sheet of a session (the club's blank sheet prefilled from the session)."""
    return club_blank_sheet_pdf(session_blank_sheet(session))
