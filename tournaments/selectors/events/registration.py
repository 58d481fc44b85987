"""Self-registration and check-in, read side: whose entry a logged-in person has, who may
register now, a waiting place, and the desk code of the minute."""

from __future__ import annotations

import hmac

from django.utils import timezone

from ...models import Membership, Player, Tournament, TournamentEntry

DESK_CODE_DIGITS = 6
DESK_CODE_STEP = 60  # seconds: the code changes every minute


def own_entry(*, tournament: Tournament, user) -> TournamentEntry | None:
    """The entry of the logged-in person: the one they registered, or their linked player's."""
    if not getattr(user, "is_authenticated", False):
        return None
    entries = tournament.entries.select_related("player")
    return (
        entries.filter(user_id=user.pk).first()
        or entries.filter(player__user_id=user.pk, player__club_id=tournament.club_id).first()
    )


def linked_player(tournament: Tournament, user) -> Player | None:
    """The club player linked to the person's account (what they register as), if any."""
    return Player.objects.filter(club_id=tournament.club_id, user_id=user.pk).first()


def registration_refusal(*, tournament: Tournament, user, now=None) -> str | None:
    """Why ``user`` may not register now (a message code of services/events/registration.py),
    or None."""
    now = now or timezone.now()
    if not tournament.registration_open:
        return "registration_closed"
    if tournament.registration_closes is not None and now >= tournament.registration_closes:
        return "registration_deadline"
    if not getattr(user, "is_authenticated", False):
        return "registration_login"
    if tournament.rounds.exists():
        return "registration_drawn"
    member = Membership.objects.filter(club_id=tournament.club_id, user_id=user.pk).exists()
    if not member and not (tournament.is_public and tournament.registration_anyone):
        return "registration_members"
    return None


def waiting_position(entry: TournamentEntry) -> int | None:
    """1 for the first on the waiting list; None when the entry has a place."""
    if not entry.waiting:
        return None
    return TournamentEntry.objects.filter(
        tournament_id=entry.tournament_id, waiting=True, id__lte=entry.id
    ).count()


def desk_code(tournament: Tournament, now=None, *, step_back: int = 0) -> str:
    """The desk's check-in code for the minute of ``now`` (``step_back`` minutes before): an
    HMAC of the minute's number keyed by the tournament's secret, as TOTP does (RFC 6238).
    Empty while the tournament has no secret (check-in never opened)."""
    if not tournament.checkin_secret:
        return ""
    now = now or timezone.now()
    counter = int(now.timestamp()) // DESK_CODE_STEP - step_back
    digest = hmac.digest(tournament.checkin_secret.encode(), counter.to_bytes(8, "big"), "sha256")
    offset = digest[-1] & 0x0F
    number = int.from_bytes(digest[offset : offset + 4], "big") & 0x7FFFFFFF
    return f"{number % 10**DESK_CODE_DIGITS:0{DESK_CODE_DIGITS}d}"


def desk_code_valid(tournament: Tournament, code: str, now=None) -> bool:
    """The code of this minute or the one before (a code read at :59 still works at :00)."""
    if not tournament.checkin_secret or not code:
        return False
    return any(
        hmac.compare_digest(code, desk_code(tournament, now, step_back=back)) for back in (0, 1)
    )


def desk_seconds_left(now=None) -> int:
    """Seconds until the desk code changes."""
    now = now or timezone.now()
    return DESK_CODE_STEP - int(now.timestamp()) % DESK_CODE_STEP
