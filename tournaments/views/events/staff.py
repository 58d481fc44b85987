"""The tournament's staff page: who runs it (added and removed by the club's admins and the
tournament's creator) and the standings freeze with its reveal (any staff)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from core.errors import EfudaError

from ...forms.entry import add_efuda_error
from ...forms.events import FreezeForm, StaffAddForm
from ...i18n import error_text
from ...selectors import events as sel
from ...services import events as svc
from .common import Refused, refusals, staff_only


def _page(request, tournament, *, add_form=None, freeze_form=None, reveal_error="", status=200):
    return render(
        request,
        "tournaments/events/staff.html",
        {
            "tournament": tournament,
            "people": sel.tournament_staff(tournament),
            "can_manage_staff": sel.can_manage_staff(request.reader, tournament),
            "add_form": add_form or StaffAddForm(),
            "freeze_form": freeze_form or FreezeForm(tournament=tournament),
            "frozen_after": sel.freeze_round(tournament),
            "results_hidden": sel.results_hidden(tournament),
            "reveal_error": reveal_error,
            "last_shown": max(0, tournament.rounds_planned - tournament.standings_hidden_rounds),
        },
        status=status,
    )


def _back(tournament, anchor=""):
    return redirect(reverse("tournament_staff", args=[tournament.pk]) + anchor)


def _manager_only(request, tournament_id: int):
    tournament = staff_only(request, tournament_id)
    if not sel.can_manage_staff(request.reader, tournament):
        raise Refused(
            tournament=tournament,
            title=_("Only the club's owners and the tournament's creator change its staff"),
            links=[(_("Staff and standings"), reverse("tournament_staff", args=[tournament.pk]))],
        )
    return tournament


@login_required
@refusals
@require_safe
def tournament_staff_view(request, tournament_id: int):
    return _page(request, staff_only(request, tournament_id))


@login_required
@refusals
@require_POST
def tournament_staff_add_view(request, tournament_id: int):
    tournament = _manager_only(request, tournament_id)
    form = StaffAddForm(request.POST)
    if form.is_valid():
        try:
            member = svc.tournament_staff_add(
                tournament=tournament, who=form.cleaned_data["who"], user=request.user
            )
        except EfudaError as err:
            add_efuda_error(form, err)
        else:
            messages.success(
                request, _("%(name)s now runs this tournament.") % {"name": member.get_username()}
            )
            return _back(tournament, "#staff")
    return _page(request, tournament, add_form=form, status=400)


@login_required
@refusals
def tournament_staff_remove_view(request, tournament_id: int, user_id: int):
    """GET asks for confirmation; POST takes the person off the tournament's staff."""
    tournament = _manager_only(request, tournament_id)
    member = get_object_or_404(get_user_model(), pk=user_id, staffed_tournaments=tournament)
    error = None
    if request.method == "POST":
        try:
            svc.tournament_staff_remove(tournament=tournament, member=member, user=request.user)
        except EfudaError as err:
            error = error_text(err)
        else:
            messages.success(
                request,
                _("%(name)s no longer runs this tournament.") % {"name": member.get_username()},
            )
            return _back(tournament, "#staff")
    return render(
        request,
        "tournaments/events/staff_remove.html",
        {"tournament": tournament, "member": member, "error": error},
        status=400 if error else 200,
    )


@login_required
@refusals
@require_POST
def tournament_freeze_view(request, tournament_id: int):
    tournament = staff_only(request, tournament_id)
    form = FreezeForm(request.POST, tournament=tournament)
    if form.is_valid():
        try:
            svc.tournament_freeze_set(
                tournament=tournament,
                hidden_rounds=form.cleaned_data["standings_hidden_rounds"],
                user=request.user,
            )
        except EfudaError as err:
            add_efuda_error(form, err)
        else:
            messages.success(request, _("Standings setting saved."))
            return _back(tournament, "#freeze")
    return _page(request, tournament, freeze_form=form, status=400)


@login_required
@refusals
@require_POST
def tournament_reveal_view(request, tournament_id: int):
    tournament = staff_only(request, tournament_id)
    try:
        svc.tournament_standings_reveal(tournament=tournament, user=request.user)
    except EfudaError as err:
        return _page(request, tournament, reveal_error=error_text(err), status=400)
    messages.success(request, _("The standings and results are now shown to everyone."))
    if request.POST.get("next") == "manage":  # the finished tournament's own page
        return redirect(reverse("tournament_manage", args=[tournament.pk]) + "#finished")
    return _back(tournament, "#freeze")
