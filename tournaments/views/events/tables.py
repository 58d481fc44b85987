"""A table of the current round: its deals, the entry form, confirmations and disputes."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from core.errors import EfudaError

from ...forms.entry import DaifugoRoundForm, NapoleonDealForm, add_efuda_error
from ...forms.events import DisputeForm, PinForm
from ...models import (
    Deal,
    Game,
    Tournament,
    TournamentTable,
)
from ...selectors import events as sel
from ...selectors.offline import offline_scoring
from ...services import events as svc
from ..entry import entry_context, preview_input, similar_to
from ..outbox import (
    author_refusal,
    is_outbox,
    late_unlock,
    live_form_html,
    made_of,
    outbox_reply,
    pin_author,
    similar_reply,
    user_author,
)
from .common import (
    _error,
    pin_entry,
    refusals,
)
from .pins import render_hidden_pin_form, render_pin_form, tournament_for_pin
from .refusals import table_refusal


def _table_access(request, tournament_id: int, table_id: int):
    """The table, for staff or a PIN holder seated at it; 404 for anyone else."""
    tournament = get_object_or_404(
        Tournament.objects.select_related("club", "ruleset"), pk=tournament_id
    )
    table = get_object_or_404(
        TournamentTable.objects.select_related("round", "session"),
        pk=table_id,
        round__tournament=tournament,
    )
    entry = pin_entry(request, tournament)
    staff = sel.is_staff(request.reader, tournament)
    if not staff and (entry is None or entry.player_id not in table.seats):
        if sel.can_see(request.reader, tournament, entry):
            raise table_refusal(request, tournament, table, entry)
        raise Http404
    if not staff and table.round.finished_at is None:
        svc.table_seen(table_id=table.pk)  # its round may still be playing here
    return tournament, table, entry, staff


def _deal_form(table, data=None, initial=None):
    """The club's entry form for a table's session, offering only the drawn players."""
    form_class = NapoleonDealForm if table.session.game == Game.NAPOLEON else DaifugoRoundForm
    return form_class(data, initial=initial, session=table.session, roster=list(table.seats))


def table_author(request, entry, staff: bool) -> str:
    """Who records at this table from this browser: the staff account, else the PIN holder."""
    if staff:
        return user_author(request.user)
    return pin_author(entry) if entry is not None else ""


@never_cache  # Back after a save shows the table's deals as they are now
@refusals
def table_page_view(request, tournament_id: int, table_id: int):
    """The table's page (its QR code's address). A visitor without a PIN for this tournament
    gets the PIN form for this table while its round runs; a visitor who may not see the
    tournament (private), or an unknown tournament or table of one, the bare PIN form (404),
    which says nothing of the round, the table or its seats."""
    tournament, shown = tournament_for_pin(request, tournament_id)
    if not shown:
        return render_hidden_pin_form(request, tournament_id)
    if pin_entry(request, tournament) is None and not sel.is_staff(request.reader, tournament):
        table = get_object_or_404(
            TournamentTable.objects.select_related("round"),
            pk=table_id,
            round__tournament=tournament,
        )
        if table.round.started_at is not None and table.round.finished_at is None:
            return render_pin_form(request, tournament, PinForm(), table)
    tournament, table, entry, staff = _table_access(request, tournament_id, table_id)
    initial = {"seats": list(table.seats)} if tournament.game == Game.NAPOLEON else {}
    form = _deal_form(table, initial=initial) if table.session else None
    return _render_table(request, tournament, table, entry, staff, form)


def _table_data(tournament, table, form) -> dict:
    data = form.to_data()
    if tournament.game == Game.NAPOLEON:
        data["seats"] = list(table.seats)  # the draw fixes the seats
    return data


def _entry_context(tournament, table, form, row) -> dict:
    """The club's own entry form (taps, live preview), limited to the table's drawn seats."""
    return entry_context(
        table.session,
        form,
        row,
        roster=list(table.seats),
        action_url=reverse("tournament_table_record", args=[tournament.pk, table.pk]),
        live_url=reverse("tournament_table_preview", args=[tournament.pk, table.pk]),
    )


@refusals
@require_POST
def table_preview_view(request, tournament_id: int, table_id: int):
    """Live preview of a table's next deal (htmx); scores, never saves."""
    tournament, table, _entry, _staff = _table_access(request, tournament_id, table_id)
    form = _deal_form(table, request.POST)
    row = None
    if form.is_valid():
        names = {str(k): v for k, v in sel.names_of(tournament).items()}
        row = preview_input(
            table.session,
            form,
            _table_data(tournament, table, form),
            names,
            live=request.POST.get("action", "live") == "live",
        )
    context = _entry_context(tournament, table, form, row)
    return render(request, context["partial"], context)


def _render_table(request, tournament, table, entry, staff, form, status=200):
    names = sel.names_of(tournament)
    seats = [(p, names.get(p, str(p))) for p in table.seats]
    rows = sel.table_deals(table, names=names, deleted=staff)
    rnd = table.round
    open_ = rnd.started_at is not None and rnd.finished_at is None
    # After the round was finished the staff still count a late deal, until the tournament is
    # finished; a player's phone still shows what it keeps (the round's refusals).
    late = bool(staff and rnd.finished_at and table.session and tournament.finished_at is None)
    live_count = sum(1 for r in rows if not r.deal.is_deleted)
    limit = tournament.deals_per_round
    context = (
        _entry_context(tournament, table, form, None)
        if (open_ or late) and form is not None
        else {}
    )
    if open_ and form is not None:  # the phone scores what it keeps while offline
        context["offline"] = offline_scoring(
            session=table.session, names=form.names, table=list(table.seats)
        )
    my_table = sel.entry_table(tournament, entry) if entry is not None else None
    context.update(
        {
            "tournament": tournament,
            "table": table,
            "round": rnd,
            "entry": entry,
            "is_staff": staff,
            "seats": seats,
            "rows": rows,
            "totals": sel.table_totals(table, rows, names),
            "live_count": live_count,
            "deals_per_round": limit,
            "full": bool((open_ or late) and limit and live_count >= limit),
            "replaced": sel.replaced_names(table, names),
            "require_confirmation": tournament.require_confirmation,
            "open": open_,
            "late": late,
            # A refused post where no form is shown (a player's, after the round finished).
            "refused": form.non_field_errors() if form is not None and form.is_bound else [],
            "late_authors": pin_author(entry) if late and entry is not None else "",
            "live_url": reverse("tournament_table_preview", args=[tournament.pk, table.pk]),
            "label": f"R{rnd.number}-T{table.number}",
            "is_napoleon": tournament.game == Game.NAPOLEON,
            "my_entry_id": entry.pk if entry else None,
            "author": table_author(request, entry, staff),
            "my_table": my_table,
            "my_label": f"R{my_table.round.number}-T{my_table.number}" if my_table else "",
            "round_seconds": sel.seconds_left(rnd),
            "round_running": rnd.timer_ends_at is not None,
        }
    )
    return render(request, "tournaments/events/table.html", context, status=status)


@refusals
@require_POST
def table_record_view(request, tournament_id: int, table_id: int):
    tournament, table, entry, staff = _table_access(request, tournament_id, table_id)
    author = table_author(request, entry, staff)
    unlocked = staff and entry is not None and late_unlock(request, pin_author(entry))
    if unlocked:
        author = pin_author(entry)  # the staff count this phone's player's late deal
    refusal = author_refusal(request, author)
    if refusal is not None:  # an outbox item entered by someone else on this phone
        return refusal
    if table.session is None:  # the round has not started: its page says so
        return redirect("tournament_table", tournament.pk, table.pk)
    form = _deal_form(table, request.POST)
    form.show_summary = True
    names = {str(k): v for k, v in sel.names_of(tournament).items()}
    if form.is_valid():
        data = _table_data(tournament, table, form)
        if similar_to(request, form, table.session, data, names):
            return similar_reply(*form.similar)
        try:
            deal = svc.table_deal_record(
                table=table,
                data=data,
                entry=entry if unlocked or not staff else None,  # whose deal it is
                user=request.user,
                staff=staff,
                client_id=form.cleaned_data.get("client_id"),
                made_at=made_of(request),
            )
        except EfudaError as err:
            add_efuda_error(form, err, names)
        else:
            if is_outbox(request):
                next_url = reverse("tournament_table", args=[tournament.pk, table.pk])
                return outbox_reply(request, deal=deal, next_url=next_url)
            if deal.already_recorded:
                messages.info(request, _("No. %(seq)s was already recorded.") % {"seq": deal.seq})
            elif table.round.finished_at is not None:
                messages.success(request, _("Late deal counted."))
            else:
                recorded = (
                    _("Deal recorded.")
                    if tournament.game == Game.NAPOLEON
                    else _("Round recorded.")
                )
                messages.success(request, recorded)
            return redirect("tournament_table", tournament.pk, table.pk)
    if is_outbox(request):
        html = live_form_html(request, _entry_context(tournament, table, form, None))
        return outbox_reply(request, form=form, form_html=html)
    return _render_table(request, tournament, table, entry, staff, form, status=400)


def _deal_action(request, tournament_id: int, deal_id: int, action):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    deal = get_object_or_404(Deal, pk=deal_id, session__event_table__round__tournament=tournament)
    _tournament, table, entry, staff = _table_access(
        request, tournament_id, deal.session.event_table.pk
    )
    try:
        action(deal=deal, entry=entry, user=request.user, staff=staff)
    except EfudaError as err:
        _error(request, err)
    return redirect("tournament_table", tournament_id, table.pk)


@refusals
@require_POST
def deal_confirm_view(request, tournament_id: int, deal_id: int):
    return _deal_action(request, tournament_id, deal_id, svc.deal_confirm)


@refusals
@require_POST
def deal_dispute_view(request, tournament_id: int, deal_id: int):
    form = DisputeForm(request.POST)
    note = form.cleaned_data["note"] if form.is_valid() else ""
    return _deal_action(
        request,
        tournament_id,
        deal_id,
        lambda **kw: svc.deal_dispute(note=note, **kw),
    )
