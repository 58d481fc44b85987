"""Each page asks the same number of queries whatever the club's history (docs/performance.md):
the same pages read on a small club and again after months more of deals, recorded through the
services as the entry form records them, ask exactly as many queries, for a visitor, a member
and a scorekeeper. Each read is afresh (the kept pages and parts emptied first), as the first
read after a deal is."""

import datetime

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests import factories
from tests.selectors.data import club_with_history, daifugo, napoleon
from tests.views.helpers import napoleon_post
from tournaments.models import Deal, ScoreLine

pytestmark = pytest.mark.django_db


def _pages(club, history) -> dict[str, str]:
    slug, november = club.slug, history["november"]
    return {
        "standings_all": reverse("standings_all", args=[slug, "napoleon"]),
        "standings_month": reverse("standings_month", args=[slug, "napoleon", 2026, "11"]),
        "session": reverse("session_detail", args=[slug, november.pk]),
        "player": reverse("player_detail", args=[slug, history["players"][0].pk]),
        "ratings": reverse("ratings", args=[slug, "napoleon"]),
        "ratings_daifugo": reverse("ratings", args=[slug, "daifugo"]),
        "session_pdf": reverse("session_sheet_pdf", args=[slug, november.pk]),
    }


def _counts(client, pages: dict[str, str]) -> dict[str, int]:
    counts = {}
    for name, url in pages.items():
        cache.clear()  # afresh: nothing kept serves it
        with CaptureQueriesContext(connection) as ctx:
            response = client.get(url)
        assert response.status_code == 200, (name, response.status_code)
        counts[name] = len(ctx.captured_queries)
    return counts


def _grow(club, history, months: int) -> None:
    """``months`` more months of club evenings before the history's own: new players among the
    old ones, five Napoleon deals and three Daifugō rounds a month."""
    players = history["players"] + [
        factories.PlayerFactory(club=club, name=f"新人{i}") for i in range(4)
    ]
    for m in range(months):
        day = datetime.date(2026, 9, 1) - datetime.timedelta(days=30 * m)
        table = factories.session(club=club, ruleset=history["nap_rules"], date=day)
        for d in range(5):
            seats = [players[(m + d + k) % len(players)] for k in range(5)]
            napoleon(table, seats, napoleon=seats[d % 5], adjutant=seats[(d + 2) % 5],
                     honours=10 + (m + d) % 8)  # fmt: skip
        rounds = factories.session(club=club, ruleset=history["dai_rules"], date=day)
        four = [players[(m + k) % len(players)] for k in range(4)]
        for r in range(3):
            daifugo(rounds, four[r:] + four[:r])


def _clients(club) -> dict[str, Client]:
    clients = {"visitor": Client()}
    for role in ("member", "scorekeeper"):
        user = factories.UserFactory(username=f"{role}-flat")
        factories.MembershipFactory(club=club, user=user, role=role)
        clients[role] = Client()
        clients[role].force_login(user)
    return clients


def test_page_queries_stay_flat_as_history_grows(public_club):
    history = club_with_history(public_club)
    pages = _pages(public_club, history)
    clients = _clients(public_club)
    small = {who: _counts(c, pages) for who, c in clients.items()}
    lines_before = ScoreLine.objects.filter(session__club=public_club).count()
    _grow(public_club, history, months=8)
    assert ScoreLine.objects.filter(session__club=public_club).count() >= 4 * lines_before
    bigger = {who: _counts(c, pages) for who, c in clients.items()}
    assert bigger == small


def _record(client, url, players, honours) -> int:
    with CaptureQueriesContext(connection) as ctx:
        response = client.post(url, napoleon_post(players, honours=honours))
    assert response.status_code == 302
    return len(ctx.captured_queries)


def test_recording_a_deal_asks_as_many_queries_after_months_of_history(public_club):
    history = club_with_history(public_club)
    keeper = _clients(public_club)["scorekeeper"]
    today = factories.session(club=public_club, ruleset=history["nap_rules"],
                              date=datetime.date(2026, 11, 20), table="T")  # fmt: skip
    url = reverse("deal_new", args=[public_club.slug, today.pk])
    players = history["players"] + [factories.PlayerFactory(club=public_club, name="六人目")]
    _record(keeper, url, players, 12)  # the session's first deal
    small = _record(keeper, url, players, 13)
    _grow(public_club, history, months=8)
    assert _record(keeper, url, players, 14) == small
    assert Deal.objects.filter(session=today).count() == 3
