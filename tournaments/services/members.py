"""Membership: who belongs to a club and in which role (owner, scorekeeper, member).

Every change of membership goes through this module, and every right that comes from a
membership follows it (docs/accounts.md, "Leaving a club"):

- removed from the club: off the extra staff of every tournament of the club, their open
  invitations into it withdrawn, their pending "this is me" claims turned down;
- no longer owner: their open invitations withdrawn (only owners invite);
- no longer scorekeeper or owner: nothing to clean up — recording, running tournaments as
  club staff and as a tournament's creator are read from the role at every request.

Each of these is a save with the reason in the row's own history (the membership's, the
tournament's with its staff, the invitation's, the claim's), by the person who made the change.
Permissions never rely on this cleaning alone: they check the membership at every request.

A club always keeps an owner who can log in: every change that could take the last one away
(a role change, a removal or leaving, an account deleted or deactivated: services/accounts.py)
locks the club's row first and counts the owners after it (``clubs_left_without_owner``), so of two
such changes at the same moment the second sees the first and is refused if it would leave none.
"""

from collections.abc import Callable, Iterable

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from core.i18n import N_

from ..models import ClaimStatus, Club, Invitation, Membership, PlayerClaim, Role, Tournament
from .cache import club_version_bump
from .clubs import club_lock
from .errors import make_fail

MESSAGES = {
    "user_unknown": N_("There is no user called “%(username)s”."),
    "last_owner": N_("A club needs at least one owner: make someone else owner first."),
    "member_gone": N_("This person is no longer a member of the club."),
    "clubs_last_owner": N_(
        "These clubs would be left without an owner: %(clubs)s. Make someone else owner of "
        "each first."
    ),
}


_fail = make_fail(MESSAGES)


def clubs_left_without_owner(
    *, club_ids: Iterable[int], leaving: Callable[[Membership], bool]
) -> list[int]:
    """Lock the rows of the clubs ``club_ids``, in the order of their ids, and return the ids of
    those that would have no owner who can log in once the owners for which ``leaving(owner)``
    is true stop counting (lowered, removed, their accounts deleted or deactivated).

    The one check of every change that can take an owner away. Call it first in the
    transaction that makes the change: the club rows stay locked until it ends, so two such
    changes of one club run one after the other and the second counts the owners the first
    left. The owners are listed and counted here, in Python, after the lock: Django drops
    ``FOR UPDATE`` from an aggregate such as ``count()``, which once let two owners demote each
    other at the same moment and leave their club with none."""
    ownerless = []
    for club_id in sorted(set(club_ids)):
        club_lock(club_id=club_id)
        owners = list(
            Membership.objects.filter(club_id=club_id, role=Role.OWNER, user__is_active=True)
        )
        if owners and all(leaving(owner) for owner in owners):
            ownerless.append(club_id)
    return ownerless


def owners_kept_check(*, club_ids: Iterable[int], leaving: Callable[[Membership], bool]) -> None:
    """:func:`clubs_left_without_owner`, refused with a message that names the clubs (an account
    deleted or deactivated, memberships deleted by site staff)."""
    ownerless = clubs_left_without_owner(club_ids=club_ids, leaving=leaving)
    if ownerless:
        clubs = Club.objects.filter(pk__in=ownerless).order_by("name", "pk")
        names = ", ".join(f"“{club.name}” ({club.slug})" for club in clubs)
        raise _fail("__all__", "clubs_last_owner", clubs=names)


def _alone(membership: Membership) -> list[int]:
    """Lock ``membership``'s club: ``[its id]`` if ``membership`` is its only owner who can
    log in, else ``[]``."""
    return clubs_left_without_owner(
        club_ids=[membership.club_id], leaving=lambda owner: owner.pk == membership.pk
    )


def _locked(membership: Membership) -> Membership:
    """``membership`` as stored now, locked (after the club's row); refused if it is gone."""
    found = Membership.objects.select_for_update().filter(pk=membership.pk).first()
    if found is None:
        raise _fail("__all__", "member_gone")
    return found


def _by(user):
    return user if getattr(user, "is_authenticated", False) else None


def user_by_name(username: str):
    """The account called ``username``, compared without regard to case (as the login does):
    the exact spelling first, where two accounts differ only by case."""
    name = (username or "").strip()
    if not name:
        return None
    users = get_user_model().objects
    return users.filter(username=name).first() or (
        users.filter(username__iexact=name).order_by("pk").first()
    )


@transaction.atomic
def member_add(*, club: Club, username: str, role: str, by=None) -> Membership:
    """Give an existing user a role in the club (or change the role they have)."""
    user = user_by_name(username)
    if user is None:
        raise _fail("username", "user_unknown", username=(username or "").strip())
    club_lock(club_id=club.pk)
    existing = Membership.objects.filter(club=club, user=user).first()
    if existing is not None:
        return membership_role_change(membership=existing, role=role, by=by)
    membership = Membership(club=club, user=user, role=role)
    membership._history_user = _by(by)
    club_version_bump(club_id=club.pk)
    membership.save()
    return membership


def _invitations_withdraw(membership: Membership, by, reason: str) -> None:
    """Withdraw the open invitations ``membership``'s person made into its club."""
    now = timezone.now()
    for invitation in Invitation.objects.select_for_update().filter(
        club_id=membership.club_id,
        created_by_id=membership.user_id,
        revoked_at__isnull=True,
        expires_at__gt=now,
    ):
        invitation.revoked_at = now
        invitation._history_user = _by(by)
        invitation._change_reason = reason
        invitation.save(update_fields=["revoked_at"])


def _claims_decline(membership: Membership, by) -> None:
    for claim in PlayerClaim.objects.select_for_update().filter(
        club_id=membership.club_id, user_id=membership.user_id, status=ClaimStatus.PENDING
    ):
        claim.status = ClaimStatus.REJECTED
        claim.decided_by = _by(by)
        claim.decided_at = timezone.now()
        claim._history_user = _by(by)
        claim._change_reason = "claimant left the club"
        claim.save()


def _staff_leave(membership: Membership, by) -> None:
    """Off the extra staff of every tournament of the club (each a change in its history)."""
    tournaments = Tournament.objects.select_for_update(of=("self",)).filter(
        club_id=membership.club_id, extra_staff=membership.user_id
    )
    for tournament in tournaments.order_by("pk"):
        tournament._history_user = _by(by)
        tournament._change_reason = f"staff removed: {membership.user_id} (left the club)"
        tournament.extra_staff.remove(membership.user_id)


@transaction.atomic
def membership_role_change(*, membership: Membership, role: str, by=None) -> Membership:
    """Change a member's role; the membership's history keeps who changed it, and when. An
    owner who becomes scorekeeper or member has their open invitations withdrawn; the last
    owner cannot step down (make someone else owner first)."""
    alone = _alone(membership)
    club_version_bump(club_id=membership.club_id)
    membership = _locked(membership)
    if membership.role == role:
        return membership
    if membership.role == Role.OWNER:
        if alone:
            raise _fail("role", "last_owner")
        _invitations_withdraw(membership, by, "inviter no longer an owner")
    membership._change_reason = f"role {membership.role} → {role}"
    membership._history_user = _by(by)
    membership.role = role
    membership.save()
    return membership


@transaction.atomic
def member_remove(*, membership: Membership, by=None) -> None:
    """Remove a person from the club (an owner removing themselves: leaving it), and every
    right their membership gave them (above). The last owner cannot leave."""
    alone = _alone(membership)
    club_version_bump(club_id=membership.club_id)
    membership = _locked(membership)
    if alone:
        raise _fail("role", "last_owner")
    _staff_leave(membership, by)
    _invitations_withdraw(membership, by, "inviter left the club")
    _claims_decline(membership, by)
    membership._history_user = _by(by)
    membership._change_reason = "removed from the club"
    membership.delete()


@transaction.atomic
def membership_set(*, club: Club, user, role: str) -> Membership:
    """Give ``user`` ``role`` in the club, whatever they had (demo data, benches, tests); the
    last owner stays owner all the same."""
    alone = clubs_left_without_owner(
        club_ids=[club.pk], leaving=lambda owner: owner.user_id == user.pk
    )
    if alone and role != Role.OWNER:
        raise _fail("role", "last_owner")
    club_version_bump(club_id=club.pk)
    membership, _created = Membership.objects.update_or_create(
        club=club, user=user, defaults={"role": role}
    )
    return membership
