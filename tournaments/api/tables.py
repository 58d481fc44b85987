"""Deals recorded at a tournament table, exactly once: by the PIN holder of a table token
bound to that table (``POST …/tables/{id}/token``), or by a read-and-write token of the
tournament's staff. The table's own entry form (its drawn players only) reads the body and
``table_deal_record`` records it, with the page's refusals and its confirmation rule."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from ninja import Router, Status

from ..models import Game, TournamentTable
from ..selectors import events as sel
from ..selectors.sessions import deal_row
from ..services.api import table_deal_posted
from . import auth
from .errors import ApiRefusalError
from .reads import deal_out
from .schemas import DaifugoRoundIn, DealOut, ErrorOut, NapoleonDealIn
from .writes import KEY, _read_only, form_checked

router = Router(tags=["tournaments"], auth=auth.TABLE)
ANSWERS = {200: DealOut, 201: DealOut, 400: ErrorOut, 401: ErrorOut, 403: ErrorOut, 404: ErrorOut,
           422: ErrorOut, 429: ErrorOut}  # fmt: skip


def _holder(request, tournament, table) -> tuple[dict, str]:
    """Who records: the table token's PIN holder at its own table, or the tournament's staff
    with a read-and-write token (404 to whoever may not see the tournament, 403 otherwise)."""
    held = auth.table_token(request)
    if held is not None:
        if held.table_id != table.pk:
            raise ApiRefusalError(403, field="Authorization", code="other_table", message=_(
                "This token is for another table."))  # fmt: skip
        return {"entry": held.entry, "user": None, "staff": False}, f"entry:{held.entry_id}"
    if not sel.is_staff(request.reader, tournament):
        if not sel.can_see(request.reader, tournament):
            raise Http404
        raise PermissionDenied
    if not request.auth.can_write:
        raise ApiRefusalError(403, field="Authorization", code="token_read_only",
                              message=_read_only())  # fmt: skip
    return {"entry": None, "user": request.user, "staff": True}, f"user:{request.user.pk}"


def _post(request, tournament_id: int, table_id: int, game: str, payload, key):
    tournament = sel.tournament_for_reader(tournament_id=tournament_id, reader=request.reader)
    table = get_object_or_404(
        TournamentTable.objects.select_related("round", "session__club", "session__ruleset"),
        pk=table_id, round__tournament=tournament,
    )  # fmt: skip
    who, holder = _holder(request, tournament, table)
    if tournament.game != game:
        raise Http404
    if table.session is None:
        raise ApiRefusalError(422, field=None, code="round_not_started", message=_(
            "Round %(number)s has not started yet.") % {"number": table.round.number})  # fmt: skip
    data = form_checked(table.session, payload.dict(), roster=list(table.seats))
    if game == Game.NAPOLEON:
        data["seats"] = list(table.seats)  # the draw fixes the seats
    deal = table_deal_posted(table=table, data=data, holder=holder, key=key, **who)
    return Status(200 if deal.already_recorded else 201, deal_out(deal_row(deal.pk)))


@router.post("/tournaments/{tournament_id}/tables/{table_id}/deals", response=ANSWERS,
             summary="Record a Napoleon deal at a tournament table")  # fmt: skip
def table_deal_post(request, tournament_id: int, table_id: int, payload: NapoleonDealIn,
                    idempotency_key: str | None = KEY):  # fmt: skip
    return _post(request, tournament_id, table_id, Game.NAPOLEON, payload, idempotency_key)


@router.post("/tournaments/{tournament_id}/tables/{table_id}/rounds", response=ANSWERS,
             summary="Record a Daifugō round at a tournament table")  # fmt: skip
def table_round_post(request, tournament_id: int, table_id: int, payload: DaifugoRoundIn,
                     idempotency_key: str | None = KEY):  # fmt: skip
    return _post(request, tournament_id, table_id, Game.DAIFUGO, payload, idempotency_key)
