"""Tournaments and their entries: creation, entering players, check-in, drop-outs."""

from __future__ import annotations

import datetime
import secrets

from django.db import IntegrityError, transaction
from django.utils import timezone

from ...models import (
    CheckInHow,
    Club,
    ClubRuleSet,
    DrawMethod,
    StandingsMode,
    Tournament,
    TournamentEntry,
)
from ...selectors.entries import entry_kept_because
from ...selectors.rulesets import ruleset_rules
from ..cache import club_hiding_refresh, club_version_bump
from ..names import clean_name
from ..players import player_get_or_create
from .changes import PlanChange, checked_out, entry_arrived
from .common import MAX_ROUNDS, _fail, _user
from .registration import waiting_move_up

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
    name = clean_name(name, field="name")
    if not name:
        raise _fail("name", "name_empty")
    if ruleset.club_id != club.pk:
        raise _fail("ruleset", "ruleset_club")
    pure = ruleset_rules(ruleset)
    if not 1 <= int(rounds_planned or 0) <= MAX_ROUNDS:
        raise _fail("rounds_planned", "rounds_range", max=MAX_ROUNDS)
    if draw_method not in DrawMethod.values:
        raise _fail("draw_method", "method_unknown", method=draw_method)
    if standings_mode not in StandingsMode.values:
        raise _fail("standings_mode", "mode_unknown", mode=standings_mode)
    if table_size and table_size not in pure.players:
        raise _fail("table_size", "table_size", size=table_size)
    club_version_bump(club_id=club.pk)
    tournament = Tournament.objects.create(
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
    club_hiding_refresh(club_id=club.pk)  # a private one hides its entrants from visitors
    return tournament


@transaction.atomic
def entry_add(*, tournament: Tournament, name: str, checked_in: bool = False) -> TournamentEntry:
    """Enter a player (a club player by name; a new name becomes a new club player). Checked
    in once rounds are under way, this is “X arrives now” (``changes.entry_arrived``): a round
    already drawn keeps its tables and X sits it out; ``entry.change`` says what happened."""
    player = player_get_or_create(club=tournament.club, name=name, field="name")
    club_version_bump(club_id=tournament.club_id)
    try:
        with transaction.atomic():
            entry = TournamentEntry.objects.create(
                tournament=tournament, player=player, checked_in=checked_in,
                checked_in_at=timezone.now() if checked_in else None,
                checked_in_how=CheckInHow.STAFF if checked_in else "",
            )  # fmt: skip
    except IntegrityError:
        raise _fail("name", "entry_exists", name=player.name) from None
    entry.change = entry_arrived(entry=entry, entered=True) if checked_in else PlanChange()
    if not checked_in:
        entry.change.say("entered", name=player.name)
    return entry


@transaction.atomic
def entry_check_in(
    *,
    entry: TournamentEntry,
    checked_in: bool = True,
    user=None,
    how: str = CheckInHow.STAFF,
    now=None,
) -> TournamentEntry:
    """Check a player in (“X arrives now”: see ``entry_add``) or out (no drawn table changes;
    ``entry.change`` says so when the player holds a seat). Who did it, how (the desk code or
    the staff) and when are kept; the staff checking in someone on the waiting list gives
    them a place."""  # fmt: skip
    if entry.dropped_at_round is not None and checked_in:
        raise _fail("entry", "entry_dropped", name=entry.player.name)
    was = entry.checked_in
    club_version_bump(club_id=entry.tournament.club_id)
    entry.checked_in = checked_in
    entry.checked_in_at = (now or timezone.now()) if checked_in else None
    entry.checked_in_how = how if checked_in else ""
    entry.checked_in_by = _user(user)
    entry.waiting = entry.waiting and not checked_in
    entry._history_user = _user(user)
    entry.save(
        update_fields=[
            "checked_in", "checked_in_at", "checked_in_how", "checked_in_by", "waiting",
        ]
    )  # fmt: skip
    if checked_in:
        entry.change = entry_arrived(entry=entry) if not was else PlanChange()
    else:
        entry.change = checked_out(entry=entry)
    return entry


@transaction.atomic
def entry_remove(*, entry: TournamentEntry, user=None) -> str:
    """Take an entry out of its tournament, as if never entered (entered by mistake, or a
    typo of a player to be merged): only while nothing of the tournament depends on it
    (``entry_kept_because``); otherwise refused, saying why. The tournament row is locked
    first, as a draw locks it, so no draw seats the player meanwhile. Returns the name."""
    Tournament.objects.select_for_update().only("pk").get(pk=entry.tournament_id)
    entry = (
        TournamentEntry.objects.select_for_update(of=("self",))
        .select_related("player", "tournament")
        .get(pk=entry.pk)
    )
    name = entry.player.name
    code = entry_kept_because(entry)
    if code is not None:
        raise _fail("entry", code, name=name)
    entry._change_reason = "taken out"
    entry._history_user = _user(user)
    entry.delete()
    club_version_bump(club_id=entry.tournament.club_id)
    waiting_move_up(tournament=entry.tournament)
    return name


@transaction.atomic
def entry_undrop(*, entry: TournamentEntry) -> TournamentEntry:
    club_version_bump(club_id=entry.tournament.club_id)
    entry.dropped_at_round = None
    entry.save(update_fields=["dropped_at_round"])
    return entry
