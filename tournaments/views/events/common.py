"""What every tournament view shares: who may see a tournament, the PIN held by this
browser, staff-only POST actions."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.errors import EfudaError

from ...authors import PIN_SESSION_KEY  # the key the phone's outbox reads too
from ...i18n import error_text
from ...models import (
    Tournament,
    TournamentEntry,
    TournamentRound,
)
from ...selectors import events as sel


class Refused(PermissionDenied):
    """A refusal a person can meet on a tournament's pages, answered by ``refusals`` as a page
    in their language that says why and where to go on (``links``: (label, url) pairs), never
    a bare 403. Without the decorator it is still a plain 403."""

    def __init__(self, *, tournament, title, lines=(), links=(), status=403):
        super().__init__(title)
        self.tournament = tournament
        self.title = title
        self.lines = [line for line in lines if line]
        self.links = list(links)
        self.status = status


def refusal_page(request, refused: Refused):
    return render(
        request,
        "tournaments/events/refusal.html",
        {
            "tournament": refused.tournament,
            "title": refused.title,
            "lines": refused.lines,
            "links": refused.links,
        },
        status=refused.status,
    )


def refusals(view):
    """Answer a ``Refused`` raised by ``view`` with its page."""

    def wrapper(request, *args, **kwargs):
        try:
            return view(request, *args, **kwargs)
        except Refused as refused:
            return refusal_page(request, refused)

    wrapper.__name__ = view.__name__
    wrapper.__doc__ = view.__doc__
    wrapper.__module__ = view.__module__
    return wrapper


def staff_refusal(tournament: Tournament) -> Refused:
    return Refused(
        tournament=tournament,
        title=_("Only the tournament's staff can do this"),
        lines=[
            _(
                "The club's scorekeepers and owners and the staff the organiser added run "
                "this tournament. Ask one of them."
            )
        ],
        links=[
            (_("The tournament"), reverse("tournament_detail", args=[tournament.pk])),
            (_("Standings"), reverse("tournament_standings", args=[tournament.pk])),
        ],
    )


# --- access helpers ---------------------------------------------------------------------------


def pin_entry(request, tournament: Tournament) -> TournamentEntry | None:
    """The entry this browser unlocked with a PIN (still valid: re-issuing logs it out)."""
    held = request.session.get(PIN_SESSION_KEY, {}).get(str(tournament.pk))
    return sel.pin_holder(tournament=tournament, held=held)


def visible(request, tournament_id: int):
    """The tournament and the entry whose PIN this browser holds; 404 for whoever may not see
    it. A read (GET, HEAD) may take the reader's role and staff answer kept for the club's
    data version; a write (POST) reads them afresh."""
    tournament = sel.tournament_for_reader(
        tournament_id=tournament_id,
        reader=request.reader,
        read_only=request.method in ("GET", "HEAD"),
    )
    entry = pin_entry(request, tournament)
    if not sel.can_see(request.reader, tournament, entry):
        raise Http404
    return tournament, entry


def staff_only(request, tournament_id: int) -> Tournament:
    tournament, _entry = visible(request, tournament_id)
    if not sel.is_staff(request.reader, tournament):
        raise staff_refusal(tournament)
    return tournament


def _back(tournament: Tournament, anchor: str = ""):
    return redirect(reverse("tournament_manage", args=[tournament.pk]) + anchor)


def _error(request, err: EfudaError, names=None):
    messages.error(request, error_text(err, names))


# --- staff -----------------------------------------------------------------------------------


def _staff_post(view):
    """Staff-only POST actions: login, role check, EfudaError as a message, back to manage."""

    @login_required
    @require_POST
    @refusals
    def wrapper(request, tournament_id: int, *args, **kwargs):
        tournament = staff_only(request, tournament_id)
        try:
            result = view(request, tournament, *args, **kwargs)
        except EfudaError as err:
            _error(request, err, {str(k): v for k, v in sel.names_of(tournament).items()})
            result = None
        return result or _back(tournament)

    wrapper.__name__ = view.__name__
    wrapper.__doc__ = view.__doc__
    return wrapper


def _entry(tournament, entry_id) -> TournamentEntry:
    return get_object_or_404(
        TournamentEntry.objects.select_related("player", "tournament"),
        pk=entry_id,
        tournament=tournament,
    )


def _round(tournament, number) -> TournamentRound:
    return get_object_or_404(TournamentRound, tournament=tournament, number=number)
