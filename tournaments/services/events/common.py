"""Messages and small helpers shared by the tournament services."""

from __future__ import annotations

import datetime

from core.i18n import N_

from ..errors import make_fail
from ..table_check import MESSAGES as TABLE_CHECK_MESSAGES

PIN_DIGITS = 6
PIN_FAILURES_ALLOWED = 10  # bare PINs (no player chosen) per address …
PIN_FAILURES_PER_ENTRY = 5  # PINs for one chosen player per address …
PIN_FAILURE_WINDOW = datetime.timedelta(minutes=15)  # … within this window

# The table check's own (round not started or finished, seats, deals done) first.
MESSAGES = {
    **TABLE_CHECK_MESSAGES,
    "name_empty": N_("A tournament needs a name."),
    "rounds_range": N_("A tournament has between 1 and %(max)s rounds."),
    "method_unknown": N_("“%(method)s” is not a seating method."),
    "mode_unknown": N_("“%(mode)s” is not a standings option."),
    "table_size": N_("%(size)s-player tables are not allowed by this rule set."),
    "ruleset_club": N_("That rule set belongs to another club."),
    "entry_exists": N_("%(name)s is already entered."),
    "entry_dropped": N_("%(name)s has dropped out."),
    # Taking an entry out (selectors/entries.py: entry_kept_because).
    "entry_finished": N_("The tournament is finished: its entries stay."),
    "entry_adjusted": N_(
        "%(name)s has a penalty or adjustment in this tournament: delete it first, then take "
        "the entry out."
    ),
    "entry_played": N_(
        "%(name)s has had a seat or a sit-out in a round of this tournament, so the entry "
        "stays: “Leaves after this round” keeps them out of the later rounds."
    ),
    "round_started": N_("Round %(number)s has started; its seating can no longer change."),
    "round_unfinished": N_("Finish round %(number)s before drawing the next one."),
    "round_unstarted": N_("Start round %(number)s before drawing the next one."),
    "rounds_done": N_("Every round has been drawn (%(count)s)."),
    "no_round": N_("No round has been drawn yet."),
    "swap_unknown": N_(
        "%(value)s is not in round %(number)s's draw (neither seated nor sitting out): "
        "“%(value)s replaces …” gives them a seat."
    ),
    "swap_started": N_(
        "Round %(number)s has started, so seats are no longer swapped: “X replaces Y” hands "
        "one seat over from the table's next deal."
    ),
    "tournament_finished": N_("The tournament is finished: no round is drawn after it."),
    "round_waiting": N_(
        "Deals of round %(number)s still waiting for confirmation: %(count)s. Decide each "
        "one (confirm, leave disputed or drop) before finishing the round."
    ),
    "round_unfinished_end": N_(
        "Round %(number)s is being played: finish it before finishing the tournament."
    ),
    "finish_choice": N_("“%(value)s” is not a decision for a waiting deal."),
    "swap_same": N_("Choose two different players to swap."),
    "pin_wrong": N_("That PIN is not valid for this tournament."),
    "pin_throttled": N_("Too many wrong PINs. Wait a few minutes and ask the staff."),
    "not_at_table": N_("You are not seated at this table."),
    "round_finished_late": N_(
        "Round %(number)s was finished before this deal reached efuda: show this to the "
        "staff. They can count it as a late deal."
    ),
    "late_tournament_finished": N_(
        "The tournament is finished: a late deal of round %(number)s can no longer be counted."
    ),
    "correct_staff_only": N_(
        "At this tournament deals count as soon as they are recorded, so only the staff "
        "correct them: ask the staff."
    ),
    "correct_counted": N_(
        "Deal no. %(seq)s already counts (%(state)s): only the staff can correct it now."
    ),
    "dispute_note": N_("Say what is wrong with the deal, so the staff can correct it."),
    "confirm_own": N_("A second player must confirm; you recorded this deal."),
    "not_confirmable": N_("This deal is already %(state)s."),
    "points_invalid": N_("Enter points as a number, e.g. -2 or 1.5."),
    "reason_empty": N_("Give a reason for the adjustment."),
    "timer_minutes": N_("Enter the round time in minutes, from 1 to %(max)s."),
}

MAX_ROUNDS = 30
TIMER_MAX_MINUTES = 1440  # a day


_fail = make_fail(MESSAGES)


def _user(user):
    return user if getattr(user, "is_authenticated", False) else None
