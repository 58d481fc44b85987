"""A deal read, corrected and deleted by any client, with its version (docs/api.md).

``GET`` answers the deal with its ETag (``"deal-<id>-<version>"``); ``PUT`` (the whole entry
form again), ``PATCH`` (only the fields that change, the rest as recorded) and ``DELETE`` send
that ETag as ``If-Match``. Another version answers 412 (someone saved in between: read it
again), none 428. Corrections go through ``deal_update`` and deletions through
``deal_delete``, as on the pages: the history keeps every version, a deleted deal can be
restored there, and a tournament table's deal is held to what its tournament accepts."""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404
from ninja import Header, Router

from core.errors import EfudaError

from ..forms.entry import DaifugoRoundForm, NapoleonDealForm
from ..models import Deal, Game
from ..permissions import club_for_request
from ..selectors.sessions import deal_row
from ..selectors.visibility import deal_visibility
from ..services.deals import deal_delete, deal_update
from . import auth
from .freshness import VARY, deal_etag, if_match_version, stale
from .reads import deal_out
from .schemas import DealEditIn, DealOut, ErrorOut
from .writes import form_checked, writer_club

READ_ANSWERS = {200: DealOut, 401: ErrorOut, 404: ErrorOut, 422: ErrorOut, 429: ErrorOut}
EDIT_ANSWERS = {
    200: DealOut,
    **{status: ErrorOut for status in (400, 401, 403, 404, 412, 422, 428, 429)},
}

router = Router(tags=["deals"], auth=auth.WRITE)
# Needed: without it the answer is 428 (said by the API, not a validation error).
IF_MATCH = Header(None, alias="If-Match", description='the deal\'s ETag: "deal-<id>-<version>"')


def _deal(club, deal_id: int) -> Deal:
    return get_object_or_404(
        Deal.objects.select_related("session__club", "session__ruleset"), club=club, pk=deal_id
    )


def _answer(response: HttpResponse, deal: Deal) -> dict:
    """The deal as its session shows it, with its ETag."""
    response["ETag"] = deal_etag(deal)
    response["Vary"] = ", ".join(VARY)
    return deal_out(deal_row(deal.pk))


@router.get("/clubs/{slug:club}/deals/{deal_id}", response=READ_ANSWERS, auth=auth.READ,
           summary="A deal, with its ETag for an edit")  # fmt: skip
def deal_read(request, response: HttpResponse, club: str, deal_id: int):
    found = club_for_request(request, club)
    deal = _deal(found, deal_id)
    if not deal_visibility(club=found, reader=request.reader).session_visible(deal.session):
        raise Http404  # a hidden round's deal: the session page's own rule
    return _answer(response, deal)


def _edit(request, response: HttpResponse, club: str, deal_id: int, body: dict, *, patch: bool):
    deal = _deal(writer_club(request, club), deal_id)
    version = if_match_version(request, deal)
    if patch:  # what the body leaves out stays as recorded
        body = _form_class(deal).initial_from_data(deal.data) | body
    data = form_checked(deal.session, body)
    try:
        saved = deal_update(deal=deal, data=data, user=request.user, version=version)
    except EfudaError as err:
        if err.code == "deal_stale":
            raise stale() from err
        raise
    return _answer(response, saved)


@router.put("/clubs/{slug:club}/deals/{deal_id}", response=EDIT_ANSWERS,
            summary="Correct a deal: the whole entry form again (If-Match)")  # fmt: skip
def deal_put(request, response: HttpResponse, club: str, deal_id: int,
             payload: DealEditIn, if_match: str | None = IF_MATCH):  # fmt: skip
    body = payload.dict(exclude_unset=True)
    return _edit(request, response, club, deal_id, body, patch=False)


@router.patch("/clubs/{slug:club}/deals/{deal_id}", response=EDIT_ANSWERS,
              summary="Correct some fields of a deal, the rest as recorded (If-Match)")  # fmt: skip
def deal_patch(request, response: HttpResponse, club: str, deal_id: int,
               payload: DealEditIn, if_match: str | None = IF_MATCH):  # fmt: skip
    body = payload.dict(exclude_unset=True)
    return _edit(request, response, club, deal_id, body, patch=True)


def _form_class(deal: Deal):
    return NapoleonDealForm if deal.game == Game.NAPOLEON else DaifugoRoundForm


@router.delete("/clubs/{slug:club}/deals/{deal_id}", response=EDIT_ANSWERS,
               summary="Delete a deal (kept in its history, restorable) (If-Match)")  # fmt: skip
def deal_remove(request, response: HttpResponse, club: str, deal_id: int,
                if_match: str | None = IF_MATCH):  # fmt: skip
    found = writer_club(request, club)
    deal = _deal(found, deal_id)
    version = if_match_version(request, deal)
    try:
        saved = deal_delete(deal=deal, user=request.user, version=version)
    except EfudaError as err:
        if err.code == "deal_stale":
            raise stale() from err
        raise
    return _answer(response, saved)
