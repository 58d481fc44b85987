"""Check-in at the venue: the staff open it; a registered player types (or scans) the desk's
code of the minute on their own phone; drawing a round closes it. The staff's own check-in
and check-out (``entries.entry_check_in``) work at any time, as before."""

from __future__ import annotations

import secrets

from django.db import transaction
from django.utils import timezone

from core.i18n import N_

from ...models import CheckInHow, PinAttempt, Tournament, TournamentEntry
from ...selectors.events.registration import desk_code_valid
from ..cache import club_version_bump
from ..errors import make_fail
from .common import PIN_FAILURE_WINDOW, PIN_FAILURES_PER_ENTRY
from .entries import entry_check_in

MESSAGES = {
    "checkin_closed": N_(
        "Check-in is not open: the staff open it at the venue (it closes when the round is "
        "drawn). Ask the staff."
    ),
    "checkin_waiting": N_("You are on the waiting list: ask the staff for a place."),
    "checkin_dropped": N_("Your entry has left the tournament: ask the staff."),
    "checkin_code_wrong": N_(
        "That is not the desk's code (it changes every minute): type the one shown now."
    ),
    "checkin_throttled": N_("Too many wrong codes. Wait a few minutes and ask the staff."),
    "checkin_finished": N_("The tournament is finished."),
}

_fail = make_fail(MESSAGES)
DESK_ADDRESS = "desk-code"  # failures are counted per entry under this address


@transaction.atomic
def checkin_set(*, tournament: Tournament, open: bool) -> Tournament:  # noqa: A002
    """The staff open (or close) self check-in. The first opening makes the secret the desk
    code is derived from."""
    club_version_bump(club_id=tournament.club_id)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if open and tournament.finished_at is not None:
        raise _fail("__all__", "checkin_finished")
    tournament.checkin_open = bool(open)
    if open and not tournament.checkin_secret:
        tournament.checkin_secret = secrets.token_hex(32)
    tournament.save(update_fields=["checkin_open", "checkin_secret"])
    return tournament


def checkin_with_code(*, entry: TournamentEntry, code: str, user, now=None) -> TournamentEntry:
    """The player checks themselves in with the desk code of this minute or the one before.
    Wrong codes count against the entry like wrong PINs (PIN_FAILURES_PER_ENTRY in the
    window), so the code cannot be guessed. Not one transaction: a wrong code stays counted."""
    now = now or timezone.now()
    tournament = Tournament.objects.get(pk=entry.tournament_id)
    if not tournament.checkin_open:
        raise _fail("code", "checkin_closed")
    if entry.waiting:
        raise _fail("code", "checkin_waiting")
    if entry.dropped_at_round is not None:
        raise _fail("code", "checkin_dropped")
    since = now - PIN_FAILURE_WINDOW
    failures = PinAttempt.objects.filter(
        tournament=tournament, address=DESK_ADDRESS, entry=entry, created_at__gte=since
    ).count()
    if failures >= PIN_FAILURES_PER_ENTRY:
        raise _fail("code", "checkin_throttled")
    typed = "".join(ch for ch in str(code or "") if ch.isdigit())
    if not desk_code_valid(tournament, typed, now):
        PinAttempt.objects.create(tournament=tournament, address=DESK_ADDRESS, entry=entry)
        raise _fail("code", "checkin_code_wrong")
    if entry.checked_in:
        entry.change = None
        return entry
    return entry_check_in(entry=entry, user=user, how=CheckInHow.CODE, now=now)
