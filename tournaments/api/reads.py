"""What a club shows, as JSON: the club, its standings, its sessions and one session.

Thin, like the pages: the club is loaded by ``club_for_request`` (a private club is 404 to
anonymous callers and outsiders), what the reader may see of its deals is ``deal_visibility``,
and every answer is read by the selectors the pages read."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import get_object_or_404
from ninja import Router
from ninja.pagination import paginate

from .. import ranking
from ..models import Game, GameSession
from ..permissions import club_for_request
from ..selectors.sessions import club_sessions, ruleset_label, session_detail
from ..selectors.standings import Period, standings
from ..selectors.visibility import deal_visibility
from ..standings_fields import RATES
from . import auth
from .freshness import fresh, read_etag
from .pages import Page, Pages
from .schemas import ClubOut, ErrorOut, SessionDetailOut, SessionOut, StandingsOut

router = Router(tags=["clubs"], auth=auth.READ)
router.add_decorator(fresh, mode="view")
# Every read may answer 304 (If-None-Match: freshness), 401 (a wrong token), 404, 422 (a
# query that is not valid) and 429.
NOT_FOUND = {304: None, 401: ErrorOut, 404: ErrorOut, 422: ErrorOut, 429: ErrorOut}
MAX_MIN_DEALS = 100_000


@router.get("/clubs/{slug:club}", response={200: ClubOut, **NOT_FOUND}, summary="A club")
def club_detail(request, club: str):
    found = club_for_request(request, club)
    read_etag(request, club=found, visibility=deal_visibility(club=found, reader=request.reader))
    return {
        "slug": found.slug, "name": found.name, "is_public": found.is_public,
        "data_version": found.data_version, "games": list(Game.values),
    }  # fmt: skip


def _standings(request, club: str, game: str, period: Period, min_deals: int) -> dict:
    found = club_for_request(request, club)
    game = Game(game).value
    visibility = deal_visibility(club=found, reader=request.reader)
    read_etag(request, club=found, visibility=visibility)
    result = standings(
        club=found, game=game, period=period, min_deals=max(0, min(MAX_MIN_DEALS, min_deals)),
        visibility=visibility,
    )  # fmt: skip
    rows = []
    for row in result.rows:
        fields = dict(vars(row))
        fields.update({rate.name: getattr(row, rate.name) for rate in RATES})
        rows.append(fields)
    return {
        "club": found.slug, "game": game, "period": period.key, "min_deals": result.min_deals,
        "tiebreaks": list(ranking.TIEBREAKS[game]), "rows": rows,
    }  # fmt: skip


STANDINGS = {200: StandingsOut, **NOT_FOUND}


@router.get("/clubs/{slug:club}/standings/{game}", response=STANDINGS,
            summary="Standings of all time")  # fmt: skip
def standings_all(request, club: str, game: Game, min: int = 0):  # noqa: A002 - the page's ?min=
    return _standings(request, club, game, Period("all"), min)


@router.get("/clubs/{slug:club}/standings/{game}/{year}", response=STANDINGS,
            summary="Standings of a season (a calendar year)")  # fmt: skip
def standings_season(request, club: str, game: Game, year: int, min: int = 0):  # noqa: A002
    if not 1 <= year <= 9999:
        raise Http404
    return _standings(request, club, game, Period.of(year), min)


@router.get("/clubs/{slug:club}/standings/{game}/{year}/{month}", response=STANDINGS,
            summary="Standings of a month")  # fmt: skip
def standings_month(request, club: str, game: Game, year: int, month: int, min: int = 0):  # noqa: A002
    if not 1 <= year <= 9999 or not 1 <= month <= 12:
        raise Http404
    return _standings(request, club, game, Period.of(year, month), min)


def _session_out(session: GameSession, deal_count: int) -> dict:
    return {
        "id": session.pk, "game": session.game, "date": session.date, "table": session.table,
        "rules": ruleset_label(session.ruleset), "deal_count": deal_count,
    }  # fmt: skip


@router.get("/clubs/{slug:club}/sessions", response={200: list[SessionOut], **NOT_FOUND},
            summary="The club's sessions, newest first")  # fmt: skip
@paginate(Pages, page_size=20, max_page_size=100)
def session_list(request, club: str):
    found = club_for_request(request, club)
    visibility = deal_visibility(club=found, reader=request.reader)
    read_etag(request, club=found, visibility=visibility)
    return Page(
        club_sessions(club=found, visibility=visibility), lambda s: _session_out(s, s.deal_count)
    )


@router.get("/clubs/{slug:club}/sessions/{session_id}",
            response={200: SessionDetailOut, **NOT_FOUND},
            summary="A session with its deals and every player's points")  # fmt: skip
def session_read(request, club: str, session_id: int):
    found = club_for_request(request, club)
    visibility = deal_visibility(club=found, reader=request.reader)
    if session_id in visibility.hidden_session_ids:  # as the session page: as if not there
        raise Http404
    read_etag(request, club=found, visibility=visibility)
    session = get_object_or_404(
        GameSession.objects.select_related("ruleset", "club"), club=found, pk=session_id
    )
    detail = session_detail(session)
    return {
        **_session_out(session, detail.live_deals),
        "players": [vars(t) for t in detail.totals],
        "deals": [deal_out(d) for d in detail.deals],
    }


def deal_out(row) -> dict:
    """A ``selectors.sessions.DealRow`` as ``DealOut``."""
    return {
        "id": row.id, "seq": row.seq, "game": row.game, "version": row.version,
        "is_deleted": row.is_deleted, "redeal": row.redeal,
        "seats": [
            {"player_id": s.player_id, "name": s.name, "points": s.points, "role": s.role,
             "position": s.position}
            for s in row.seats
        ],
        "explanation": list(row.explanation), "napoleon": row.napoleon,
        "adjutant": row.adjutant, "solo": row.solo, "bid": row.bid, "trump": row.trump,
        "called": row.called, "won": row.won,
    }  # fmt: skip
