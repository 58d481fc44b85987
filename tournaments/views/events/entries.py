"""Staff: entering and checking in players, the evening's changes of plan (“X replaces Y”,
“X leaves after this round”, “X arrives now”), PINs."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import render
from django.utils.translation import gettext as _

from ...forms.events import CheckInForm, DropForm, EntryForm, PinIssueForm, ReplaceForm
from ...i18n import render_message
from ...selectors import events as sel
from ...services import events as svc
from .common import (
    _back,
    _entry,
    _staff_post,
)


def say(request, change) -> None:
    """Show what a change of plan did, sentence by sentence, in the staff's language."""
    for line in change.lines:
        messages.success(request, render_message(line.text, dict(line.params)))


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
        say(request, entry.change)
    return _back(tournament, "#entries")


@_staff_post
def entry_check_in_view(request, tournament, entry_id: int):
    entry = _entry(tournament, entry_id)
    form = CheckInForm(request.POST)
    if form.is_valid():
        entry = svc.entry_check_in(
            entry=entry, checked_in=form.cleaned_data["checked_in"], user=request.user
        )
        say(request, entry.change)
    return _back(tournament, "#entries")


@_staff_post
def entry_drop_view(request, tournament, entry_id: int):
    """“X leaves after this round” (or, with ``undo``, X is back)."""
    entry = _entry(tournament, entry_id)
    form = DropForm(request.POST)
    if form.is_valid() and form.cleaned_data["undo"]:
        svc.entry_undrop(entry=entry)
        messages.success(
            request,
            _("%(name)s is back in the tournament: check them in to be drawn.")
            % {"name": entry.player.name},
        )
    else:
        say(request, svc.entry_leave(entry=entry, user=request.user))
    return _back(tournament, "#entries")


@_staff_post
def entry_remove_view(request, tournament, entry_id: int):
    """Take an entry out, as if never entered (only while nothing of the tournament depends
    on it: ``services.events.entry_remove`` says why not otherwise)."""
    name = svc.entry_remove(entry=_entry(tournament, entry_id), user=request.user)
    messages.success(
        request, _("%(name)s is no longer entered in this tournament.") % {"name": name}
    )
    return _back(tournament, "#entries")


@_staff_post
def entry_replace_view(request, tournament):
    """“X replaces Y”: X (chosen, or a name typed) takes Y's seat in the current round."""
    form = ReplaceForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose who is replaced, and who takes the seat."))
        return _back(tournament, "#changes")
    c = form.cleaned_data
    name = c["substitute_name"] or _entry(tournament, c["substitute"]).player.name
    say(
        request,
        svc.entry_replace(
            tournament=tournament,
            replaced=_entry(tournament, c["replaced"]),
            substitute=name,
            leaves=c["leaves"],
            user=request.user,
        ),
    )
    return _back(tournament, "#changes")


@_staff_post
def entry_pin_view(request, tournament, entry_id: int):
    """Issue a PIN (shown once on the next page, never stored in clear). Re-issuing or revoking
    one logs out the phone that used it, so a POST without ``confirm`` first asks, saying
    whose phone."""
    entry = _entry(tournament, entry_id)
    form = PinIssueForm(request.POST)
    form.is_valid()
    revoke = form.cleaned_data.get("revoke")
    if entry.pin_hash and not form.cleaned_data.get("confirm"):
        return render(
            request,
            "tournaments/events/pin_confirm.html",
            {
                "tournament": tournament,
                "entry": entry,
                "revoke": revoke,
                "seated": sel.entry_table(tournament, entry),
            },
        )
    if revoke:
        svc.pin_revoke(entry=entry)
        messages.success(request, _("PIN of %(name)s revoked.") % {"name": entry.player.name})
    else:
        pin = svc.pin_issue(entry=entry)
        request.session["efuda_new_pin"] = {"name": entry.player.name, "pin": pin}
    return _back(tournament, "#entries")


@_staff_post
def pin_lockouts_clear_view(request, tournament):
    """Let the phones locked out of PIN entry (too many wrong PINs) try again now."""
    svc.pin_lockouts_clear(tournament=tournament)
    messages.success(request, _("Every phone can try a PIN again."))
    return _back(tournament, "#entries")
