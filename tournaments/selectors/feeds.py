"""Reads for the club's feeds (views/feeds.py): the Atom feed of its sessions and the
iCalendar of its tournaments and sessions.

Both go through the same selectors as the pages: ``club_sessions`` (the reader's
``deal_visibility``: a private tournament's tables and the rounds under a freeze are left out,
as on the session list) and ``club_tournaments`` (private tournaments for members only, as on
the tournament list). The feeds show nothing the pages would not show the same reader.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..models import Club, GameSession, Tournament
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
