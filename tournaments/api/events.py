"""Tournaments as JSON: a club's tournaments, one with its rounds, tables and seats, its
standings (the freeze honoured), and a PIN holder's table: the PIN exchanged for a token bound
to the table and its round, and deals recorded there.

Read as the tournament's pages read them: ``tournament_for_reader`` and ``can_see`` (a private
tournament is 404 to whoever may not see it; a table token's PIN opens its own tournament as
a PIN does on the pages), ``visible_standings`` (everyone but the tournament's staff sees a
frozen tournament's standings as they stood after the last round shown)."""

from __future__ import annotations

from axes.helpers import get_client_ip_address
from django.http import Http404
from django.shortcuts import get_object_or_404
from ninja import Router, Status
from ninja.pagination import paginate

from ..models import Club, Role, Tournament
from ..permissions import has_role
from ..selectors import events as sel
from ..selectors.visibility import deal_visibility
from ..services.api import table_token_issue
from . import auth, limits
from .freshness import fresh, read_etag
from .pages import Page, Pages
from .reads import NOT_FOUND
from .schemas import ErrorOut
from .schemas_events import (
    PinIn,
    TableTokenOut,
    TournamentDetailOut,
    TournamentOut,
    TournamentStandingsOut,
)

router = Router(tags=["tournaments"], auth=auth.READ)
router.add_decorator(fresh, mode="view")


def _tournament_out(t: Tournament) -> dict:
    return {
        "id": t.pk, "club": t.club.slug, "name": t.name, "date": t.date, "game": t.game,
        "is_public": t.is_public, "rounds_planned": t.rounds_planned,
        "finished": t.finished_at is not None,
    }  # fmt: skip


@router.get("/clubs/{slug:club}/tournaments", response={200: list[TournamentOut], **NOT_FOUND},
            summary="The club's tournaments, newest first")  # fmt: skip
@paginate(Pages, page_size=20, max_page_size=100)
def tournament_list(request, club: str):
    found = get_object_or_404(Club, slug=club)
    items = sel.club_tournaments(club=found, reader=request.reader)
    member = has_role(request.reader, found, Role.MEMBER)
    if not items and not member and not found.is_public:  # as the tournaments page
        raise Http404
    read_etag(request, club=found, visibility=deal_visibility(club=found, reader=request.reader))
    return Page(items, _tournament_out)


def _visible(request, tournament_id: int) -> tuple[Tournament, bool]:
    """The tournament as its pages show it to this reader (404 when they may not see it) and
    whether they are its staff; the ETag is set."""
    tournament = sel.tournament_for_reader(
        tournament_id=tournament_id,
        reader=request.reader,
        read_only=request.method in ("GET", "HEAD"),
    )
    held = auth.table_token(request)
    entry = (
        held.entry if held is not None and held.table.round.tournament_id == tournament.pk else None
    )
    if not sel.can_see(request.reader, tournament, entry):
        raise Http404
    staff = sel.is_staff(request.reader, tournament)
    club = tournament.club
    visibility = deal_visibility(club=club, reader=request.reader)
    read_etag(request, club=club, visibility=visibility,
              extra=f"{tournament.pk}:{int(staff)}:{entry.pk if entry else ''}")  # fmt: skip
    return tournament, staff


@router.get("/tournaments/{tournament_id}", response={200: TournamentDetailOut, **NOT_FOUND},
            summary="A tournament with its rounds, tables and seats")  # fmt: skip
def tournament_read(request, tournament_id: int):
    tournament, _staff = _visible(request, tournament_id)
    names = sel.names_of(tournament)

    def seat(player_id: int) -> dict:
        return {"player_id": player_id, "name": names.get(player_id, str(player_id))}

    rounds = []
    for rnd in sel.tournament_state(tournament).rounds:
        tables = [
            {"id": t.pk, "number": t.number, "label": f"R{rnd.number}-T{t.number}",
             "session_id": t.session_id, "seats": [seat(p) for p in t.seats]}
            for t in rnd.tables.order_by("number")
        ]  # fmt: skip
        rounds.append({
            "number": rnd.number, "started_at": rnd.started_at, "finished_at": rnd.finished_at,
            "tables": tables, "sitouts": [seat(p) for p in rnd.sitouts],
        })  # fmt: skip
    return {**_tournament_out(tournament), "rounds": rounds}


@router.get("/tournaments/{tournament_id}/standings",
            response={200: TournamentStandingsOut, **NOT_FOUND},
            summary="A tournament's standings (the freeze honoured)")  # fmt: skip
def tournament_standings(request, tournament_id: int):
    tournament, staff = _visible(request, tournament_id)
    standings = sel.visible_standings(tournament=tournament, staff=staff)
    return {
        "tournament": tournament.pk, "mode": standings.mode,
        "frozen_after": standings.frozen_after, "uncounted": standings.uncounted,
        "rows": [vars(r) for r in standings.rows],
    }  # fmt: skip


pins = Router(tags=["tournaments"], auth=None)


@pins.post("/tournaments/{tournament_id}/tables/{table_id}/token",
           response={201: TableTokenOut, **{s: ErrorOut for s in (400, 404, 422, 429)}},
           summary="A player's PIN exchanged for a token of their table")  # fmt: skip
def table_token(request, tournament_id: int, table_id: int, payload: PinIn):
    """The PIN form's own checks and lock-out (too many wrong PINs from one address answer
    ``pin_throttled``); a wrong PIN, and a tournament or table that does not exist, answer
    alike (422 ``pin_wrong``, nothing said of the tournament)."""
    limits.limit_address(request)
    address = get_client_ip_address(request) or "unknown"
    token, raw = table_token_issue(tournament_id=tournament_id, table_id=table_id,
                                   pin=payload.pin, address=address, seat=payload.seat)  # fmt: skip
    table = token.table
    return Status(201, {
        "token": raw, "tournament": tournament_id, "table": table.pk,
        "round": table.round.number, "player_id": token.entry.player_id,
    })  # fmt: skip
