"""A tournament's rounds and tables: where it stands, the draw with names, who sat where (with
substitutions) and a table's deal numbers."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.utils import timezone

from ...models import (
    ConfirmationState,
    Deal,
    DealConfirmation,
    Tournament,
    TournamentEntry,
    TournamentRound,
    TournamentTable,
)


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
            replaced=replaced_names(t, names),
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
