"""Read pages: a club's tournaments, a tournament, its standings and timer; creating one."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.cache import patch_vary_headers

from core.errors import EfudaError

from ...forms.entry import add_efuda_error
from ...forms.events import TournamentForm
from ...models import (
    Club,
    Role,
)
from ...permissions import club_for_request, has_role
from ...selectors import events as sel
from ...services import events as svc
from ...tables.events import TournamentStandingsTable
from ..page_cache import SharedParts, cached_page
from .common import (
    visible,
)

# --- club-level pages ------------------------------------------------------------------------


def tournament_list_view(request, club_slug: str):
    club = get_object_or_404(Club, slug=club_slug)
    items = sel.club_tournaments(club=club, reader=request.reader)
    if not items and not has_role(request.reader, club, Role.MEMBER) and not club.is_public:
        raise Http404
    return render(
        request,
        "tournaments/events/list.html",
        {
            "club": club,
            "tournaments": items,
            "can_create": has_role(request.reader, club, Role.SCOREKEEPER),
        },
    )


@login_required
def tournament_new_view(request, club_slug: str):
    club = club_for_request(request, club_slug, role=Role.SCOREKEEPER)
    form = TournamentForm(request.POST or None, club=club, initial={"date": timezone.localdate()})
    if request.method == "POST" and form.is_valid():
        c = form.cleaned_data
        try:
            tournament = svc.tournament_create(club=club, user=request.user, **c)
        except EfudaError as err:
            add_efuda_error(form, err)
        else:
            return redirect("tournament_manage", tournament.pk)
    return render(request, "tournaments/events/new.html", {"club": club, "form": form})


# --- public pages ----------------------------------------------------------------------------


def tournament_detail_view(request, tournament_id: int):
    tournament, entry = visible(request, tournament_id)
    rnd = sel.current_round(tournament)
    names = sel.names_of(tournament)
    staff = sel.is_staff(request.reader, tournament)
    hidden = sel.results_hidden(tournament)
    # A round hidden by the freeze hides its tables' deal counts too (selectors/visibility.py).
    frozen = None if staff or rnd is None else sel.freeze_round(tournament)
    results = None
    if tournament.finished_at is not None and (staff or not hidden):
        standings = sel.tournament_standings(tournament=tournament)
        results = TournamentStandingsTable(standings.rows, mode=standings.mode)
    return render(
        request,
        "tournaments/events/detail.html",
        {
            "tournament": tournament,
            "entry": entry,
            "round": sel.round_view(rnd, names) if rnd else None,
            "my_table": sel.entry_table(tournament, entry) if entry else None,
            "is_staff": staff,
            "results_hidden": hidden,
            "counts_hidden": frozen is not None and rnd.number > frozen,
            "results": results,
        },
    )


@cached_page
def tournament_standings_view(request, tournament_id: int):
    tournament, entry = visible(request, tournament_id)
    staff = sel.is_staff(request.reader, tournament)

    def shared(neutral):  # one copy for the tournament's staff, one for everyone else
        standings = sel.visible_standings(tournament=tournament, staff=staff)
        return {
            "tournament": tournament,
            "standings": standings,
            "table": TournamentStandingsTable(standings.rows, mode=standings.mode),
            # staff see the live standings; this tells them what the public sees
            "public_frozen_after": sel.freeze_round(tournament) if staff else None,
            "results_hidden": sel.results_hidden(tournament),
        }

    template = (
        "tournaments/events/_standings.html"
        if request.headers.get("HX-Request")
        else "tournaments/events/standings.html"
    )
    return render(
        request,
        template,
        {
            "tournament": tournament,
            "is_staff": staff,
            "shared": SharedParts(request, tournament.club, shared),
        },
    )


def round_timer_view(request, tournament_id: int):
    """A small fragment every table polls: the round's remaining time; opened on its own (not
    by htmx), a page with the clock."""
    tournament, _entry = visible(request, tournament_id)
    rnd = sel.current_round(tournament)
    fragment = request.headers.get("HX-Request") == "true"
    response = render(
        request,
        "tournaments/events/_timer.html" if fragment else "tournaments/events/timer.html",
        {
            "tournament": tournament,
            "round": rnd,
            "seconds_left": sel.seconds_left(rnd) if rnd else None,
            "running": bool(rnd and rnd.timer_ends_at),
        },
    )
    patch_vary_headers(response, ["HX-Request"])  # the page and the fragment share an address
    return response
