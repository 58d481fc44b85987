"""PDFs: seating cards, result slips, results."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, HttpResponseBadRequest

from ...forms.events import SeatingPinsForm
from ...selectors import events as sel
from ...services import events as svc
from .common import (
    _round,
    staff_only,
    visible,
)

# --- printing --------------------------------------------------------------------------------


def _pdf(content: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


@login_required
def seating_cards_pdf_view(request, tournament_id: int, number: int):
    """Seating cards of a round. POST with pins=1 issues fresh PINs and prints them."""
    from ...reports.events import seating_cards

    tournament = staff_only(request, tournament_id)
    rnd = _round(tournament, number)
    pins = None
    if request.method == "POST":
        if not SeatingPinsForm(request.POST).is_valid():
            return HttpResponseBadRequest("pins=1 expected")
        pins = svc.pin_issue_all(tournament=tournament)
    return _pdf(seating_cards(rnd=rnd, pins=pins), f"seating-r{number}.pdf")


@login_required
def result_slips_pdf_view(request, tournament_id: int, number: int):
    from ...reports.events import result_slips

    tournament = staff_only(request, tournament_id)
    return _pdf(result_slips(rnd=_round(tournament, number)), f"slips-r{number}.pdf")


def results_pdf_view(request, tournament_id: int):
    from ...reports.events import final_results

    tournament, _entry = visible(request, tournament_id)
    if sel.results_hidden(tournament) and not sel.is_staff(request.user, tournament):
        raise Http404  # a standings freeze: the results wait for the reveal
    return _pdf(final_results(tournament=tournament), f"results-{tournament.pk}.pdf")
