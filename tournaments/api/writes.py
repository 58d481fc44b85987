"""Deals posted by any client: a Napoleon deal or a Daifugō round, exactly once.

The body holds the entry form's fields (players by id); the entry form itself
(``forms/entry.py``) turns them into the deal's data, and ``services.api.deal_post`` records it
through ``deal_record``, with its refusals. An ``Idempotency-Key`` header makes a retry return
the deal already stored (200) instead of a second one (201 the first time); the same key with
another body is refused (422)."""

from __future__ import annotations

from django.http import QueryDict
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from ninja import Header, Router, Status

from ..forms.entry import DaifugoRoundForm, NapoleonDealForm
from ..models import Game, GameSession, Role
from ..permissions import club_for_request
from ..selectors.sessions import deal_row
from ..services.api import deal_post
from . import auth
from .errors import ApiRefusalError
from .reads import deal_out
from .schemas import DaifugoRoundIn, DealOut, ErrorOut, NapoleonDealIn

router = Router(tags=["deals"], auth=auth.WRITE)
ANSWERS = {
    200: DealOut,
    201: DealOut,
    400: ErrorOut,
    401: ErrorOut,
    403: ErrorOut,
    404: ErrorOut,
    422: ErrorOut,
}
KEY = Header(
    None, alias="Idempotency-Key", min_length=1, max_length=255, pattern=r"^[!-~]+$",
    description="1 to 255 visible ASCII characters: the same key again, the same deal",
)  # fmt: skip


def _form_data(payload: dict) -> QueryDict:
    """The body as the entry form would have it posted (lists repeated, solo as "solo")."""
    data = QueryDict(mutable=True)
    for name, value in payload.items():
        if value is None:
            continue
        if isinstance(value, list):
            data.setlist(name, [str(v) for v in value])
        elif isinstance(value, bool):
            if value:
                data[name] = "on"
        else:
            data[name] = str(value)
    return data


def _post(request, club: str, session_id: int, game: str, payload, key: str | None):
    found = writer_club(request, club)
    session = get_object_or_404(
        GameSession.objects.select_related("club", "ruleset"), club=found, pk=session_id,
        game=game,
    )  # fmt: skip
    data = form_checked(session, payload.dict())
    deal = deal_post(session=session, data=data, user=request.user, key=key)
    return Status(200 if deal.already_recorded else 201, deal_out(deal_row(deal.pk)))


def writer_club(request, club: str):
    """The club, for a scorekeeper's (or owner's) read-and-write token: 404 for whoever may
    not see it, 403 for a reader without the role or a token that may only read."""
    found = club_for_request(request, club, role=Role.SCOREKEEPER)
    if not request.auth.can_write:
        raise ApiRefusalError(403, field="Authorization", code="token_read_only",
                              message=_read_only())  # fmt: skip
    return found


def form_checked(session, body: dict, *, roster=None) -> dict:
    """The body as the entry form reads it (``roster``: a tournament table's players only):
    the deal's data, or 422 naming the form's first refusal."""
    form_class = NapoleonDealForm if session.game == Game.NAPOLEON else DaifugoRoundForm
    form = form_class(_form_data(body), session=session, roster=roster)
    if not form.is_valid():
        field, errors = next(iter(form.errors.items()))
        raise ApiRefusalError(422, field=None if field == "__all__" else field, code="invalid",
                              message=str(errors[0]))  # fmt: skip
    return form.to_data()


def _read_only() -> str:
    return _("This token may only read: make a read-and-write token to record deals.")


@router.post("/clubs/{slug:club}/sessions/{session_id}/deals", response=ANSWERS,
             summary="Record a Napoleon deal")  # fmt: skip
def napoleon_deal_post(request, club: str, session_id: int, payload: NapoleonDealIn,
                       idempotency_key: str | None = KEY):  # fmt: skip
    return _post(request, club, session_id, Game.NAPOLEON, payload, idempotency_key)


@router.post("/clubs/{slug:club}/sessions/{session_id}/rounds", response=ANSWERS,
             summary="Record a Daifugō round")  # fmt: skip
def daifugo_round_post(request, club: str, session_id: int, payload: DaifugoRoundIn,
                       idempotency_key: str | None = KEY):  # fmt: skip
    return _post(request, club, session_id, Game.DAIFUGO, payload, idempotency_key)
