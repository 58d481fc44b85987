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

from dataclasses import dataclass

from django.db.models import Min, Q, Sum

from ..models import Club, Deal, FeedKey, GameSession, ScoreLine, Tournament
from ..reader import Reader
from .api import token_hash
from .events.access import club_tournaments
from .sessions import club_sessions
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
    """The latest sessions the reader may see, newest first, each with its result: what their
    pages' ``session_detail`` says (winners, best total, live deals), read for all of them at
    once. The sessions are ``club_sessions``' (the reader's visibility hides whole sessions),
    so their score lines are exactly the points their pages add up."""
    sessions = list(club_sessions(club=club, visibility=visibility).select_related("club")[:limit])
    tops = _tops([s.pk for s in sessions])
    return [FeedSession(s, *tops.get(s.pk, ([], None)), deals=s.deal_count) for s in sessions]


def _tops(session_ids: list[int]) -> dict[int, tuple[list[str], int]]:
    """``{session id: (winners' names, best total)}`` for sessions with a score line: one
    query summing each player's lines per session, and one more only where two winners first
    played in the same deal (their order is then that deal's, as on the session page)."""
    rows = (
        ScoreLine.objects.filter(session_id__in=session_ids, deal__is_deleted=False)
        .values("session_id", "player_id", "player__name")
        .annotate(total=Sum("points"), first=Min("deal__seq"))
        .order_by()
    )
    per_session: dict[int, list[dict]] = {}
    for row in rows:
        per_session.setdefault(row["session_id"], []).append(row)
    winners = {}
    for session_id, players in per_session.items():
        best = max(p["total"] for p in players)
        winners[session_id] = [p for p in players if p["total"] == best]
    order = _first_deal_orders(winners)
    tops = {}
    for session_id, top in winners.items():
        # session_detail ranks ties by first appearance: the deal first, then its own order
        places = [
            (p["first"], order.get((session_id, p["first"]), {}).get(str(p["player_id"]), 0), i)
            for i, p in enumerate(top)
        ]
        tops[session_id] = ([top[i]["player__name"] for *_k, i in sorted(places)], top[0]["total"])
    return tops


def _first_deal_orders(winners: dict[int, list[dict]]) -> dict[tuple[int, int], dict[str, int]]:
    """``{(session id, seq): {player key: place in the deal's points}}`` for each deal where
    two winners of its session first played (none asked when there is no such deal)."""
    shared = set()
    for session_id, top in winners.items():
        firsts = [p["first"] for p in top]
        shared.update((session_id, seq) for seq in firsts if firsts.count(seq) > 1)
    if not shared:
        return {}
    wanted = Q()
    for session_id, seq in shared:
        wanted |= Q(session_id=session_id, seq=seq)
    deals = Deal.objects.filter(wanted).values_list("session_id", "seq", "outcome")
    return {
        (session_id, seq): {key: i for i, key in enumerate((outcome or {}).get("points") or {})}
        for session_id, seq, outcome in deals
    }


@dataclass(frozen=True)
class Calendar:
    tournaments: list[Tournament]
    sessions: list[GameSession]


def calendar(*, club: Club, reader, visibility: Visibility) -> Calendar:
    """The club's tournaments the reader may see and its latest sessions they may see."""
    sessions = club_sessions(club=club, visibility=visibility)[:CALENDAR_SESSIONS]
    return Calendar(club_tournaments(club=club, reader=reader), list(sessions))


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
            key_hash=token_hash(raw),
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
