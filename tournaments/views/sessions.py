"""Session pages: the list, starting a session (scorekeepers) and the session page itself."""

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
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
from ..tables.sessions import SessionTable, SessionTotalsTable
from .page_cache import cached_page


def entry_url(session: GameSession) -> str:
    name = "deal_new" if session.game == Game.NAPOLEON else "round_new"
    return reverse(name, args=[session.club.slug, session.pk])


@require_safe
def session_list_view(request, club_slug: str):
    club = club_for_request(request, club_slug)
    visibility = deal_visibility(club=club, user=request.user)
    table = SessionTable(club_sessions(club=club, visibility=visibility), club=club)
    RequestConfig(request, paginate={"per_page": 20}).configure(table)
    return render(request, "tournaments/sessions/list.html", {
        "club": club, "table": table, "can_record": can_record(request.user, club),
        "can_manage": can_manage(request.user, club),
    })  # fmt: skip


@login_required
@require_http_methods(["GET", "POST"])
def session_new_view(request, club_slug: str):
    club = club_for_request(request, club_slug, role=Role.SCOREKEEPER)
    choices = [("", _("Choose the rules this table plays"))] + session_rule_choices(club=club)
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
                add_efuda_error(form, err)
            else:
                return redirect(entry_url(session))
    else:
        form = SessionForm(rule_choices=choices)
    return render(request, "tournaments/sessions/new.html", {"club": club, "form": form})


@require_safe
@cached_page
def session_detail_view(request, club_slug: str, pk: int):
    club = club_for_request(request, club_slug)
    session = get_object_or_404(GameSession.objects.select_related("ruleset", "club"),
                                club=club, pk=pk)  # fmt: skip
    if not deal_visibility(club=club, user=request.user).session_visible(session):
        raise Http404  # a private tournament's table, a frozen round's: as if it did not exist
    detail = session_detail(session)
    totals = SessionTotalsTable(detail.totals)
    return render(request, "tournaments/sessions/detail.html", {
        "club": club, "session": session, "detail": detail, "totals_table": totals,
        "can_record": can_record(request.user, club), "entry_url": entry_url(session),
    })  # fmt: skip


def back_to_session(deal_or_session) -> str:
    session = getattr(deal_or_session, "session", deal_or_session)
    return reverse("session_detail", args=[session.club.slug, session.pk])
