"""Deals at a tournament table and their confirmation or dispute."""

from __future__ import annotations

from django.db import transaction

from ...deal_data import reason_code
from ...models import (
    ConfirmationState,
    Deal,
    DealConfirmation,
    TournamentEntry,
    TournamentTable,
)
from ..cache import club_version_bump
from ..deals import deal_delete, deal_record, deal_recorded, deal_restore, deal_update
from .common import _fail, _user

# --- deals at a table and their confirmation -------------------------------------------------


def table_deal_record(
    *,
    table: TournamentTable,
    data: dict,
    entry: TournamentEntry | None = None,
    user=None,
    staff: bool = False,
    client_id=None,
    made_at=None,
) -> Deal:
    """Record a deal at a tournament table (by a seated PIN holder or by staff).

    The deal is an ordinary session deal; its ``DealConfirmation`` says whether it counts in
    the official standings yet (staff entries, and all entries when the tournament does not ask
    for confirmation, count at once). A repeated ``client_id`` returns the deal already recorded
    (marked ``already_recorded``), even once the round has finished.

    After the round was finished only the staff record at its tables, until the tournament is
    finished: such a deal is late (marked, with who allowed it and ``made_at``, when the phone
    made it) and counts at once; a player's is refused (``round_finished_late``)."""
    with transaction.atomic():
        table = TournamentTable.objects.select_related("round__tournament", "session").get(
            pk=table.pk
        )
        rnd = table.round
        if not staff and (entry is None or entry.player_id not in table.seats):
            raise _fail("__all__", "not_at_table")
        if table.session is not None:
            existing = deal_recorded(session=table.session, client_id=client_id)
            if existing is not None:
                return existing
        if rnd.started_at is None or table.session is None:
            raise _fail("__all__", "round_not_started", number=rnd.number)
        late = rnd.finished_at is not None
        if late and not staff:
            raise _fail("__all__", "round_finished_late", number=rnd.number)
        if late and rnd.tournament.finished_at is not None:
            raise _fail("__all__", "late_tournament_finished", number=rnd.number)
        deal = deal_record(
            session=table.session, data=data, user=user, client_id=client_id, late=late
        )
        if deal.already_recorded:  # recorded before: its confirmation may be written now
            club_version_bump(club_id=deal.club_id)
        elif late:
            _history_says_late(deal, rnd.number, user)
        confirmed = staff or not rnd.tournament.require_confirmation
        DealConfirmation.objects.get_or_create(
            deal=deal,
            defaults={
                "table": table,
                "state": ConfirmationState.CONFIRMED if confirmed else ConfirmationState.PENDING,
                "recorded_by": entry if (entry is not None and not staff) or late else None,
                "decided_by_user": _user(user) if staff else None,
                "late": late,
                "late_allowed_by": _user(user) if late else None,
                "made_at": made_at,
            },
        )
    return deal


def _history_says_late(deal: Deal, number: int, user) -> None:
    """The deal's history: recorded late (``late:<round>``), by the staff member who counted it."""
    deal.history.filter(history_type="+").update(
        history_change_reason=reason_code("late", number), history_user=_user(user)
    )


def _confirmation(deal: Deal) -> DealConfirmation:
    confirmation = (
        DealConfirmation.objects.select_for_update(of=("self",))
        .select_related("table__round__tournament", "deal")
        .filter(deal=deal)
        .first()
    )
    if confirmation is None:  # recorded through the club pages by a scorekeeper: counts
        table = TournamentTable.objects.get(session_id=deal.session_id)
        club_version_bump(club_id=deal.club_id)
        confirmation = DealConfirmation.objects.create(
            deal=deal, table=table, state=ConfirmationState.CONFIRMED
        )
    return confirmation


def _player_may_decide(c: DealConfirmation, entry: TournamentEntry | None) -> None:
    """A player decides only a waiting deal of their own table while its round runs; a
    confirmed deal, a deal recorded by staff and every deal of a finished round are the
    staff's to change (with history, through the same services)."""
    if entry is None or entry.player_id not in c.table.seats:
        raise _fail("__all__", "not_at_table")
    if c.table.round.finished_at is not None:
        raise _fail("__all__", "round_finished", number=c.table.round.number)
    if c.state != ConfirmationState.PENDING:
        raise _fail("__all__", "not_confirmable", state=c.get_state_display())


@transaction.atomic
def deal_confirm(
    *, deal: Deal, entry: TournamentEntry | None = None, user=None, staff: bool = False
) -> DealConfirmation:
    """A second player of the table (not the one who recorded it) or staff confirm a deal.
    Staff may also settle a disputed deal this way."""
    c = _confirmation(deal)
    if not staff:
        _player_may_decide(c, entry)
        if c.recorded_by_id == entry.pk:
            raise _fail("__all__", "confirm_own")
    club_version_bump(club_id=c.deal.club_id)
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
    note = " ".join((note or "").split())[:200]
    if not staff:
        _player_may_decide(c, entry)
        if not note:
            raise _fail("note", "dispute_note")
    club_version_bump(club_id=c.deal.club_id)
    c.state = ConfirmationState.DISPUTED
    c.decided_by = None if staff else entry
    c.decided_by_user = _user(user) if staff else None
    c.note = note
    c.save()
    return c


@transaction.atomic
def table_deal_correct(
    *,
    deal: Deal,
    data: dict,
    version,
    entry: TournamentEntry | None = None,
    user=None,
    staff: bool = False,
) -> Deal:
    """Correct a deal on its table: re-scored by ``services.deals.deal_update`` (history, the
    club's totals, the tournament standings), with the table's players for that deal only.

    Staff correct any deal of the tournament, at any time, and it counts at once. A player of
    the table corrects a deal waiting for confirmation or disputed, while the round runs, at a
    tournament that asks for confirmation; the corrected deal then waits for another player of
    the table to confirm it (the corrector cannot). Where deals count as soon as recorded,
    players ask the staff."""
    c = _confirmation(deal)
    label = f"R{c.table.round.number}-T{c.table.number}"
    if not staff:
        _player_may_decide_correction(c, entry)
        reason = f"corrected at table {label} by a player ({entry.player.name})"
    else:
        reason = f"corrected at table {label} by the staff"
    deal = deal_update(deal=deal, data=data, version=version, user=user, reason=reason)
    if staff:
        c.state = ConfirmationState.CONFIRMED
        c.decided_by = None
        c.decided_by_user = _user(user)
    else:
        c.state = ConfirmationState.PENDING
        c.recorded_by = entry
        c.decided_by = None
        c.decided_by_user = None
    c._change_reason = reason
    c.save()
    return deal


def _player_may_decide_correction(c: DealConfirmation, entry: TournamentEntry | None) -> None:
    tournament = c.table.round.tournament
    if entry is None or entry.player_id not in c.table.seats:
        raise _fail("__all__", "not_at_table")
    if not tournament.require_confirmation:
        raise _fail("__all__", "correct_staff_only")
    if c.table.round.finished_at is not None:
        raise _fail("__all__", "round_finished", number=c.table.round.number)
    if c.state == ConfirmationState.CONFIRMED:
        raise _fail("__all__", "correct_counted", seq=c.deal.seq, state=c.get_state_display())


@transaction.atomic
def table_deal_drop(*, deal: Deal, user=None) -> Deal:
    """Staff take a deal out of the tournament and the club's totals (kept in its history;
    ``table_deal_restore`` brings it back)."""
    _confirmation(deal)
    return deal_delete(deal=deal, user=user)


@transaction.atomic
def table_deal_restore(*, deal: Deal, user=None) -> Deal:
    _confirmation(deal)
    return deal_restore(deal=deal, user=user)
