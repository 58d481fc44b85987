"""Staff: registration settings, opening check-in, and the desk page that shows the code of
the minute (large, with a QR code of the check-in address) to the arriving players."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from core.errors import EfudaError

from ...forms.registration import CheckInOpenForm, RegistrationSettingsForm
from ...i18n import error_text
from ...reports.qr import absolute_url, qr_svg
from ...selectors.events import registration as reg
from ...services import events as svc
from .common import _staff_post, refusals, staff_only


@login_required
@refusals
def registration_view(request, tournament_id: int):
    """The staff's registration settings (GET shows, POST saves) and who registered how."""
    tournament = staff_only(request, tournament_id)
    form = RegistrationSettingsForm(
        request.POST or None,
        initial={
            "registration_open": tournament.registration_open,
            "registration_closes": tournament.registration_closes
            and timezone.localtime(tournament.registration_closes),
            "registration_cap": tournament.registration_cap,
            "registration_anyone": tournament.registration_anyone,
        },
    )
    if request.method == "POST":
        if form.is_valid():
            c = form.cleaned_data
            try:
                svc.registration_set(
                    tournament=tournament,
                    open=c["registration_open"],
                    closes=c["registration_closes"],
                    cap=c["registration_cap"],
                    anyone=c["registration_anyone"],
                )
            except EfudaError as err:
                messages.error(request, error_text(err))
            else:
                messages.success(request, _("Registration settings saved."))
                return redirect("tournament_registration", tournament.pk)
    entries = list(tournament.entries.select_related("player", "user").order_by("id"))
    return render(
        request,
        "tournaments/events/registration.html",
        {
            "tournament": tournament,
            "form": form,
            "entries": entries,
            "link": absolute_url("tournament_me", tournament.pk),
            "checked_in": sum(1 for e in entries if e.checked_in),
        },
    )


@_staff_post
def checkin_open_view(request, tournament):
    form = CheckInOpenForm(request.POST)
    opened = form.is_valid() and form.cleaned_data["open"]
    svc.checkin_set(tournament=tournament, open=opened)
    if opened:
        messages.success(request, _("Check-in is open until the round is drawn."))
        return redirect("tournament_desk", tournament.pk)
    messages.success(request, _("Check-in is closed."))
    return redirect("tournament_registration", tournament.pk)


@require_safe
@login_required
@refusals
def desk_view(request, tournament_id: int):
    """The code of this minute, large, and a QR code of the check-in address with the code
    in it; the page reloads itself when the code changes."""
    tournament = staff_only(request, tournament_id)
    code = reg.desk_code(tournament) if tournament.checkin_open else ""
    url = absolute_url("tournament_me", tournament.pk) + (f"?code={code}" if code else "")
    return render(
        request,
        "tournaments/events/desk.html",
        {
            "tournament": tournament,
            "code": code,
            "qr": qr_svg(url) if code else "",
            "refresh": reg.desk_seconds_left() + 1,
            "me_url": reverse("tournament_me", args=[tournament.pk]),
        },
    )
