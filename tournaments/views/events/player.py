"""A player's own private page of a tournament (logged in): registering and withdrawing,
checking in with the desk's code, and once the round is drawn their seat and their PIN.
Nothing of it is on a public page; the PIN is only ever shown to its player, once."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from core.errors import EfudaError

from ...forms.registration import DeskCodeForm, RegisterForm
from ...i18n import error_text
from ...models import CheckInHow
from ...reports.qr import absolute_url, qr_svg
from ...selectors import events as sel
from ...selectors.events import registration as reg
from ...services import events as svc
from ...services.events import registration as reg_svc
from .common import PIN_SESSION_KEY, refusals, visible

MY_PIN_KEY = "efuda_my_pin"


def _seat(tournament, entry):
    """(round, table, seat number) of the entry in the latest round, drawn and not finished,
    or None."""
    rnd = sel.current_round(tournament)
    if rnd is None or rnd.finished_at is not None or entry is None:
        return None
    for table in rnd.tables.all():
        if entry.player_id in table.seats:
            return rnd, table, table.seats.index(entry.player_id) + 1
    return None


@require_safe
@login_required
@refusals
def my_entry_view(request, tournament_id: int):
    tournament, _pin = visible(request, tournament_id)
    entry = reg.own_entry(tournament=tournament, user=request.user)
    refusal = None
    if entry is None:
        code = reg.registration_refusal(tournament=tournament, user=request.user)
        if code is not None:
            refusal = error_text(reg_svc.refusal_error(tournament, code))
    seat = _seat(tournament, entry)
    names = sel.names_of(tournament) if seat else {}
    new_pin = request.session.pop(MY_PIN_KEY, None)
    if new_pin and (entry is None or new_pin.get("entry") != entry.pk):
        new_pin = None
    return render(
        request,
        "tournaments/events/my_entry.html",
        {
            "tournament": tournament,
            "entry": entry,
            "waiting_position": reg.waiting_position(entry) if entry else None,
            "refusal": refusal,
            "linked": reg.linked_player(tournament, request.user) if entry is None else None,
            "register_form": RegisterForm(),
            "code_form": DeskCodeForm(initial={"code": request.GET.get("code", "")[:20]}),
            "by_code": entry is not None and entry.checked_in_how == CheckInHow.CODE,
            "seat": seat,
            "mates": [names.get(p, "") for p in seat[1].seats] if seat else [],
            "new_pin": new_pin["pin"] if new_pin else None,
            "staff_qr": _staff_qr(tournament, entry),
        },
    )


def _staff_qr(tournament, entry) -> str:
    """For the staff to scan while check-in is open: the player's line on the staff's page
    (where they tap *Check in*); to anyone else the address is a refusal."""
    if entry is None or entry.checked_in or entry.waiting or not tournament.checkin_open:
        return ""
    return qr_svg(absolute_url("tournament_manage", tournament.pk) + f"#entry-{entry.pk}")


def _my_post(view):
    @login_required
    @require_POST
    @refusals
    def wrapper(request, tournament_id: int):
        tournament, _pin = visible(request, tournament_id)
        try:
            view(request, tournament)
        except EfudaError as err:
            messages.error(request, error_text(err))
        return redirect("tournament_me", tournament.pk)

    wrapper.__name__ = view.__name__
    wrapper.__doc__ = view.__doc__
    return wrapper


@_my_post
def my_register_view(request, tournament):
    form = RegisterForm(request.POST)
    form.is_valid()
    entry = svc.entry_register(
        tournament=tournament, user=request.user, name=form.cleaned_data.get("name", "")
    )
    if entry.waiting:
        messages.success(request, _("You are on the waiting list (number %(n)s).")
                         % {"n": reg.waiting_position(entry)})  # fmt: skip
    else:
        messages.success(
            request, _("You are registered as %(name)s.") % {"name": entry.player.name}
        )


@_my_post
def my_withdraw_view(request, tournament):
    entry = reg.own_entry(tournament=tournament, user=request.user)
    if entry is None:
        return
    name = svc.entry_withdraw(entry=entry, user=request.user)
    messages.success(request, _("%(name)s has withdrawn from the tournament.") % {"name": name})


@_my_post
def my_check_in_view(request, tournament):
    entry = reg.own_entry(tournament=tournament, user=request.user)
    if entry is None:
        messages.error(request, _("Register first: only registered players check in."))
        return
    form = DeskCodeForm(request.POST)
    form.is_valid()
    svc.checkin_with_code(entry=entry, code=form.cleaned_data.get("code", ""), user=request.user)
    messages.success(request, _("You are checked in. Wait for the draw."))


@_my_post
def my_pin_view(request, tournament):
    """A new PIN for the player's own entry, once they are seated (an earlier PIN, e.g. on a
    printed card, stops working); shown once on their page, and this phone opens the table."""
    entry = reg.own_entry(tournament=tournament, user=request.user)
    if entry is None or _seat(tournament, entry) is None:
        messages.error(request, _("Your PIN is given once you have a seat in the draw."))
        return
    pin = svc.pin_issue(entry=entry)
    entry.refresh_from_db(fields=["pin_hash"])
    pins = dict(request.session.get(PIN_SESSION_KEY, {}))
    pins[str(tournament.pk)] = {"entry": entry.pk, "hash": entry.pin_hash}
    request.session[PIN_SESSION_KEY] = pins
    request.session[MY_PIN_KEY] = {"entry": entry.pk, "pin": pin}
