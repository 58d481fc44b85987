"""Tournament reads: who may see and run an event, the draw with names, a table's deals and
the live standings (raw points or rank points, with adjustments)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field, replace
from decimal import Decimal

from django.db.models import Exists, OuterRef, Q
from django.http import Http404
from django.utils import timezone

from .. import ranking
from ..models import (
    Adjustment,
    ConfirmationState,
    Deal,
    DealConfirmation,
    Membership,
    PinAttempt,
    Role,
    ScoreLine,
    StandingsMode,
    Tournament,
    TournamentEntry,
    TournamentRound,
    TournamentTable,
)
from ..permissions import has_role, reader_role
from ..reader import Reader
from .visibility import last_round_shown

RANK_SCALE = Decimal(10)  # rank points of a table's winner; the last gets 0, the mean is 5
SITOUT_RANK_POINTS = RANK_SCALE / 2
TIEBREAKS = ranking.TOURNAMENT_TIEBREAKS  # documented in docs/tournaments.md


# --- access ----------------------------------------------------------------------------------


def tournament_for_reader(*, tournament_id: int, reader) -> Tournament:
    """The tournament (with its club and rule set) for one request, 404 when there is none.
    For a logged-in reader the same query brings their role in the club and whether they are
    among the tournament's extra staff (what ``can_see`` and ``is_staff`` ask next), kept on the
    reader (``roles``, ``extra_staff``): one query instead of three on every tournament page.
    Both are read at every request."""
    reader = Reader.of(reader)
    remember = reader.is_authenticated and not reader.is_superuser
    qs = Tournament.objects.select_related("club", "ruleset").filter(pk=tournament_id)
    if remember:
        staff = Tournament.extra_staff.through.objects.filter(
            tournament=OuterRef("pk"), user_id=reader.pk
        )
        qs = qs.annotate(
            reader_role=reader_role(reader.pk, "club_id"),
            reader_extra_staff=Exists(staff),
        )
    tournament = qs.first()
    if tournament is None:
        raise Http404
    if remember:
        reader.roles.setdefault(tournament.club_id, tournament.reader_role)
        reader.extra_staff[tournament.pk] = tournament.reader_extra_staff
    return tournament


def is_staff(reader, tournament: Tournament) -> bool:
    """Club scorekeepers and owners, and the tournament's extra staff while they are members
    of the club. Read from the memberships at every request: leaving the club (or a removal
    that missed a row) takes the rights away at once."""
    reader = Reader.of(reader)
    if not reader.is_authenticated:
        return False
    if has_role(reader, tournament.club, Role.SCOREKEEPER):
        return True
    if not has_role(reader, tournament.club, Role.MEMBER):
        return False
    if tournament.pk not in reader.extra_staff:  # else read with the tournament
        reader.extra_staff[tournament.pk] = tournament.extra_staff.filter(pk=reader.pk).exists()
    return reader.extra_staff[tournament.pk]


def is_creator(reader, tournament: Tournament) -> bool:
    """Whoever created the tournament, while they keep a role that may create one (scorekeeper
    or owner): a creator lowered to member or removed keeps no right from having created it."""
    reader = Reader.of(reader)
    return (
        tournament.created_by_id is not None
        and tournament.created_by_id == reader.pk
        and has_role(reader, tournament.club, Role.SCOREKEEPER)
    )


def can_see(reader, tournament: Tournament, entry: TournamentEntry | None = None) -> bool:
    """Public tournaments: anyone. Otherwise club members, staff and the event's PIN holders."""
    if tournament.is_public or entry is not None:
        return True
    reader = Reader.of(reader)
    return has_role(reader, tournament.club, Role.MEMBER) or is_staff(reader, tournament)


def club_tournaments(*, club, reader) -> list[Tournament]:
    """Members (the extra staff are members) see every tournament, others the public ones."""
    qs = Tournament.objects.filter(club=club)
    if not has_role(reader, club, Role.MEMBER):
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
    replaced: list[tuple[str, str, int]] = field(default_factory=list)  # (out, in, from deal)


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


def replaced_names(table: TournamentTable, names: dict[int, str]) -> list[tuple[str, str, int]]:
    """The table's substitutions: (who was replaced, who plays the seat now, from deal no.)."""
    return [
        (names.get(r["out"], str(r["out"])), names.get(r["in"], str(r["in"])), r["from_seq"])
        for r in table.replacements or []
    ]


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
            replaced=[
                (
                    names.get(r["out"], str(r["out"])),
                    names.get(r["in"], str(r["in"])),
                    r["from_seq"],
                )
                for r in t.replacements or []
            ],  # fmt: skip
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


@dataclass
class TournamentState:
    """Where a tournament stands: its rounds, the one being played, whether it is finished."""

    tournament: Tournament
    rounds: list[TournamentRound]

    def round(self, number: int) -> TournamentRound | None:
        return next((r for r in self.rounds if r.number == number), None)

    @property
    def latest(self) -> TournamentRound | None:
        return self.rounds[-1] if self.rounds else None

    @property
    def playing(self) -> TournamentRound | None:
        """The round being played (started, not finished), if any."""
        return next((r for r in reversed(self.rounds) if r.started_at and not r.finished_at), None)

    @property
    def drawn(self) -> TournamentRound | None:
        """The round drawn and not started yet, if any."""
        latest = self.latest
        return latest if latest is not None and latest.started_at is None else None

    @property
    def finished(self) -> bool:
        return self.tournament.finished_at is not None

    @property
    def last_round_finished(self) -> bool:
        latest = self.latest
        return (
            latest is not None
            and latest.finished_at is not None
            and latest.number >= self.tournament.rounds_planned
        )


def tournament_state(tournament: Tournament) -> TournamentState:
    return TournamentState(tournament=tournament, rounds=list(tournament.rounds.order_by("number")))


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


def seat_history(table: TournamentTable) -> list[list[tuple[int, int]]]:
    """Who played each seat of a table, in seat order: per seat a list of (player id, first
    deal played), oldest first. Without a substitution each seat is ``[(player, 1)]``; the
    table's ``replacements`` (services/events/changes.py) add the substitutes."""
    by_seat: dict[int, list[dict]] = defaultdict(list)
    for change in table.replacements or []:
        by_seat[int(change["seat"]) - 1].append(change)
    history = []
    for index, holder in enumerate(table.seats):
        changes = by_seat.get(index)
        if not changes:
            history.append([(holder, 1)])
            continue
        history.append([(changes[0]["out"], 1)] + [(c["in"], int(c["from_seq"])) for c in changes])
    return history


def players_at(table: TournamentTable, seq: int) -> list[int]:
    """The table's players, in seat order, for its deal number ``seq``."""
    players = []
    for timeline in seat_history(table):
        player = timeline[0][0]
        for candidate, start in timeline:
            if start <= seq:
                player = candidate
        players.append(player)
    return players


def table_players(table: TournamentTable) -> set[int]:
    """Everyone who holds or held a seat at the table this round."""
    return {p for timeline in seat_history(table) for p, _start in timeline}


def session_table(session_id: int) -> TournamentTable | None:
    """The tournament table a club session is (``E<t>-R<r>-T<n>``), None for a club's own."""
    return (
        TournamentTable.objects.select_related("round__tournament__club", "session")
        .filter(session_id=session_id)
        .first()
    )


def next_seq(table: TournamentTable) -> int:
    """The number the table's next deal will get (deleted deals keep their numbers)."""
    if table.session_id is None:
        return 1
    last = Deal.objects.filter(session_id=table.session_id).order_by("-seq").first()
    return (last.seq if last else 0) + 1


def live_deal_count(table: TournamentTable) -> int:
    if table.session_id is None:
        return 0
    return Deal.objects.filter(session_id=table.session_id, is_deleted=False).count()


@dataclass
class TableDeal:
    deal: Deal
    points: list[int]  # per seat, in the table's seat order (whoever played the seat then)
    state: str
    state_label: str
    recorded_by: int | None  # entry id
    detail: object = None  # a selectors.sessions.DealRow: the deal as the club pages show it
    note: str = ""  # what is wrong, when disputed
    disputed_by: str = ""  # the player who disputed it (empty: staff)


def table_deals(
    table: TournamentTable, *, names: dict[int, str] | None = None, deleted: bool = False
) -> list[TableDeal]:
    """The deals of a table with their state, the dispute's note and the deal itself (who
    played, Napoleon, bid, trump, adjutant, honours, each player's points). ``deleted`` adds
    the deals staff dropped (they can restore them)."""
    from .sessions import preview_row  # the club pages' own deal rows, rendered the same way

    if table.session_id is None:
        return []
    deals_qs = Deal.objects.filter(session_id=table.session_id)
    if not deleted:
        deals_qs = deals_qs.filter(is_deleted=False)
    deals = list(deals_qs.order_by("seq"))
    confirmations = {
        c.deal_id: c
        for c in DealConfirmation.objects.filter(deal__in=deals).select_related(
            "decided_by__player"
        )
    }
    lines: dict[int, dict[int, int]] = defaultdict(dict)
    for deal_id, player_id, points in ScoreLine.objects.filter(deal__in=deals).values_list(
        "deal_id", "player_id", "points"
    ):
        lines[deal_id][player_id] = points
    if names is None:
        names = names_of(table.round.tournament)
    texts = {str(k): v for k, v in names.items()}
    rows = []
    for deal in deals:
        c = confirmations.get(deal.pk)
        state = c.state if c else ConfirmationState.CONFIRMED
        detail = preview_row(game=deal.game, data=deal.data, outcome=deal.outcome, names=texts)
        rows.append(
            TableDeal(
                deal=deal,
                points=[lines[deal.pk].get(p, 0) for p in players_at(table, deal.seq)],
                state=state,
                state_label=ConfirmationState(state).label,
                recorded_by=c.recorded_by_id if c else None,
                detail=replace(detail, id=deal.pk, seq=deal.seq, is_deleted=deal.is_deleted),
                note=c.note if c and state == ConfirmationState.DISPUTED else "",
                disputed_by=(
                    c.decided_by.player.name
                    if c and state == ConfirmationState.DISPUTED and c.decided_by
                    else ""
                ),
            )
        )
    return rows


@dataclass
class SeatTotal:
    names: list[str]  # who played the seat, in order (a substitute after the one replaced)
    points: int


def table_totals(table: TournamentTable, rows: list[TableDeal], names: dict[int, str]):
    """Each seat's points over the table's counted deals (waiting and disputed ones aside)."""
    totals = []
    for index, timeline in enumerate(seat_history(table)):
        points = sum(
            r.points[index]
            for r in rows
            if r.state == ConfirmationState.CONFIRMED and not r.deal.is_deleted
        )
        totals.append(SeatTotal(names=[names.get(p, str(p)) for p, _ in timeline], points=points))
    return totals


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


@dataclass
class OpenDeal:
    """A deal that does not count yet (waiting or disputed), with its table, for the staff."""

    table: TournamentTable
    label: str
    row: TableDeal
    seats: list[tuple[int, str]]  # who played it, in seat order


def open_deals(
    tournament: Tournament, *, rnd: TournamentRound | None = None, states=None
) -> list[OpenDeal]:
    """Deals waiting for confirmation or disputed (``states``), of one round or of the whole
    tournament, each with the deal itself and its note: what the staff decide on."""
    states = set(states or (ConfirmationState.PENDING, ConfirmationState.DISPUTED))
    tables_qs = TournamentTable.objects.filter(
        confirmations__state__in=states, confirmations__deal__is_deleted=False
    )
    tables_qs = (
        tables_qs.filter(round=rnd)
        if rnd is not None
        else tables_qs.filter(round__tournament=tournament)
    )
    tables = list(tables_qs.distinct().select_related("round").order_by("round__number", "number"))
    names = names_of(tournament)
    found = []
    for table in tables:
        for row in table_deals(table, names=names):
            if row.state in states:
                found.append(
                    OpenDeal(
                        table=table,
                        label=f"R{table.round.number}-T{table.number}",
                        row=row,
                        seats=[(p, names.get(p, str(p))) for p in players_at(table, row.deal.seq)],
                    )
                )
    return found


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
    # Live deals per table (deal number), to tell who played a seat before a substitute.
    live_seqs: dict[int, list[int]] = defaultdict(list)
    for session_id, seq in Deal.objects.filter(
        session_id__in=list(session_table), is_deleted=False
    ).values_list("session_id", "seq"):
        live_seqs[session_table[session_id].pk].append(seq)
    table_points: dict[int, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    table_deals_of: dict[int, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    deal_ids_seen: dict[int, set] = defaultdict(set)
    played_tables: set[int] = set()  # tables with at least one counted deal
    members = {t.pk: table_players(t) for t in tables}
    for deal_id, session_id, player_id, points in ScoreLine.objects.filter(
        session_id__in=list(session_table)
    ).values_list("deal_id", "session_id", "player_id", "points"):
        if deal_id in uncounted_ids:
            continue
        table = session_table[session_id]
        if player_id not in members[table.pk]:
            continue  # only the table's own players count at a tournament table
        table_points[table.pk][player_id] += points
        table_deals_of[table.pk][player_id] += 1
        deal_ids_seen[player_id].add(deal_id)
        played_tables.add(table.pk)
    for rnd in rounds:
        for table in rnd.tables.all():
            _table_standings(
                table,
                by_player,
                points=table_points[table.pk],
                deals=table_deals_of[table.pk],
                seqs=live_seqs[table.pk],
                played=table.pk in played_tables,
            )
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


# --- the staff page --------------------------------------------------------------------------


def can_manage_staff(reader, tournament: Tournament) -> bool:
    """Club admins (owners) and whoever created the tournament add and remove its staff."""
    reader = Reader.of(reader)
    if not reader.is_authenticated:
        return False
    return has_role(reader, tournament.club, Role.OWNER) or is_creator(reader, tournament)


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


# --- PINs ------------------------------------------------------------------------------------


def pin_overview(tournament: Tournament) -> dict:
    """Who has a PIN and whose phone new PINs would log out: the active players without a PIN,
    those with one, and among them the players seated in the round being played."""
    entries = list(
        tournament.entries.filter(dropped_at_round__isnull=True).select_related("player")
    )
    playing = tournament_state(tournament).playing
    seated = set()
    if playing is not None:
        for table in playing.tables.all():
            seated.update(table.seats)
    return {
        "missing": [e.player.name for e in entries if not e.pin_hash],
        "with_pin": [e.player.name for e in entries if e.pin_hash],
        "logged_out_now": [e.player.name for e in entries if e.pin_hash and e.player_id in seated],
        "playing": playing,
    }


def pin_lockouts(tournament: Tournament, *, limit_bare: int, limit_entry: int, since) -> int:
    """How many phones (client address, and the player they tried) cannot try a PIN now."""
    counts: dict[tuple[str, int | None], int] = defaultdict(int)
    for address, entry_id in PinAttempt.objects.filter(
        tournament=tournament, created_at__gte=since
    ).values_list("address", "entry_id"):
        counts[(address, entry_id)] += 1
    return sum(
        1
        for (_address, entry_id), n in counts.items()
        if n >= (limit_entry if entry_id is not None else limit_bare)
    )
