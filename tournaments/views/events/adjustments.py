"""Staff: penalties and adjustments."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from ...forms.events import AdjustmentForm
from ...services import events as svc
from .common import (
    _back,
    _entry,
    _staff_post,
)


@_staff_post
def adjustment_add_view(request, tournament):
    form = AdjustmentForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Fill in player, points and reason."))
        return _back(tournament, "#adjustments")
    c = form.cleaned_data
    svc.adjustment_add(
        entry=_entry(tournament, c["entry"]),
        points=c["points"],
        reason=c["reason"],
        round_number=c.get("round_number"),
        user=request.user,
    )
    return _back(tournament, "#adjustments")


@_staff_post
def adjustment_delete_view(request, tournament, adjustment_id: int):
    adjustment = get_object_or_404(tournament.adjustments, pk=adjustment_id)
    svc.adjustment_delete(adjustment=adjustment)
    return _back(tournament, "#adjustments")
