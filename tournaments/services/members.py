"""Membership: who belongs to a club and in which role (owner, scorekeeper, member).

Every change of membership goes through this module."""

from django.contrib.auth import get_user_model
from django.db import transaction

from core.i18n import N_

from ..models import Club, Membership, Role
from .errors import make_fail

MESSAGES = {
    "user_unknown": N_("There is no user called “%(username)s”."),
    "last_owner": N_("A club needs at least one owner: make someone else owner first."),
}


_fail = make_fail(MESSAGES)


def _owners_left(club: Club, *, without: Membership) -> int:
    return (
        Membership.objects.select_for_update()
        .filter(club=club, role=Role.OWNER)
        .exclude(pk=without.pk)
        .count()
    )


@transaction.atomic
def member_add(*, club: Club, username: str, role: str) -> Membership:
    """Give an existing user a role in the club (or change the role they have)."""
    user = get_user_model().objects.filter(username=(username or "").strip()).first()
    if user is None:
        raise _fail("username", "user_unknown", username=(username or "").strip())
    existing = Membership.objects.filter(club=club, user=user).first()
    if existing is not None:
        return membership_role_change(membership=existing, role=role)
    return Membership.objects.create(club=club, user=user, role=role)


@transaction.atomic
def membership_role_change(*, membership: Membership, role: str) -> Membership:
    """Change a member's role; the membership's history keeps who changed it, and when."""
    membership = Membership.objects.select_for_update().get(pk=membership.pk)
    if membership.role == role:
        return membership
    if membership.role == Role.OWNER and role != Role.OWNER:
        if not _owners_left(membership.club, without=membership):
            raise _fail("role", "last_owner")
    membership.role = role
    membership.save()
    return membership


@transaction.atomic
def member_remove(*, membership: Membership) -> None:
    membership = Membership.objects.select_for_update().get(pk=membership.pk)
    if membership.role == Role.OWNER and not _owners_left(membership.club, without=membership):
        raise _fail("role", "last_owner")
    membership.delete()


def membership_set(*, club: Club, user, role: str) -> Membership:
    """Give ``user`` ``role`` in the club, whatever they had (demo data, benches, tests)."""
    membership, _created = Membership.objects.update_or_create(
        club=club, user=user, defaults={"role": role}
    )
    return membership
