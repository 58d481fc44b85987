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

A player is seen where their deals are seen: a player the club knows only from private
tournaments (every score line at a private tournament's table, every entry in a private
tournament) does not exist for a reader who may not see those tournaments
(:meth:`Visibility.player_visible`, :meth:`Visibility.hidden_players`). A freeze hides rounds'
points, never a player: a public tournament names its entrants on its own pages.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cached_property

from django.conf import settings
from django.core.cache import cache
from django.db.models import Exists, Max, OuterRef, Q, QuerySet

from ..models import (
    Club,
    GameSession,
    Player,
    Role,
    ScoreLine,
    Tournament,
    TournamentEntry,
    TournamentTable,
)
from ..permissions import has_role
from ..reader import Reader


def last_round_shown(*, rounds_planned: int, hidden_rounds: int) -> int:
    """The round the standings stop at during a freeze of ``hidden_rounds`` final rounds."""
    return max(0, rounds_planned - hidden_rounds)


@dataclass(frozen=True)
class Visibility:
    """What one reader may see of one club's tournament deals.

    ``private_hidden``: every private tournament of the club is hidden (once one has started);
    ``frozen``: (tournament id, last round shown) for each freeze the reader is under. No deal
    hidden: ``everything``. ``private_players``: the club has a private tournament (started or
    not) and the reader may not see it, so its players may be hidden (:meth:`hidden_players`).
    """

    club_id: int
    private_hidden: bool = False
    frozen: tuple[tuple[int, int], ...] = ()
    private_players: bool = False

    @property
    def everything(self) -> bool:
        """No deal is hidden (players may be: ``private_players``)."""
        return not self.private_hidden and not self.frozen

    @property
    def key(self) -> str:
        """A short text that differs whenever what is hidden differs (for cache keys)."""
        if self.everything and not self.private_players:
            return "all"
        spec = f"{int(self.private_hidden)}|" + ",".join(f"{t}:{k}" for t, k in self.frozen)
        if self.private_players:
            spec += "|players"
        return hashlib.sha1(spec.encode()).hexdigest()[:16]

    def hidden_players(self) -> QuerySet[Player]:
        """The club's players this reader may not see: known only from private tournaments
        (an entry in one, now or taken out again, or a score line at one's table, and neither
        an entry in a public tournament nor a score line anywhere else); none when
        ``private_players`` is not set. A player the club knows from nothing at all (never
        entered, no score line) is not hidden."""
        if not self.private_players:
            return Player.objects.none()
        private = TournamentTable.objects.filter(
            round__tournament__club_id=self.club_id,
            round__tournament__is_public=False,
            session__isnull=False,
        ).values("session_id")
        lines = ScoreLine.objects.filter(player_id=OuterRef("pk"))
        entries = TournamentEntry.objects.filter(player_id=OuterRef("pk"))
        # An entry taken out (entry_remove) leaves the player and its history row only.
        entered = TournamentEntry.history.model.objects.filter(player_id=OuterRef("pk"))
        return (
            Player.objects.filter(club_id=self.club_id)
            .filter(
                Exists(entries.filter(tournament__is_public=False))
                | Exists(entered.filter(tournament__is_public=False))
                | Exists(lines.filter(session_id__in=private))
            )
            .exclude(Exists(entries.filter(tournament__is_public=True)))
            .exclude(Exists(lines.exclude(session_id__in=private)))
        )

    def player_visible(self, player_id: int) -> bool:
        """Whether the reader may see the player (their page, their name): nothing asked where
        nothing may be hidden; otherwise one query along the player's own rows (their score
        lines by the player index, their entries by the player key)."""
        if not self.private_players:
            return True
        return not self.hidden_players().filter(pk=player_id).exists()

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


def _hiding(club_id: int, *, private: bool) -> tuple[bool, list[tuple[int, int]], bool]:
    """Whether the club has a private tournament with a started round (asked when ``private``),
    (tournament id, last round shown) of its freezes in force: set, not revealed, and a round
    after the last one shown started; and whether it has a private tournament at all, started
    or not (asked when ``private``: its entrants are players already). One query over the
    club's tournaments that may hide something (a few; the private ones of a public club's
    history at most)."""
    may_hide = Q(standings_hidden_rounds__gt=0, standings_revealed=False)
    if private:
        may_hide |= Q(is_public=False)
    rows = (
        Tournament.objects.filter(may_hide, club_id=club_id)
        .annotate(started=Max("rounds__number", filter=Q(rounds__started_at__isnull=False)))
        .values_list("pk", "is_public", "rounds_planned", "standings_hidden_rounds",
                     "standings_revealed", "started")
        .order_by("pk")
    )  # fmt: skip
    any_private = any_private_tournament = False
    frozen = []
    for pk, is_public, planned, hidden, revealed, started in rows:
        if private and not is_public:
            any_private_tournament = True
            any_private = any_private or started is not None
        if started is None or not hidden or revealed:
            continue
        last_shown = last_round_shown(rounds_planned=planned, hidden_rounds=hidden)
        if started > last_shown:
            frozen.append((pk, last_shown))
    return any_private, frozen, any_private_tournament


def _may_hide(club: Club, *, private: bool) -> bool:
    """Whether :func:`_hiding` can find anything, by the club's hiding flags (read with the
    club's row, kept by the services that create tournaments, change their privacy or their
    freeze: ``services.cache.club_hiding_refresh``): a freeze not revealed, or, for a reader
    who may not see private tournaments, a private tournament. True when the club was read
    without its flags."""
    loaded = club.__dict__
    if "has_standings_freeze" not in loaded or "has_private_tournament" not in loaded:
        return True
    return club.has_standings_freeze or (private and club.has_private_tournament)


def _hiding_kept(club: Club, *, private: bool) -> tuple[bool, list[tuple[int, int]], bool]:
    """:func:`_hiding`, answered without a query where the club's flags say nothing can be
    hidden (:func:`_may_hide`: almost every club), and otherwise kept in the cache per club
    data version: what it reads (tournaments, their rounds) is written only by writes that
    move the version (services/cache.py), so a read page's request asks nothing for it once
    the version's answer is kept. A cache that is down is a miss: the query runs."""
    if not _may_hide(club, private=private):
        return False, [], False
    seconds = settings.EFUDA_PAGE_CACHE_SECONDS
    version = getattr(club, "data_version", None)
    if not seconds or version is None:
        return _hiding(club.pk, private=private)
    key = f"efuda:hiding2:{club.pk}:{version}:{int(private)}"
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
    private, frozen, private_players = _hiding_kept(club, private=not member)
    # A tournament's extra staff see its live standings, so its frozen rounds too: only while
    # they are members of the club (permissions are read per request, never kept).
    staffed = _staffed(reader, [t for t, _k in frozen]) if member else set()
    return Visibility(
        club_id=club.pk,
        private_hidden=private,
        frozen=tuple((t, k) for t, k in frozen if t not in staffed),
        private_players=private_players,
    )


def common_visibility(*, club_id: int) -> Visibility:
    """What every reader of the club's pages sees: a public club's visitors, or, in a private
    club, a member who runs no tournament. The ratings learn from these deals only (one rating
    table serves every reader, and nothing hidden reaches it), and ``export_standings`` prints
    them unless told otherwise."""
    row = (
        Club.objects.filter(pk=club_id)
        .values_list("is_public", "has_private_tournament", "has_standings_freeze")
        .first()
    )
    is_public, has_private, has_freeze = row or (False, False, False)
    if has_freeze or (is_public and has_private):
        private, frozen, private_players = _hiding(club_id, private=bool(is_public))
    else:
        private, frozen, private_players = False, [], False
    return Visibility(
        club_id=club_id,
        private_hidden=private,
        frozen=tuple(frozen),
        private_players=private_players,
    )
