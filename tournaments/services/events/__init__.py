"""Tournaments: entries, check-in, the seating draw of each round, table PINs, deal
confirmation, penalties and the round timer. The only code that writes tournament rows.

Each drawn table plays as one ``GameSession`` created when the round starts, so deals at a
tournament table are recorded by exactly the same ``deal_record`` as in club sessions. One
module per concern; this package re-exports them (``services.events.round_draw`` …).
"""

from ..table_check import table_deal_check
from .adjustments import adjustment_add, adjustment_delete
from .changes import PlanChange, entry_leave, entry_replace
from .checkin import checkin_set, checkin_with_code
from .common import (
    MAX_ROUNDS,
    MESSAGES,
    PIN_DIGITS,
    PIN_FAILURE_WINDOW,
    PIN_FAILURES_ALLOWED,
    PIN_FAILURES_PER_ENTRY,
    TIMER_MAX_MINUTES,
)
from .entries import entry_add, entry_check_in, entry_remove, entry_undrop, tournament_create
from .pins import (
    pin_check,
    pin_digest,
    pin_issue,
    pin_issue_all,
    pin_lockouts_clear,
    pin_normalize,
    pin_revoke,
    pin_unknown_tournament,
)
from .registration import entry_register, entry_withdraw, registration_set, waiting_move_up
from .rounds import (
    playing_ids,
    round_draw,
    round_finish,
    round_start,
    round_swap,
    table_label,
    tournament_finish,
)
from .seen import table_seen
from .staff import (
    tournament_freeze_set,
    tournament_staff_add,
    tournament_staff_remove,
    tournament_standings_reveal,
)
from .table_deals import (
    deal_confirm,
    deal_dispute,
    table_deal_correct,
    table_deal_drop,
    table_deal_record,
    table_deal_restore,
)
from .timer import timer_start, timer_stop

__all__ = [
    "MAX_ROUNDS", "MESSAGES", "PIN_DIGITS", "PIN_FAILURES_ALLOWED", "PIN_FAILURES_PER_ENTRY",
    "PIN_FAILURE_WINDOW", "TIMER_MAX_MINUTES", "PlanChange", "adjustment_add", "adjustment_delete",
    "checkin_set", "checkin_with_code", "entry_register", "entry_withdraw", "registration_set",
    "waiting_move_up",
    "deal_confirm", "deal_dispute", "entry_add", "entry_check_in", "entry_leave", "entry_remove",
    "entry_replace", "entry_undrop", "pin_check", "pin_digest", "pin_issue", "pin_issue_all",
    "pin_lockouts_clear", "pin_normalize", "pin_revoke", "pin_unknown_tournament", "playing_ids",
    "round_draw", "round_finish", "round_start", "round_swap", "table_deal_check",
    "table_deal_correct", "table_deal_drop", "table_deal_record", "table_deal_restore",
    "table_label", "table_seen", "timer_start", "timer_stop", "tournament_create",
    "tournament_finish", "tournament_freeze_set", "tournament_staff_add", "tournament_staff_remove",
    "tournament_standings_reveal",
]  # fmt: skip
