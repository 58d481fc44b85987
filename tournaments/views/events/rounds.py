"""Staff: drawing, swapping, starting and finishing rounds; the round timer."""

from __future__ import annotations

from django.contrib import messages
from django.utils.translation import gettext as _

from core.errors import EfudaError

from ...forms.events import DrawForm, SwapForm, TimerForm
from ...services import events as svc
from .common import (
    _back,
    _round,
    _staff_post,
)


@_staff_post
def round_draw_view(request, tournament):
    form = DrawForm(request.POST)
    if not form.is_valid():
        raise EfudaError(
            "method", "method_unknown", svc.MESSAGES["method_unknown"],
            {"method": str(form.data.get("method", ""))[:40]},
        )  # fmt: skip
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
    return _back(tournament, "#round")


@_staff_post
def round_start_view(request, tournament, number: int):
    svc.round_start(rnd=_round(tournament, number), user=request.user)
    return _back(tournament, "#round")


@_staff_post
def round_finish_view(request, tournament, number: int):
    svc.round_finish(rnd=_round(tournament, number))
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
