"""Tournament pages. Thin: services write, selectors read, EfudaError goes beside its field.

Audiences: anyone may read a public tournament (club members any of their club's); staff
(club scorekeepers/owners and the event's extra staff) run it; players without an account
record and confirm deals at their own table with a PIN issued by the staff. One module per
concern; ``tournaments/urls/events.py`` reaches them through this package.
"""

from .adjustments import adjustment_add, adjustment_delete
from .common import PIN_SESSION_KEY, pin_entry
from .entries import entry_add, entry_check_in, entry_drop, entry_pin
from .manage import tournament_manage
from .pins import pin_login, pin_logout
from .printing import result_slips_pdf, results_pdf, seating_cards_pdf
from .public import (
    round_timer,
    tournament_detail,
    tournament_list,
    tournament_new,
    tournament_standings,
)
from .rounds import round_draw, round_finish, round_start, round_swap, round_timer_control
from .tables import deal_confirm, deal_dispute, table_page, table_preview, table_record

__all__ = [
    "PIN_SESSION_KEY", "adjustment_add", "adjustment_delete", "deal_confirm", "deal_dispute",
    "entry_add", "entry_check_in", "entry_drop", "entry_pin", "pin_entry", "pin_login",
    "pin_logout", "result_slips_pdf", "results_pdf", "round_draw", "round_finish",
    "round_start", "round_swap", "round_timer", "round_timer_control", "seating_cards_pdf",
    "table_page", "table_preview", "table_record", "tournament_detail", "tournament_list",
    "tournament_manage", "tournament_new", "tournament_standings",
]  # fmt: skip
