"""Staff: entering and checking in players, drop-outs, PINs."""

from __future__ import annotations

from django.contrib import messages
from django.utils.translation import gettext as _

from ...forms.events import CheckInForm, DropForm, EntryForm, PinIssueForm
from ...services import events as svc
from .common import (
    _back,
    _entry,
    _staff_post,
)


@_staff_post
def entry_add_view(request, tournament):
    form = EntryForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Give the player's name."))
    else:
        entry = svc.entry_add(
            tournament=tournament,
            name=form.cleaned_data["name"],
            checked_in=form.cleaned_data["checked_in"],
        )
        messages.success(request, _("%(name)s entered.") % {"name": entry.player.name})
    return _back(tournament, "#entries")


@_staff_post
def entry_check_in_view(request, tournament, entry_id: int):
    entry = _entry(tournament, entry_id)
    form = CheckInForm(request.POST)
    if form.is_valid():
        svc.entry_check_in(entry=entry, checked_in=form.cleaned_data["checked_in"])
    return _back(tournament, "#entries")


@_staff_post
def entry_drop_view(request, tournament, entry_id: int):
    entry = _entry(tournament, entry_id)
    form = DropForm(request.POST)
    if form.is_valid() and form.cleaned_data["undo"]:
        svc.entry_undrop(entry=entry)
    else:
        svc.entry_drop(entry=entry, user=request.user)
    return _back(tournament, "#entries")


@_staff_post
def entry_pin_view(request, tournament, entry_id: int):
    """Issue (or re-issue) a PIN; shown once on the next page, never stored in clear."""
    entry = _entry(tournament, entry_id)
    form = PinIssueForm(request.POST)
    if form.is_valid() and form.cleaned_data["revoke"]:
        svc.pin_revoke(entry=entry)
        messages.success(request, _("PIN of %(name)s revoked.") % {"name": entry.player.name})
    else:
        pin = svc.pin_issue(entry=entry)
        request.session["efuda_new_pin"] = {"name": entry.player.name, "pin": pin}
    return _back(tournament, "#entries")
