"""Table PINs: issue, revoke, check (with throttling per client address and entry)."""

from __future__ import annotations

import secrets
import unicodedata

from django.db import transaction
from django.utils import timezone
from django.utils.crypto import salted_hmac

from core.errors import EfudaError

from ...models import (
    PinAttempt,
    Tournament,
    TournamentEntry,
)
from ..cache import club_version_bump
from .common import (
    PIN_DIGITS,
    PIN_FAILURE_WINDOW,
    PIN_FAILURES_ALLOWED,
    PIN_FAILURES_PER_ENTRY,
    _fail,
)

# --- PINs ------------------------------------------------------------------------------------


def pin_digest(tournament: Tournament, pin: str) -> str:
    """Keyed hash of a PIN: only this is stored; it is valid for its tournament only."""
    return salted_hmac("efuda.tournament-pin", f"{tournament.pk}:{pin}").hexdigest()


@transaction.atomic
def pin_issue(*, entry: TournamentEntry) -> str:
    """A new PIN for the entry (any earlier PIN stops working). Returned once, never stored."""
    club_version_bump(club_id=entry.tournament.club_id)
    return _pin_new(entry)


def _pin_new(entry: TournamentEntry) -> str:
    tournament = entry.tournament
    taken = set(
        TournamentEntry.objects.filter(tournament=tournament)
        .exclude(pk=entry.pk)
        .exclude(pin_hash="")
        .values_list("pin_hash", flat=True)
    )
    while True:
        pin = f"{secrets.randbelow(10**PIN_DIGITS):0{PIN_DIGITS}d}"
        digest = pin_digest(tournament, pin)
        if digest not in taken:
            break
    entry.pin_hash = digest
    entry.pin_issued_at = timezone.now()
    entry.save(update_fields=["pin_hash", "pin_issued_at"])
    return pin


@transaction.atomic
def pin_issue_all(*, tournament: Tournament, only_missing: bool = False) -> dict[int, str]:
    """PINs for the active entries (for printing seating cards): entry id → PIN. Every one
    gets a new PIN (each old one stops working: its phone is logged out), or, ``only_missing``,
    only those without a PIN (nobody is logged out). All or nothing: one transaction, so a
    failure half-way leaves every old PIN working."""
    entries = tournament.entries.filter(dropped_at_round__isnull=True)
    if only_missing:
        entries = entries.filter(pin_hash="")
    club_version_bump(club_id=tournament.club_id)
    return {e.pk: _pin_new(e) for e in entries.select_related("tournament")}


def pin_lockouts_clear(*, tournament: Tournament) -> int:
    """Let every phone locked out of this tournament's PIN entry (too many wrong PINs, for a
    chosen player or typed alone) try again now: their failures are forgotten. Returns how
    many failures were cleared. (No page shows them: the club's version stays.)"""
    deleted, _kinds = PinAttempt.objects.filter(tournament=tournament).delete()
    return deleted


@transaction.atomic
def pin_revoke(*, entry: TournamentEntry) -> TournamentEntry:
    club_version_bump(club_id=entry.tournament.club_id)
    entry.pin_hash = ""
    entry.save(update_fields=["pin_hash"])
    return entry


def pin_normalize(pin) -> str:
    """The PIN as ASCII digits: full-width digits (全角), spaces and hyphens are fine; anything
    else makes it invalid (returned as typed, so it can never match)."""
    text = unicodedata.normalize("NFKC", str(pin or ""))
    text = "".join(ch for ch in text if ch not in " -\t\u3000")
    return text if text.isascii() and text.isdigit() else "?"


def _failures(tournament: Tournament, address: str, entry: TournamentEntry | None) -> int:
    since = timezone.now() - PIN_FAILURE_WINDOW
    attempts = PinAttempt.objects.filter(
        tournament=tournament, address=address, entry=entry, created_at__gte=since
    )
    if entry is not None and entry.pin_issued_at is not None:
        attempts = attempts.filter(created_at__gte=entry.pin_issued_at)  # a new PIN: new count
    return attempts.count()


def pin_unknown_tournament() -> EfudaError:
    """What a PIN typed for a tournament that does not exist gets: the wrong PIN's message
    (an unknown tournament and a private one answer alike; nothing is stored)."""
    return _fail("pin", "pin_wrong")


def pin_check(
    *, tournament: Tournament, pin: str, address: str, entry: TournamentEntry | None = None
) -> TournamentEntry:
    """The entry a PIN belongs to. ``entry`` is the player the PIN is typed for (chosen by
    seat on the table's page), or None when a PIN alone is typed (it may match anyone).

    Failures are counted per client address (the one login rate limiting uses: from a trusted
    proxy's X-Forwarded-For, otherwise the sender's own; tournaments/client_ip.py) and per
    entry guessed: after PIN_FAILURES_PER_ENTRY wrong PINs for one player from one address,
    that address cannot try that player for the window (other players and other addresses are
    unaffected); PIN_FAILURES_ALLOWED wrong bare PINs from one address stop bare PINs from it.
    There is never a lock for the whole tournament."""
    address = (address or "unknown")[:64]
    limit = PIN_FAILURES_PER_ENTRY if entry is not None else PIN_FAILURES_ALLOWED
    if _failures(tournament, address, entry) >= limit:
        raise _fail("pin", "pin_throttled")
    pin = pin_normalize(pin)
    found = None
    if len(pin) == PIN_DIGITS:
        candidates = TournamentEntry.objects.filter(
            tournament=tournament, pin_hash=pin_digest(tournament, pin)
        )
        if entry is not None:
            candidates = candidates.filter(pk=entry.pk)
        found = candidates.select_related("player").first()
    if found is None:
        PinAttempt.objects.create(tournament=tournament, address=address, entry=entry)
        raise _fail("pin", "pin_wrong")
    return found
