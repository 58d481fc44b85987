"""A deal corrected on its tournament table (staff, or a player of the table where deals need
confirmation), and the staff's drop and restore of a table's deal. The club's own edit page
hands a tournament deal over to here (views/entry.py)."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from core.errors import EfudaError

from ...forms.entry import DaifugoRoundForm, NapoleonDealForm, add_efuda_error
from ...models import Deal, Game
from ...selectors import events as sel
from ...services import events as svc
from ..entry import entry_context, preview_input
from .common import _error, refusals, staff_refusal
from .tables import _table_access

LIVE = "live"


def _table_deal(request, tournament_id: int, table_id: int, deal_id: int):
    tournament, table, entry, staff = _table_access(request, tournament_id, table_id)
    deal = get_object_or_404(
        Deal.objects.select_related("session__club", "session__ruleset"),
        pk=deal_id,
        session_id=table.session_id,
    )
    return tournament, table, entry, staff, deal


def _form(table, deal, data=None):
    """The club's entry form for the deal, limited to the players who played it."""
    form_class = NapoleonDealForm if deal.game == Game.NAPOLEON else DaifugoRoundForm
    players = sel.players_at(table, deal.seq)
    initial = None
    if data is None:
        initial = form_class.initial_from_data(deal.data) | {"version": deal.version}
    return form_class(data, initial=initial, session=deal.session, roster=players), players


def _data(deal, form, players) -> dict:
    data = form.to_data()
    if deal.game == Game.NAPOLEON:
        data["seats"] = list(players)  # the table's seats for that deal, never others
    return data


@never_cache
@refusals
@require_http_methods(["GET", "POST"])
def table_deal_correct_view(request, tournament_id: int, table_id: int, deal_id: int):
    """GET: the deal in the entry form; POST: live preview (htmx), preview or save."""
    tournament, table, entry, staff, deal = _table_deal(request, tournament_id, table_id, deal_id)
    names = {str(k): v for k, v in sel.names_of(tournament).items()}
    url = reverse("tournament_deal_correct", args=[tournament.pk, table.pk, deal.pk])
    row = None
    if request.method == "GET":
        form, players = _form(table, deal)
    else:
        form, players = _form(table, deal, request.POST)
        action = request.POST.get("action") or LIVE
        form.show_summary = action != LIVE
        if form.is_valid():
            data = _data(deal, form, players)
            if action == "save":
                try:
                    svc.table_deal_correct(
                        deal=deal,
                        data=data,
                        version=form.cleaned_data.get("version"),
                        entry=entry,
                        user=request.user,
                        staff=staff,
                    )
                except EfudaError as err:
                    add_efuda_error(form, err, names)
                else:
                    text = _("Deal no. %(seq)s corrected.") % {"seq": deal.seq}
                    if not staff:
                        text += " " + _("It counts once another player of the table confirms it.")
                    messages.success(request, text)
                    return redirect(
                        reverse("tournament_table", args=[tournament.pk, table.pk])
                        + f"#deal-{deal.seq}"
                    )
            else:
                row = preview_input(deal.session, form, data, names, deal=deal, live=action == LIVE)
    context = entry_context(
        deal.session, form, row, action_url=url, live_url=url, deal=deal, roster=players
    )
    if request.headers.get("HX-Request"):
        return render(request, context["partial"], context)
    context.update(
        {
            "tournament": tournament,
            "table": table,
            "label": f"R{table.round.number}-T{table.number}",
            "is_staff": staff,
            "entry": entry,
            "current": next(
                (r for r in sel.table_deals(table, deleted=True) if r.deal.pk == deal.pk), None
            ),
        }
    )
    status = 400 if request.method == "POST" and form.errors else 200
    return render(request, "tournaments/events/correct.html", context, status=status)


def _staff_deal_action(request, tournament_id, table_id, deal_id, action, done):
    tournament, table, _entry, staff, deal = _table_deal(request, tournament_id, table_id, deal_id)
    if not staff:
        raise staff_refusal(tournament)
    try:
        action(deal=deal, user=request.user)
    except EfudaError as err:
        _error(request, err)
    else:
        messages.success(request, done % {"seq": deal.seq})
    page = reverse("tournament_table", args=[tournament.pk, table.pk])
    return redirect(f"{page}#deal-{deal.seq}")


@refusals
@require_POST
def table_deal_drop_view(request, tournament_id: int, table_id: int, deal_id: int):
    return _staff_deal_action(
        request, tournament_id, table_id, deal_id, svc.table_deal_drop,
        _("Deal no. %(seq)s dropped: it counts nowhere. Restore it from its row if that was a "
          "mistake."),
    )  # fmt: skip


@refusals
@require_POST
def table_deal_restore_view(request, tournament_id: int, table_id: int, deal_id: int):
    return _staff_deal_action(
        request, tournament_id, table_id, deal_id, svc.table_deal_restore,
        _("Deal no. %(seq)s restored."),
    )  # fmt: skip
