"""Tournament pages. Thin: services write, selectors read, EfudaError goes beside its field.

Audiences: anyone may read a public tournament (club members any of their club's); staff
(club scorekeepers/owners and the event's extra staff) run it; players without an account
record and confirm deals at their own table with a PIN issued by the staff. One module per
concern; ``tournaments/urls/events.py`` reaches them through this package.
"""

from .adjustments import adjustment_add_view, adjustment_delete_view
from .common import PIN_SESSION_KEY, pin_entry
from .corrections import table_deal_correct_view, table_deal_drop_view, table_deal_restore_view
from .desk import checkin_open_view, desk_view, registration_view
from .entries import (
    entry_add_view,
    entry_check_in_view,
    entry_drop_view,
    entry_pin_view,
    entry_remove_view,
    entry_replace_view,
    pin_lockouts_clear_view,
)
from .manage import tournament_manage_view
from .pins import pin_login_view, pin_logout_view
from .player import (
    my_check_in_view,
    my_entry_view,
    my_pin_view,
    my_register_view,
    my_withdraw_view,
)
from .printing import (
    result_slips_pdf_view,
    results_pdf_view,
    seating_cards_pdf_view,
    seating_pins_view,
)
from .public import (
    round_timer_view,
    tournament_detail_view,
    tournament_list_view,
    tournament_new_view,
    tournament_standings_view,
)
from .rounds import (
    round_draw_view,
    round_finish_view,
    round_start_view,
    round_swap_view,
    round_timer_control_view,
)
from .staff import (
    tournament_freeze_view,
    tournament_reveal_view,
    tournament_staff_add_view,
    tournament_staff_remove_view,
    tournament_staff_view,
)
from .tables import (
    deal_confirm_view,
    deal_dispute_view,
    table_page_view,
    table_preview_view,
    table_record_view,
)

__all__ = [
    "PIN_SESSION_KEY",
    "adjustment_add_view",
    "adjustment_delete_view",
    "checkin_open_view",
    "desk_view",
    "my_check_in_view",
    "my_entry_view",
    "my_pin_view",
    "my_register_view",
    "my_withdraw_view",
    "registration_view",
    "deal_confirm_view",
    "deal_dispute_view",
    "entry_add_view",
    "entry_check_in_view",
    "entry_drop_view",
    "entry_pin_view",
    "entry_remove_view",
    "entry_replace_view",
    "pin_entry",
    "pin_lockouts_clear_view",
    "pin_login_view",
    "pin_logout_view",
    "result_slips_pdf_view",
    "results_pdf_view",
    "round_draw_view",
    "round_finish_view",
    "round_start_view",
    "round_swap_view",
    "round_timer_view",
    "round_timer_control_view",
    "seating_cards_pdf_view",
    "seating_pins_view",
    "table_deal_correct_view",
    "table_deal_drop_view",
    "table_deal_restore_view",
    "table_page_view",
    "table_preview_view",
    "table_record_view",
    "tournament_detail_view",
    "tournament_freeze_view",
    "tournament_reveal_view",
    "tournament_staff_add_view",
    "tournament_staff_remove_view",
    "tournament_staff_view",
    "tournament_list_view",
    "tournament_manage_view",
    "tournament_new_view",
    "tournament_standings_view",
]
