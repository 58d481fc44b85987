"""Scorekeepers at the table: record, preview, edit, delete and restore deals.

One handler per game serves the full page, the no-JavaScript "Preview" submit and the htmx
live preview (which swaps the form, points panel included). Scoring and validation happen in
``deal_preview`` / ``deal_record`` / ``deal_update``; errors go beside the field they name.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from core.errors import EfudaError
from scoring.cards import RANKS, SUIT_SYMBOLS, SUITS

from ..forms import SOLO, DaifugoRoundForm, NapoleonDealForm, add_efuda_error, is_row_id
from ..i18n import error_text
from ..models import Deal, Game, GameSession, Player, Role
from ..permissions import club_for_request
from ..selectors.rulesets import session_rules
from ..selectors.sessions import (
    daifugo_before,
    deal_history,
    preview_row,
    previous_players,
    session_detail,
)
from ..services.deals import deal_delete, deal_preview, deal_record, deal_restore, deal_update
from ..services.players import player_get_or_create, players_by_ids
from ..services.scoring_bridge import outcome_dict, score
from .outbox import is_outbox, outbox_reply
from .sessions import back_to_session, entry_url

LIVE = "live"


def _choice(value, label, current) -> dict:
    return {"value": value, "label": label, "checked": str(value) == str(current)}


def _players(club, ids) -> dict[int, Player]:
    return {p.id: p for p in Player.objects.filter(club=club, id__in=ids)}


def _candidates(session: GameSession, chosen: list[int], roster=None) -> list[Player]:
    """The chosen players in their order, then the session's previous players, then the rest
    of the club's active players (by name). A tournament table passes its drawn ``roster``:
    only those players, in seat order."""
    club = session.club
    if roster is not None:
        known = _players(club, roster)
        return [known[i] for i in roster if i in known]
    first = list(dict.fromkeys(list(chosen) + previous_players(session)))
    known = _players(club, first)
    ordered = [known[i] for i in first if i in known]
    rest = Player.objects.filter(club=club, active=True).exclude(id__in=first).order_by("name")
    return ordered + list(rest)


def _add_new_player(request, session, form, list_field: str):
    """Create the typed player (``player_get_or_create``) and put them in ``list_field``;
    returns a re-bound form, or the same form with the error beside ``new_player``."""
    name = form.cleaned_data.get("new_player") or ""
    if not name.strip():
        return form
    try:
        player = player_get_or_create(club=session.club, name=name, field="new_player")
    except EfudaError as err:
        add_efuda_error(form, err)
        return form
    post = request.POST.copy() if isinstance(request.POST, QueryDict) else QueryDict(mutable=True)
    values = [v for v in post.getlist(list_field) if v]
    if list_field == "order":
        values = values + [str(player.id)] if str(player.id) not in values else values
        # the order has one select per position: keep blanks out, the page adds them back
    elif str(player.id) not in values:
        values.append(str(player.id))
    post.setlist(list_field, values)
    post["new_player"] = ""
    rebound = type(form)(post)
    rebound.is_valid()
    return rebound


def _handle(request, session: GameSession, form, *, deal: Deal | None = None, live=False):
    """Shared POST logic. Returns (form, preview_row | None, redirect_url | None)."""
    action = LIVE if live else (request.POST.get("action") or LIVE)
    if not form.is_valid():
        return form, None, None
    list_field = "seats" if session.game == Game.NAPOLEON else "order"
    if form.cleaned_data.get("new_player"):
        form = _add_new_player(request, session, form, list_field)
        action = LIVE if action == "save" else action
        if form.errors:
            return form, None, None
    data = form.to_data()
    ids = list(data.get(list_field) or [])
    names = {str(k): p.name for k, p in _players(session.club, ids).items()}
    if action == "save":
        try:
            if deal is None:
                saved = deal_record(
                    session=session,
                    data=data,
                    user=request.user,
                    client_id=form.cleaned_data.get("client_id"),
                )
                form.recorded = saved  # for the outbox's reply
                if saved.already_recorded:
                    messages.info(
                        request, _("No. %(seq)s was already recorded.") % {"seq": saved.seq}
                    )
                else:
                    messages.success(request, _("Deal %(seq)s recorded.") % {"seq": saved.seq})
                return form, None, entry_url(session)
            saved = deal_update(
                deal=deal, data=data, user=request.user, version=form.cleaned_data.get("version")
            )
            messages.success(request, _("Deal %(seq)s changed.") % {"seq": saved.seq})
            return form, None, back_to_session(session) + f"#deal-{saved.seq}"
        except EfudaError as err:
            add_efuda_error(form, err, names)
            return form, None, None
    return form, preview_input(session, form, data, names, deal=deal, live=action == LIVE), None


def preview_input(session: GameSession, form, data: dict, names: dict, *, deal=None, live=True):
    """Score ``data`` (from a valid ``form``) without saving: the preview row, or None with
    the problem on the form (named gently while a live preview is still being filled in)."""
    if not (data.get("seats") or data.get("order")):
        return None
    try:
        data, result = _preview(session, data, deal)
    except EfudaError as err:
        if live:
            form.pending = _pending_text(form, err, names)
        else:
            add_efuda_error(form, err, names)
        return None
    return preview_row(
        game=session.game, data=data, outcome=outcome_dict(session.game, result), names=names
    )


def _pending_text(form, err: EfudaError, names) -> str:
    """While a deal is being tapped in, an empty field is named rather than "not None"."""
    field = "called_suit" if err.field == "called" else err.field
    if field in form.fields and form.value(field) in (None, "", []):
        return str(form.fields[field].label or field)
    return error_text(err, names)


def _preview(session: GameSession, data: dict, deal: Deal | None):
    """``deal_preview`` scores input as the session's next deal; an edited Daifugō round must
    instead see the 大富豪 of the round before it (for 都落ち), as ``deal_update`` will."""
    if deal is None or session.game != Game.DAIFUGO:
        return deal_preview(session=session, data=data)
    players_by_ids(club=session.club, ids=data.get("order") or [], field="order")
    data = dict(data, previous_daifugo=daifugo_before(session, deal.seq))
    return data, score(session.game, data, session_rules(session))


def _napoleon_ui(session: GameSession, form: NapoleonDealForm, roster=None) -> dict:
    ruleset = session_rules(session)
    seats = form.value("seats") or []
    seats = [int(s) for s in seats if is_row_id(str(s))]
    candidates = _candidates(session, seats, roster)
    by_id = {p.id: p for p in candidates}
    seated = [by_id[s] for s in seats if s in by_id]
    count = len(seated)
    if count in ruleset.bids:
        low, high = ruleset.bids[count]
    else:
        low = min(lo for lo, _hi in ruleset.bids.values())
        high = max(hi for _lo, hi in ruleset.bids.values())
    napoleon = form.value("napoleon")
    suits = [(s, SUIT_SYMBOLS[s]) for s in SUITS]
    called_suits = suits + ([("JK", "JK")] if ruleset.jokers else [])
    return {
        "seat_choices": [
            {
                "value": p.id,
                "label": p.name,
                "checked": p.id in seats,
                "number": seats.index(p.id) + 1 if p.id in seats else None,
            }
            for p in candidates
        ],
        "napoleon_choices": [_choice(p.id, p.name, napoleon) for p in seated],
        "bid_choices": [_choice(b, str(b), form.value("bid")) for b in range(low, high + 1)],
        "trump_choices": [_choice(c, sym, form.value("trump")) for c, sym in suits],
        "called_suit_choices": [
            _choice(c, sym, form.value("called_suit")) for c, sym in called_suits
        ],
        "called_rank_choices": [_choice(r, r, form.value("called_rank")) for r in RANKS],
        "adjutant_choices": [
            _choice(p.id, p.name, form.value("adjutant"))
            for p in seated
            if str(p.id) != str(napoleon)
        ]
        + [_choice(SOLO, _("Solo (独り立ち)"), form.value("adjutant"))],
        "redeal": bool(form.value("redeal")),
        "honours": form.value("honours") if form.value("honours") not in (None, "") else 0,
        "discarded": form.value("discarded") if form.value("discarded") not in (None, "") else 0,
        "show_last_trick": ruleset.discard_policy == "last_trick",
        "last_trick_choices": [
            _choice("napoleon", _("Napoleon army"), form.value("last_trick")),
            _choice("allies", _("Allies"), form.value("last_trick")),
        ],
        "widow": ruleset.widow.get(count),
        "ruleset": ruleset,
    }


def _daifugo_ui(session: GameSession, form: DaifugoRoundForm, roster=None) -> dict:
    ruleset = session_rules(session)
    order = [int(s) for s in (form.value("order") or []) if is_row_id(str(s))]
    forbidden = {int(s) for s in (form.value("forbidden") or []) if is_row_id(str(s))}
    candidates = _candidates(session, [], roster)
    by_id = {p.id: p for p in candidates}
    for pid, player in _players(session.club, [i for i in order if i not in by_id]).items():
        by_id[pid] = player
        candidates.append(player)
    slots = max(min(len(candidates), 8), len(order), 3)
    padded = order + [None] * (slots - len(order))
    return {
        "tap_choices": [
            {"value": p.id, "label": p.name, "used": p.id in order} for p in candidates
        ],
        "slots": [
            {"number": i + 1, "value": v, "choices": [_choice(p.id, p.name, v) for p in candidates]}
            for i, v in enumerate(padded)
        ],
        "order_names": [by_id[i].name for i in order if i in by_id],
        "forbidden_choices": [
            {"value": i, "label": by_id[i].name, "checked": i in forbidden}
            for i in order
            if i in by_id
        ]
        if ruleset.forbidden_finish
        else [],
        "ruleset": ruleset,
    }


def _page(request, session, form, row, *, deal=None, redirect_to=None):
    if is_outbox(request):
        return outbox_reply(request, deal=getattr(form, "recorded", None), form=form)
    if redirect_to:
        if request.headers.get("HX-Request"):
            response = render(request, "tournaments/entry/_redirect.html", {})
            response["HX-Redirect"] = redirect_to
            return response
        return redirect(redirect_to)
    napoleon = session.game == Game.NAPOLEON
    if deal is None:
        action = reverse(
            "deal_new" if napoleon else "round_new", args=[session.club.slug, session.pk]
        )
        live = reverse(
            "deal_preview" if napoleon else "round_preview", args=[session.club.slug, session.pk]
        )
    else:
        action = live = reverse("deal_edit", args=[session.club.slug, deal.pk])
    context = entry_context(session, form, row, action_url=action, live_url=live, deal=deal)
    if request.headers.get("HX-Request"):
        return render(request, context["partial"], context)
    context["club"] = session.club
    context["detail"] = session_detail(session) if deal is None else None
    return render(request, "tournaments/entry/entry.html", context)


def entry_context(
    session: GameSession,
    form,
    row,
    *,
    action_url: str,
    live_url: str,
    deal: Deal | None = None,
    roster: list[int] | None = None,
) -> dict:
    """What the entry form partials need. Club sessions and tournament tables both use it;
    a tournament table passes its drawn ``roster`` (no other players, none added)."""
    napoleon = session.game == Game.NAPOLEON
    build = _napoleon_ui if napoleon else _daifugo_ui
    ui = build(session, form, roster)
    ui["can_add_player"] = roster is None
    return {
        "session": session,
        "form": form,
        "ui": ui,
        "preview": row,
        "pending": getattr(form, "pending", ""),
        "deal": deal,
        "action_url": action_url,
        "live_url": live_url,
        "partial": "tournaments/entry/"
        + ("_napoleon_form.html" if napoleon else "_daifugo_form.html"),
    }


def _session(request, club_slug, pk, game) -> GameSession:
    club = club_for_request(request, club_slug, role=Role.SCOREKEEPER)
    return get_object_or_404(GameSession.objects.select_related("club", "ruleset"),
                             club=club, pk=pk, game=game)  # fmt: skip


def _entry(request, club_slug, pk, game, form_class, initial_field):
    session = _session(request, club_slug, pk, game)
    if request.method == "GET":
        initial = {initial_field: previous_players(session)} if initial_field else {}
        return _page(request, session, form_class(initial=initial), None)
    form, row, redirect_to = _handle(request, session, form_class(request.POST))
    return _page(request, session, form, row, redirect_to=redirect_to)


@login_required
@require_http_methods(["GET", "POST"])
def deal_new(request, club_slug, pk):
    return _entry(request, club_slug, pk, Game.NAPOLEON, NapoleonDealForm, "seats")


@login_required
@require_POST
def deal_preview_view(request, club_slug, pk):
    session = _session(request, club_slug, pk, Game.NAPOLEON)
    form, row, _redirect = _handle(request, session, NapoleonDealForm(request.POST), live=True)
    return _page(request, session, form, row)


@login_required
@require_http_methods(["GET", "POST"])
def round_new(request, club_slug, pk):
    return _entry(request, club_slug, pk, Game.DAIFUGO, DaifugoRoundForm, None)


@login_required
@require_POST
def round_preview_view(request, club_slug, pk):
    session = _session(request, club_slug, pk, Game.DAIFUGO)
    form, row, _redirect = _handle(request, session, DaifugoRoundForm(request.POST), live=True)
    return _page(request, session, form, row)


def _deal(request, club_slug, pk) -> Deal:
    club = club_for_request(request, club_slug, role=Role.SCOREKEEPER)
    return get_object_or_404(Deal.objects.select_related("session__club", "session__ruleset"),
                             club=club, pk=pk)  # fmt: skip


@login_required
@require_http_methods(["GET", "POST"])
def deal_edit(request, club_slug, pk):
    deal = _deal(request, club_slug, pk)
    session = deal.session
    form_class = NapoleonDealForm if deal.game == Game.NAPOLEON else DaifugoRoundForm
    if request.method == "GET":
        initial = form_class.initial_from_data(deal.data) | {"version": deal.version}
        form = form_class(initial=initial)
        return _page(request, session, form, None, deal=deal)
    form, row, redirect_to = _handle(request, session, form_class(request.POST), deal=deal)
    return _page(request, session, form, row, deal=deal, redirect_to=redirect_to)


@login_required
@require_POST
def deal_delete_view(request, club_slug, pk):
    deal = _deal(request, club_slug, pk)
    deal_delete(deal=deal, user=request.user)
    messages.success(
        request,
        _("Deal %(seq)s deleted. Restore it from its row if that was a mistake.")
        % {"seq": deal.seq},
    )
    return redirect(back_to_session(deal) + f"#deal-{deal.seq}")


@login_required
@require_POST
def deal_restore_view(request, club_slug, pk):
    deal = _deal(request, club_slug, pk)
    try:
        deal_restore(deal=deal, user=request.user)
    except EfudaError as err:
        messages.error(request, error_text(err))
    else:
        messages.success(request, _("Deal %(seq)s restored.") % {"seq": deal.seq})
    return redirect(back_to_session(deal) + f"#deal-{deal.seq}")


@login_required
@require_safe
def deal_history_view(request, club_slug, pk):
    club = club_for_request(request, club_slug, role=Role.MEMBER)
    deal = get_object_or_404(Deal.objects.select_related("session"), club=club, pk=pk)
    return render(request, "tournaments/entry/history.html", {
        "club": club, "deal": deal, "session": deal.session, "entries": deal_history(deal),
    })  # fmt: skip
