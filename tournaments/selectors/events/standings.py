"""A tournament's live standings (raw points or rank points, with adjustments) from the score
lines of its tables, and the standings freeze (the final rounds hidden until the reveal)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal

from django.db.models import Q

from ... import ranking
from ...models import (
    Adjustment,
    ConfirmationState,
    Deal,
    DealConfirmation,
    ScoreLine,
    StandingsMode,
    Tournament,
    TournamentTable,
)
from ..visibility import last_round_shown
from .rounds import seat_history, table_players

RANK_SCALE = Decimal(10)  # rank points of a table's winner; the last gets 0, the mean is 5
SITOUT_RANK_POINTS = RANK_SCALE / 2
TIEBREAKS = ranking.TOURNAMENT_TIEBREAKS  # documented in docs/tournaments.md


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
    by_player = {
        e.player_id: StandingRow(
            entry_id=e.pk,
            player_id=e.player_id,
            name=e.player.name,
            dropped_at_round=e.dropped_at_round,
        )
        for e in tournament.entries.select_related("player")
    }
    rounds_qs = tournament.rounds.filter(started_at__isnull=False)
    if through_round is not None:
        rounds_qs = rounds_qs.filter(number__lte=through_round)
    rounds = list(rounds_qs.order_by("number").prefetch_related("tables"))
    counted = _counted_lines([t for r in rounds for t in r.tables.all()])
    for rnd in rounds:
        for table in rnd.tables.all():
            _table_standings(
                table,
                by_player,
                points=counted.points[table.pk],
                deals=counted.deals[table.pk],
                seqs=counted.seqs[table.pk],
                played=table.pk in counted.played,
            )
        for p in rnd.sitouts:
            if p in by_player:
                by_player[p].rank_points += SITOUT_RANK_POINTS
    adjustments = _adjustments(tournament, through_round)
    _add_up(tournament, by_player, adjustments, counted)
    rows = [
        r for r in by_player.values() if r.rounds or r.adjustments or r.dropped_at_round is None
    ]
    return TournamentStandings(
        tournament=tournament,
        mode=tournament.standings_mode,
        rows=rank_rows(rows),
        adjustments=adjustments,
        uncounted=Deal.objects.filter(pk__in=counted.uncounted, is_deleted=False).count(),
        frozen_after=through_round,
    )


def _by_table():
    return defaultdict(lambda: defaultdict(int))


@dataclass
class _Counted:
    """What the counted score lines of a tournament's tables add up to."""

    uncounted: set[int]  # deals waiting for confirmation or disputed
    points: dict[int, dict[int, int]] = field(default_factory=_by_table)  # table, player
    deals: dict[int, dict[int, int]] = field(default_factory=_by_table)  # table, player
    seqs: dict[int, list[int]] = field(default_factory=lambda: defaultdict(list))  # live deals
    deal_ids: dict[int, set] = field(default_factory=lambda: defaultdict(set))  # per player
    played: set[int] = field(default_factory=set)  # tables with at least one counted deal


def _counted_lines(tables: list[TournamentTable]) -> _Counted:
    """The score lines of ``tables`` that count, per table and player, and each table's live
    deal numbers (to tell who played a seat before a substitute)."""
    session_table = {t.session_id: t for t in tables if t.session_id}
    counted = _Counted(
        uncounted=set(
            DealConfirmation.objects.filter(table__in=tables)
            .exclude(state=ConfirmationState.CONFIRMED)
            .values_list("deal_id", flat=True)
        )
    )
    for session_id, seq in Deal.objects.filter(
        session_id__in=list(session_table), is_deleted=False
    ).values_list("session_id", "seq"):
        counted.seqs[session_table[session_id].pk].append(seq)
    members = {t.pk: table_players(t) for t in tables}
    for deal_id, session_id, player_id, points in ScoreLine.objects.filter(
        session_id__in=list(session_table)
    ).values_list("deal_id", "session_id", "player_id", "points"):
        if deal_id in counted.uncounted:
            continue
        table = session_table[session_id]
        if player_id not in members[table.pk]:
            continue  # only the table's own players count at a tournament table
        counted.points[table.pk][player_id] += points
        counted.deals[table.pk][player_id] += 1
        counted.deal_ids[player_id].add(deal_id)
        counted.played.add(table.pk)
    return counted


def _adjustments(tournament: Tournament, through_round: int | None) -> list[Adjustment]:
    adjustments_qs = Adjustment.objects.filter(tournament=tournament, is_deleted=False)
    if through_round is not None:
        adjustments_qs = adjustments_qs.filter(_adjustments_through(tournament, through_round))
    return list(adjustments_qs.select_related("entry__player").order_by("created_at", "id"))


def _add_up(tournament, by_player: dict, adjustments: list[Adjustment], counted: _Counted):
    """Each row's adjustments, deals played and total (rank points or raw points, adjusted)."""
    by_entry = {row.entry_id: row for row in by_player.values()}
    for adj in adjustments:
        by_entry[adj.entry_id].adjustments += adj.points
    for row in by_player.values():
        row.deals = len(counted.deal_ids[row.player_id])
        base = row.rank_points if tournament.standings_mode == StandingsMode.RANK else row.points
        row.total = Decimal(base) + row.adjustments


def _table_standings(table, by_player, *, points, deals, seqs, played: bool) -> None:
    """One table's part of the standings. Each player keeps the points of the deals they
    played. Rank points and the table win belong to a seat: the seat's points are those of
    everyone who played it; its rank points are shared between them by counted deals played
    (all to the one holding the seat while none counted), and its table win goes to whoever
    played most of its counted deals (the later one on a tie). A player replaced before the
    table's first deal did not play there."""
    history = seat_history(table)
    seat_points = {i: sum(points.get(p, 0) for p, _ in tl) for i, tl in enumerate(history)}
    ranks = rank_points(seat_points)
    top = max(seat_points.values()) if seat_points else None
    for index, timeline in enumerate(history):
        counted = sum(deals.get(p, 0) for p, _ in timeline)
        players = []
        for position, (p, start) in enumerate(timeline):
            end = timeline[position + 1][1] if position + 1 < len(timeline) else None
            holder = end is None
            if holder or any(start <= seq < end for seq in seqs):
                players.append(p)
        for p in dict.fromkeys(players):
            row = by_player.get(p)
            if row is None:
                continue
            row.points += points.get(p, 0)
            row.rounds += 1
            if counted:
                share = Decimal(deals.get(p, 0)) / Decimal(counted)
            else:
                share = Decimal(1) if p == timeline[-1][0] else Decimal(0)
            row.rank_points += (ranks[index] * share).quantize(Decimal("0.01"))
        if played and len(history) > 1 and seat_points[index] == top:
            winner = max(reversed(players), key=lambda p: deals.get(p, 0))
            if winner in by_player:
                by_player[winner].table_wins += 1


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
