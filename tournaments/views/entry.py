"""Scorekeepers at the table: record, preview, edit, delete and restore deals.

One handler per game serves the full page, the no-JavaScript "Preview" submit and the htmx
live preview. The forms build their own choices; scoring and validation happen in
``deal_preview`` / ``deal_record`` / ``deal_update``; errors go beside the field they name and,
after a refused Save, into a summary at the top of the form. A saved form redirects (POST,
redirect, GET) and entry pages are never cached, so Back never shows a stale filled-in form.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from core.errors import EfudaError

from ..forms.entry import DaifugoRoundForm, NapoleonDealForm, add_efuda_error
from ..i18n import error_text
from ..models import Deal, Game, GameSession, Role
from ..permissions import club_for_request
from ..selectors.events import session_table
from ..selectors.history import deal_history
from ..selectors.offline import offline_scoring
from ..selectors.outbox import points_line, similar_deals, similar_summary
from ..selectors.sessions import preview_row, previous_players, session_detail
from ..selectors.visibility import deal_visibility
from ..services.deals import (
    deal_delete,
    deal_preview,
    deal_record,
    deal_recorded,
    deal_restore,
    deal_update,
)
from ..services.players import player_get_or_create
from ..services.scoring_bridge import outcome_dict
from .outbox import (
    author_refusal,
    is_outbox,
    live_form_html,
    outbox_reply,
    similar_reply,
    since_of,
    user_author,
)
from .sessions import back_to_session, entry_url

LIVE = "live"


def _form_class(game: str):
    return NapoleonDealForm if game == Game.NAPOLEON else DaifugoRoundForm


def recorded_text(game: str, seq: int) -> str:
    if game == Game.NAPOLEON:
        return _("Deal %(seq)s recorded.") % {"seq": seq}
    return _("Round %(seq)s recorded.") % {"seq": seq}


def _add_new_player(request, form):
    """Create the typed player (``player_get_or_create``) and put them in the form's player
    list (seats, or the Daifugō table); returns a re-bound form, or the same form with the
    error beside ``new_player``."""
    name = form.cleaned_data.get("new_player") or ""
    if not name.strip():
        return form
    try:
        player = player_get_or_create(club=form.session.club, name=name, field="new_player")
    except EfudaError as err:
        add_efuda_error(form, err)
        return form
    post = request.POST.copy() if isinstance(request.POST, QueryDict) else QueryDict(mutable=True)
    values = [v for v in post.getlist(form.player_field) if v]
    if str(player.id) not in values:
        values.append(str(player.id))
    post.setlist(form.player_field, values)
    post["new_player"] = ""
    rebound = type(form)(post, session=form.session, roster=form.roster)
    rebound.is_valid()
    return rebound


def _handle(request, form, *, deal: Deal | None = None, live=False):
    """Shared POST logic. Returns (form, preview_row | None, redirect_url | None)."""
    session = form.session
    action = LIVE if live else (request.POST.get("action") or LIVE)
    form.show_summary = action != LIVE
    if not form.is_valid():
        return form, None, None
    if form.cleaned_data.get("new_player"):
        form = _add_new_player(request, form)
        action = LIVE if action == "save" else action
        form.show_summary = action != LIVE
        if form.errors:
            return form, None, None
    data = form.to_data()
    if action == "save":
        try:
            if deal is None:
                if similar_to(request, form, session, data):
                    return form, None, None
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
                    messages.success(request, recorded_text(session.game, saved.seq))
                return form, None, entry_url(session)
            saved = deal_update(
                deal=deal, data=data, user=request.user, version=form.cleaned_data.get("version")
            )
            messages.success(request, _changed_text(session.game, saved.seq))
            return form, None, back_to_session(session) + f"#deal-{saved.seq}"
        except EfudaError as err:
            add_efuda_error(form, err, form.names)
            return form, None, None
    row = preview_input(session, form, data, form.names, deal=deal, live=action == LIVE)
    return form, row, None


def similar_to(request, form, session, data: dict, names: dict | None = None) -> bool:
    """An outbox item sent again after a refusal (``X-Efuda-Since``): when the session got a
    deal with the same content since the item was made, keep it on ``form.similar`` (with the
    item's own points, players named by ``names``, else the form's) for the reply, and record
    nothing. A repeat of an id already recorded is not asked about (it is answered "already
    recorded")."""
    since = since_of(request) if is_outbox(request) else None
    if since is None:
        return False
    client_id = form.cleaned_data.get("client_id")
    if deal_recorded(session=session, client_id=client_id) is not None:
        return False
    try:
        scored, result = deal_preview(session=session, data=data)
    except EfudaError:
        return False  # still wrong: refused as usual
    found = similar_deals(session=session, data=data, since=since, client_id=client_id)
    if not found:
        return False
    names = form.names if names is None else names
    mine = points_line(outcome_dict(session.game, result), names)
    form.similar = ([similar_summary(d, names) for d in found], mine)
    return True


def _changed_text(game: str, seq: int) -> str:
    if game == Game.NAPOLEON:
        return _("Deal %(seq)s changed.") % {"seq": seq}
    return _("Round %(seq)s changed.") % {"seq": seq}


def preview_input(session: GameSession, form, data: dict, names: dict, *, deal=None, live=True):
    """Score ``data`` (from a valid ``form``) through ``deal_preview`` without saving: the
    preview row, or None with the problem on the form. While a live preview is still being
    filled in, an empty field is named as still needed and a wrong value is shown as the
    refusal it is (never scored as something else)."""
    if not (data.get("seats") or data.get("order") or data.get("players")):
        return None
    try:
        data, result = deal_preview(session=session, data=data, deal=deal)
    except EfudaError as err:
        if live:
            _live_problem(form, err, names)
        else:
            add_efuda_error(form, err, names)
        return None
    return preview_row(
        game=session.game, data=data, outcome=outcome_dict(session.game, result), names=names
    )


def _live_problem(form, err: EfudaError, names) -> None:
    """While a deal is being tapped in, an empty field is named rather than refused."""
    field = {"called": "called_suit"}.get(err.field, err.field)
    if (
        field in form.fields
        and form.value(field) in (None, "", [])
        and err.code.endswith(
            ("_missing", "not_a_list", "players_not_allowed", "players_out_of_range")
        )
    ):
        form.pending = str(form.fields[field].label or field)
    else:
        form.refusal = error_text(err, names)


def _page(request, session, form, row, *, deal=None, redirect_to=None):
    if is_outbox(request):
        similar = getattr(form, "similar", None)
        if similar:
            return similar_reply(*similar)
        recorded = getattr(form, "recorded", None)
        html = ""
        if recorded is None:
            context = entry_context(session, form, row, deal=deal, **_urls(session, deal))
            html = live_form_html(request, context)
        return outbox_reply(
            request, deal=recorded, form=form, next_url=redirect_to or "", form_html=html
        )
    if redirect_to:
        if request.headers.get("HX-Request"):
            response = render(request, "tournaments/entry/_redirect.html", {})
            response["HX-Redirect"] = redirect_to
            return response
        return redirect(redirect_to)
    context = entry_context(session, form, row, deal=deal, **_urls(session, deal))
    if request.headers.get("HX-Request"):
        return render(request, context["partial"], context)
    context["club"] = session.club
    context["detail"] = session_detail(session) if deal is None else None
    context["author"] = user_author(request.user)
    if deal is None:  # the phone scores what it keeps while offline (static/js/outbox.js)
        context["offline"] = offline_scoring(session=session, names=form.names)
    return render(request, "tournaments/entry/entry.html", context)


def _urls(session, deal) -> dict:
    napoleon = session.game == Game.NAPOLEON
    if deal is not None:
        url = reverse("deal_edit", args=[session.club.slug, deal.pk])
        return {"action_url": url, "live_url": url}
    args = [session.club.slug, session.pk]
    return {
        "action_url": reverse("deal_new" if napoleon else "round_new", args=args),
        "live_url": reverse("deal_preview" if napoleon else "round_preview", args=args),
    }


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
    the form knows its choices (a tournament table's form was built with its ``roster``) and
    builds them here, where it is about to be shown (a save that succeeds never does)."""
    napoleon = session.game == Game.NAPOLEON
    return {
        "session": session,
        "form": form.show(),
        "ruleset": form.ruleset,
        "preview": row,
        "pending": form.pending,
        "refusal": form.refusal,
        "auto_last": getattr(form, "auto_last", None),
        "as_recorded": getattr(form, "as_recorded", False),
        "deal": deal,
        "action_url": action_url,
        "live_url": live_url,
        "partial": "tournaments/entry/"
        + ("_napoleon_form.html" if napoleon else "_daifugo_form.html"),
    }


def _session(request, club_slug, pk, game) -> GameSession:
    club = club_for_request(request, club_slug, role=Role.SCOREKEEPER)
    session = get_object_or_404(GameSession.objects.select_related("ruleset"),
                                club=club, pk=pk, game=game)  # fmt: skip
    session.club = club  # the row just read, not read again with the session
    return session


def _hand_over(request, session, deal: Deal | None = None):
    """A tournament table's session (``E<t>-R<r>-T<n>``) is recorded and corrected on the
    tournament's table page, with the table's players only: GET goes there, with a message. A
    POST still reaches the services, which refuse what the tournament would not accept."""
    table = session_table(session.pk)
    if table is None:
        return None
    label = f"R{table.round.number}-T{table.number}"
    params = {"tournament": table.round.tournament.name, "table": label}
    if deal is None:
        messages.info(
            request,
            _("This is table %(table)s of the tournament “%(tournament)s”: its deals are "
              "recorded on the table's page, with its players.") % params,
        )  # fmt: skip
        return redirect("tournament_table", table.round.tournament_id, table.pk)
    messages.info(
        request,
        _("This deal belongs to table %(table)s of the tournament “%(tournament)s”: it is "
          "corrected there, with the table's players, and the standings follow.") % params,
    )  # fmt: skip
    return redirect("tournament_deal_correct", table.round.tournament_id, table.pk, deal.pk)


def _entry(request, club_slug, pk, game):
    session = _session(request, club_slug, pk, game)
    refusal = author_refusal(request, user_author(request.user))
    if refusal is not None:  # an outbox item entered by someone else on this phone
        return refusal
    form_class = _form_class(game)
    if request.method == "GET" and (handed := _hand_over(request, session)) is not None:
        return handed
    if request.method == "GET":
        initial = {form_class.player_field: previous_players(session)}
        return _page(request, session, form_class(initial=initial, session=session), None)
    form, row, redirect_to = _handle(request, form_class(request.POST, session=session))
    return _page(request, session, form, row, redirect_to=redirect_to)


def _live(request, club_slug, pk, game):
    session = _session(request, club_slug, pk, game)
    form, row, _redirect = _handle(request, _form_class(game)(request.POST, session=session),
                                   live=True)  # fmt: skip
    return _page(request, session, form, row)


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def deal_new_view(request, club_slug, pk):
    return _entry(request, club_slug, pk, Game.NAPOLEON)


@never_cache
@login_required
@require_POST
def deal_preview_view(request, club_slug, pk):
    return _live(request, club_slug, pk, Game.NAPOLEON)


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def round_new_view(request, club_slug, pk):
    return _entry(request, club_slug, pk, Game.DAIFUGO)


@never_cache
@login_required
@require_POST
def round_preview_view(request, club_slug, pk):
    return _live(request, club_slug, pk, Game.DAIFUGO)


def _deal(request, club_slug, pk) -> Deal:
    club = club_for_request(request, club_slug, role=Role.SCOREKEEPER)
    return get_object_or_404(Deal.objects.select_related("session__club", "session__ruleset"),
                             club=club, pk=pk)  # fmt: skip


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def deal_edit_view(request, club_slug, pk):
    deal = _deal(request, club_slug, pk)
    session = deal.session
    form_class = _form_class(deal.game)
    if request.method == "GET" and (handed := _hand_over(request, session, deal)) is not None:
        return handed
    if request.method == "GET":
        initial = form_class.initial_from_data(deal.data) | {"version": deal.version}
        form = form_class(initial=initial, session=session)
        # The deal's points as recorded now: what the edit starts from.
        row = preview_row(game=session.game, data=deal.data, outcome=deal.outcome,
                          names=form.names)  # fmt: skip
        form.as_recorded = True
        return _page(request, session, form, row, deal=deal)
    form, row, redirect_to = _handle(request, form_class(request.POST, session=session), deal=deal)
    return _page(request, session, form, row, deal=deal, redirect_to=redirect_to)


@login_required
@require_POST
def deal_delete_view(request, club_slug, pk):
    deal = _deal(request, club_slug, pk)
    deal_delete(deal=deal, user=request.user)
    text = (
        _("Deal %(seq)s deleted. Restore it from its row if that was a mistake.")
        if deal.game == Game.NAPOLEON
        else _("Round %(seq)s deleted. Restore it from its row if that was a mistake.")
    )
    messages.success(request, text % {"seq": deal.seq})
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
        text = (
            _("Deal %(seq)s restored.")
            if deal.game == Game.NAPOLEON
            else _("Round %(seq)s restored.")
        )
        messages.success(request, text % {"seq": deal.seq})
    return redirect(back_to_session(deal) + f"#deal-{deal.seq}")


@login_required
@require_safe
def deal_history_view(request, club_slug, pk):
    club = club_for_request(request, club_slug, role=Role.MEMBER)
    deal = get_object_or_404(Deal.objects.select_related("session"), club=club, pk=pk)
    if not deal_visibility(club=club, reader=request.reader).session_visible(deal.session):
        raise Http404  # a frozen round's deal: the session page's own rule
    return render(request, "tournaments/entry/history.html", {
        "club": club, "deal": deal, "session": deal.session, "entries": deal_history(deal),
    })  # fmt: skip
