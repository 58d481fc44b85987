"""Changes of plan during the evening, in its own words: "X replaces Y", "X leaves after this
round", "X arrives now".

Each changes exactly what it says: the one table where a seat changes hands, the round a
leaver or a late arrival is (or is not) in. No other table moves; drawing a round again is the
organiser's own step (``round_draw``). Each returns a ``PlanChange``: what changed, as
sentences with names (never ids), which the staff page shows.

Points of a seat that changes hands during a round stay with whoever played each deal (score
lines are per player); the round's rank points and table win are shared as
``selectors.events.tournament_standings`` says (docs/tournaments.md, "Changes of plan").
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction

from core.i18n import N_
from core.messages import Message

from ...models import Tournament, TournamentEntry, TournamentRound, TournamentTable
from ...selectors import events as sel
from ...selectors.rulesets import ruleset_rules
from ..cache import club_version_bump
from ..errors import make_fail
from ..players import player_get_or_create

MESSAGES = {
    "change_no_round": N_("No round is drawn or being played, so there is no seat to hand over."),
    "change_not_seated": N_("%(name)s has no seat in round %(number)s to hand over."),
    "change_sits_out": N_("%(name)s sits out round %(number)s: there is no seat to hand over."),
    "change_same": N_("Choose someone other than %(name)s to take the seat."),
    "change_seated": N_("%(name)s already plays at table %(table)s of round %(number)s."),
    "change_left": N_("%(name)s has already left the tournament (from round %(number)s on)."),
    "change_table_size": N_(
        "%(name)s is seated at table %(table)s of round %(number)s, which cannot be played by "
        "%(count)s under this rule set. First say who takes the seat (“… replaces %(name)s”: "
        "a sit-out or a late arrival), or draw round %(number)s again."
    ),
    "change_finished": N_("The tournament is finished."),
}

_fail = make_fail(MESSAGES)

# What a change says it did (shown to the staff as it happened).
SAID = {
    "took_seat": N_(
        "%(new)s takes %(old)s's seat at table %(table)s (seat %(seat)s) of round %(number)s."
    ),  # fmt: skip
    "old_sits_out": N_("%(old)s sits out round %(number)s in %(new)s's place."),
    "old_not_playing": N_("%(old)s does not play round %(number)s."),
    "from_deal": N_(
        "From deal no. %(seq)s on, %(new)s plays %(old)s's seat at table %(table)s (seat "
        "%(seat)s) of round %(number)s. %(old)s keeps the points of the deals before it; "
        "%(new)s scores from it."
    ),
    "from_first_deal": N_(
        "%(new)s plays %(old)s's seat at table %(table)s (seat %(seat)s) of round %(number)s "
        "from its first deal; %(old)s does not play round %(number)s."
    ),
    "entered": N_("%(name)s is entered in the tournament."),
    "checked_in": N_("%(name)s is checked in."),
    "back": N_("%(name)s is back in the tournament."),
    "plays_to_end": N_(
        "%(name)s plays to the end of round %(number)s and is not drawn from round %(next)s on."
    ),
    "not_drawn_from": N_("%(name)s is not drawn from round %(number)s on."),
    "no_longer_sits_out": N_("%(name)s no longer sits out round %(number)s."),
    "table_plays_with": N_("Table %(table)s of round %(number)s now plays with %(names)s."),
    "arrive_drawn": N_(
        "Round %(number)s is already drawn: %(name)s sits it out, unless %(name)s takes a seat "
        "(“%(name)s replaces …” or a swap) or round %(number)s is drawn again."
    ),
    "arrive_playing": N_(
        "Round %(number)s is being played: %(name)s is drawn from round %(next)s on."
    ),
    "arrive_next": N_("%(name)s is drawn in round %(number)s."),
    "checked_out_seated": N_(
        "%(name)s is no longer checked in but keeps the seat at table %(table)s of round "
        "%(number)s, which is drawn: say that %(name)s leaves, or who replaces %(name)s."
    ),
    "no_other_table": N_("No other table changes."),
}


@dataclass
class PlanChange:
    """What a change of plan did, in sentences (msgid + params with names)."""

    lines: list[Message] = field(default_factory=list)

    def say(self, key: str, **params) -> None:
        self.lines.append(Message(SAID[key], {k: v for k, v in params.items()}))


def _locked_round(rnd: TournamentRound) -> TournamentRound:
    return TournamentRound.objects.select_for_update().get(pk=rnd.pk)


def _place(rnd: TournamentRound, player_id: int):
    """(table, seat index) of a player's seat in ``rnd``, or (None, None)."""
    for table in rnd.tables.order_by("number"):
        if player_id in table.seats:
            return table, table.seats.index(player_id)
    return None, None


def _played_at(rnd: TournamentRound, player_id: int) -> TournamentTable | None:
    """The table where the player holds or held a seat in ``rnd``."""
    for table in rnd.tables.order_by("number"):
        if player_id in sel.table_players(table):
            return table
    return None


def _name(entry: TournamentEntry) -> str:
    return entry.player.name


def _arrival(entry: TournamentEntry, change: PlanChange) -> None:
    """A checked-in player who was not drawn: sits out a drawn round (its tables unchanged),
    is drawn from the next round otherwise."""
    tournament = entry.tournament
    state = sel.tournament_state(tournament)
    name = _name(entry)
    if state.finished:
        return
    drawn = state.drawn
    if drawn is not None:
        rnd = _locked_round(drawn)
        table, _seat = _place(rnd, entry.player_id)
        if table is None and entry.player_id not in rnd.sitouts:
            rnd.sitouts = [*rnd.sitouts, entry.player_id]
            rnd.save(update_fields=["sitouts"])
        if table is None:
            change.say("arrive_drawn", name=name, number=rnd.number)
            change.say("no_other_table")
        return
    playing = state.playing
    if playing is not None:
        if _played_at(playing, entry.player_id) is None:
            change.say("arrive_playing", name=name, number=playing.number, next=playing.number + 1)
        return
    latest = state.latest
    change.say("arrive_next", name=name, number=(latest.number + 1) if latest else 1)


def entry_arrived(*, entry: TournamentEntry, entered: bool = False) -> PlanChange:
    """What checking a player in does to the rounds (called by ``entry_add`` and
    ``entry_check_in``; the caller holds the transaction)."""
    change = PlanChange()
    change.say("entered" if entered else "checked_in", name=_name(entry))
    _arrival(entry, change)
    return change


def checked_out(*, entry: TournamentEntry) -> PlanChange:
    """Checking a player out changes no drawn table; it says so when the player has a seat."""
    change = PlanChange()
    drawn = sel.tournament_state(entry.tournament).drawn
    if drawn is not None:
        table, _seat = _place(drawn, entry.player_id)
        if table is not None:
            change.say("checked_out_seated", name=_name(entry), table=table.number,
                       number=drawn.number)  # fmt: skip
    return change


def _take_out(rnd: TournamentRound, entry: TournamentEntry, change: PlanChange) -> None:
    """Remove a leaver from a drawn round: from its sit-outs, or from their seat when the
    table may be played one short under the rule set; otherwise refuse with the way on."""
    rnd = _locked_round(rnd)
    name = _name(entry)
    if entry.player_id in rnd.sitouts:
        rnd.sitouts = [p for p in rnd.sitouts if p != entry.player_id]
        rnd.save(update_fields=["sitouts"])
        change.say("no_longer_sits_out", name=name, number=rnd.number)
        return
    table, index = _place(rnd, entry.player_id)
    if table is None:
        return
    allowed = ruleset_rules(rnd.tournament.ruleset).players
    if len(table.seats) - 1 not in allowed:
        raise _fail("entry", "change_table_size", name=name, table=table.number,
                    number=rnd.number, count=len(table.seats) - 1)  # fmt: skip
    table.seats = [p for p in table.seats if p != entry.player_id]
    table._change_reason = f"left: {name}"
    table.save(update_fields=["seats"])
    names = sel.names_of(rnd.tournament)
    change.say("table_plays_with", table=table.number, number=rnd.number,
               names=", ".join(names.get(p, "?") for p in table.seats))  # fmt: skip
    change.say("no_other_table")


@transaction.atomic
def entry_leave(*, entry: TournamentEntry, user=None) -> PlanChange:
    """“X leaves after this round”: X plays the round being played to its end and is not drawn
    after it; a round already drawn loses X (their sit-out, or their seat when the table can be
    played one short), and no other table changes."""
    entry = (
        TournamentEntry.objects.select_for_update()
        .select_related("player", "tournament__ruleset")
        .get(pk=entry.pk)
    )
    name = _name(entry)
    if entry.dropped_at_round is not None:
        raise _fail("entry", "change_left", name=name, number=entry.dropped_at_round)
    club_version_bump(club_id=entry.tournament.club_id)
    state = sel.tournament_state(entry.tournament)
    change = PlanChange()
    playing, drawn, latest = state.playing, state.drawn, state.latest
    if drawn is not None:
        first_out = drawn.number
    elif playing is not None:
        first_out = playing.number + 1
    else:
        first_out = (latest.number + 1) if latest is not None else 1
    if playing is not None and _played_at(playing, entry.player_id) is not None:
        change.say("plays_to_end", name=name, number=playing.number, next=playing.number + 1)
    else:
        change.say("not_drawn_from", name=name, number=first_out)
    if drawn is not None:
        _take_out(drawn, entry, change)
    entry.dropped_at_round = first_out
    entry.checked_in = False
    entry._change_reason = f"leaves: not drawn from round {first_out}"
    entry.save(update_fields=["dropped_at_round", "checked_in"])
    return change


def _substitute_entry(tournament: Tournament, name: str, change: PlanChange) -> TournamentEntry:
    player = player_get_or_create(club=tournament.club, name=name, field="substitute")
    entry, created = TournamentEntry.objects.select_for_update().get_or_create(
        tournament=tournament, player=player, defaults={"checked_in": True}
    )
    entry.player = player
    if created:
        change.say("entered", name=player.name)
        return entry
    fields = []
    if entry.dropped_at_round is not None:
        entry.dropped_at_round = None
        fields.append("dropped_at_round")
        change.say("back", name=player.name)
    if not entry.checked_in:
        entry.checked_in = True
        fields.append("checked_in")
        change.say("checked_in", name=player.name)
    if fields:
        entry.save(update_fields=fields)
    return entry


def _round_replaced(state, replaced: TournamentEntry, old: str) -> TournamentRound:
    """The round being played, or drawn and not started, where the one replaced has a seat."""
    rounds = [r for r in (state.playing, state.drawn) if r is not None]
    if not rounds:
        raise _fail("replaced", "change_no_round")
    rnd = next((r for r in rounds if _place(r, replaced.player_id)[0] is not None), None)
    if rnd is None:
        rnd = rounds[0]
        code = "change_sits_out" if replaced.player_id in rnd.sitouts else "change_not_seated"
        raise _fail("replaced", code, name=old, number=rnd.number)
    return _locked_round(rnd)


def _seat_handed_over(rnd, table, index: int, replaced, new_entry, leaves: bool, words: dict,
                      change: PlanChange) -> bool:  # fmt: skip
    """The seat's new holder: before the start the seat changes hands (a sit-out who takes it
    leaves the one replaced sitting out instead, unless they leave); during the round from the
    table's next deal. True when deals were played at the table before the change."""
    was_sitout = new_entry.player_id in rnd.sitouts
    if rnd.started_at is None:
        if was_sitout:  # the sit-out's place goes to the one replaced, unless they leave
            sitouts = [p for p in rnd.sitouts if not (leaves and p == new_entry.player_id)]
            rnd.sitouts = [replaced.player_id if p == new_entry.player_id else p for p in sitouts]
            rnd.save(update_fields=["sitouts"])
        change.say("took_seat", **words)
        change.say("old_sits_out" if was_sitout and not leaves else "old_not_playing", **words)
        return False
    seq = sel.next_seq(table)
    played = seq > 1
    table.replacements = [
        *(table.replacements or []),
        {"seat": index + 1, "out": replaced.player_id, "in": new_entry.player_id,
         "from_seq": seq},
    ]  # fmt: skip
    if was_sitout:
        rnd.sitouts = [p for p in rnd.sitouts if p != new_entry.player_id]
        rnd.save(update_fields=["sitouts"])
    change.say("from_deal" if played else "from_first_deal", seq=seq, **words)
    return played


def _replaced_leaves(state, rnd, replaced, new: str, played: bool, change: PlanChange) -> None:
    """The one replaced also leaves: not drawn after this round (or from it, when they played
    no deal of it), and out of a later round already drawn."""
    old = _name(replaced)
    first_out = rnd.number + 1 if played else rnd.number
    if replaced.dropped_at_round is not None:
        return
    later = state.drawn if state.drawn is not None and state.drawn.pk != rnd.pk else None
    if later is not None:
        _take_out(later, replaced, change)
    replaced.dropped_at_round = first_out
    replaced.checked_in = False
    replaced._change_reason = f"replaced by {new} and left"
    replaced.save(update_fields=["dropped_at_round", "checked_in"])
    change.say("not_drawn_from", name=old, number=first_out)


@transaction.atomic
def entry_replace(
    *, tournament: Tournament, replaced: TournamentEntry, substitute: str, leaves: bool = False,
    user=None,
) -> PlanChange:  # fmt: skip
    """“X replaces Y”: the substitute (a name: an entry, a club player or someone new, who is
    then entered and checked in) takes Y's seat in the round being played, or in the round
    drawn and not started. Before the start the seat simply changes hands (a sit-out who takes
    it leaves Y sitting out in their place); during the round the substitute plays from the
    table's next deal on and each keeps the points of the deals they played. ``leaves``: Y also
    leaves the tournament (not drawn after this round). No other table changes."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.finished_at is not None:
        raise _fail("replaced", "change_finished")
    replaced = TournamentEntry.objects.select_related("player").get(pk=replaced.pk)
    old = _name(replaced)
    state = sel.tournament_state(tournament)
    rnd = _round_replaced(state, replaced, old)
    club_version_bump(club_id=tournament.club_id)
    change = PlanChange()
    new_entry = _substitute_entry(tournament, substitute, change)
    new = _name(new_entry)
    if new_entry.pk == replaced.pk:
        raise _fail("substitute", "change_same", name=old)
    elsewhere = _played_at(rnd, new_entry.player_id)
    if elsewhere is not None:
        raise _fail("substitute", "change_seated", name=new, table=elsewhere.number,
                    number=rnd.number)  # fmt: skip
    table, index = _place(rnd, replaced.player_id)
    table = TournamentTable.objects.select_for_update().get(pk=table.pk)
    seats = list(table.seats)
    seats[index] = new_entry.player_id
    table.seats = seats
    words = {"new": new, "old": old, "table": table.number, "seat": index + 1,
             "number": rnd.number}  # fmt: skip
    played = _seat_handed_over(rnd, table, index, replaced, new_entry, leaves, words, change)
    table._change_reason = f"seat {index + 1}: {old} replaced by {new}"
    table.save(update_fields=["seats", "replacements"])
    change.say("no_other_table")
    if leaves:
        _replaced_leaves(state, rnd, replaced, new, played, change)
    return change
