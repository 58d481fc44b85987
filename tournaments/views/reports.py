"""Printable session sheets (PDF). Same access as the session page: public club or members."""

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_safe

from .. import reports
from ..models import GameSession
from ..permissions import club_for_request


def _pdf(body: bytes, name: str) -> HttpResponse:
    response = HttpResponse(body, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{name}"'
    return response


def _session(request, club_slug: str, session_id: int) -> GameSession:
    club = club_for_request(request, club_slug)
    return get_object_or_404(
        GameSession.objects.select_related("club", "ruleset"), club=club, pk=session_id
    )


@require_safe
def session_sheet_view(request, club_slug: str, session_id: int):
    session = _session(request, club_slug, session_id)
    return _pdf(reports.session_sheet_pdf(session), f"{session.club.slug}-session-{session.pk}.pdf")


@require_safe
def session_blank_view(request, club_slug: str, session_id: int):
    session = _session(request, club_slug, session_id)
    return _pdf(reports.blank_sheet_pdf(session), f"{session.club.slug}-blank-{session.pk}.pdf")
