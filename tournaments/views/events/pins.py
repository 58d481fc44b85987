"""PIN access: players without an account unlock their own table with the PIN on their card.

The client address is the one login rate limiting (django-axes) uses, so behind the proxy it
is the visitor's own, never the proxy's, and a forwarding header counts only when a trusted
proxy sent it (tournaments/client_ip.py).

A private tournament's players are outsiders until their PIN lets them in, so its PIN form is
open to anyone; but to a visitor who may not see the tournament it answers exactly as an
unknown tournament does (404, as the tournament's page): the same bare form, no name, no round,
table or seat count, and a PIN, table or seat that does not fit is the same "not valid"."""

from __future__ import annotations

from axes.helpers import get_client_ip_address
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from core.errors import EfudaError

from ...forms.entry import add_efuda_error
from ...forms.events import PinForm
from ...models import Tournament, TournamentEntry
from ...selectors import events as sel
from ...services import events as svc
from .common import PIN_SESSION_KEY, pin_entry


def client_address(request) -> str:
    return get_client_ip_address(request) or "unknown"


def render_pin_form(request, tournament, form, table=None, status=200):
    """The PIN form; from a table's page (its QR code) the table is fixed and the seat is
    chosen (names only where the visitor may read the tournament)."""
    seats = []
    if table is not None:
        names = sel.names_of(tournament) if sel.can_see(request.reader, tournament, None) else {}
        seats = [(i, names.get(p, "")) for i, p in enumerate(table.seats, start=1)]
    return render(
        request,
        "tournaments/events/pin.html",
        {
            "form": form, "table": table, "seats": seats,
            "pin_url": reverse("tournament_pin", args=[tournament.pk]),
            "title": tournament.name if tournament.is_public else "",
        },
        status=status,
    )  # fmt: skip


def render_hidden_pin_form(request, tournament_id: int, form=None):
    """The PIN form for a tournament this visitor may not see, or that does not exist: the
    same page either way (the bare form: table, seat and PIN typed), answered 404."""
    return render(
        request,
        "tournaments/events/pin.html",
        {
            "form": form or PinForm(initial={"table": None}), "table": None, "seats": [],
            "title": "",
            "pin_url": reverse("tournament_pin", args=[tournament_id]),
        },
        status=404,
    )  # fmt: skip


def tournament_for_pin(request, tournament_id: int) -> tuple[Tournament | None, bool]:
    """The tournament (None when unknown) and whether this visitor may see it."""
    tournament = (
        Tournament.objects.select_related("club", "ruleset").filter(pk=tournament_id).first()
    )
    if tournament is None:
        return None, False
    return tournament, sel.can_see(request.reader, tournament, pin_entry(request, tournament))


def _chosen_entry(tournament, form, *, shown: bool) -> tuple[TournamentEntry | None, object]:
    """The entry at the chosen table and seat of the current round (None: a PIN alone). To a
    visitor who may not see the tournament (``shown`` false) a table or seat that does not
    exist says nothing: the PIN is then tried alone."""
    number, seat = form.cleaned_data.get("table"), form.cleaned_data.get("seat")
    if not number:
        return None, None
    table = sel.current_table(tournament, number)
    if table is None:
        if shown:
            form.add_error(
                "table", _("There is no table %(number)s in this round.") % {"number": number}
            )
        return None, None
    if not seat:
        return None, table
    if seat > len(table.seats):
        if shown:
            form.add_error("seat", ngettext(
                "Table %(number)s has %(count)s seat.", "Table %(number)s has %(count)s seats.",
                len(table.seats)) % {
                "number": number, "count": len(table.seats)})  # fmt: skip
        return None, table
    entry = sel.seated_entry(tournament=tournament, player_id=table.seats[seat - 1])
    return entry, table


def pin_login_view(request, tournament_id: int):
    tournament, shown = tournament_for_pin(request, tournament_id)
    form = PinForm(request.POST or None, initial={"table": request.GET.get("table")})
    if tournament is None:  # unknown: a typed PIN is simply not valid, as for a hidden one
        if request.method == "POST" and form.is_valid():
            add_efuda_error(form, svc.pin_unknown_tournament())
        return render_hidden_pin_form(request, tournament_id, form)
    table = None
    if request.method == "POST" and form.is_valid():
        entry, table = _chosen_entry(tournament, form, shown=shown)
        if not form.errors:
            try:
                found = svc.pin_check(
                    tournament=tournament,
                    pin=form.cleaned_data["pin"],
                    address=client_address(request),
                    entry=entry,
                )
            except EfudaError as err:
                if err.code == "pin_wrong" and entry is not None:  # say which seat was tried
                    form.add_error("pin", _(
                        "That PIN is not the PIN of seat %(seat)s at table %(table)s. Check the "
                        "seat on your card, or choose no seat: your PIN alone opens your table."
                    ) % {"seat": form.cleaned_data["seat"], "table": table.number})  # fmt: skip
                else:
                    add_efuda_error(form, err)
            else:
                pins = dict(request.session.get(PIN_SESSION_KEY, {}))
                pins[str(tournament.pk)] = {"entry": found.pk, "hash": found.pin_hash}
                request.session[PIN_SESSION_KEY] = pins
                request.session.cycle_key()
                mine = sel.entry_table(tournament, found)
                if mine is not None:
                    return redirect("tournament_table", tournament.pk, mine.pk)
                return redirect("tournament_detail", tournament.pk)
    if not shown:
        return render_hidden_pin_form(request, tournament_id, form)
    status = 400 if form.errors else 200
    # A form sent from a table's page (the table fixed by its QR code) comes back as it was.
    fixed = form.data.get("seat") or form.data.get("fixed")
    return render_pin_form(request, tournament, form, table if fixed else None, status)


@require_POST
def pin_logout_view(request, tournament_id: int):
    pins = dict(request.session.get(PIN_SESSION_KEY, {}))
    pins.pop(str(tournament_id), None)
    request.session[PIN_SESSION_KEY] = pins
    return redirect("tournament_pin", tournament_id)


__all__ = [
    "client_address", "pin_entry", "pin_login_view", "pin_logout_view", "render_hidden_pin_form",
    "render_pin_form", "tournament_for_pin",
]  # fmt: skip
