"""Reads for the club's feeds (views/feeds.py): the Atom feed of its sessions and the
iCalendar of its tournaments and sessions.

Both go through the same selectors as the pages: ``club_sessions`` (the reader's
``deal_visibility``: a private tournament's tables and the rounds under a freeze are left out,
as on the session list) and ``club_tournaments`` (private tournaments for members only, as on
the tournament list). The feeds show nothing the pages would not show the same reader.

A feed read with a member's secret key (services/feed_keys.py) reads as that member:
``feed_key_reader`` finds the key's person and makes their reader, as their login would.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from ..models import Club, FeedKey, GameSession, Tournament
from ..reader import Reader
from .events.access import club_tournaments
from .sessions import club_sessions, session_detail
from .visibility import Visibility

FEED_SESSIONS = 20  # the Atom feed's entries: the latest sessions
CALENDAR_SESSIONS = 200  # the calendar's sessions: the latest ones, newest first


@dataclass(frozen=True)
class FeedSession:
    """One session in the feed: who finished on top (ties: all of them) and its deal count."""

    session: GameSession
    winners: list[str]
    best: int | None
    deals: int


def feed_sessions(*, club: Club, visibility: Visibility, limit: int = FEED_SESSIONS):
    """The latest sessions the reader may see, newest first, each with its result."""
    rows = []
    for session in club_sessions(club=club, visibility=visibility)[:limit]:
        detail = session_detail(session)
        best = detail.totals[0].points if detail.totals else None
        rows.append(FeedSession(session, detail.winners, best, detail.live_deals))
    return rows


@dataclass(frozen=True)
class Calendar:
    tournaments: list[Tournament]
    sessions: list[GameSession]


def calendar(*, club: Club, reader, visibility: Visibility) -> Calendar:
    """The club's tournaments the reader may see and its latest sessions they may see."""
    sessions = club_sessions(club=club, visibility=visibility)[:CALENDAR_SESSIONS]
    return Calendar(club_tournaments(club=club, reader=reader), list(sessions))


def feed_key_hash(raw: str) -> str:
    """What is kept of a feed key: its SHA-256 (32 random bytes need no slow hash)."""
    return hashlib.sha256(raw.encode()).hexdigest()


def feed_key_reader(*, club_slug: str, raw: str) -> tuple[Club, Reader, int] | None:
    """The club at ``club_slug``, the reader the live feed key ``raw`` reads as there and the
    key's id; None when the key is unknown, revoked, of another club, of a membership that
    ended (its keys went with it) or of an account no longer active. One query: the person's
    role comes with the key, as ``club_for_request`` brings it with the club."""
    if not raw or len(raw) > 100:
        return None
    key = (
        FeedKey.objects.select_related("membership__club", "membership__user")
        .filter(
            key_hash=feed_key_hash(raw),
            revoked_at__isnull=True,
            membership__club__slug=club_slug,
            membership__user__is_active=True,
        )
        .first()
    )
    if key is None:
        return None
    membership = key.membership
    reader = Reader.of(membership.user)
    reader.roles[membership.club_id] = membership.role
    return membership.club, reader, key.pk


def feed_key_live(*, membership_id: int) -> FeedKey | None:
    """The membership's live feed key (when it was made), if any."""
    return FeedKey.objects.filter(membership_id=membership_id, revoked_at__isnull=True).first()
