"""Staff: drawing, swapping, starting and finishing rounds; the round timer. Drawing a round
again and finishing one are steps that first say what they will do."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.utils.translation import gettext as _

from core.errors import EfudaError

from ...forms.events import ConfirmForm, DrawForm, FinishForm, SwapForm, TimerForm
from ...i18n import error_text
from ...selectors import events as sel
from ...services import events as svc
from .common import (
    _back,
    _round,
    _staff_post,
    refusals,
    staff_only,
)


@_staff_post
def round_draw_view(request, tournament):
    form = DrawForm(request.POST)
    if not form.is_valid():
        raise EfudaError(
            "method", "method_unknown", svc.MESSAGES["method_unknown"],
            {"method": str(form.data.get("method", ""))[:40]},
        )  # fmt: skip
    drawn = sel.tournament_state(tournament).drawn
    if drawn is not None and not ConfirmForm(request.POST).is_valid_yes():
        return render(
            request,
            "tournaments/events/draw_confirm.html",
            {
                "tournament": tournament,
                "round": sel.round_view(drawn),
                "method": form.cleaned_data["method"],
            },
        )
    rnd = svc.round_draw(
        tournament=tournament, method=form.cleaned_data["method"] or None, user=request.user
    )
    messages.success(request, _("Round %(number)s drawn.") % {"number": rnd.number})
    return _back(tournament, "#round")


@_staff_post
def round_swap_view(request, tournament, number: int):
    rnd = _round(tournament, number)
    form = SwapForm(request.POST)
    if not form.is_valid():
        raise EfudaError("swap", "swap_same", svc.MESSAGES["swap_same"])
    svc.round_swap(rnd=rnd, a=form.cleaned_data["a"], b=form.cleaned_data["b"])
    names = sel.names_of(tournament)
    messages.success(
        request,
        _("%(a)s and %(b)s swapped places in round %(number)s; no other seat changed.")
        % {
            "a": names.get(form.cleaned_data["a"], "?"),
            "b": names.get(form.cleaned_data["b"], "?"),
            "number": rnd.number,
        },
    )
    return _back(tournament, "#round")


@_staff_post
def round_start_view(request, tournament, number: int):
    svc.round_start(rnd=_round(tournament, number), user=request.user)
    return _back(tournament, "#round")


def _may_be_incomplete(tournament, rnd, view) -> tuple[str, list]:
    """The tables that may still miss a deal, and how efuda knows: "count" (fewer deals than
    the round asks), "seen" (a timed round: PIN holders seen in the last minutes) or
    "unknown" (efuda cannot tell: none listed, and the page says so)."""
    limit = tournament.deals_per_round
    if limit:
        return "count", [t for t in view.tables if t.deal_count < limit]
    if tournament.minutes_per_round or rnd.timer_left is not None or rnd.timer_ends_at:
        seen = sel.tables_seen([t.table.pk for t in view.tables])
        return "seen", [t for t in view.tables if t.table.pk in seen]
    return "unknown", []


def _finish_page(request, tournament, rnd, form, error="", status=200):
    waiting = sel.open_deals(tournament, rnd=rnd, states=["pending"])
    disputed = sel.open_deals(tournament, rnd=rnd, states=["disputed"])
    view = sel.round_view(rnd)
    known, incomplete = _may_be_incomplete(tournament, rnd, view)
    return render(
        request,
        "tournaments/events/finish.html",
        {
            "tournament": tournament,
            "round": rnd,
            "form": form,
            "waiting": [
                (item, form[f"deal-{item.row.deal.pk}"], form[f"note-{item.row.deal.pk}"])
                for item in waiting
            ],  # fmt: skip
            "disputed": disputed,
            "known": known,
            "incomplete": incomplete,
            "tables": view.tables,
            "seen_minutes": sel.SEEN_MINUTES,
            "deals_per_round": tournament.deals_per_round,
            "is_last": rnd.number >= tournament.rounds_planned,
            "results_hidden": sel.results_hidden(tournament),
            "error": error,
        },
        status=status,
    )


@login_required
@refusals
def round_finish_view(request, tournament_id: int, number: int):
    """GET: what finishing the round leaves behind (deals still waiting, each with a decision
    to make; disputed deals; the tables that may be incomplete) and, for the last round, that
    it finishes the tournament; once finished, where a late deal of its tables is counted.
    POST: finish with those decisions."""
    tournament = staff_only(request, tournament_id)
    rnd = _round(tournament, number)
    waiting_ids = [
        item.row.deal.pk for item in sel.open_deals(tournament, rnd=rnd, states=["pending"])
    ]
    if request.method != "POST":
        return _finish_page(request, tournament, rnd, FinishForm(waiting=waiting_ids))
    form = FinishForm(request.POST, waiting=waiting_ids)
    if not form.is_valid():
        return _finish_page(
            request, tournament, rnd, form,
            _("Choose what happens to each waiting deal."), status=400,
        )  # fmt: skip
    decisions, notes = form.decisions()
    try:
        svc.round_finish(
            rnd=rnd,
            decisions=decisions,
            notes=notes,
            last=form.cleaned_data["last"],
            user=request.user,
        )
    except EfudaError as err:
        form = FinishForm(request.POST, waiting=waiting_ids)
        form.is_valid()
        return _finish_page(request, tournament, rnd, form, error_text(err), status=400)
    tournament.refresh_from_db()
    if tournament.finished_at is not None:
        messages.success(request, _("The tournament is finished. Its results are final."))
    else:
        messages.success(request, _("Round %(number)s finished.") % {"number": rnd.number})
    return _back(tournament, "#round")


@_staff_post
def round_timer_control_view(request, tournament, number: int):
    rnd = _round(tournament, number)
    form = TimerForm(request.POST)
    if not form.is_valid():  # minutes longer than any number of minutes could be
        raise EfudaError(
            "minutes", "timer_minutes", svc.MESSAGES["timer_minutes"],
            {"max": svc.TIMER_MAX_MINUTES},
        )  # fmt: skip
    if form.cleaned_data["action"] == "stop":
        svc.timer_stop(rnd=rnd)
    else:
        svc.timer_start(rnd=rnd, minutes=form.cleaned_data["minutes"] or None)
    return _back(tournament, "#round")
