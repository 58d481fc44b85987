"""Club management by its owners: members and roles, players, club settings, new clubs."""

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction

from core.i18n import N_

from ..models import Club, Membership, Player, Role, normalise_name
from .errors import fail, make_fail
from .names import clean_name
from .players import clean_player_name

MESSAGES = {
    "user_unknown": N_("There is no user called “%(username)s”."),
    "last_owner": N_("A club needs at least one owner: make someone else owner first."),
    "player_name_taken": N_("The club already has a player called “%(name)s”."),
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


@transaction.atomic
def player_rename(*, player: Player, name: str) -> Player:
    text = clean_player_name(name, field="name")
    key = normalise_name(text)
    if Player.objects.filter(club_id=player.club_id, name_key=key).exclude(pk=player.pk).exists():
        raise _fail("name", "player_name_taken", name=text)
    player.name = text
    try:
        with transaction.atomic():
            player.save()
    except IntegrityError:
        raise _fail("name", "player_name_taken", name=text) from None
    return player


def player_set_active(*, player: Player, active: bool) -> Player:
    """Inactive players leave the entry buttons; their history and standings stay."""
    Player.objects.filter(pk=player.pk).update(active=active)
    player.active = active
    return player


def club_update(*, club: Club, name: str, is_public: bool) -> Club:
    name = clean_name(name, field="name")
    if not name:
        raise fail("name", "club_name_empty")
    club.name = name[:100]
    club.is_public = bool(is_public)
    club.save(update_fields=["name", "is_public"])
    return club
