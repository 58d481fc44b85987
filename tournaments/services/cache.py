"""The club's data version: what keeps cached read pages fresh.

Cached pages are keyed by ``Club.data_version`` (``views/page_cache.py``), so the first read
after a commit renders anew and nothing older is ever served. The version moves in one place,
:func:`club_version_bump`, and only where a service says so: every service that writes a
club's rows calls it itself, inside its own transaction, once (a service made of others: once
per part that writes), so the version commits, or rolls back, with what it describes. No
signal handler moves it behind a service's back.

Where in the transaction: before its first write, after the checks it can make first (a
refusal then writes nothing). The ``UPDATE`` locks the club's row, so a writer holds the club
row before it changes anything else (docs/architecture.md, "Lock order"); a service that locks
rows of players, claims or memberships to decide moves the version before it takes them, and a
deal's services lock the club's row with the session or the deal they read.

A forgotten call fails the test suite, not a reader: the tests watch every transaction they
run, and one that commits a write to a club table without moving its club's version fails
(tests/club_versions.py). Only the tables in :data:`UNVERSIONED` may be written without it.
"""

from __future__ import annotations

from django.db.models import Exists, F

from ..models import Club, Tournament

# Tables written without moving the version: no read page shows their rows, or a page shows
# only what a transaction that bumps the version switches to.
UNVERSIONED = frozenset(
    {
        "tournaments_pinattempt",  # wrong PINs, counted for the lockout; never shown
        "tournaments_importjob",  # an import's progress: its own page, never cached
        "tournaments_apitoken",  # a person's API token: no club's data
        "tournaments_workerbeat",  # the task worker's sign of life (/healthz): no club's data
        "tournaments_apitabletoken",  # a PIN holder's table token: never shown
        "tournaments_feedkey",  # a member's secret feed key: never on a kept page
        # A webhook delivery's progress: the hook's own page, never cached; the change it
        # tells of moved the version in the transaction that queued it (services/webhooks.py).
        "tournaments_webhookdelivery",
        # A ratings replay writes a new generation of history rows (and the state's
        # bookkeeping: the generation numbers, its version) in transactions of its own, which
        # no reader looks at; readers see them once the state switches to that generation, in
        # the transaction that writes the players' ratings and bumps the version
        # (services/ratings.py).
        "tournaments_ratingstate",
        "tournaments_ratinghistory",
    }
)


def club_version_bump(*, club_id: int, using: str | None = None) -> None:
    """Mark the club's pages as changed: one ``UPDATE`` of the club's row, inside the
    writing transaction (its caller's)."""
    Club.objects.using(using).filter(pk=club_id).update(data_version=F("data_version") + 1)


def club_hiding_refresh(*, club_id: int, using: str | None = None) -> None:
    """Rewrite the club's hiding flags (``Club.has_private_tournament``,
    ``Club.has_standings_freeze``) from its tournaments as they are now: one ``UPDATE`` of the
    club's row, called after a write that can change them (a tournament created, made private
    or public, deleted; a freeze set or revealed), in the same transaction as its version bump.
    The flags say only whether something *may* be hidden (a private tournament not yet started,
    a freeze before its hidden rounds): the visibility rule asks the rest when one is set."""
    tournaments = Tournament.objects.using(using).filter(club_id=club_id)
    Club.objects.using(using).filter(pk=club_id).update(
        has_private_tournament=Exists(tournaments.filter(is_public=False)),
        has_standings_freeze=Exists(
            tournaments.filter(standings_hidden_rounds__gt=0, standings_revealed=False)
        ),
    )
