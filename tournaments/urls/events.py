"""Tournaments: public pages and PIN access first, then staff actions."""

from django.urls import path

from ..views import events as v

urlpatterns = [
    # Read (public tournaments; members for private ones; 404 otherwise)
    path("c/<slug:club_slug>/tournaments/", v.tournament_list_view, name="tournament_list"),
    path("t/<id:tournament_id>/", v.tournament_detail_view, name="tournament_detail"),
    path(
        "t/<id:tournament_id>/standings/", v.tournament_standings_view, name="tournament_standings"
    ),
    path("t/<id:tournament_id>/timer/", v.round_timer_view, name="tournament_timer"),
    path("t/<id:tournament_id>/results.pdf", v.results_pdf_view, name="tournament_results_pdf"),
    # Players with a PIN (and staff): their own table
    path("t/<id:tournament_id>/pin/", v.pin_login_view, name="tournament_pin"),
    path("t/<id:tournament_id>/pin/leave/", v.pin_logout_view, name="tournament_pin_logout"),
    path("t/<id:tournament_id>/table/<id:table_id>/", v.table_page_view, name="tournament_table"),
    path(
        "t/<id:tournament_id>/table/<id:table_id>/deals/new/",
        v.table_record_view,
        name="tournament_table_record",
    ),
    path(
        "t/<id:tournament_id>/table/<id:table_id>/deals/preview/",
        v.table_preview_view,
        name="tournament_table_preview",
    ),
    path(
        "t/<id:tournament_id>/deals/<id:deal_id>/confirm/",
        v.deal_confirm_view,
        name="tournament_deal_confirm",
    ),
    path(
        "t/<id:tournament_id>/deals/<id:deal_id>/dispute/",
        v.deal_dispute_view,
        name="tournament_deal_dispute",
    ),
    path(
        "t/<id:tournament_id>/table/<id:table_id>/deals/<id:deal_id>/correct/",
        v.table_deal_correct_view,
        name="tournament_deal_correct",
    ),
    path(
        "t/<id:tournament_id>/table/<id:table_id>/deals/<id:deal_id>/drop/",
        v.table_deal_drop_view,
        name="tournament_deal_drop",
    ),
    path(
        "t/<id:tournament_id>/table/<id:table_id>/deals/<id:deal_id>/restore/",
        v.table_deal_restore_view,
        name="tournament_deal_restore",
    ),
    # A logged-in player's own page: register, withdraw, check in, their seat and PIN
    path("t/<id:tournament_id>/me/", v.my_entry_view, name="tournament_me"),
    path("t/<id:tournament_id>/me/register/", v.my_register_view, name="tournament_register"),
    path("t/<id:tournament_id>/me/withdraw/", v.my_withdraw_view, name="tournament_withdraw"),
    path("t/<id:tournament_id>/me/check-in/", v.my_check_in_view, name="tournament_my_check_in"),
    path("t/<id:tournament_id>/me/pin/", v.my_pin_view, name="tournament_my_pin"),
    # Staff
    path(
        "t/<id:tournament_id>/registration/",
        v.registration_view,
        name="tournament_registration",
    ),
    path("t/<id:tournament_id>/check-in/", v.checkin_open_view, name="tournament_checkin_open"),
    path("t/<id:tournament_id>/desk/", v.desk_view, name="tournament_desk"),
    path("c/<slug:club_slug>/tournaments/new/", v.tournament_new_view, name="tournament_new"),
    path("t/<id:tournament_id>/manage/", v.tournament_manage_view, name="tournament_manage"),
    path("t/<id:tournament_id>/entries/add/", v.entry_add_view, name="tournament_entry_add"),
    path(
        "t/<id:tournament_id>/entries/<id:entry_id>/check-in/",
        v.entry_check_in_view,
        name="tournament_entry_check_in",
    ),
    path(
        "t/<id:tournament_id>/entries/<id:entry_id>/drop/",
        v.entry_drop_view,
        name="tournament_entry_drop",
    ),
    path(
        "t/<id:tournament_id>/entries/<id:entry_id>/remove/",
        v.entry_remove_view,
        name="tournament_entry_remove",
    ),
    path(
        "t/<id:tournament_id>/entries/<id:entry_id>/pin/",
        v.entry_pin_view,
        name="tournament_entry_pin",
    ),
    path("t/<id:tournament_id>/replace/", v.entry_replace_view, name="tournament_replace"),
    path(
        "t/<id:tournament_id>/pin-lockouts/clear/",
        v.pin_lockouts_clear_view,
        name="tournament_pin_lockouts_clear",
    ),
    path("t/<id:tournament_id>/draw/", v.round_draw_view, name="tournament_draw"),
    path(
        "t/<id:tournament_id>/rounds/<id:number>/swap/",
        v.round_swap_view,
        name="tournament_round_swap",
    ),
    path(
        "t/<id:tournament_id>/rounds/<id:number>/start/",
        v.round_start_view,
        name="tournament_round_start",
    ),
    path(
        "t/<id:tournament_id>/rounds/<id:number>/finish/",
        v.round_finish_view,
        name="tournament_round_finish",
    ),
    path(
        "t/<id:tournament_id>/rounds/<id:number>/timer/",
        v.round_timer_control_view,
        name="tournament_round_timer",
    ),
    path(
        "t/<id:tournament_id>/adjustments/add/",
        v.adjustment_add_view,
        name="tournament_adjustment_add",
    ),
    path(
        "t/<id:tournament_id>/adjustments/<id:adjustment_id>/delete/",
        v.adjustment_delete_view,
        name="tournament_adjustment_delete",
    ),
    path(
        "t/<id:tournament_id>/rounds/<id:number>/seating.pdf",
        v.seating_cards_pdf_view,
        name="tournament_seating_pdf",
    ),
    path(
        "t/<id:tournament_id>/rounds/<id:number>/seating-pins/",
        v.seating_pins_view,
        name="tournament_seating_pins",
    ),
    path(
        "t/<id:tournament_id>/rounds/<id:number>/slips.pdf",
        v.result_slips_pdf_view,
        name="tournament_slips_pdf",
    ),
    # Staff page: who runs the tournament, the standings freeze and its reveal
    path("t/<id:tournament_id>/staff/", v.tournament_staff_view, name="tournament_staff"),
    path(
        "t/<id:tournament_id>/staff/add/", v.tournament_staff_add_view, name="tournament_staff_add"
    ),
    path(
        "t/<id:tournament_id>/staff/<id:user_id>/remove/",
        v.tournament_staff_remove_view,
        name="tournament_staff_remove",
    ),
    path(
        "t/<id:tournament_id>/standings/freeze/",
        v.tournament_freeze_view,
        name="tournament_freeze",
    ),
    path(
        "t/<id:tournament_id>/standings/reveal/",
        v.tournament_reveal_view,
        name="tournament_reveal",
    ),
]
