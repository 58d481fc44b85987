"""Invitations: an owner lets people join the club with a role through a link or QR code."""

import datetime

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from core.i18n import N_

from ..models import ClaimStatus, Club, Invitation, Membership, Player, PlayerClaim, Role
from ..permissions import role_covers
from ..selectors.accounts import InvitationState, invitation_state
from .cache import club_version_bump
from .clubs import club_lock
from .errors import make_fail

MAX_USES = 500
MAX_DAYS = 90

MESSAGES = {
    "invitation_role": N_("An invitation is for a member or a scorekeeper."),
    "invitation_uses": N_("An invitation is for 1 to %(max)s people."),
    "invitation_days": N_("An invitation is valid for 1 to %(max)s days."),
    "invitation_player_one": N_(
        "An invitation that names a player is for one person: set the number of people to 1."
    ),
    "invitation_player_taken": N_("“%(name)s” is already linked to an account."),
    "invitation_revoked": N_(
        "This invitation has been withdrawn by the club. Ask the club for a new one."
    ),
    "invitation_expired": N_("This invitation expired on %(date)s. Ask the club for a new one."),
    "invitation_used": N_(
        "This invitation has already been used by everyone it was for (%(max)s). "
        "Ask the club for a new one."
    ),
    "invitation_already_member": N_("You are already a member of %(club)s."),
}

_fail = make_fail(MESSAGES)


@transaction.atomic
def invitation_create(
    *,
    club: Club,
    by,
    role: str,
    max_uses: int,
    days: int,
    player: Player | None = None,
    note: str = "",
) -> Invitation:
    if role not in (Role.MEMBER, Role.SCOREKEEPER):
        raise _fail("role", "invitation_role")
    if not isinstance(max_uses, int) or not 1 <= max_uses <= MAX_USES:
        raise _fail("max_uses", "invitation_uses", max=MAX_USES)
    if not isinstance(days, int) or not 1 <= days <= MAX_DAYS:
        raise _fail("days", "invitation_days", max=MAX_DAYS)
    if player is not None:
        if player.club_id != club.pk:
            raise ValueError("player of another club")
        if max_uses != 1:
            raise _fail("player", "invitation_player_one")
        if player.user_id is not None:
            raise _fail("player", "invitation_player_taken", name=player.name)
    club_version_bump(club_id=club.pk)
    return Invitation.objects.create(
        club=club,
        role=role,
        max_uses=max_uses,
        expires_at=timezone.now() + datetime.timedelta(days=days),
        player=player,
        note=" ".join((note or "").split())[:100],
        created_by=by if getattr(by, "is_authenticated", False) else None,
    )


@transaction.atomic
def invitation_revoke(*, invitation: Invitation, by=None) -> Invitation:
    club_lock(club_id=invitation.club_id)  # before the invitation, as a member's removal does
    invitation = Invitation.objects.select_for_update().get(pk=invitation.pk)
    if invitation.revoked_at is None:
        club_version_bump(club_id=invitation.club_id)
        invitation.revoked_at = timezone.now()
        invitation.save(update_fields=["revoked_at"])
    return invitation


@transaction.atomic
def invitation_reissue(*, invitation: Invitation, by) -> Invitation:
    """A fresh link with the same role, player, number of people and validity; the old one is
    withdrawn (a link that was shared too widely, or that ran out)."""
    old = invitation_revoke(invitation=invitation, by=by)
    validity = old.expires_at - old.created_at
    days = max(1, min(MAX_DAYS, round(validity.total_seconds() / 86400)))
    player = old.player if old.player and old.player.user_id is None else None
    new = invitation_create(
        club=old.club, by=by, role=old.role, max_uses=old.max_uses, days=days, player=player,
        note=old.note,
    )  # fmt: skip
    new.reissued_from = old
    new.save(update_fields=["reissued_from"])
    return new


def invitation_check(invitation: Invitation, now=None) -> None:
    """Raise the message that explains why this invitation cannot be used now, if it cannot.

    An invitation lets people in on its maker's authority: once they are no longer an owner of
    the club (removed, lowered, their account deleted) it is withdrawn. Leaving or losing the
    role withdraws it in the same change (services/members.py); this check holds even if a
    row was missed."""
    state = invitation_state(invitation, now)
    if (
        state == InvitationState.REVOKED
        or not Membership.objects.filter(
            club_id=invitation.club_id, user_id=invitation.created_by_id, role=Role.OWNER
        ).exists()
    ):
        raise _fail("__all__", "invitation_revoked")
    if state == InvitationState.EXPIRED:
        day = timezone.localtime(invitation.expires_at).strftime("%Y-%m-%d %H:%M")
        raise _fail("__all__", "invitation_expired", date=day)
    if state == InvitationState.USED:
        raise _fail("__all__", "invitation_used", max=invitation.max_uses)


@transaction.atomic
def invitation_accept(*, invitation: Invitation, user) -> Membership:
    """``user`` joins the club with the invitation's role (or is raised to it). Refused when the
    invitation is withdrawn, expired or used up, or the person already has that role or more.
    An invitation that names a player links the account to it ("this is me").

    The club's row is locked first, as every change of the club's people does: an acceptance
    and its maker's demotion or removal run one after the other, and the acceptance sees
    whether its maker is still an owner."""
    club_lock(club_id=invitation.club_id)
    club_version_bump(club_id=invitation.club_id)
    invitation = Invitation.objects.select_for_update().select_related("club").get(pk=invitation.pk)
    invitation_check(invitation)
    club = invitation.club
    membership = Membership.objects.select_for_update().filter(club=club, user=user).first()
    if membership is not None and role_covers(membership.role, invitation.role):
        raise _fail("__all__", "invitation_already_member", club=club.name)
    if membership is None:
        membership = Membership(club=club, user=user)
    membership.role = invitation.role
    membership.invited_by = invitation.created_by
    membership.invitation = invitation
    membership._change_reason = f"invitation {invitation.pk}"
    membership.save()
    Invitation.objects.filter(pk=invitation.pk).update(uses=F("uses") + 1)
    if invitation.player_id is not None:
        _link_named_player(invitation, user)
    return membership


def _link_named_player(invitation: Invitation, user) -> None:
    player = Player.objects.select_for_update().get(pk=invitation.player_id)
    if player.user_id is not None or Player.objects.filter(club=player.club_id, user=user).exists():
        return  # linked meanwhile: the person can still claim a player from the club page
    player.user = user
    player._change_reason = f"invitation {invitation.pk}"
    player.save()
    PlayerClaim.objects.filter(club=player.club_id, user=user, status=ClaimStatus.PENDING).update(
        status=ClaimStatus.REJECTED, decided_at=timezone.now()
    )
    PlayerClaim.objects.create(
        club_id=player.club_id,
        player=player,
        user=user,
        status=ClaimStatus.CONFIRMED,
        decided_by=invitation.created_by,
        decided_at=timezone.now(),
    )
