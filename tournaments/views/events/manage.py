"""The staff's page of a tournament: entries, the round, disputes, adjustments."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import render

from ...forms.events import AdjustmentForm, EntryForm
from ...selectors import events as sel
from .common import (
    staff_only,
)


@login_required
def tournament_manage_view(request, tournament_id: int):
    tournament = staff_only(request, tournament_id)
    rnd = sel.current_round(tournament)
    names = sel.names_of(tournament)
    entries = list(tournament.entries.select_related("player").order_by("id"))
    return render(
        request,
        "tournaments/events/manage.html",
        {
            "tournament": tournament,
            "entries": entries,
            "round": sel.round_view(rnd, names) if rnd else None,
            "entry_form": EntryForm(),
            "adjustment_form": AdjustmentForm(),
            "disputed": sel.disputed_deals(tournament),
            "adjustments": sel.tournament_standings(tournament=tournament).adjustments,
            "can_draw": rnd is None
            or rnd.started_at is None
            or rnd.number < tournament.rounds_planned,
            "new_pin": request.session.pop("efuda_new_pin", None),
        },
    )
