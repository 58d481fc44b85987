"""Files a club prints or takes away: session sheets, blank sheets (PDF) and standings (CSV,
PDF). Same access as the page each comes from: a public club or its members."""

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_safe

from .. import charts, exports, reports
from ..forms.printing import BlankSheetForm
from ..models import GameSession
from ..permissions import club_for_request
from ..reports.sheets import BlankSheet
from ..selectors.standings import Standings
from ..selectors.visibility import deal_visibility

STANDINGS_FILES = ("csv", "pdf")


def _pdf(body: bytes, name: str) -> HttpResponse:
    response = HttpResponse(body, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{name}"'
    return response


def _session(request, club_slug: str, session_id: int) -> GameSession:
    club = club_for_request(request, club_slug)
    session = get_object_or_404(
        GameSession.objects.select_related("club", "ruleset"), club=club, pk=session_id
    )
    if not deal_visibility(club=club, reader=request.reader).session_visible(session):
        raise Http404  # the session page's own rule (views/sessions.py)
    return session


@require_safe
def session_sheet_view(request, club_slug: str, session_id: int):
    session = _session(request, club_slug, session_id)
    return _pdf(reports.session_sheet_pdf(session), f"{session.club.slug}-session-{session.pk}.pdf")


@require_safe
def session_blank_view(request, club_slug: str, session_id: int):
    session = _session(request, club_slug, session_id)
    return _pdf(reports.blank_sheet_pdf(session), f"{session.club.slug}-blank-{session.pk}.pdf")


@require_safe
def club_blank_sheet_view(request, club_slug: str):
    """The club's blank sheet: a form (rule set, player count, names, date); once filled in, the
    PDF. The same access as the club's other sheets: a public club or its members."""
    club = club_for_request(request, club_slug)
    form = BlankSheetForm(request.GET or None, club=club)
    if form.is_bound and form.is_valid():
        data = form.cleaned_data
        sheet = BlankSheet(
            club=club,
            ruleset=data["ruleset"],
            ruleset_name=data["ruleset_name"],
            players=data["players"],
            names=data["name_list"],
            date=data["date"],
            table=data["table"],
        )
        return _pdf(reports.club_blank_sheet_pdf(sheet), f"{club.slug}-blank.pdf")
    status = 400 if form.is_bound else 200
    return render(
        request, "tournaments/reports/blank_form.html", {"club": club, "form": form}, status=status
    )


def standings_file(request, result: Standings, fmt: str) -> HttpResponse:
    """The standings page's ``?format=csv`` / ``?format=pdf``: the same rows as the page, as a
    file (the standings view has loaded and checked the club, the period and the rows)."""
    if fmt == "csv":
        return exports.csv_response(
            exports.standings_rows(result),
            exports.filename(result, "csv"),
            bom=exports.wants_bom(request),
        )
    chart = charts.standings_chart(result)
    return _pdf(reports.standings_pdf(result, chart=chart), exports.filename(result, "pdf"))
