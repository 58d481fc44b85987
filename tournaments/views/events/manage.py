"""The staff's page of a tournament: the round, the evening's changes of plan, disputes,
entries, adjustments, and the finished tournament's results."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.utils import timezone

from ...forms.events import AdjustmentForm, EntryForm
from ...selectors import events as sel
from ...selectors.entries import removable_entries
from ...services import events as svc
from .common import (
    refusals,
    staff_only,
)


@login_required
@refusals
def tournament_manage_view(request, tournament_id: int):
    tournament = staff_only(request, tournament_id)
    state = sel.tournament_state(tournament)
    rnd = state.latest
    names = sel.names_of(tournament)
    entries = list(tournament.entries.select_related("player").order_by("id"))
    view = sel.round_view(rnd, names) if rnd else None
    # The round a seat can change hands in, and who is in its draw (for swaps: by name).
    change_round = state.playing or state.drawn
    change_view = view if change_round is rnd else (
        sel.round_view(change_round, names) if change_round else None
    )  # fmt: skip
    seated = [(p, n) for t in change_view.tables for p, n in t.seats] if change_view else []
    seated_ids = {p for p, _n in seated}
    drawn_view = view if state.drawn is not None else None
    return render(
        request,
        "tournaments/events/manage.html",
        {
            "tournament": tournament,
            "state": state,
            "entries": entries,
            "removable": removable_entries(tournament),
            "round": view,
            "entry_form": EntryForm(),
            "adjustment_form": AdjustmentForm(),
            "disputed": sel.open_deals(tournament, states=["disputed"]),
            "adjustments": sel.tournament_standings(tournament=tournament).adjustments,
            "can_draw": not state.finished
            and (rnd is None or rnd.started_at is None or rnd.number < tournament.rounds_planned),
            "redraw": state.drawn is not None,
            "change_round": change_round,
            "seated": seated,
            "substitutes": [
                e for e in entries if e.player_id not in seated_ids and e.dropped_at_round is None
            ],
            "swap_players": (
                [(p, n) for t in drawn_view.tables for p, n in t.seats] + drawn_view.sitouts
                if drawn_view
                else []
            ),  # fmt: skip
            "lockouts": sel.pin_lockouts(
                tournament,
                limit_bare=svc.PIN_FAILURES_ALLOWED,
                limit_entry=svc.PIN_FAILURES_PER_ENTRY,
                since=timezone.now() - svc.PIN_FAILURE_WINDOW,
            ),
            "results_hidden": sel.results_hidden(tournament),
            "new_pin": request.session.pop("efuda_new_pin", None),
        },
    )
