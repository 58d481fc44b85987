"""A tournament table's deals, with their state (waiting, disputed, confirmed) and the deal as
the club's pages show it; each seat's total; the deals the staff decide on."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, replace

from ...models import (
    ConfirmationState,
    Deal,
    DealConfirmation,
    ScoreLine,
    Tournament,
    TournamentRound,
    TournamentTable,
)
from ..sessions import preview_row  # the club pages' own deal rows, rendered the same way
from .rounds import names_of, players_at, seat_history


@dataclass
class TableDeal:
    deal: Deal
    points: list[int]  # per seat, in the table's seat order (whoever played the seat then)
    state: str
    state_label: str
    recorded_by: int | None  # entry id
    detail: object = None  # a selectors.sessions.DealRow: the deal as the club pages show it
    note: str = ""  # what is wrong, when disputed
    disputed_by: str = ""  # the player who disputed it (empty: staff)


def table_deals(
    table: TournamentTable, *, names: dict[int, str] | None = None, deleted: bool = False
) -> list[TableDeal]:
    """The deals of a table with their state, the dispute's note and the deal itself (who
    played, Napoleon, bid, trump, adjutant, honours, each player's points). ``deleted`` adds
    the deals staff dropped (they can restore them)."""
    if table.session_id is None:
        return []
    deals_qs = Deal.objects.filter(session_id=table.session_id)
    if not deleted:
        deals_qs = deals_qs.filter(is_deleted=False)
    deals = list(deals_qs.order_by("seq"))
    confirmations = {
        c.deal_id: c
        for c in DealConfirmation.objects.filter(deal__in=deals).select_related(
            "decided_by__player"
        )
    }
    lines: dict[int, dict[int, int]] = defaultdict(dict)
    for deal_id, player_id, points in ScoreLine.objects.filter(deal__in=deals).values_list(
        "deal_id", "player_id", "points"
    ):
        lines[deal_id][player_id] = points
    if names is None:
        names = names_of(table.round.tournament)
    texts = {str(k): v for k, v in names.items()}
    rows = []
    for deal in deals:
        c = confirmations.get(deal.pk)
        state = c.state if c else ConfirmationState.CONFIRMED
        detail = preview_row(game=deal.game, data=deal.data, outcome=deal.outcome, names=texts)
        rows.append(
            TableDeal(
                deal=deal,
                points=[lines[deal.pk].get(p, 0) for p in players_at(table, deal.seq)],
                state=state,
                state_label=ConfirmationState(state).label,
                recorded_by=c.recorded_by_id if c else None,
                detail=replace(detail, id=deal.pk, seq=deal.seq, is_deleted=deal.is_deleted),
                note=c.note if c and state == ConfirmationState.DISPUTED else "",
                disputed_by=(
                    c.decided_by.player.name
                    if c and state == ConfirmationState.DISPUTED and c.decided_by
                    else ""
                ),
            )
        )
    return rows


@dataclass
class SeatTotal:
    names: list[str]  # who played the seat, in order (a substitute after the one replaced)
    points: int


def table_totals(table: TournamentTable, rows: list[TableDeal], names: dict[int, str]):
    """Each seat's points over the table's counted deals (waiting and disputed ones aside)."""
    totals = []
    for index, timeline in enumerate(seat_history(table)):
        points = sum(
            r.points[index]
            for r in rows
            if r.state == ConfirmationState.CONFIRMED and not r.deal.is_deleted
        )
        totals.append(SeatTotal(names=[names.get(p, str(p)) for p, _ in timeline], points=points))
    return totals


@dataclass
class OpenDeal:
    """A deal that does not count yet (waiting or disputed), with its table, for the staff."""

    table: TournamentTable
    label: str
    row: TableDeal
    seats: list[tuple[int, str]]  # who played it, in seat order


def open_deals(
    tournament: Tournament, *, rnd: TournamentRound | None = None, states=None
) -> list[OpenDeal]:
    """Deals waiting for confirmation or disputed (``states``), of one round or of the whole
    tournament, each with the deal itself and its note: what the staff decide on."""
    states = set(states or (ConfirmationState.PENDING, ConfirmationState.DISPUTED))
    tables_qs = TournamentTable.objects.filter(
        confirmations__state__in=states, confirmations__deal__is_deleted=False
    )
    tables_qs = (
        tables_qs.filter(round=rnd)
        if rnd is not None
        else tables_qs.filter(round__tournament=tournament)
    )
    tables = list(tables_qs.distinct().select_related("round").order_by("round__number", "number"))
    names = names_of(tournament)
    found = []
    for table in tables:
        for row in table_deals(table, names=names):
            if row.state in states:
                found.append(
                    OpenDeal(
                        table=table,
                        label=f"R{table.round.number}-T{table.number}",
                        row=row,
                        seats=[(p, names.get(p, str(p))) for p in players_at(table, row.deal.seq)],
                    )
                )
    return found
