"""Session pages: the list, starting a session (scorekeepers) and the session page itself."""

from functools import wraps

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe
from django_tables2 import RequestConfig

from core.errors import EfudaError

from ..forms.clubs import SessionForm
from ..forms.entry import add_efuda_error
from ..models import Game, GameSession, Role
from ..permissions import can_manage, can_record, club_for_request
from ..selectors.sessions import club_sessions, session_detail, session_rule_choices
from ..selectors.visibility import deal_visibility
from ..services.sessions import session_start
from ..tables.sessions import SessionTable, session_totals_table
from .cards import session_meta
from .page_cache import SharedParts, cached_page


def entry_url(session: GameSession) -> str:
    name = "deal_new" if session.game == Game.NAPOLEON else "round_new"
    return reverse(name, args=[session.club.slug, session.pk])


@require_safe
def session_list_view(request, club_slug: str):
    club = club_for_request(request, club_slug)
    visibility = deal_visibility(club=club, reader=request.reader)
    table = SessionTable(club_sessions(club=club, visibility=visibility), club=club)
    RequestConfig(request, paginate={"per_page": 20}).configure(table)
    return render(request, "tournaments/sessions/list.html", {
        "club": club, "table": table, "can_record": can_record(request.reader, club),
        "can_manage": can_manage(request.reader, club),
    })  # fmt: skip


@login_required
@require_http_methods(["GET", "POST"])
def session_new_view(request, club_slug: str):
    club = club_for_request(request, club_slug, role=Role.SCOREKEEPER)
    choices = [("", _("Choose the rules this table plays"))] + session_rule_choices(club=club)
    existing = None
    if request.method == "POST":
        form = SessionForm(request.POST, rule_choices=choices)
        if form.is_valid():
            try:
                session = session_start(
                    club=club, rules_code=form.cleaned_data["rules"],
                    date=form.cleaned_data["date"], table=form.cleaned_data["table"],
                    user=request.user,
                )  # fmt: skip
            except EfudaError as err:
                if err.code == "session_exists" and err.params.get("session"):
                    existing = get_object_or_404(
                        GameSession.objects.select_related("ruleset", "club"),
                        club=club, pk=err.params["session"],
                    )  # fmt: skip
                    if existing.ruleset.code == form.cleaned_data["rules"]:
                        # The same table, day and rules: it is the session already started.
                        messages.info(request, _started_text(existing))
                        return redirect(entry_url(existing))
                add_efuda_error(form, err)
            else:
                return redirect(entry_url(session))
    else:
        form = SessionForm(rule_choices=choices)
    return render(request, "tournaments/sessions/new.html", {
        "club": club, "form": form, "existing": existing,
        "existing_url": entry_url(existing) if existing else "",
    })  # fmt: skip


def _started_text(session: GameSession) -> str:
    return _("Table “%(table)s” already has a %(game)s session on %(date)s: it is opened here.") % {
        "table": session.table,
        "game": session.get_game_display(),
        "date": session.date,
    }


def no_store_for_visitors_with_a_session(view):
    """A page a scorekeeper comes back to (Back after a save) is asked again, never shown from
    the browser's cache: ``Cache-Control: no-store`` for anyone with a session (logged in, a
    PIN). Anonymous visitors' pages are left to the page cache as they are."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        response = view(request, *args, **kwargs)
        if settings.SESSION_COOKIE_NAME in request.COOKIES or request.user.is_authenticated:
            add_never_cache_headers(response)
        return response

    return wrapper


@require_safe
@no_store_for_visitors_with_a_session
@cached_page
def session_detail_view(request, club_slug: str, pk: int):
    club = club_for_request(request, club_slug)
    visibility = deal_visibility(club=club, reader=request.reader)
    if pk in visibility.hidden_session_ids:
        # A private tournament's table, a frozen round's: as if it did not exist. Asked for
        # every request (a kept part never stands in for it); nothing to ask when nothing is
        # hidden from this reader.
        raise Http404

    def shared(neutral):  # the session is read only when the page is not kept yet
        session = get_object_or_404(GameSession.objects.select_related("ruleset"), club=club, pk=pk)
        session.club = club  # the club this request read: not joined again
        detail = session_detail(session)
        return {
            "club": club, "session": session, "detail": detail,
            "totals_table": session_totals_table(detail.totals, game=session.game),
            "entry_url": entry_url(session),
            "in_progress": session.date >= timezone.localdate(),
        }  # fmt: skip

    return render(request, "tournaments/sessions/detail.html", {
        "club": club, "shared": SharedParts(request, club, shared, visibility=visibility),
        # the buttons of those who may record: a part kept for them, another for the others
        "can_record": can_record(request.reader, club),
        "share": session_meta(request, club, pk, visibility),  # a public club's, for visitors
    })  # fmt: skip


def back_to_session(deal_or_session) -> str:
    session = getattr(deal_or_session, "session", deal_or_session)
    return reverse("session_detail", args=[session.club.slug, session.pk])
