"""Who sees which of a club's deals: the one rule for every page, file and figure that shows a
tournament's deals (docs/tournaments.md, "Who sees a tournament's deals").

Each tournament table plays as an ordinary club session (``E<t>-R<r>-T<n>``), so its deals
reach the club's session list and pages, sheets, standings and their files, the home page's
leaders, player pages and ratings, besides the tournament's own pages. A reader sees a
tournament's deals wherever they appear exactly as far as they may see its standings:

- the club's scorekeepers and owners (and site staff) see everything;
- a **private** tournament's deals are seen by club members only (and its staff, who are
  members): a public club's visitors see none of them, anywhere;
- during a **standings freeze** (the final rounds hidden and not yet revealed, a hidden round
  started), the tournament's staff see every round; everyone else, club members included,
  sees the rounds up to the last one shown, until the reveal.

A PIN opens its holder's own table on the tournament's pages; it adds nothing on the club's
pages. What is hidden is always whole sessions (a table plays in one round), so a reader's
:class:`Visibility` is a set of sessions, given to the database as a subquery over the
tournaments' tables: bounded by the hidden tournaments' size, never by the club's history.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cached_property

from django.conf import settings
from django.core.cache import cache
from django.db.models import Max, Q, QuerySet

from ..models import Club, GameSession, Role, Tournament, TournamentTable
from ..permissions import has_role
from ..reader import Reader


def last_round_shown(*, rounds_planned: int, hidden_rounds: int) -> int:
    """The round the standings stop at during a freeze of ``hidden_rounds`` final rounds."""
    return max(0, rounds_planned - hidden_rounds)


@dataclass(frozen=True)
class Visibility:
    """What one reader may see of one club's tournament deals.

    ``private_hidden``: every private tournament of the club is hidden; ``frozen``: (tournament
    id, last round shown) for each freeze the reader is under. Nothing hidden: ``everything``.
    """

    club_id: int
    private_hidden: bool = False
    frozen: tuple[tuple[int, int], ...] = ()

    @property
    def everything(self) -> bool:
        return not self.private_hidden and not self.frozen

    @property
    def key(self) -> str:
        """A short text that differs whenever what is hidden differs (for cache keys)."""
        if self.everything:
            return "all"
        spec = f"{int(self.private_hidden)}|" + ",".join(f"{t}:{k}" for t, k in self.frozen)
        return hashlib.sha1(spec.encode()).hexdigest()[:16]

    def hidden_tables(self) -> QuerySet[TournamentTable]:
        """The club's tournament tables (with a session) whose deals this reader may not see."""
        if self.everything:
            return TournamentTable.objects.none()
        parts = [Q(round__tournament__is_public=False)] if self.private_hidden else []
        parts += [
            Q(round__tournament_id=tournament_id, round__number__gt=last_shown)
            for tournament_id, last_shown in self.frozen
        ]
        condition = parts[0]
        for part in parts[1:]:
            condition |= part
        return TournamentTable.objects.filter(
            condition, round__tournament__club_id=self.club_id, session__isnull=False
        )

    def hidden_sessions(self) -> QuerySet:
        """The hidden sessions' ids, as a subquery (``session_id__in=…``)."""
        return self.hidden_tables().values("session_id")

    @cached_property
    def hidden_session_ids(self) -> tuple[int, ...]:
        """The hidden sessions' ids, read once (one per table of the hidden tournaments): a
        query over score lines given these ids walks the session index, whatever else the
        planner might prefer on a club's long history."""
        return tuple(self.hidden_tables().values_list("session_id", flat=True).order_by())

    def sessions(self, queryset: QuerySet[GameSession]) -> QuerySet[GameSession]:
        """``queryset`` (sessions of the club) without the hidden ones."""
        if self.everything:
            return queryset
        return queryset.exclude(pk__in=self.hidden_sessions())

    def session_visible(self, session: GameSession) -> bool:
        if self.everything:
            return True
        return not self.hidden_tables().filter(session_id=session.pk).exists()


def _hiding(club_id: int, *, private: bool) -> tuple[bool, list[tuple[int, int]]]:
    """Whether the club has a private tournament with a started round (asked when ``private``)
    and (tournament id, last round shown) of its freezes in force: set, not revealed, and a
    round after the last one shown started. One query over the club's tournaments that may
    hide something (a few; the private ones of a public club's history at most)."""
    may_hide = Q(standings_hidden_rounds__gt=0, standings_revealed=False)
    if private:
        may_hide |= Q(is_public=False)
    rows = (
        Tournament.objects.filter(may_hide, club_id=club_id)
        .annotate(started=Max("rounds__number", filter=Q(rounds__started_at__isnull=False)))
        .filter(started__isnull=False)
        .values_list("pk", "is_public", "rounds_planned", "standings_hidden_rounds",
                     "standings_revealed", "started")
        .order_by("pk")
    )  # fmt: skip
    any_private = False
    frozen = []
    for pk, is_public, planned, hidden, revealed, started in rows:
        any_private = any_private or (private and not is_public)
        if not hidden or revealed:
            continue
        last_shown = last_round_shown(rounds_planned=planned, hidden_rounds=hidden)
        if started > last_shown:
            frozen.append((pk, last_shown))
    return any_private, frozen


def _hiding_kept(club: Club, *, private: bool) -> tuple[bool, list[tuple[int, int]]]:
    """:func:`_hiding`, kept in the cache per club data version: what it reads (tournaments,
    their rounds) is written only by writes that move the version (services/cache.py), so a
    read page's request asks nothing for it once the version's answer is kept. A cache that
    is down is a miss: the query runs."""
    seconds = settings.EFUDA_PAGE_CACHE_SECONDS
    version = getattr(club, "data_version", None)
    if not seconds or version is None:
        return _hiding(club.pk, private=private)
    key = f"efuda:hiding:{club.pk}:{version}:{int(private)}"
    found = cache.get(key)
    if found is None:
        found = _hiding(club.pk, private=private)
        cache.set(key, found, seconds)
    return found


def _staffed(reader: Reader, tournament_ids: list[int]) -> set[int]:
    """Which of these tournaments the reader is extra staff of: what the reader knows already
    (read with a tournament), the rest read in one query and kept on the reader."""
    if not tournament_ids or not reader.is_authenticated:
        return set()
    unknown = [t for t in tournament_ids if t not in reader.extra_staff]
    if unknown:
        through = Tournament.extra_staff.through
        found = set(
            through.objects.filter(tournament_id__in=unknown, user_id=reader.pk).values_list(
                "tournament_id", flat=True
            )
        )
        reader.extra_staff.update({t: t in found for t in unknown})
    return {t for t in tournament_ids if reader.extra_staff[t]}


def deal_visibility(*, club: Club, reader) -> Visibility:
    """What the reader (a ``Reader``; a user or None outside a request) may see of the club's
    tournament deals: computed once per reader and club (``reader.visibility``)."""
    reader = Reader.of(reader)
    if club.pk not in reader.visibility:
        reader.visibility[club.pk] = _visibility(club, reader)
    return reader.visibility[club.pk]


def _visibility(club: Club, reader: Reader) -> Visibility:
    if has_role(reader, club, Role.SCOREKEEPER):  # scorekeepers, owners, site staff
        return Visibility(club_id=club.pk)
    member = has_role(reader, club, Role.MEMBER)
    private, frozen = _hiding_kept(club, private=not member)
    # A tournament's extra staff see its live standings, so its frozen rounds too: only while
    # they are members of the club (permissions are read per request, never kept).
    staffed = _staffed(reader, [t for t, _k in frozen]) if member else set()
    return Visibility(
        club_id=club.pk,
        private_hidden=private,
        frozen=tuple((t, k) for t, k in frozen if t not in staffed),
    )


def common_visibility(*, club_id: int) -> Visibility:
    """What every reader of the club's pages sees: a public club's visitors, or, in a private
    club, a member who runs no tournament. The ratings learn from these deals only (one rating
    table serves every reader, and nothing hidden reaches it), and ``export_standings`` prints
    them unless told otherwise."""
    is_public = Club.objects.filter(pk=club_id).values_list("is_public", flat=True).first()
    private, frozen = _hiding(club_id, private=bool(is_public))
    return Visibility(club_id=club_id, private_hidden=private, frozen=tuple(frozen))
