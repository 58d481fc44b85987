"""Tournaments: entries, check-in, the seating draw of each round, table PINs, deal
confirmation, penalties and the round timer. The only code that writes tournament rows.

Each drawn table plays as one ``GameSession`` created when the round starts, so deals at a
tournament table are recorded by exactly the same ``deal_record`` as in club sessions.
"""

from __future__ import annotations

import datetime
import secrets
from decimal import Decimal, InvalidOperation

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.crypto import salted_hmac

from core.i18n import N_

from .. import draw
from ..models import (
    Adjustment,
    Club,
    ClubRuleSet,
    ConfirmationState,
    Deal,
    DealConfirmation,
    DrawMethod,
    Game,
    PinAttempt,
    StandingsMode,
    Tournament,
    TournamentEntry,
    TournamentRound,
    TournamentTable,
)
from .deals import deal_record
from .errors import make_fail
from .players import player_get_or_create
from .sessions import session_create

PIN_DIGITS = 6
PIN_FAILURES_ALLOWED = 10  # per tournament and address …
PIN_FAILURE_WINDOW = datetime.timedelta(minutes=15)  # … within this window

MESSAGES = {
    "name_empty": N_("A tournament needs a name."),
    "rounds_range": N_("A tournament has between 1 and %(max)s rounds."),
    "method_unknown": N_("“%(method)s” is not a seating method."),
    "mode_unknown": N_("“%(mode)s” is not a standings option."),
    "table_size": N_("Tables of %(size)s players are not allowed by this rule set."),
    "ruleset_club": N_("That rule set belongs to another club."),
    "entry_exists": N_("%(name)s is already entered."),
    "entry_dropped": N_("%(name)s has dropped out."),
    "round_started": N_("Round %(number)s has started; its seating can no longer change."),
    "round_not_started": N_("Round %(number)s has not started yet."),
    "round_finished": N_("Round %(number)s is finished."),
    "round_unfinished": N_("Finish round %(number)s before drawing the next one."),
    "round_unstarted": N_("Start round %(number)s before drawing the next one."),
    "rounds_done": N_("All %(count)s rounds have been drawn."),
    "no_round": N_("No round has been drawn yet."),
    "swap_unknown": N_("%(value)s is not in this round's draw."),
    "swap_same": N_("Choose two different players to swap."),
    "pin_wrong": N_("That PIN is not valid for this tournament."),
    "pin_throttled": N_("Too many wrong PINs. Wait a few minutes and ask the staff."),
    "not_at_table": N_("You are not seated at this table."),
    "seats_table": N_("The players of a deal must be exactly the players of the table."),
    "confirm_own": N_("A second player must confirm; you recorded this deal."),
    "not_confirmable": N_("This deal is already %(state)s."),
    "points_invalid": N_("Enter points as a number, e.g. -2 or 1.5."),
    "reason_empty": N_("Give a reason for the adjustment."),
    "timer_minutes": N_("Enter the round time in minutes."),
}

MAX_ROUNDS = 30


_fail = make_fail(MESSAGES)


def _user(user):
    return user if getattr(user, "is_authenticated", False) else None


# --- tournaments and entries ---------------------------------------------------------------


@transaction.atomic
def tournament_create(
    *,
    club: Club,
    name: str,
    date: datetime.date,
    ruleset: ClubRuleSet,
    rounds_planned: int = 4,
    deals_per_round: int | None = None,
    minutes_per_round: int | None = None,
    draw_method: str = DrawMethod.MIXING,
    table_size: int | None = None,
    standings_mode: str = StandingsMode.RAW,
    require_confirmation: bool = False,
    is_public: bool = False,
    seed: int | None = None,
    user=None,
) -> Tournament:
    name = " ".join((name or "").split())
    if not name:
        raise _fail("name", "name_empty")
    if ruleset.club_id != club.pk:
        raise _fail("ruleset", "ruleset_club")
    pure = ruleset.to_rules()
    if not 1 <= int(rounds_planned or 0) <= MAX_ROUNDS:
        raise _fail("rounds_planned", "rounds_range", max=MAX_ROUNDS)
    if draw_method not in DrawMethod.values:
        raise _fail("draw_method", "method_unknown", method=draw_method)
    if standings_mode not in StandingsMode.values:
        raise _fail("standings_mode", "mode_unknown", mode=standings_mode)
    if table_size and table_size not in pure.players:
        raise _fail("table_size", "table_size", size=table_size)
    return Tournament.objects.create(
        club=club,
        name=name[:100],
        date=date,
        game=ruleset.game,
        ruleset=ruleset,
        rounds_planned=rounds_planned,
        deals_per_round=deals_per_round or None,
        minutes_per_round=minutes_per_round or None,
        draw_method=draw_method,
        table_size=table_size or None,
        standings_mode=standings_mode,
        require_confirmation=require_confirmation,
        is_public=is_public,
        seed=secrets.randbelow(10**6) if seed is None else seed,
        created_by=_user(user),
    )


@transaction.atomic
def entry_add(*, tournament: Tournament, name: str, checked_in: bool = False) -> TournamentEntry:
    """Enter a player (a club player by name; a new name becomes a new club player).
    Late arrivals are entered and checked in the same way before the next draw."""
    player = player_get_or_create(club=tournament.club, name=name, field="name")
    try:
        with transaction.atomic():
            return TournamentEntry.objects.create(
                tournament=tournament, player=player, checked_in=checked_in
            )
    except IntegrityError:
        raise _fail("name", "entry_exists", name=player.name) from None


def entry_check_in(*, entry: TournamentEntry, checked_in: bool = True) -> TournamentEntry:
    if entry.dropped_at_round is not None and checked_in:
        raise _fail("entry", "entry_dropped", name=entry.player.name)
    entry.checked_in = checked_in
    entry.save(update_fields=["checked_in"])
    return entry


@transaction.atomic
def entry_drop(*, entry: TournamentEntry, user=None) -> TournamentEntry:
    """Drop a player from the first round that has not started on. If that round is drawn
    already, it is redrawn (same seed) without them."""
    tournament = entry.tournament
    pending = _latest_round(tournament)
    if pending is not None and pending.started_at is None:
        first_open = pending.number
    else:
        first_open = (pending.number + 1) if pending is not None else 1
    entry.dropped_at_round = first_open
    entry.checked_in = False
    entry.save(update_fields=["dropped_at_round", "checked_in"])
    if pending is not None and pending.started_at is None and _seated(pending, entry.player_id):
        round_draw(tournament=tournament, seed=pending.seed, user=user)
    return entry


@transaction.atomic
def entry_undrop(*, entry: TournamentEntry) -> TournamentEntry:
    entry.dropped_at_round = None
    entry.save(update_fields=["dropped_at_round"])
    return entry


def _seated(rnd: TournamentRound, player_id: int) -> bool:
    return any(player_id in t.seats for t in rnd.tables.all()) or player_id in rnd.sitouts


# --- PINs ------------------------------------------------------------------------------------


def pin_digest(tournament: Tournament, pin: str) -> str:
    """Keyed hash of a PIN: only this is stored; it is valid for its tournament only."""
    return salted_hmac("efuda.tournament-pin", f"{tournament.pk}:{pin}").hexdigest()


@transaction.atomic
def pin_issue(*, entry: TournamentEntry) -> str:
    """A new PIN for the entry (any earlier PIN stops working). Returned once, never stored."""
    tournament = entry.tournament
    taken = set(
        TournamentEntry.objects.filter(tournament=tournament)
        .exclude(pk=entry.pk)
        .exclude(pin_hash="")
        .values_list("pin_hash", flat=True)
    )
    while True:
        pin = f"{secrets.randbelow(10**PIN_DIGITS):0{PIN_DIGITS}d}"
        digest = pin_digest(tournament, pin)
        if digest not in taken:
            break
    entry.pin_hash = digest
    entry.pin_issued_at = timezone.now()
    entry.save(update_fields=["pin_hash", "pin_issued_at"])
    return pin


def pin_issue_all(*, tournament: Tournament) -> dict[int, str]:
    """Fresh PINs for every active entry (for printing seating cards): entry id → PIN."""
    return {
        e.pk: pin_issue(entry=e)
        for e in tournament.entries.filter(dropped_at_round__isnull=True).select_related(
            "tournament"
        )
    }


def pin_revoke(*, entry: TournamentEntry) -> TournamentEntry:
    entry.pin_hash = ""
    entry.save(update_fields=["pin_hash"])
    return entry


def pin_check(*, tournament: Tournament, pin: str, address: str) -> TournamentEntry:
    """The entry a PIN belongs to; failed attempts are counted per address and limited."""
    since = timezone.now() - PIN_FAILURE_WINDOW
    failures = PinAttempt.objects.filter(
        tournament=tournament, address=address, created_at__gte=since
    ).count()
    if failures >= PIN_FAILURES_ALLOWED:
        raise _fail("pin", "pin_throttled")
    pin = "".join(ch for ch in str(pin or "") if ch.isdigit())
    entry = None
    if len(pin) == PIN_DIGITS:
        digest = pin_digest(tournament, pin)
        entry = (
            TournamentEntry.objects.filter(tournament=tournament, pin_hash=digest)
            .select_related("player")
            .first()
        )
    if entry is None:
        PinAttempt.objects.create(tournament=tournament, address=address[:64])
        raise _fail("pin", "pin_wrong")
    return entry


# --- rounds and the draw ---------------------------------------------------------------------


def _latest_round(tournament: Tournament) -> TournamentRound | None:
    return tournament.rounds.order_by("-number").first()


def _past_rounds(tournament: Tournament, before: int) -> list[draw.PastRound]:
    rounds = (
        tournament.rounds.filter(number__lt=before).order_by("number").prefetch_related("tables")
    )
    return [
        draw.PastRound(
            tables=tuple(tuple(t.seats) for t in r.tables.all()), sitouts=tuple(r.sitouts)
        )
        for r in rounds
    ]


def playing_ids(tournament: Tournament, number: int) -> list[int]:
    """Player ids drawn in round ``number``: checked in and not dropped by then, entry order."""
    entries = tournament.entries.filter(checked_in=True).order_by("id")
    return [
        e.player_id for e in entries if e.dropped_at_round is None or e.dropped_at_round > number
    ]


def _standings_for_swiss(tournament: Tournament) -> dict[int, float]:
    from ..selectors.events import tournament_standings  # a read, for the swiss pairing

    return {row.player_id: row.total for row in tournament_standings(tournament=tournament).rows}


@transaction.atomic
def round_draw(
    *, tournament: Tournament, seed: int | None = None, method: str | None = None, user=None
) -> TournamentRound:
    """Draw the next round, or draw again the latest one if it has not started."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    latest = _latest_round(tournament)
    if latest is not None and latest.started_at is None:
        number = latest.number
        latest.tables.all().delete()
        rnd = latest
        if seed is None:
            seed = latest.seed + 1  # drawing again gives another draw
    else:
        if latest is not None and latest.number >= tournament.rounds_planned:
            raise _fail("draw", "rounds_done", count=tournament.rounds_planned)
        method_now = method or tournament.draw_method
        if latest is not None and method_now == DrawMethod.SWISS and latest.finished_at is None:
            raise _fail("draw", "round_unfinished", number=latest.number)
        number = 1 if latest is None else latest.number + 1
        rnd = TournamentRound(tournament=tournament, number=number)
        if seed is None:
            seed = tournament.seed * 100 + number
    method = method or tournament.draw_method
    if method not in DrawMethod.values:
        raise _fail("draw_method", "method_unknown", method=method)
    pure = tournament.ruleset.to_rules()
    players = playing_ids(tournament, number)
    past = _past_rounds(tournament, number)
    if method == DrawMethod.MIXING:
        result = _mixing_draw(
            tournament, number, players, past, seed, pure.players, redraw=rnd.pk is not None
        )
    else:
        standings = _standings_for_swiss(tournament) if method == DrawMethod.SWISS else None
        result = draw.make_draw(
            players,
            sizes_allowed=pure.players,
            history=past,
            method=method,
            seed=seed,
            standings=standings,
            preferred=tournament.table_size,
        )
    rnd.method, rnd.seed, rnd.sitouts = method, seed, list(result.sitouts)
    rnd.save()
    TournamentTable.objects.bulk_create(
        TournamentTable(round=rnd, number=i, seats=list(seats))
        for i, seats in enumerate(result.tables, start=1)
    )
    return rnd


def _mixing_draw(tournament, number, players, past, seed, sizes, *, redraw: bool) -> draw.Draw:
    """Round ``number`` of the whole-event plan: the stored plan while it still holds (same
    players, rounds played as planned), else the rounds not yet started are planned again.
    Drawing a round again always plans again (with the new seed)."""
    if not redraw:
        planned = draw.planned_round(
            tournament.draw_plan, number=number, players=players, past=past
        )
        if planned is not None:
            return planned
    rounds_left = max(1, tournament.rounds_planned - number + 1)
    plan = draw.plan_rounds(
        players,
        rounds=rounds_left,
        sizes_allowed=sizes,
        history=past,
        seed=seed,
        preferred=tournament.table_size,
    )
    tournament.draw_plan = draw.plan_to_json(plan, start=number, players=players)
    tournament.save(update_fields=["draw_plan"])
    return plan.rounds[0]


@transaction.atomic
def round_swap(*, rnd: TournamentRound, a: int, b: int) -> TournamentRound:
    """Staff exchange two players' seats (or a seated player and a sit-out) before the start."""
    rnd = TournamentRound.objects.select_for_update().get(pk=rnd.pk)
    if rnd.started_at is not None:
        raise _fail("swap", "round_started", number=rnd.number)
    a, b = int(a), int(b)
    if a == b:
        raise _fail("swap", "swap_same")
    tables = list(rnd.tables.order_by("number"))
    try:
        new_tables, new_sitouts = draw.generator.swap_players(
            [t.seats for t in tables], rnd.sitouts, a, b
        )
    except KeyError as missing:
        raise _fail("swap", "swap_unknown", value=str(missing.args[0])) from None
    for table, seats in zip(tables, new_tables, strict=True):
        if list(seats) != table.seats:
            table.seats = list(seats)
            table.save(update_fields=["seats"])
    rnd.sitouts = list(new_sitouts)
    rnd.save(update_fields=["sitouts"])
    return rnd


def table_label(table: TournamentTable) -> str:
    """Session table label: unique per club, game and day even with two events that day."""
    return f"E{table.round.tournament_id}-R{table.round.number}-T{table.number}"


@transaction.atomic
def round_start(*, rnd: TournamentRound, user=None) -> TournamentRound:
    """Freeze the seating: every table becomes a session; the timer starts if one is set."""
    rnd = (
        TournamentRound.objects.select_for_update()
        .select_related("tournament__club", "tournament__ruleset")
        .get(pk=rnd.pk)
    )
    if rnd.started_at is not None:
        raise _fail("start", "round_started", number=rnd.number)
    tournament = rnd.tournament
    previous = tournament.rounds.filter(number=rnd.number - 1).first()
    if previous is not None and previous.started_at is None:
        raise _fail("start", "round_unstarted", number=previous.number)
    for table in rnd.tables.select_related("round").order_by("number"):
        table.session = session_create(
            club=tournament.club,
            ruleset=tournament.ruleset,
            date=tournament.date,
            table=table_label(table),
            user=user,
            notes=tournament.name[:200],
        )
        table.save(update_fields=["session"])
    rnd.started_at = timezone.now()
    if tournament.minutes_per_round:
        rnd.timer_ends_at = rnd.started_at + datetime.timedelta(
            minutes=tournament.minutes_per_round
        )
        rnd.timer_left = None
    rnd.save()
    return rnd


def _fresh(rnd: TournamentRound) -> TournamentRound:
    return TournamentRound.objects.select_for_update().select_related("tournament").get(pk=rnd.pk)


@transaction.atomic
def round_finish(*, rnd: TournamentRound) -> TournamentRound:
    rnd = _fresh(rnd)
    if rnd.started_at is None:
        raise _fail("finish", "round_not_started", number=rnd.number)
    if rnd.finished_at is None:
        rnd.finished_at = timezone.now()
        if rnd.timer_ends_at is not None:
            rnd.timer_left = 0
            rnd.timer_ends_at = None
        rnd.save(update_fields=["finished_at", "timer_ends_at", "timer_left"])
    return rnd


# --- the round timer -------------------------------------------------------------------------


@transaction.atomic
def timer_start(*, rnd: TournamentRound, minutes: int | None = None) -> TournamentRound:
    """Run the clock: for ``minutes`` if given, else for what was left when it was stopped."""
    rnd = _fresh(rnd)
    now = timezone.now()
    if minutes is not None:
        try:
            seconds = int(Decimal(str(minutes)) * 60)
        except (InvalidOperation, ValueError):
            raise _fail("minutes", "timer_minutes") from None
        if seconds <= 0:
            raise _fail("minutes", "timer_minutes")
    elif rnd.timer_left is not None:
        seconds = rnd.timer_left
    elif rnd.tournament.minutes_per_round:
        seconds = rnd.tournament.minutes_per_round * 60
    else:
        raise _fail("minutes", "timer_minutes")
    rnd.timer_ends_at = now + datetime.timedelta(seconds=seconds)
    rnd.timer_left = None
    rnd.save(update_fields=["timer_ends_at", "timer_left"])
    return rnd


@transaction.atomic
def timer_stop(*, rnd: TournamentRound) -> TournamentRound:
    rnd = _fresh(rnd)
    if rnd.timer_ends_at is not None:
        left = (rnd.timer_ends_at - timezone.now()).total_seconds()
        rnd.timer_left = max(0, int(left))
        rnd.timer_ends_at = None
        rnd.save(update_fields=["timer_ends_at", "timer_left"])
    return rnd


# --- deals at a table and their confirmation -------------------------------------------------


def _check_table_players(table: TournamentTable, game: str, data: dict) -> None:
    key = "seats" if game == Game.NAPOLEON else "order"
    given = data.get(key) or []
    try:
        given_ids = sorted(int(p) for p in given)
    except (TypeError, ValueError):
        raise _fail(key, "seats_table") from None
    if given_ids != sorted(table.seats):
        raise _fail(key, "seats_table")


def table_deal_record(
    *,
    table: TournamentTable,
    data: dict,
    entry: TournamentEntry | None = None,
    user=None,
    staff: bool = False,
    submission_key: str | None = None,
) -> Deal:
    """Record a deal at a tournament table (by a seated PIN holder or by staff).

    The deal is an ordinary session deal; its ``DealConfirmation`` says whether it counts in
    the official standings yet (staff entries, and all entries when the tournament does not ask
    for confirmation, count at once)."""
    with transaction.atomic():
        table = TournamentTable.objects.select_related("round__tournament", "session").get(
            pk=table.pk
        )
        rnd = table.round
        if rnd.started_at is None or table.session is None:
            raise _fail("__all__", "round_not_started", number=rnd.number)
        if rnd.finished_at is not None:
            raise _fail("__all__", "round_finished", number=rnd.number)
        if not staff and (entry is None or entry.player_id not in table.seats):
            raise _fail("__all__", "not_at_table")
        _check_table_players(table, table.session.game, data)
        deal = deal_record(
            session=table.session, data=data, user=user, submission_key=submission_key
        )
        confirmed = staff or not rnd.tournament.require_confirmation
        DealConfirmation.objects.get_or_create(
            deal=deal,
            defaults={
                "table": table,
                "state": ConfirmationState.CONFIRMED if confirmed else ConfirmationState.PENDING,
                "recorded_by": None if staff else entry,
                "decided_by_user": _user(user) if staff else None,
            },
        )
    return deal


def _confirmation(deal: Deal) -> DealConfirmation:
    confirmation = (
        DealConfirmation.objects.select_for_update()
        .select_related("table")
        .filter(deal=deal)
        .first()
    )
    if confirmation is None:  # recorded through the club pages by a scorekeeper: counts
        table = TournamentTable.objects.get(session_id=deal.session_id)
        confirmation = DealConfirmation.objects.create(
            deal=deal, table=table, state=ConfirmationState.CONFIRMED
        )
    return confirmation


@transaction.atomic
def deal_confirm(
    *, deal: Deal, entry: TournamentEntry | None = None, user=None, staff: bool = False
) -> DealConfirmation:
    """A second player of the table (not the one who recorded it) or staff confirm a deal.
    Staff may also settle a disputed deal this way."""
    c = _confirmation(deal)
    if not staff:
        if entry is None or entry.player_id not in c.table.seats:
            raise _fail("__all__", "not_at_table")
        if c.recorded_by_id == entry.pk:
            raise _fail("__all__", "confirm_own")
        if c.state != ConfirmationState.PENDING:
            raise _fail("__all__", "not_confirmable", state=c.get_state_display())
    c.state = ConfirmationState.CONFIRMED
    c.decided_by = None if staff else entry
    c.decided_by_user = _user(user) if staff else None
    c.save()
    return c


@transaction.atomic
def deal_dispute(
    *,
    deal: Deal,
    entry: TournamentEntry | None = None,
    user=None,
    staff: bool = False,
    note: str = "",
) -> DealConfirmation:
    """Flag a deal to the staff: it stops counting until staff confirm it (or delete it)."""
    c = _confirmation(deal)
    if not staff and (entry is None or entry.player_id not in c.table.seats):
        raise _fail("__all__", "not_at_table")
    c.state = ConfirmationState.DISPUTED
    c.decided_by = None if staff else entry
    c.decided_by_user = _user(user) if staff else None
    c.note = " ".join((note or "").split())[:200]
    c.save()
    return c


# --- penalties and adjustments ---------------------------------------------------------------


@transaction.atomic
def adjustment_add(
    *, entry: TournamentEntry, points, reason: str, round_number: int | None = None, user=None
) -> Adjustment:
    try:
        value = Decimal(str(points).strip().replace("−", "-"))
    except (InvalidOperation, ValueError):
        raise _fail("points", "points_invalid") from None
    if not value.is_finite() or value == 0 or abs(value) >= Decimal("100000"):
        raise _fail("points", "points_invalid")
    reason = " ".join((reason or "").split())
    if not reason:
        raise _fail("reason", "reason_empty")
    return Adjustment.objects.create(
        tournament=entry.tournament,
        entry=entry,
        round_number=round_number,
        points=value.quantize(Decimal("0.1")),
        reason=reason[:200],
        created_by=_user(user),
    )


def adjustment_delete(*, adjustment: Adjustment) -> Adjustment:
    adjustment.is_deleted = True
    adjustment.save(update_fields=["is_deleted"])
    return adjustment
