"""The tournament's staff page: the standings freeze and its reveal, and the extra staff.

Every change is a save of the tournament, so it lands in its history (the extra staff as its
many-to-many history), and moves the club's data version (services/cache.py), so no cached
public page shows standings — or, on the club's pages, deals — from before a freeze or a
reveal. A freeze or a reveal also changes which deals the club's ratings learn from
(``selectors.visibility.common_visibility``): the ratings are replayed after it commits.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q

from core.i18n import N_

from ...models import Deal, Membership, Role, Tournament
from ..cache import club_hiding_refresh, club_version_bump
from ..errors import make_fail
from ..ratings import ratings_visibility_changed
from .common import _user

MESSAGES = {
    "freeze_range": N_(
        "Hide the standings for 0 to %(max)s rounds: the tournament has %(max)s rounds."
    ),
    "reveal_nothing": N_("The standings are not hidden, so there is nothing to reveal."),
    "staff_unknown": N_(
        "“%(value)s” is not the user name or e-mail address of a member of this club."
    ),
    "staff_exists": N_("%(name)s already runs this tournament."),
    "staff_not": N_("%(name)s is not on the staff of this tournament."),
    "staff_last": N_(
        "%(name)s is the last person who can run this tournament: add someone else first."
    ),
}

_fail = make_fail(MESSAGES)


def _locked(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def _ratings_follow(tournament: Tournament) -> None:
    """Once the freeze or reveal commits, the ratings learn from what everyone now sees (only
    when the tournament has deals: otherwise nothing they learn from changed)."""
    if Deal.objects.filter(session__event_table__round__tournament=tournament).exists():
        ratings_visibility_changed(club_id=tournament.club_id)


# --- the standings freeze --------------------------------------------------------------------


@transaction.atomic
def tournament_freeze_set(*, tournament: Tournament, hidden_rounds, user=None) -> Tournament:
    """Hide the live standings from the public for the final ``hidden_rounds`` rounds (0: show
    them all along). Setting it hides again standings that were revealed."""
    tournament = _locked(tournament)
    maximum = tournament.rounds_planned
    try:
        value = int(str(hidden_rounds).strip())
    except (TypeError, ValueError):
        raise _fail("standings_hidden_rounds", "freeze_range", max=maximum) from None
    if not 0 <= value <= maximum:
        raise _fail("standings_hidden_rounds", "freeze_range", max=maximum)
    club_version_bump(club_id=tournament.club_id)
    tournament.standings_hidden_rounds = value
    tournament.standings_revealed = False
    tournament._history_user = _user(user)
    tournament._change_reason = f"standings hidden for the final {value} rounds"
    tournament.save(update_fields=["standings_hidden_rounds", "standings_revealed"])
    club_hiding_refresh(club_id=tournament.club_id)
    _ratings_follow(tournament)
    return tournament


@transaction.atomic
def tournament_standings_reveal(*, tournament: Tournament, user=None) -> Tournament:
    """Show everyone the live standings and the results again (the end of a freeze)."""
    tournament = _locked(tournament)
    if not tournament.standings_hidden_rounds or tournament.standings_revealed:
        raise _fail("reveal", "reveal_nothing")
    club_version_bump(club_id=tournament.club_id)
    tournament.standings_revealed = True
    tournament._history_user = _user(user)
    tournament._change_reason = "standings revealed"
    tournament.save(update_fields=["standings_revealed"])
    club_hiding_refresh(club_id=tournament.club_id)
    _ratings_follow(tournament)
    return tournament


# --- extra staff -----------------------------------------------------------------------------


def _display(user) -> str:
    return user.get_username()


@transaction.atomic
def tournament_staff_add(*, tournament: Tournament, who: str, user=None):
    """Add a member of the tournament's club, found by user name or e-mail address."""
    tournament = _locked(tournament)
    value = (who or "").strip()
    users = get_user_model().objects.filter(memberships__club_id=tournament.club_id, is_active=True)
    found = (
        list(users.filter(Q(username__iexact=value) | Q(email__iexact=value)).distinct()[:2])
        if value
        else []
    )
    if len(found) != 1:  # nobody, or an e-mail address two accounts share: ask for the name
        raise _fail("who", "staff_unknown", value=value)
    member = found[0]
    if tournament.extra_staff.filter(pk=member.pk).exists():
        raise _fail("who", "staff_exists", name=_display(member))
    tournament._history_user = _user(user)
    tournament._change_reason = f"staff added: {member.pk}"
    tournament.extra_staff.add(member)
    club_version_bump(club_id=tournament.club_id)
    return member


def _can_run_without(tournament: Tournament, removed) -> bool:
    """Whether someone other than ``removed`` can still run the tournament: a club owner or
    scorekeeper (its creator runs it as one), or other extra staff who are members."""
    members = Membership.objects.filter(club_id=tournament.club_id).exclude(user=removed)
    if members.filter(role__in=[Role.SCOREKEEPER, Role.OWNER]).exists():
        return True
    return members.filter(
        user__in=tournament.extra_staff.exclude(pk=removed.pk).values("pk")
    ).exists()


@transaction.atomic
def tournament_staff_remove(*, tournament: Tournament, member, user=None) -> None:
    """Take a person off the tournament's extra staff; never the last one who can run it."""
    tournament = _locked(tournament)
    if not tournament.extra_staff.filter(pk=member.pk).exists():
        raise _fail("member", "staff_not", name=_display(member))
    if not _can_run_without(tournament, member):
        raise _fail("member", "staff_last", name=_display(member))
    tournament._history_user = _user(user)
    tournament._change_reason = f"staff removed: {member.pk}"
    tournament.extra_staff.remove(member)
    club_version_bump(club_id=tournament.club_id)
