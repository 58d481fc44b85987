"""The deal visibility rule's parts: the subtraction mirrors the aggregates exactly, the ratings
learn only what every reader sees, and the page cache moves with a freeze and a reveal."""

import re
from collections import defaultdict

import pytest
from django.contrib.auth.models import AnonymousUser
from django.urls import reverse
from django.utils import timezone

from tests import club_versions, factories
from tests.hardening.helpers import build_club, daifugo_data, napoleon_data
from tournaments.models import RatingState, ScoreLine
from tournaments.selectors.standings import LINE_COUNTERS
from tournaments.selectors.visibility import (
    Visibility,
    common_visibility,
    deal_visibility,
)
from tournaments.services import events as ev
from tournaments.services.aggregates import spec_of
from tournaments.services.clubs import club_update
from tournaments.services.deals import deal_record
from tournaments.services.scoring_bridge import counters

pytestmark = pytest.mark.django_db


def test_the_hidden_lines_sums_are_the_aggregates_own_counters():
    """``LINE_COUNTERS`` (SQL) gives, per player, exactly what ``counters`` adds to the
    aggregates line by line, for every counter of both games."""
    club, players, nap, dai = build_club(deals=12)
    ids = [p.id for p in players]
    for n in range(6):  # forbidden finishes and more titles
        deal_record(session=dai, data=daifugo_data(ids, n=n, forbidden=[ids[n % 5]]))
    for game in ("napoleon", "daifugo"):
        expected: dict[int, dict] = defaultdict(lambda: defaultdict(int))
        for line in ScoreLine.objects.filter(club=club, game=game):
            for name, value in counters(spec_of(line)).items():
                expected[line.player_id][name] += value
        rows = (
            ScoreLine.objects.filter(club=club, game=game)
            .values("player_id")
            .annotate(**LINE_COUNTERS)
            .order_by()
        )
        got = {r.pop("player_id"): {k: v for k, v in r.items() if v} for r in rows}
        assert got == {p: {k: v for k, v in c.items() if v} for p, c in expected.items()}, game
        exercised = {name for c in expected.values() for name in c}
        if game == "napoleon":
            assert {"wins", "napoleon_wins", "solo_deals", "adjutant_deals"} <= exercised
        else:
            assert {"title_daifugo", "title_daihinmin", "forbidden"} <= exercised


@pytest.fixture
def frozen_event(db):
    """A public club's public tournament of two rounds, the last one hidden: round 1 played,
    round 2 drawn (not started)."""
    club = factories.ClubFactory(is_public=True)
    owner = factories.UserFactory(username="vis-owner")
    factories.MembershipFactory(club=club, user=owner, role="owner")
    wiki = factories.ClubRuleSetFactory(club=club, code="napoleon-wiki", preset="napoleon-wiki")
    t = ev.tournament_create(
        club=club, name="秋", date=timezone.localdate(), ruleset=wiki, rounds_planned=2,
        is_public=True, seed=1, user=owner,
    )  # fmt: skip
    for i in range(5):
        ev.entry_add(tournament=t, name=f"選手{i}", checked_in=True)
    ev.tournament_freeze_set(tournament=t, hidden_rounds=1, user=owner)
    first = ev.round_draw(tournament=t)
    ev.round_start(rnd=first)
    table = first.tables.get()
    for n in range(2):
        ev.table_deal_record(table=table, data=napoleon_data(table.seats, n=n), staff=True)
    ev.round_finish(rnd=first)
    return club, owner, t


def _start_second_round(t):
    rnd = ev.round_draw(tournament=t)
    ev.round_start(rnd=rnd)
    table = rnd.tables.get()
    for n in range(3):
        ev.table_deal_record(table=table, data=napoleon_data(table.seats, n=n + 5), staff=True)
    return table


def _page(client, url) -> str:
    """The page without its per-response CSRF token."""
    text = client.get(url).content.decode()
    text = re.sub(r'"X-CSRFToken": "[^"]*"', "", text)
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", text)


def test_freeze_and_reveal_move_the_cached_pages(client, frozen_event, django_assert_num_queries):
    club, owner, t = frozen_event
    listing = reverse("session_list", args=[club.slug])
    standings = reverse("standings_all", args=[club.slug, "napoleon"])
    client.get(standings)
    with django_assert_num_queries(1):  # from the cache: only the club's version is read
        before = _page(client, standings)
    table = _start_second_round(t)
    session_url = f"/c/{club.slug}/sessions/{table.session_id}/"
    frozen = _page(client, standings)
    assert frozen == before  # the round's deals are hidden: the same figures (a fresh render)
    assert session_url not in client.get(listing).content.decode()
    assert client.get(session_url).status_code == 404
    ev.tournament_standings_reveal(tournament=t, user=owner)
    assert _page(client, standings) != frozen
    assert session_url in client.get(listing).content.decode()
    assert client.get(session_url).status_code == 200
    # set again: hidden again, on the cached pages too
    ev.tournament_freeze_set(tournament=t, hidden_rounds=1, user=owner)
    assert _page(client, standings) == frozen
    assert client.get(session_url).status_code == 404


def test_ratings_learn_a_hidden_round_only_once_revealed(
    frozen_event, django_capture_on_commit_callbacks
):
    club, owner, t = frozen_event

    def rated():
        state = RatingState.objects.filter(club=club, game="napoleon").first()
        return state.deals if state else 0

    assert rated() == 2
    _start_second_round(t)
    assert rated() == 2  # recorded during the freeze: not learned
    with django_capture_on_commit_callbacks(execute=True):
        ev.tournament_standings_reveal(tournament=t, user=owner)
    assert rated() == 5
    with django_capture_on_commit_callbacks(execute=True):
        ev.tournament_freeze_set(tournament=t, hidden_rounds=1, user=owner)
    assert rated() == 2  # hidden again: unlearned by the replay
    # a private tournament's deals: rated while the club is private, not once it is public
    with django_capture_on_commit_callbacks(execute=True):
        ev.tournament_freeze_set(tournament=t, hidden_rounds=0, user=owner)
    assert rated() == 5
    with club_versions.unchecked():  # made private by site staff (the admin moves the version)
        type(t).objects.filter(pk=t.pk).update(is_public=False)
    with django_capture_on_commit_callbacks(execute=True):
        club_update(club=club, name=club.name, is_public=False)
    assert rated() == 5
    with django_capture_on_commit_callbacks(execute=True):
        club_update(club=club, name=club.name, is_public=True)
    assert rated() == 0
    assert common_visibility(club_id=club.pk).private_hidden


def test_who_sees_what(frozen_event):
    club, owner, t = frozen_event
    _start_second_round(t)
    member = factories.UserFactory(username="vis-member")
    factories.MembershipFactory(club=club, user=member, role="member")
    helper = factories.UserFactory(username="vis-helper")
    factories.MembershipFactory(club=club, user=helper, role="member")
    ev.tournament_staff_add(tournament=t, who="vis-helper")
    assert deal_visibility(club=club, reader=owner).everything
    assert deal_visibility(club=club, reader=helper).everything  # the tournament's staff
    hidden = deal_visibility(club=club, reader=member)
    assert hidden.frozen == ((t.pk, 1),) and not hidden.private_hidden
    assert deal_visibility(club=club, reader=AnonymousUser()) == hidden
    # the extra staff's right lasts only while they are a member
    with club_versions.unchecked():  # no service: the extra-staff row stays
        helper.memberships.all().delete()
    helper = type(helper).objects.get(pk=helper.pk)  # a new request
    assert deal_visibility(club=club, reader=helper) == hidden
    assert Visibility(club_id=club.pk).key == "all" and hidden.key != "all"


def test_hidden_lines_of_a_period_are_those_of_its_sessions_dates():
    """A period's hidden lines are picked by their date (the lines keep no month)."""
    from django.db.models import Q

    from tournaments.selectors.standings import Period, period_lines

    assert period_lines(Period.of(2025, 12)) == Q(date__year=2025, date__month=12)
    assert period_lines(Period.of(2026, 1)) == Q(date__year=2026, date__month=1)
    assert period_lines(Period.of(2026)) == Q(date__year=2026)
    assert period_lines(Period.of()) == Q()
