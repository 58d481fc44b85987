"""Tournaments: public pages and PIN access first, then staff actions."""

from django.urls import path

from ..views import events as v

urlpatterns = [
    # Read (public tournaments; members for private ones; 404 otherwise)
    path("c/<slug:club_slug>/tournaments/", v.tournament_list, name="tournament_list"),
    path("t/<id:tournament_id>/", v.tournament_detail, name="tournament_detail"),
    path("t/<id:tournament_id>/standings/", v.tournament_standings, name="tournament_standings"),
    path("t/<id:tournament_id>/timer/", v.round_timer, name="tournament_timer"),
    path("t/<id:tournament_id>/results.pdf", v.results_pdf, name="tournament_results_pdf"),
    # Players with a PIN (and staff): their own table
    path("t/<id:tournament_id>/pin/", v.pin_login, name="tournament_pin"),
    path("t/<id:tournament_id>/pin/leave/", v.pin_logout, name="tournament_pin_logout"),
    path("t/<id:tournament_id>/table/<id:table_id>/", v.table_page, name="tournament_table"),
    path(
        "t/<id:tournament_id>/table/<id:table_id>/deals/new/",
        v.table_record,
        name="tournament_table_record",
    ),
    path(
        "t/<id:tournament_id>/table/<id:table_id>/deals/preview/",
        v.table_preview,
        name="tournament_table_preview",
    ),
    path(
        "t/<id:tournament_id>/deals/<id:deal_id>/confirm/",
        v.deal_confirm,
        name="tournament_deal_confirm",
    ),
    path(
        "t/<id:tournament_id>/deals/<id:deal_id>/dispute/",
        v.deal_dispute,
        name="tournament_deal_dispute",
    ),
    # Staff
    path("c/<slug:club_slug>/tournaments/new/", v.tournament_new, name="tournament_new"),
    path("t/<id:tournament_id>/manage/", v.tournament_manage, name="tournament_manage"),
    path("t/<id:tournament_id>/entries/add/", v.entry_add, name="tournament_entry_add"),
    path(
        "t/<id:tournament_id>/entries/<id:entry_id>/check-in/",
        v.entry_check_in,
        name="tournament_entry_check_in",
    ),
    path(
        "t/<id:tournament_id>/entries/<id:entry_id>/drop/",
        v.entry_drop,
        name="tournament_entry_drop",
    ),
    path(
        "t/<id:tournament_id>/entries/<id:entry_id>/pin/",
        v.entry_pin,
        name="tournament_entry_pin",
    ),
    path("t/<id:tournament_id>/draw/", v.round_draw, name="tournament_draw"),
    path(
        "t/<id:tournament_id>/rounds/<id:number>/swap/",
        v.round_swap,
        name="tournament_round_swap",
    ),
    path(
        "t/<id:tournament_id>/rounds/<id:number>/start/",
        v.round_start,
        name="tournament_round_start",
    ),
    path(
        "t/<id:tournament_id>/rounds/<id:number>/finish/",
        v.round_finish,
        name="tournament_round_finish",
    ),
    path(
        "t/<id:tournament_id>/rounds/<id:number>/timer/",
        v.round_timer_control,
        name="tournament_round_timer",
    ),
    path(
        "t/<id:tournament_id>/adjustments/add/", v.adjustment_add, name="tournament_adjustment_add"
    ),
    path(
        "t/<id:tournament_id>/adjustments/<id:adjustment_id>/delete/",
        v.adjustment_delete,
        name="tournament_adjustment_delete",
    ),
    path(
        "t/<id:tournament_id>/rounds/<id:number>/seating.pdf",
        v.seating_cards_pdf,
        name="tournament_seating_pdf",
    ),
    path(
        "t/<id:tournament_id>/rounds/<id:number>/slips.pdf",
        v.result_slips_pdf,
        name="tournament_slips_pdf",
    ),
]
