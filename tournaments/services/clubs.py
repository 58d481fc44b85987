"""Clubs and memberships."""

from django.db import transaction

from ..models import Club, Membership, Role


@transaction.atomic
def club_create(*, slug: str, name: str, owner=None, is_public: bool = False) -> Club:
    club = Club.objects.create(slug=slug, name=name or slug, is_public=is_public)
    if owner is not None:
        Membership.objects.create(club=club, user=owner, role=Role.OWNER)
    return club


def membership_set(*, club: Club, user, role: str) -> Membership:
    membership, _created = Membership.objects.update_or_create(
        club=club, user=user, defaults={"role": role}
    )
    return membership
