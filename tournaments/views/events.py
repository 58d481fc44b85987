"""Tournament pages. Thin: services write, selectors read, EfudaError goes beside its field.

Audiences: anyone may read a public tournament (club members any of their club's); staff
(club scorekeepers/owners and the event's extra staff) run it; players without an account
record and confirm deals at their own table with a PIN issued by the staff.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _t
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from core.errors import EfudaError

from ..fields import IdField, IntegerField
from ..forms import DaifugoRoundForm, NapoleonDealForm, add_efuda_error
from ..i18n import error_text
from ..models import (
    Club,
    ClubRuleSet,
    Deal,
    DrawMethod,
    Game,
    Role,
    StandingsMode,
    Tournament,
    TournamentEntry,
    TournamentRound,
    TournamentTable,
)
from ..permissions import require_role
from ..selectors import events as sel
from ..services import events as svc
from ..tables_events import TournamentStandingsTable
from .entry import entry_context, preview_input
from .outbox import is_outbox, outbox_reply
from .page_cache import cached_page

PIN_SESSION_KEY = "efuda_tournament_pins"


# --- access helpers ---------------------------------------------------------------------------


def pin_entry(request, tournament: Tournament) -> TournamentEntry | None:
    """The entry this browser unlocked with a PIN (still valid: re-issuing logs it out)."""
    held = request.session.get(PIN_SESSION_KEY, {}).get(str(tournament.pk))
    if not held:
        return None
    entry = (
        TournamentEntry.objects.filter(pk=held.get("entry"), tournament=tournament)
        .select_related("player")
        .first()
    )
    if entry is None or not entry.pin_hash or entry.pin_hash != held.get("hash"):
        return None
    return entry


def visible(request, tournament_id: int):
    tournament = get_object_or_404(
        Tournament.objects.select_related("club", "ruleset"), pk=tournament_id
    )
    entry = pin_entry(request, tournament)
    if not sel.can_see(request.user, tournament, entry):
        raise Http404
    return tournament, entry


def staff_only(request, tournament_id: int) -> Tournament:
    tournament, _entry = visible(request, tournament_id)
    if not sel.is_staff(request.user, tournament):
        raise PermissionDenied
    return tournament


def _back(tournament: Tournament, anchor: str = ""):
    return redirect(reverse("tournament_manage", args=[tournament.pk]) + anchor)


def _error(request, err: EfudaError, names=None):
    messages.error(request, error_text(err, names))


# --- forms ------------------------------------------------------------------------------------


class TournamentForm(forms.Form):
    name = forms.CharField(max_length=100, label=_("Name"))
    date = forms.DateField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}))
    ruleset = forms.ModelChoiceField(queryset=ClubRuleSet.objects.none(), label=_("Rule set"))
    rounds_planned = IntegerField(min_value=1, max_value=30, initial=4, label=_("Rounds"))
    deals_per_round = IntegerField(
        min_value=1, max_value=999, required=False, label=_("Deals per round")
    )
    minutes_per_round = IntegerField(
        min_value=1, max_value=1440, required=False, label=_("Minutes per round")
    )
    draw_method = forms.ChoiceField(
        choices=DrawMethod.choices, initial=DrawMethod.MIXING, label=_("Seating method")
    )
    table_size = IntegerField(
        min_value=3, max_value=8, required=False, label=_("Preferred table size")
    )
    standings_mode = forms.ChoiceField(choices=StandingsMode.choices, label=_("Standings"))
    require_confirmation = forms.BooleanField(
        required=False, label=_("Deals need a second player's confirmation")
    )
    is_public = forms.BooleanField(required=False, label=_("Public"))

    def __init__(self, *args, club: Club, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["ruleset"].queryset = ClubRuleSet.objects.filter(club=club)


class EntryForm(forms.Form):
    name = forms.CharField(max_length=200, label=_("Player name"))
    checked_in = forms.BooleanField(required=False, initial=True, label=_("Checked in"))


class AdjustmentForm(forms.Form):
    entry = IdField(label=_("Player"))
    points = forms.CharField(max_length=12, label=_("Points (negative for a penalty)"))
    round_number = IntegerField(required=False, min_value=1, max_value=999, label=_("Round"))
    reason = forms.CharField(max_length=200, label=_("Reason"))


# --- club-level pages ------------------------------------------------------------------------


def tournament_list(request, club_slug: str):
    club = get_object_or_404(Club, slug=club_slug)
    items = sel.club_tournaments(club=club, user=request.user)
    if not items and not sel.has_role(request.user, club, Role.MEMBER) and not club.is_public:
        raise Http404
    return render(
        request,
        "tournaments/events/list.html",
        {
            "club": club,
            "tournaments": items,
            "can_create": sel.has_role(request.user, club, Role.SCOREKEEPER),
        },
    )


@login_required
def tournament_new(request, club_slug: str):
    club = get_object_or_404(Club, slug=club_slug)
    require_role(request.user, club, Role.SCOREKEEPER)
    form = TournamentForm(request.POST or None, club=club, initial={"date": timezone.localdate()})
    if request.method == "POST" and form.is_valid():
        c = form.cleaned_data
        try:
            tournament = svc.tournament_create(club=club, user=request.user, **c)
        except EfudaError as err:
            add_efuda_error(form, err)
        else:
            return redirect("tournament_manage", tournament.pk)
    return render(request, "tournaments/events/new.html", {"club": club, "form": form})


# --- public pages ----------------------------------------------------------------------------


def tournament_detail(request, tournament_id: int):
    tournament, entry = visible(request, tournament_id)
    rnd = sel.current_round(tournament)
    names = sel.names_of(tournament)
    return render(
        request,
        "tournaments/events/detail.html",
        {
            "tournament": tournament,
            "entry": entry,
            "round": sel.round_view(rnd, names) if rnd else None,
            "my_table": sel.entry_table(tournament, entry) if entry else None,
            "is_staff": sel.is_staff(request.user, tournament),
        },
    )


@cached_page
def tournament_standings(request, tournament_id: int):
    tournament, entry = visible(request, tournament_id)
    standings = sel.tournament_standings(tournament=tournament)
    table = TournamentStandingsTable(standings.rows, mode=standings.mode)
    template = (
        "tournaments/events/_standings.html"
        if request.headers.get("HX-Request")
        else "tournaments/events/standings.html"
    )
    return render(
        request,
        template,
        {
            "tournament": tournament,
            "standings": standings,
            "table": table,
            "is_staff": sel.is_staff(request.user, tournament),
        },
    )


def round_timer(request, tournament_id: int):
    """A small fragment every table polls: the round's remaining time."""
    tournament, _entry = visible(request, tournament_id)
    rnd = sel.current_round(tournament)
    return render(
        request,
        "tournaments/events/_timer.html",
        {
            "tournament": tournament,
            "round": rnd,
            "seconds_left": sel.seconds_left(rnd) if rnd else None,
            "running": bool(rnd and rnd.timer_ends_at),
        },
    )


# --- PIN access and tables -------------------------------------------------------------------


def pin_login(request, tournament_id: int):
    tournament = get_object_or_404(Tournament.objects.select_related("club"), pk=tournament_id)
    error = None
    if request.method == "POST":
        address = request.META.get("REMOTE_ADDR", "") or "unknown"
        try:
            entry = svc.pin_check(
                tournament=tournament, pin=request.POST.get("pin", ""), address=address
            )
        except EfudaError as err:
            error = error_text(err)
        else:
            pins = dict(request.session.get(PIN_SESSION_KEY, {}))
            pins[str(tournament.pk)] = {"entry": entry.pk, "hash": entry.pin_hash}
            request.session[PIN_SESSION_KEY] = pins
            request.session.cycle_key()
            table = sel.entry_table(tournament, entry)
            if table is not None:
                return redirect("tournament_table", tournament.pk, table.pk)
            return redirect("tournament_detail", tournament.pk)
    return render(
        request,
        "tournaments/events/pin.html",
        {
            "tournament": tournament,
            "error": error,
        },
        status=400 if error else 200,
    )


@require_POST
def pin_logout(request, tournament_id: int):
    pins = dict(request.session.get(PIN_SESSION_KEY, {}))
    pins.pop(str(tournament_id), None)
    request.session[PIN_SESSION_KEY] = pins
    return redirect("tournament_pin", tournament_id)


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
    staff = sel.is_staff(request.user, tournament)
    if not staff and (entry is None or entry.player_id not in table.seats):
        if sel.can_see(request.user, tournament, entry):
            raise PermissionDenied
        raise Http404
    return tournament, table, entry, staff


def _deal_form(table, data=None, initial=None):
    """The club's entry form for a table's session, offering only the drawn players."""
    form_class = NapoleonDealForm if table.session.game == Game.NAPOLEON else DaifugoRoundForm
    return form_class(data, initial=initial, session=table.session, roster=list(table.seats))


def table_page(request, tournament_id: int, table_id: int):
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


@require_POST
def table_preview(request, tournament_id: int, table_id: int):
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
    rows = sel.table_deals(table)
    rnd = table.round
    open_ = rnd.started_at is not None and rnd.finished_at is None
    context = _entry_context(tournament, table, form, None) if open_ else {}
    context.update(
        {
            "tournament": tournament,
            "table": table,
            "round": rnd,
            "entry": entry,
            "is_staff": staff,
            "seats": seats,
            "rows": rows,
            "open": open_,
            "label": f"R{rnd.number}-T{table.number}",
            "is_napoleon": tournament.game == Game.NAPOLEON,
            "my_entry_id": entry.pk if entry else None,
            "round_seconds": sel.seconds_left(rnd),
            "round_running": rnd.timer_ends_at is not None,
        }
    )
    return render(request, "tournaments/events/table.html", context, status=status)


@require_POST
def table_record(request, tournament_id: int, table_id: int):
    tournament, table, entry, staff = _table_access(request, tournament_id, table_id)
    if table.session is None:  # the round has not started: its page says so
        return redirect("tournament_table", tournament.pk, table.pk)
    form = _deal_form(table, request.POST)
    form.show_summary = True
    names = {str(k): v for k, v in sel.names_of(tournament).items()}
    if form.is_valid():
        data = _table_data(tournament, table, form)
        try:
            deal = svc.table_deal_record(
                table=table,
                data=data,
                entry=entry,
                user=request.user,
                staff=staff,
                client_id=form.cleaned_data.get("client_id"),
            )
        except EfudaError as err:
            add_efuda_error(form, err, names)
        else:
            if is_outbox(request):
                next_url = reverse("tournament_table", args=[tournament.pk, table.pk])
                return outbox_reply(request, deal=deal, next_url=next_url)
            if deal.already_recorded:
                messages.info(request, _t("No. %(seq)s was already recorded.") % {"seq": deal.seq})
            else:
                recorded = (
                    _t("Deal recorded.")
                    if tournament.game == Game.NAPOLEON
                    else _t("Round recorded.")
                )
                messages.success(request, recorded)
            return redirect("tournament_table", tournament.pk, table.pk)
    if is_outbox(request):
        return outbox_reply(request, form=form)
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


@require_POST
def deal_confirm(request, tournament_id: int, deal_id: int):
    return _deal_action(request, tournament_id, deal_id, svc.deal_confirm)


@require_POST
def deal_dispute(request, tournament_id: int, deal_id: int):
    note = request.POST.get("note", "")
    return _deal_action(
        request,
        tournament_id,
        deal_id,
        lambda **kw: svc.deal_dispute(note=note, **kw),
    )


# --- staff -----------------------------------------------------------------------------------


@login_required
def tournament_manage(request, tournament_id: int):
    tournament = staff_only(request, tournament_id)
    rnd = sel.current_round(tournament)
    names = sel.names_of(tournament)
    entries = list(tournament.entries.select_related("player").order_by("id"))
    return render(
        request,
        "tournaments/events/manage.html",
        {
            "tournament": tournament,
            "entries": entries,
            "round": sel.round_view(rnd, names) if rnd else None,
            "entry_form": EntryForm(),
            "adjustment_form": AdjustmentForm(),
            "disputed": sel.disputed_deals(tournament),
            "adjustments": sel.tournament_standings(tournament=tournament).adjustments,
            "can_draw": rnd is None
            or rnd.started_at is None
            or rnd.number < tournament.rounds_planned,
            "new_pin": request.session.pop("efuda_new_pin", None),
        },
    )


def _staff_post(view):
    """Staff-only POST actions: login, role check, EfudaError as a message, back to manage."""

    @login_required
    @require_POST
    def wrapper(request, tournament_id: int, *args, **kwargs):
        tournament = staff_only(request, tournament_id)
        try:
            result = view(request, tournament, *args, **kwargs)
        except EfudaError as err:
            _error(request, err, {str(k): v for k, v in sel.names_of(tournament).items()})
            result = None
        return result or _back(tournament)

    wrapper.__name__ = view.__name__
    wrapper.__doc__ = view.__doc__
    return wrapper


def _entry(tournament, entry_id) -> TournamentEntry:
    return get_object_or_404(
        TournamentEntry.objects.select_related("player", "tournament"),
        pk=entry_id,
        tournament=tournament,
    )


def _round(tournament, number) -> TournamentRound:
    return get_object_or_404(TournamentRound, tournament=tournament, number=number)


@_staff_post
def entry_add(request, tournament):
    form = EntryForm(request.POST)
    if form.is_valid():
        entry = svc.entry_add(
            tournament=tournament,
            name=form.cleaned_data["name"],
            checked_in=form.cleaned_data["checked_in"],
        )
        messages.success(request, _t("%(name)s entered.") % {"name": entry.player.name})
    return _back(tournament, "#entries")


@_staff_post
def entry_check_in(request, tournament, entry_id: int):
    entry = _entry(tournament, entry_id)
    svc.entry_check_in(entry=entry, checked_in=request.POST.get("checked_in") == "1")
    return _back(tournament, "#entries")


@_staff_post
def entry_drop(request, tournament, entry_id: int):
    entry = _entry(tournament, entry_id)
    if request.POST.get("undo") == "1":
        svc.entry_undrop(entry=entry)
    else:
        svc.entry_drop(entry=entry, user=request.user)
    return _back(tournament, "#entries")


@_staff_post
def entry_pin(request, tournament, entry_id: int):
    """Issue (or re-issue) a PIN; shown once on the next page, never stored in clear."""
    entry = _entry(tournament, entry_id)
    if request.POST.get("revoke") == "1":
        svc.pin_revoke(entry=entry)
        messages.success(request, _t("PIN of %(name)s revoked.") % {"name": entry.player.name})
    else:
        pin = svc.pin_issue(entry=entry)
        request.session["efuda_new_pin"] = {"name": entry.player.name, "pin": pin}
    return _back(tournament, "#entries")


@_staff_post
def round_draw(request, tournament):
    method = request.POST.get("method") or None
    rnd = svc.round_draw(tournament=tournament, method=method, user=request.user)
    messages.success(request, _t("Round %(number)s drawn.") % {"number": rnd.number})
    return _back(tournament, "#round")


@_staff_post
def round_swap(request, tournament, number: int):
    try:
        a, b = int(request.POST.get("a", "")), int(request.POST.get("b", ""))
    except ValueError:
        raise EfudaError("swap", "swap_same", svc.MESSAGES["swap_same"]) from None
    svc.round_swap(rnd=_round(tournament, number), a=a, b=b)
    return _back(tournament, "#round")


@_staff_post
def round_start(request, tournament, number: int):
    svc.round_start(rnd=_round(tournament, number), user=request.user)
    return _back(tournament, "#round")


@_staff_post
def round_finish(request, tournament, number: int):
    svc.round_finish(rnd=_round(tournament, number))
    return _back(tournament, "#round")


@_staff_post
def round_timer_control(request, tournament, number: int):
    rnd = _round(tournament, number)
    if request.POST.get("action") == "stop":
        svc.timer_stop(rnd=rnd)
    else:
        minutes = request.POST.get("minutes") or None
        svc.timer_start(rnd=rnd, minutes=minutes)
    return _back(tournament, "#round")


@_staff_post
def adjustment_add(request, tournament):
    form = AdjustmentForm(request.POST)
    if not form.is_valid():
        messages.error(request, _t("Fill in player, points and reason."))
        return _back(tournament, "#adjustments")
    c = form.cleaned_data
    svc.adjustment_add(
        entry=_entry(tournament, c["entry"]),
        points=c["points"],
        reason=c["reason"],
        round_number=c.get("round_number"),
        user=request.user,
    )
    return _back(tournament, "#adjustments")


@_staff_post
def adjustment_delete(request, tournament, adjustment_id: int):
    adjustment = get_object_or_404(tournament.adjustments, pk=adjustment_id)
    svc.adjustment_delete(adjustment=adjustment)
    return _back(tournament, "#adjustments")


# --- printing --------------------------------------------------------------------------------


def _pdf(content: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


@login_required
def seating_cards_pdf(request, tournament_id: int, number: int):
    """Seating cards of a round. POST with pins=1 issues fresh PINs and prints them."""
    from ..reports.events import seating_cards

    tournament = staff_only(request, tournament_id)
    rnd = _round(tournament, number)
    pins = None
    if request.method == "POST" and request.POST.get("pins") == "1":
        pins = svc.pin_issue_all(tournament=tournament)
    return _pdf(seating_cards(rnd=rnd, pins=pins), f"seating-r{number}.pdf")


@login_required
def result_slips_pdf(request, tournament_id: int, number: int):
    from ..reports.events import result_slips

    tournament = staff_only(request, tournament_id)
    return _pdf(result_slips(rnd=_round(tournament, number)), f"slips-r{number}.pdf")


def results_pdf(request, tournament_id: int):
    from ..reports.events import final_results

    tournament, _entry = visible(request, tournament_id)
    return _pdf(final_results(tournament=tournament), f"results-{tournament.pk}.pdf")
