"""Tournament reads: who may see and run an event, the draw with names, a table's deals and
the live standings (raw points or rank points, with adjustments)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal

from django.db.models import Q
from django.utils import timezone

from .. import ranking
from ..models import (
    Adjustment,
    ConfirmationState,
    Deal,
    DealConfirmation,
    Membership,
    Role,
    ScoreLine,
    StandingsMode,
    Tournament,
    TournamentEntry,
    TournamentRound,
    TournamentTable,
)
from ..permissions import has_role
from .visibility import last_round_shown

RANK_SCALE = Decimal(10)  # rank points of a table's winner; the last gets 0, the mean is 5
SITOUT_RANK_POINTS = RANK_SCALE / 2
TIEBREAKS = ranking.TOURNAMENT_TIEBREAKS  # documented in docs/tournaments.md


# --- access ----------------------------------------------------------------------------------


def is_staff(user, tournament: Tournament) -> bool:
    """Club scorekeepers and owners, and the tournament's extra staff while they are members
    of the club. Read from the memberships at every request: leaving the club (or a removal
    that missed a row) takes the rights away at once."""
    if not getattr(user, "is_authenticated", False):
        return False
    if has_role(user, tournament.club, Role.SCOREKEEPER):
        return True
    return (
        has_role(user, tournament.club, Role.MEMBER)
        and tournament.extra_staff.filter(pk=user.pk).exists()
    )


def is_creator(user, tournament: Tournament) -> bool:
    """Whoever created the tournament, while they keep a role that may create one (scorekeeper
    or owner): a creator lowered to member or removed keeps no right from having created it."""
    return (
        tournament.created_by_id is not None
        and tournament.created_by_id == getattr(user, "pk", None)
        and has_role(user, tournament.club, Role.SCOREKEEPER)
    )


def can_see(user, tournament: Tournament, entry: TournamentEntry | None = None) -> bool:
    """Public tournaments: anyone. Otherwise club members, staff and the event's PIN holders."""
    if tournament.is_public or entry is not None:
        return True
    return has_role(user, tournament.club, Role.MEMBER) or is_staff(user, tournament)


def club_tournaments(*, club, user) -> list[Tournament]:
    """Members (the extra staff are members) see every tournament, others the public ones."""
    qs = Tournament.objects.filter(club=club)
    if not has_role(user, club, Role.MEMBER):
        qs = qs.filter(is_public=True)
    return list(qs.order_by("-date", "-id"))


# --- rounds and tables -----------------------------------------------------------------------


def names_of(tournament: Tournament) -> dict[int, str]:
    return {e.player_id: e.player.name for e in tournament.entries.select_related("player")}


@dataclass
class TableView:
    table: TournamentTable
    label: str
    seats: list[tuple[int, str]]  # (player id, name) in seat order
    deal_count: int = 0
    pending: int = 0
    disputed: int = 0


@dataclass
class RoundView:
    round: TournamentRound
    tables: list[TableView]
    sitouts: list[tuple[int, str]]
    seconds_left: int | None
    timer_running: bool


def seconds_left(rnd: TournamentRound, now=None) -> int | None:
    if rnd.timer_ends_at is not None:
        now = now or timezone.now()
        return max(0, int((rnd.timer_ends_at - now).total_seconds()))
    return rnd.timer_left


def round_view(rnd: TournamentRound, names: dict[int, str] | None = None) -> RoundView:
    names = names if names is not None else names_of(rnd.tournament)
    tables = list(rnd.tables.order_by("number"))
    sessions = [t.session_id for t in tables if t.session_id]
    counts: dict[int, int] = defaultdict(int)
    for sid in Deal.objects.filter(session_id__in=sessions, is_deleted=False).values_list(
        "session_id", flat=True
    ):
        counts[sid] += 1
    states: dict[tuple[int, str], int] = defaultdict(int)
    for tid, state in DealConfirmation.objects.filter(
        table__in=tables, deal__is_deleted=False
    ).values_list("table_id", "state"):
        states[(tid, state)] += 1
    views = [
        TableView(
            table=t,
            label=f"R{rnd.number}-T{t.number}",
            seats=[(p, names.get(p, str(p))) for p in t.seats],
            deal_count=counts.get(t.session_id, 0),
            pending=states[(t.pk, ConfirmationState.PENDING)],
            disputed=states[(t.pk, ConfirmationState.DISPUTED)],
        )
        for t in tables
    ]
    return RoundView(
        round=rnd,
        tables=views,
        sitouts=[(p, names.get(p, str(p))) for p in rnd.sitouts],
        seconds_left=seconds_left(rnd),
        timer_running=rnd.timer_ends_at is not None,
    )


def current_round(tournament: Tournament) -> TournamentRound | None:
    """The latest round (drawn, running or finished)."""
    return tournament.rounds.order_by("-number").first()


def current_table(tournament: Tournament, number: int) -> TournamentTable | None:
    """Table ``number`` of the latest started round (the table code on a seating card)."""
    rnd = tournament.rounds.filter(started_at__isnull=False).order_by("-number").first()
    if rnd is None:
        return None
    return rnd.tables.filter(number=number).first()


def entry_table(tournament: Tournament, entry: TournamentEntry) -> TournamentTable | None:
    """Where a PIN holder sits in the latest started round."""
    rnd = tournament.rounds.filter(started_at__isnull=False).order_by("-number").first()
    if rnd is None:
        return None
    for table in rnd.tables.all():
        if entry.player_id in table.seats:
            return table
    return None


@dataclass
class TableDeal:
    deal: Deal
    points: list[int]  # per seat, in the table's seat order
    state: str
    state_label: str
    recorded_by: int | None  # entry id


def table_deals(table: TournamentTable) -> list[TableDeal]:
    if table.session_id is None:
        return []
    deals = list(Deal.objects.filter(session_id=table.session_id, is_deleted=False).order_by("seq"))
    confirmations = {c.deal_id: c for c in DealConfirmation.objects.filter(deal__in=deals)}
    lines: dict[int, dict[int, int]] = defaultdict(dict)
    for deal_id, player_id, points in ScoreLine.objects.filter(deal__in=deals).values_list(
        "deal_id", "player_id", "points"
    ):
        lines[deal_id][player_id] = points
    rows = []
    for deal in deals:
        c = confirmations.get(deal.pk)
        state = c.state if c else ConfirmationState.CONFIRMED
        rows.append(
            TableDeal(
                deal=deal,
                points=[lines[deal.pk].get(p, 0) for p in table.seats],
                state=state,
                state_label=ConfirmationState(state).label,
                recorded_by=c.recorded_by_id if c else None,
            )
        )
    return rows


def disputed_deals(tournament: Tournament) -> list[DealConfirmation]:
    return list(
        DealConfirmation.objects.filter(
            table__round__tournament=tournament,
            state=ConfirmationState.DISPUTED,
            deal__is_deleted=False,
        )
        .select_related("deal", "table__round", "decided_by__player")
        .order_by("updated_at")
    )


# --- standings -------------------------------------------------------------------------------


@dataclass
class StandingRow:
    entry_id: int
    player_id: int
    name: str
    points: int = 0  # raw points of counted deals
    rank_points: Decimal = Decimal(0)
    adjustments: Decimal = Decimal(0)
    table_wins: int = 0
    rounds: int = 0
    deals: int = 0
    dropped_at_round: int | None = None
    total: Decimal = Decimal(0)
    rank: int = 0


@dataclass
class TournamentStandings:
    tournament: Tournament
    mode: str
    rows: list[StandingRow]
    adjustments: list[Adjustment] = field(default_factory=list)
    uncounted: int = 0  # deals waiting for confirmation or disputed
    frozen_after: int | None = None  # these standings stop after this round (a freeze)


def rank_points(points: dict[int, int]) -> dict[int, Decimal]:
    """Rank points of one table in one round: (opponents beaten + ½ × opponents tied) ÷
    (table size − 1) × 10. Winner 10, last 0, the mean 5 whatever the table's size."""
    n = len(points)
    if n < 2:
        return {p: SITOUT_RANK_POINTS for p in points}
    result = {}
    for p, mine in points.items():
        beaten = sum(1 for q, other in points.items() if q != p and other < mine)
        tied = sum(1 for q, other in points.items() if q != p and other == mine)
        value = (Decimal(beaten) + Decimal(tied) / 2) / Decimal(n - 1) * RANK_SCALE
        result[p] = value.quantize(Decimal("0.01"))
    return result


def rank_rows(rows: list[StandingRow]) -> list[StandingRow]:
    """Rank through ``ranking.rank`` with the tournament's tiebreaks (the same function as the
    club standings): rows equal on every key share a rank and the next rank is skipped."""
    ranked = ranking.rank(rows, TIEBREAKS)
    for position, row in ranked:
        row.rank = position
    return [row for _position, row in ranked]


def tournament_standings(
    *, tournament: Tournament, through_round: int | None = None
) -> TournamentStandings:
    """Live standings from the score lines of the tournament's tables (bounded by its size).

    A deal counts once confirmed (or when it needs no confirmation); a deal waiting or
    disputed does not. A table without counted deals gives nobody a table win. With
    ``through_round`` (a freeze) only rounds up to it count, and only the adjustments of those
    rounds or made before the next round started."""
    entries = list(tournament.entries.select_related("player"))
    by_player = {
        e.player_id: StandingRow(
            entry_id=e.pk,
            player_id=e.player_id,
            name=e.player.name,
            dropped_at_round=e.dropped_at_round,
        )
        for e in entries
    }
    rounds_qs = tournament.rounds.filter(started_at__isnull=False)
    if through_round is not None:
        rounds_qs = rounds_qs.filter(number__lte=through_round)
    rounds = list(rounds_qs.order_by("number").prefetch_related("tables"))
    tables = [t for r in rounds for t in r.tables.all()]
    session_table = {t.session_id: t for t in tables if t.session_id}
    uncounted_ids = set(
        DealConfirmation.objects.filter(table__in=tables)
        .exclude(state=ConfirmationState.CONFIRMED)
        .values_list("deal_id", flat=True)
    )
    table_points: dict[int, dict[int, int]] = {t.pk: {p: 0 for p in t.seats} for t in tables}
    deal_ids_seen: dict[int, set] = defaultdict(set)
    played_tables: set[int] = set()  # tables with at least one counted deal
    for deal_id, session_id, player_id, points in ScoreLine.objects.filter(
        session_id__in=list(session_table)
    ).values_list("deal_id", "session_id", "player_id", "points"):
        if deal_id in uncounted_ids:
            continue
        table = session_table[session_id]
        table_points[table.pk][player_id] = table_points[table.pk].get(player_id, 0) + points
        deal_ids_seen[player_id].add(deal_id)
        played_tables.add(table.pk)
    for rnd in rounds:
        for table in rnd.tables.all():
            scores = table_points[table.pk]
            ranks = rank_points(scores)
            top = max(scores.values()) if scores else None
            for p, value in scores.items():
                row = by_player.get(p)
                if row is None:
                    continue
                row.points += value
                row.rank_points += ranks[p]
                row.rounds += 1
                if value == top and len(scores) > 1 and table.pk in played_tables:
                    row.table_wins += 1
        for p in rnd.sitouts:
            if p in by_player:
                by_player[p].rank_points += SITOUT_RANK_POINTS
    adjustments_qs = Adjustment.objects.filter(tournament=tournament, is_deleted=False)
    if through_round is not None:
        adjustments_qs = adjustments_qs.filter(_adjustments_through(tournament, through_round))
    adjustments = list(adjustments_qs.select_related("entry__player").order_by("created_at", "id"))
    by_entry = {row.entry_id: row for row in by_player.values()}
    for adj in adjustments:
        by_entry[adj.entry_id].adjustments += adj.points
    for row in by_player.values():
        row.deals = len(deal_ids_seen[row.player_id])
        base = row.rank_points if tournament.standings_mode == StandingsMode.RANK else row.points
        row.total = Decimal(base) + row.adjustments
    rows = [
        r for r in by_player.values() if r.rounds or r.adjustments or r.dropped_at_round is None
    ]
    return TournamentStandings(
        tournament=tournament,
        mode=tournament.standings_mode,
        rows=rank_rows(rows),
        adjustments=adjustments,
        uncounted=Deal.objects.filter(pk__in=uncounted_ids, is_deleted=False).count(),
        frozen_after=through_round,
    )


def _adjustments_through(tournament: Tournament, through_round: int) -> Q:
    """Adjustments of rounds up to ``through_round``; those without a round count when made
    before the next round started."""
    of_rounds = Q(round_number__isnull=False, round_number__lte=through_round)
    next_start = (
        tournament.rounds.filter(number=through_round + 1).values_list("started_at", flat=True)
    ).first()
    if next_start is None:
        return of_rounds | Q(round_number__isnull=True)
    return of_rounds | Q(round_number__isnull=True, created_at__lt=next_start)


# --- the standings freeze --------------------------------------------------------------------


def freeze_round(tournament: Tournament) -> int | None:
    """The round after which the standings stop for the public, or None when nothing is
    hidden now: a freeze is set, not revealed, and a round after it has started."""
    hidden = tournament.standings_hidden_rounds
    if not hidden or tournament.standings_revealed:
        return None
    last_shown = last_round_shown(rounds_planned=tournament.rounds_planned, hidden_rounds=hidden)
    if not tournament.rounds.filter(number__gt=last_shown, started_at__isnull=False).exists():
        return None
    return last_shown


def results_hidden(tournament: Tournament) -> bool:
    """The final results (page and PDF) wait for the reveal when a freeze is set."""
    return bool(tournament.standings_hidden_rounds) and not tournament.standings_revealed


def visible_standings(*, tournament: Tournament, staff: bool) -> TournamentStandings:
    """What a visitor sees: staff the live standings; everyone else, during a freeze, the
    standings as they stood after the last round before it."""
    through = None if staff else freeze_round(tournament)
    return tournament_standings(tournament=tournament, through_round=through)


# --- the staff page --------------------------------------------------------------------------


def can_manage_staff(user, tournament: Tournament) -> bool:
    """Club admins (owners) and whoever created the tournament add and remove its staff."""
    if not getattr(user, "is_authenticated", False):
        return False
    return has_role(user, tournament.club, Role.OWNER) or is_creator(user, tournament)


@dataclass
class StaffMember:
    user: object
    name: str
    extra: bool  # on the tournament's own staff (removable), not by a club role
    role: str = ""  # the club role that lets them run it ("" for extra staff only)


def tournament_staff(tournament: Tournament) -> list[StaffMember]:
    """Everyone who can run the tournament: the extra staff, then the club's scorekeepers and
    owners (who always can)."""

    extra = list(tournament.extra_staff.order_by("username"))
    extra_ids = {u.pk for u in extra}
    roles = {
        m.user_id: m
        for m in Membership.objects.filter(
            club=tournament.club, role__in=[Role.SCOREKEEPER, Role.OWNER]
        ).select_related("user")
    }
    people = [
        StaffMember(user=u, name=u.get_username(), extra=True, role=_role_label(roles.get(u.pk)))
        for u in extra
    ]
    people += [
        StaffMember(user=m.user, name=m.user.get_username(), extra=False, role=_role_label(m))
        for m in sorted(roles.values(), key=lambda m: (m.role != Role.OWNER, m.user.username))
        if m.user_id not in extra_ids
    ]
    return people


def _role_label(membership) -> str:
    return Role(membership.role).label if membership is not None else ""
