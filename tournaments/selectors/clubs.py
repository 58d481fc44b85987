"""Clubs: the ones a visitor may see, a club's home page (this month's leaders, latest
sessions, upcoming tournaments) and what its owners manage."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from django.db import DatabaseError
from django.db.models import Count, Q, QuerySet

import rules
from config.routers import REPLICA, replica_failed, replica_usable

from ..models import (
    Club,
    ClubRuleSet,
    Deal,
    Game,
    GameSession,
    Membership,
    Player,
    Role,
    Tournament,
)
from ..permissions import has_role
from .sessions import preset_name, ruleset_label
from .standings import Period, StandingRow, leaders
from .visibility import Visibility

LATEST_SESSIONS = 10
UPCOMING_TOURNAMENTS = 5


@dataclass
class ClubHome:
    club: Club
    month: Period
    leaders: dict[str, list[StandingRow]] = field(default_factory=dict)
    sessions: list[GameSession] = field(default_factory=list)
    tournaments: list[Tournament] = field(default_factory=list)


def slugs_of_member_clubs(*, user, limit: int) -> list[str]:
    """The addresses of (at most ``limit``) clubs ``user`` belongs to, by name."""
    return list(
        Club.objects.filter(memberships__user=user)
        .order_by("name")
        .values_list("slug", flat=True)
        .distinct()[:limit]
    )


def clubs_visible(*, user) -> QuerySet[Club]:
    """The clubs on the front page: public ones, the user's own, every club for site staff."""
    if getattr(user, "is_superuser", False):
        clubs = Club.objects.all()
    elif getattr(user, "is_authenticated", False):
        clubs = Club.objects.filter(Q(is_public=True) | Q(memberships__user=user)).distinct()
    else:
        clubs = Club.objects.filter(is_public=True)
    return clubs.order_by("name")


@dataclass
class ClubAdmin:
    """What a club's owners manage: its members (with their users), players and rule sets."""

    memberships: list[Membership]
    players: list[Player]
    rulesets: list[ClubRuleSet]


def club_admin(*, club: Club) -> ClubAdmin:
    return ClubAdmin(
        memberships=list(club.memberships.select_related("user").order_by("user__username")),
        players=list(club.players.order_by("-active", "name")),
        rulesets=club_rulesets(club=club),
    )


def club_rulesets(*, club: Club) -> list[ClubRuleSet]:
    """The club's rule sets, each with ``label`` (its name as every page shows it) and
    ``preset_label`` (the preset it starts from, in words)."""
    found = list(ClubRuleSet.objects.filter(club=club).order_by("code"))
    for ruleset in found:
        ruleset.label = ruleset_label(ruleset)
        preset = rules.PRESETS.get(ruleset.preset)
        ruleset.preset_label = preset_name(preset) if preset else ruleset.preset
    return found


def upcoming_tournaments(*, club: Club, reader, today: datetime.date) -> list[Tournament]:
    """The next few tournaments from ``today``: club members see them all, everyone else only
    the public ones (a private tournament stays private on a public club's home)."""
    qs = Tournament.objects.filter(club=club, date__gte=today)
    if not has_role(reader, club, Role.MEMBER):
        qs = qs.filter(is_public=True)
    return list(qs.order_by("date", "id")[:UPCOMING_TOURNAMENTS])


def club_home(*, club: Club, reader, visibility: Visibility, today: datetime.date) -> ClubHome:
    """This month's leaders and the latest sessions as the reader may see them (``visibility``),
    and the upcoming tournaments the reader may see."""
    month = Period.this_month(today)
    home = ClubHome(club=club, month=month)
    for game in Game.values:
        home.leaders[game] = leaders(club=club, game=game, period=month, visibility=visibility)
    # Two small queries rather than one GROUP BY that would count every session's deals.
    sessions = list(
        visibility.sessions(GameSession.objects.filter(club=club)).order_by(
            "-date", "table", "-id"
        )[:LATEST_SESSIONS]
    )
    counts = dict(
        Deal.objects.filter(session__in=[s.id for s in sessions], is_deleted=False)
        .values_list("session_id")
        .annotate(n=Count("id"))
        .values_list("session_id", "n")
    )
    for s in sessions:
        s.deal_count = counts.get(s.id, 0)
    home.sessions = sessions
    home.tournaments = upcoming_tournaments(club=club, reader=reader, today=today)
    return home


def club_page_version(*, slug: str | None = None, tournament_id=None) -> tuple[int, int] | None:
    """(club id, data version) of a public club, by its address or one of its tournaments;
    None when there is no such public club (the view then answers as usual). One query."""
    qs = Club.objects.filter(is_public=True)
    if slug:
        qs = qs.filter(slug=slug)
    elif tournament_id is not None and 0 < tournament_id < 2**63:
        qs = qs.filter(tournaments__pk=tournament_id)
    else:
        return None
    return qs.values_list("pk", "data_version").first()


def replica_caught_up(*, club_id: int, version: int) -> bool:
    """Whether a configured read replica already holds the club at ``version`` (the primary's):
    only then may a page for the shared cache be rendered from it, so no cache key is ever
    filled with older data. False when there is no replica, and when it cannot be reached (it is
    then left alone for a while: config/routers.py)."""
    if not replica_usable():
        return False
    try:
        seen = list(
            Club.objects.using(REPLICA).filter(pk=club_id).values_list("data_version", flat=True)
        )
    except DatabaseError as error:  # down, hung past the connect timeout, or failing
        replica_failed(error)
        return False
    return bool(seen) and seen[0] >= version


def clubs_without_owner() -> QuerySet[Club]:
    """The clubs with no owner who can log in (none at all, or only deactivated accounts): a
    site administrator gives each one with ``manage.py club_owner``."""
    owned = Membership.objects.filter(role=Role.OWNER, user__is_active=True)
    return Club.objects.exclude(pk__in=owned.values("club_id")).order_by("slug")
