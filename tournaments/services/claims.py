""" "This is me": a member links their account to a player of the club; an owner confirms."""

from django.conf import settings
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext

from core.i18n import N_

from ..models import ClaimStatus, Club, Membership, Player, PlayerClaim, Role
from .cache import club_version_bump
from .errors import make_fail
from .players import clean_player_name

MESSAGES = {
    "claim_not_member": N_("Only members of the club can say which player they are."),
    "claim_player_taken": N_("“%(name)s” is already linked to another account."),
    "claim_already_linked": N_("You are already “%(name)s” in this club."),
    "claim_not_pending": N_("This claim has already been decided."),
    "claim_not_confirmed": N_("Only a confirmed claim can be undone."),
    "claim_link_changed": N_(
        "“%(name)s” is no longer linked to this account: there is nothing to undo."
    ),
}

_fail = make_fail(MESSAGES)


@transaction.atomic
def player_claim(*, club: Club, user, player: Player) -> PlayerClaim:
    """Say "this player is me". Waits for an owner, unless the claimant is an owner."""
    membership = Membership.objects.filter(club=club, user=user).first()
    if membership is None:
        raise _fail("player", "claim_not_member")
    club_version_bump(club_id=club.pk)  # the club row first (services/cache.py)
    player = Player.objects.select_for_update().get(pk=player.pk, club=club)
    if player.user_id is not None:
        raise _fail("player", "claim_player_taken", name=player.name)
    mine = Player.objects.filter(club=club, user=user).first()
    if mine is not None:
        raise _fail("player", "claim_already_linked", name=mine.name)
    # One open claim per person: a new choice replaces the old one.
    PlayerClaim.objects.filter(club=club, user=user, status=ClaimStatus.PENDING).update(
        status=ClaimStatus.REJECTED, decided_at=timezone.now()
    )
    claim = PlayerClaim.objects.create(
        club=club, player=player, user=user, status=ClaimStatus.PENDING
    )
    if membership.role == Role.OWNER:
        claim = claim_confirm(claim=claim, by=user)
    else:
        owners = list(
            Membership.objects.filter(club=club, role=Role.OWNER)
            .exclude(user__email="")
            .values_list("user__email", flat=True)
        )
        if owners:
            transaction.on_commit(lambda: _tell_owners(claim, owners))
    return claim


def _tell_owners(claim: PlayerClaim, addresses: list[str]) -> None:
    """Mail the club's owners that someone waits for them (after the claim is committed). A
    mail that cannot be sent leaves the claim as it is: the club home shows it anyway."""
    club = claim.club
    link = settings.SITE_URL + reverse("club_invitations", args=[club.slug]) + "#claims"
    with translation.override(settings.LANGUAGE_CODE):
        params = {"club": club.name, "user": claim.user.get_username(),
                  "player": claim.player.name, "link": link}  # fmt: skip
        subject = gettext("[efuda 絵札] %(club)s: %(user)s says they are %(player)s") % params
        body = (
            gettext(
                "Hello from efuda, the scores of %(club)s.\n\n"
                "%(user)s, a member of %(club)s, says they are the player “%(player)s”. "
                "Once you confirm it, they see their own standing on the club's page.\n\n"
                "Confirm or turn it down here:\n%(link)s\n"
            )
            % params
        )
    try:
        send_mail(subject, body, None, addresses)
    except OSError:  # the mail server is away: the claim waits on the page all the same
        pass


@transaction.atomic
def claim_confirm(*, claim: PlayerClaim, by) -> PlayerClaim:
    club_version_bump(club_id=claim.club_id)  # the club row first (services/cache.py)
    claim = PlayerClaim.objects.select_for_update().get(pk=claim.pk)
    if claim.status != ClaimStatus.PENDING:
        raise _fail("__all__", "claim_not_pending")
    player = Player.objects.select_for_update().get(pk=claim.player_id)
    if player.user_id is not None:
        raise _fail("__all__", "claim_player_taken", name=player.name)
    mine = Player.objects.filter(club=claim.club_id, user=claim.user_id).first()
    if mine is not None:
        raise _fail("__all__", "claim_already_linked", name=mine.name)
    player.user_id = claim.user_id
    player._change_reason = f"claim {claim.pk}"
    try:
        with transaction.atomic():
            player.save()
    except IntegrityError:  # linked by a concurrent request
        raise _fail("__all__", "claim_player_taken", name=player.name) from None
    now = timezone.now()
    claim.status = ClaimStatus.CONFIRMED
    claim.decided_by = by
    claim.decided_at = now
    claim.save()
    # Anyone else waiting for the same player is turned down.
    PlayerClaim.objects.filter(player=player, status=ClaimStatus.PENDING).exclude(
        pk=claim.pk
    ).update(status=ClaimStatus.REJECTED, decided_by=by, decided_at=now)
    return claim


@transaction.atomic
def claim_undo(*, claim: PlayerClaim, by) -> PlayerClaim:
    """A confirmation made by mistake: the player is no longer linked to the account (the
    player's and the claim's history keep both steps and who took them); the member may say
    which player they are again."""
    club_version_bump(club_id=claim.club_id)  # the club row first (services/cache.py)
    claim = PlayerClaim.objects.select_for_update().get(pk=claim.pk)
    if claim.status != ClaimStatus.CONFIRMED:
        raise _fail("__all__", "claim_not_confirmed")
    player = Player.objects.select_for_update().get(pk=claim.player_id)
    if player.user_id != claim.user_id:
        raise _fail("__all__", "claim_link_changed", name=player.name)
    player.user = None
    player._change_reason = f"claim {claim.pk} undone"
    player._history_user = by
    player.save()
    claim.status = ClaimStatus.UNDONE
    claim.decided_by = by
    claim.decided_at = timezone.now()
    claim._history_user = by
    claim.save()
    return claim


@transaction.atomic
def claim_reject(*, claim: PlayerClaim, by) -> PlayerClaim:
    club_version_bump(club_id=claim.club_id)  # the club row first (services/cache.py)
    claim = PlayerClaim.objects.select_for_update().get(pk=claim.pk)
    if claim.status != ClaimStatus.PENDING:
        raise _fail("__all__", "claim_not_pending")
    claim.status = ClaimStatus.REJECTED
    claim.decided_by = by
    claim.decided_at = timezone.now()
    claim.save()
    return claim


@transaction.atomic
def membership_display_name_set(*, membership: Membership, display_name: str) -> Membership:
    """The name the club shows for a member (empty: the user name)."""
    text = (display_name or "").strip()
    text = clean_player_name(text, field="display_name") if text else ""
    club_version_bump(club_id=membership.club_id)
    membership.display_name = text
    membership._change_reason = "display name"
    membership.save(update_fields=["display_name"])
    return membership
