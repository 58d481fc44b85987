"""Reads for accounts: invitations and their state, "my clubs", "my standing", claims, the
club's membership history."""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass, field

from django.db.models import F
from django.utils import timezone

from ..models import (
    ClaimStatus,
    Club,
    Game,
    GameSession,
    Invitation,
    Membership,
    Player,
    PlayerClaim,
    PlayerMerge,
    Role,
    ScoreLine,
)
from .sessions import ROLE_LABELS, _title_label
from .standings import Period, StandingRow, standings
from .visibility import Visibility

RECENT_DEALS = 10
TOKEN_CHARS = re.compile(r"[A-Za-z0-9_-]+")
HISTORY_ROWS = 50


class InvitationState:
    OPEN = "open"
    REVOKED = "revoked"
    EXPIRED = "expired"
    USED = "used"


def invitation_state(invitation: Invitation, now: datetime.datetime | None = None) -> str:
    """Why an invitation can or cannot be used now (revoked first, then expired, then used)."""
    now = now or timezone.now()
    if invitation.revoked_at is not None:
        return InvitationState.REVOKED
    if invitation.expires_at <= now:
        return InvitationState.EXPIRED
    if invitation.uses >= invitation.max_uses:
        return InvitationState.USED
    return InvitationState.OPEN


def invitation_by_token(token: str) -> Invitation | None:
    """The invitation with this token, or None — also for anything a token cannot be (only
    ``secrets.token_urlsafe`` characters: PostgreSQL refuses a NUL byte in a query)."""
    if not token or len(token) > 64 or not TOKEN_CHARS.fullmatch(token):
        return None
    return Invitation.objects.select_related("club", "player").filter(token=token).first()


def club_invitations(*, club: Club) -> list[Invitation]:
    now = timezone.now()
    rows = list(
        Invitation.objects.filter(club=club)
        .select_related("player", "created_by")
        .order_by("-created_at", "-id")[:100]
    )
    for inv in rows:
        inv.state = invitation_state(inv, now)
    return rows


def club_pending_claims(*, club: Club) -> list[PlayerClaim]:
    return list(
        PlayerClaim.objects.filter(club=club, status=ClaimStatus.PENDING)
        .select_related("player", "user")
        .order_by("created_at", "id")
    )


def club_decided_claims(*, club: Club, limit: int = 20) -> list[PlayerClaim]:
    """The latest confirmed claims (an owner may undo one made by mistake) and undone ones."""
    return list(
        PlayerClaim.objects.filter(
            club=club, status__in=[ClaimStatus.CONFIRMED, ClaimStatus.UNDONE]
        )
        .select_related("player", "user", "decided_by")
        .order_by("-decided_at", "-id")[:limit]
    )


def unclaimed_players(*, club: Club):
    return club.players.filter(user__isnull=True).order_by("-active", "name")


@dataclass
class MemberEvent:
    when: datetime.datetime
    user: str
    role: str
    kind: str  # "+" joined, "~" changed, "-" left
    by: str | None
    invited_by: str | None


def membership_history(*, club: Club, limit: int = HISTORY_ROWS) -> list[MemberEvent]:
    """Who joined (and who invited them), every role change and who left, newest first."""
    rows = (
        Membership.history.filter(club_id=club.pk)
        .select_related("user", "history_user", "invited_by")
        .order_by("-history_date", "-history_id")[:limit]
    )
    return [
        MemberEvent(
            when=row.history_date,
            user=row.user.get_username() if row.user else "?",
            role=row.role,
            kind=row.history_type,
            by=row.history_user.get_username() if row.history_user else None,
            invited_by=row.invited_by.get_username() if row.invited_by else None,
        )
        for row in rows
    ]


def club_merges(*, club: Club) -> list[PlayerMerge]:
    return list(
        PlayerMerge.objects.filter(club=club).select_related("kept", "by", "undone_by")[:20]
    )


def my_clubs(*, user) -> list[Membership]:
    if not getattr(user, "is_authenticated", False):
        return []
    memberships = list(
        Membership.objects.filter(user=user).select_related("club").order_by("club__name")
    )
    players = {
        p.club_id: p
        for p in Player.objects.filter(user=user, club__in=[m.club for m in memberships])
    }
    for m in memberships:
        m.player = players.get(m.club_id)
    return memberships


def my_membership(*, club: Club, user) -> Membership | None:
    """The user's membership of the club (their role and their name in it), None for none."""
    if not getattr(user, "is_authenticated", False):
        return None
    return Membership.objects.filter(club=club, user=user).first()


def my_player(*, club: Club, user) -> Player | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return Player.objects.filter(club=club, user=user).first()


def my_pending_claim(*, club: Club, user) -> PlayerClaim | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return (
        PlayerClaim.objects.filter(club=club, user=user, status=ClaimStatus.PENDING)
        .select_related("player")
        .first()
    )


@dataclass
class MySummary:
    player: Player
    month: Period
    standing: dict[str, StandingRow | None] = field(default_factory=dict)
    ranked: dict[str, int] = field(default_factory=dict)
    last_session: GameSession | None = None
    recent: list[ScoreLine] = field(default_factory=list)


def my_summary(
    *, club: Club, player_id: int, visibility: Visibility, today: datetime.date
) -> MySummary:
    """My standing this month (each game), my last session and my latest score lines, as far
    as I may see them (``visibility``: a frozen round stays hidden from its players too), for
    the club's player ``player_id`` (the reader's, ``request.reader.players``)."""
    player = Player.objects.get(pk=player_id, club=club)
    month = Period.this_month(today)
    summary = MySummary(player=player, month=month)
    for game in Game.values:
        rows = standings(club=club, game=game, period=month, visibility=visibility).rows
        summary.standing[game] = next((r for r in rows if r.player_id == player.id), None)
        summary.ranked[game] = len(rows)
    # Per game along the (player, game, date) index, newest first: a few rows however long
    # the player's history.
    recent = []
    for game in Game.values:
        lines = ScoreLine.objects.filter(player=player, game=game)
        if not visibility.everything:
            lines = lines.exclude(session_id__in=visibility.hidden_sessions())
        recent += lines.select_related("session", "deal").order_by("-date", "-deal_id")[
            :RECENT_DEALS
        ]
    recent.sort(key=lambda line: (line.date, line.deal_id), reverse=True)
    recent = recent[:RECENT_DEALS]
    for line in recent:
        line.role_label = (
            str(ROLE_LABELS.get(line.role, "")) if line.game == Game.NAPOLEON
            else _title_label(line.role)
        )  # fmt: skip
    summary.recent = recent
    summary.last_session = recent[0].session if recent else None
    return summary


@dataclass
class ClubTools:
    """What the club home offers the person looking at it: their role and, for owners, what
    waits for them (claims to confirm, open invitations)."""

    role: str | None
    pending_claims: int = 0
    open_invitations: int = 0

    @property
    def can_record(self) -> bool:
        return self.role in (Role.OWNER, Role.SCOREKEEPER)

    @property
    def can_manage(self) -> bool:
        return self.role == Role.OWNER


def club_tools(*, club: Club, role: str | None) -> ClubTools:
    tools = ClubTools(role=role)
    if role == Role.OWNER:
        tools.pending_claims = PlayerClaim.objects.filter(
            club=club, status=ClaimStatus.PENDING
        ).count()
        tools.open_invitations = Invitation.objects.filter(
            club=club, revoked_at__isnull=True, expires_at__gt=timezone.now(),
            uses__lt=F("max_uses"),
        ).count()  # fmt: skip
    return tools
