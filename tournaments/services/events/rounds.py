"""Rounds: the draw (the whole-event plan for mixing), swaps, start and finish."""

from __future__ import annotations

import datetime

from django.db import transaction
from django.utils import timezone

from ... import draw
from ...models import (
    ConfirmationState,
    Deal,
    DrawMethod,
    Player,
    Tournament,
    TournamentRound,
    TournamentTable,
)
from ...selectors.events import tournament_standings
from ...selectors.rulesets import ruleset_rules
from ..cache import club_version_bump
from ..sessions import session_create
from ..webhooks import ROUND_DRAWN, ROUND_FINISHED, webhooks_round_changed
from .common import _fail, _user
from .table_deals import deal_confirm, deal_dispute, table_deal_drop

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
    return {row.player_id: row.total for row in tournament_standings(tournament=tournament).rows}


@transaction.atomic
def round_draw(
    *, tournament: Tournament, seed: int | None = None, method: str | None = None, user=None
) -> TournamentRound:
    """Draw the next round, or draw again the latest one if it has not started."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.finished_at is not None:
        raise _fail("draw", "tournament_finished")
    club_version_bump(club_id=tournament.club_id)
    if tournament.checkin_open:  # drawing a round closes self check-in (checkin.py)
        tournament.checkin_open = False
        tournament.save(update_fields=["checkin_open"])
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
    pure = ruleset_rules(tournament.ruleset)
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
    webhooks_round_changed(rnd=rnd, event=ROUND_DRAWN)
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
        raise _fail("swap", "swap_started", number=rnd.number)
    a, b = int(a), int(b)
    if a == b:
        raise _fail("swap", "swap_same")
    club_version_bump(club_id=rnd.tournament.club_id)
    tables = list(rnd.tables.order_by("number"))
    try:
        new_tables, new_sitouts = draw.generator.swap_players(
            [t.seats for t in tables], rnd.sitouts, a, b
        )
    except KeyError as missing:
        player = Player.objects.filter(pk=missing.args[0]).first()
        name = player.name if player is not None else "?"
        raise _fail("swap", "swap_unknown", value=name, number=rnd.number) from None
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
    club_version_bump(club_id=tournament.club_id)
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


FINISH_DECISIONS = ("confirm", "dispute", "drop")


@transaction.atomic
def round_finish(
    *,
    rnd: TournamentRound,
    decisions: dict | None = None,
    notes: dict | None = None,
    last: bool = False,
    user=None,
) -> TournamentRound:
    """Finish a round: no more deals at its tables. Every deal still waiting for confirmation
    needs a decision first (``decisions``: deal id → "confirm", "dispute" or "drop"; ``notes``:
    deal id → what is wrong, for those left disputed), so none is left silently uncounted; a
    disputed deal may stay disputed (staff settle it later, on its table).
    Finishing the last planned round, or any round with ``last``, finishes the tournament."""
    rnd = _fresh(rnd)
    if rnd.started_at is None:
        raise _fail("finish", "round_not_started", number=rnd.number)
    if rnd.finished_at is None:
        decisions = {int(k): v for k, v in (decisions or {}).items()}
        waiting = list(
            Deal.objects.filter(
                confirmation__table__round=rnd,
                confirmation__state=ConfirmationState.PENDING,
                is_deleted=False,
            ).order_by("session_id", "seq")
        )
        undecided = [d for d in waiting if d.pk not in decisions]
        if undecided:
            raise _fail("finish", "round_waiting", count=len(undecided), number=rnd.number)
        club_version_bump(club_id=rnd.tournament.club_id)
        for deal in waiting:
            choice = decisions[deal.pk]
            if choice == "confirm":
                deal_confirm(deal=deal, user=user, staff=True)
            elif choice == "dispute":
                note = (notes or {}).get(deal.pk) or (notes or {}).get(str(deal.pk)) or ""
                deal_dispute(deal=deal, user=user, staff=True, note=note)
            elif choice == "drop":
                table_deal_drop(deal=deal, user=user)
            else:
                raise _fail("finish", "finish_choice", value=str(choice)[:20])
        rnd.finished_at = timezone.now()
        if rnd.timer_ends_at is not None:
            rnd.timer_left = 0
            rnd.timer_ends_at = None
        rnd._history_user = _user(user)
        rnd.save(update_fields=["finished_at", "timer_ends_at", "timer_left"])
        webhooks_round_changed(rnd=rnd, event=ROUND_FINISHED)
    tournament = Tournament.objects.select_for_update().get(pk=rnd.tournament_id)
    if tournament.finished_at is None and (last or rnd.number >= tournament.rounds_planned):
        tournament_finish(tournament=tournament, user=user)
    return rnd


@transaction.atomic
def tournament_finish(*, tournament: Tournament, user=None) -> Tournament:
    """The tournament's finished state: its results are final (corrections by the staff still
    re-count them), no round is drawn after it. A round drawn and not started is dropped."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.finished_at is not None:
        return tournament
    latest = _latest_round(tournament)
    if latest is not None and latest.started_at is not None and latest.finished_at is None:
        raise _fail("finish", "round_unfinished_end", number=latest.number)
    club_version_bump(club_id=tournament.club_id)
    if latest is not None and latest.started_at is None:
        latest.delete()
    tournament.finished_at = timezone.now()
    tournament._history_user = _user(user)
    tournament._change_reason = "tournament finished"
    tournament.save(update_fields=["finished_at"])
    return tournament
