"""PDFs: seating cards, result slips, results."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, HttpResponseBadRequest
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from ...forms.events import SeatingPinsForm
from ...reports.events import final_results, result_slips, seating_cards
from ...selectors import events as sel
from ...services import events as svc
from .common import (
    Refused,
    _round,
    refusals,
    staff_only,
    visible,
)

# --- printing --------------------------------------------------------------------------------


def _pdf(content: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


@login_required
@refusals
def seating_cards_pdf_view(request, tournament_id: int, number: int):
    """Seating cards of a round. A POST from the seating-PINs page issues PINs and prints
    them: ``pins=missing`` to players without one, ``pins=all`` new ones to everyone."""
    tournament = staff_only(request, tournament_id)
    rnd = _round(tournament, number)
    pins = None
    if request.method == "POST":
        form = SeatingPinsForm(request.POST)
        if not form.is_valid():
            return HttpResponseBadRequest("pins=missing or pins=all expected")
        pins = svc.pin_issue_all(
            tournament=tournament, only_missing=form.cleaned_data["pins"] == "missing"
        )
    return _pdf(seating_cards(rnd=rnd, pins=pins), f"seating-r{number}.pdf")


@login_required
@refusals
@require_safe
def seating_pins_view(request, tournament_id: int, number: int):
    """What printing seating cards with PINs does, before anything is issued: who gets a
    PIN, and whose phones the new PINs log out (naming the players seated right now)."""
    tournament = staff_only(request, tournament_id)
    rnd = _round(tournament, number)
    return render(
        request,
        "tournaments/events/seating_pins.html",
        {"tournament": tournament, "round": rnd, **sel.pin_overview(tournament)},
    )


@login_required
def result_slips_pdf_view(request, tournament_id: int, number: int):
    tournament = staff_only(request, tournament_id)
    return _pdf(result_slips(rnd=_round(tournament, number)), f"slips-r{number}.pdf")


@refusals
def results_pdf_view(request, tournament_id: int):
    tournament, _entry = visible(request, tournament_id)
    if sel.results_hidden(tournament) and not sel.is_staff(request.reader, tournament):
        # a standings freeze: the results wait for the reveal
        raise Refused(
            tournament=tournament,
            title=_("The results are not shown yet"),
            lines=[_("The final rounds' standings are hidden until the staff reveal them.")],
            links=[(_("Standings"), reverse("tournament_standings", args=[tournament.pk]))],
            status=404,
        )
    return _pdf(final_results(tournament=tournament), f"results-{tournament.pk}.pdf")
