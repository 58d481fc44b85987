"""Staff: drawing, swapping, starting and finishing rounds; the round timer."""

from __future__ import annotations

from django.contrib import messages
from django.utils.translation import gettext as _t

from core.errors import EfudaError

from ...services import events as svc
from .common import (
    _back,
    _round,
    _staff_post,
)


@_staff_post
def round_draw_view(request, tournament):
    method = request.POST.get("method") or None
    rnd = svc.round_draw(tournament=tournament, method=method, user=request.user)
    messages.success(request, _t("Round %(number)s drawn.") % {"number": rnd.number})
    return _back(tournament, "#round")


@_staff_post
def round_swap_view(request, tournament, number: int):
    try:
        a, b = int(request.POST.get("a", "")), int(request.POST.get("b", ""))
    except ValueError:
        raise EfudaError("swap", "swap_same", svc.MESSAGES["swap_same"]) from None
    svc.round_swap(rnd=_round(tournament, number), a=a, b=b)
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
    if request.POST.get("action") == "stop":
        svc.timer_stop(rnd=rnd)
    else:
        minutes = request.POST.get("minutes") or None
        svc.timer_start(rnd=rnd, minutes=minutes)
    return _back(tournament, "#round")
