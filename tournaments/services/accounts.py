"""Accounts and the clubs they own: deleting or deactivating an account never leaves a club
without an owner who can log in (docs/accounts.md, "Owners").

A deactivated account keeps its memberships but cannot log in, so its owner role counts for
nothing; a deleted account takes its memberships with it. Either is refused, naming the clubs,
while it would take away the last owner of a club who can log in: make someone else owner of
each first (or, for a club whose owners are all gone already, ``manage.py club_owner``).
The Django admin deletes and deactivates accounts through these (tournaments/admin.py);
django-allauth, as efuda configures it, offers no account deletion.
"""

from django.contrib.auth import get_user_model
from django.db import transaction

from ..models import Membership, Role
from .cache import club_version_bump
from .members import owners_kept_check


@transaction.atomic
def accounts_owner_check(*, users) -> None:
    """Refuse, naming the clubs, when ``users`` going away (deleted or deactivated) would
    leave a club without an owner who can log in. Their clubs' rows stay locked until the
    caller's transaction ends: call it inside the transaction that deletes or deactivates."""
    ids = {user.pk for user in users}
    locked: set[int] = set()
    while True:  # a club where one of them became owner meanwhile is locked and counted too
        club_ids = set(
            Membership.objects.filter(user_id__in=ids, role=Role.OWNER)
            .exclude(club_id__in=locked)
            .values_list("club_id", flat=True)
        )
        if not club_ids:
            return
        owners_kept_check(club_ids=club_ids, leaving=lambda owner: owner.user_id in ids)
        locked |= club_ids


@transaction.atomic
def accounts_delete(*, users) -> int:
    """Delete the accounts ``users`` (their memberships, claims and tournament staff places go
    with them; what they recorded stays, without their name), all or none: refused as a whole
    while a club would be left without an owner. The number of accounts deleted."""
    users = list(users)
    accounts_owner_check(users=users)
    ids = [user.pk for user in users]
    club_ids = set(Membership.objects.filter(user_id__in=ids).values_list("club_id", flat=True))
    for club_id in sorted(club_ids):  # their memberships leave these clubs' member lists
        club_version_bump(club_id=club_id)  # the club rows first (services/cache.py)
    _total, per_model = get_user_model().objects.filter(pk__in=ids).delete()
    return per_model.get(get_user_model()._meta.label, 0)
