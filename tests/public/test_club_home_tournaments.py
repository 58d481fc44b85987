"""The club home lists upcoming tournaments; a private tournament shows only to club members."""

import datetime

import pytest
from django.urls import reverse

from tests import factories
from tournaments.services.events import tournament_create

TODAY = datetime.date(2026, 11, 23)


@pytest.fixture
def tournaments(public_club):
    ruleset = factories.ClubRuleSetFactory(
        club=public_club, code="napoleon-wiki", preset="napoleon-wiki"
    )

    def make(name, date, is_public):
        return tournament_create(
            club=public_club, name=name, date=date, ruleset=ruleset, is_public=is_public
        )

    return {
        "open": make("Open cup", TODAY + datetime.timedelta(days=3), True),
        "closed": make("Members' league", TODAY + datetime.timedelta(days=5), False),
        "past": make("Last year's cup", TODAY - datetime.timedelta(days=300), True),
    }


@pytest.fixture
def today(monkeypatch):
    monkeypatch.setattr("django.utils.timezone.localdate", lambda *a, **k: TODAY)


@pytest.mark.django_db
@pytest.mark.parametrize("who", [None, "outsider"])
def test_public_club_home_hides_private_tournaments_from_outsiders(
    client, public_club, tournaments, today, who
):
    if who:
        client.force_login(factories.UserFactory(username="passer-by"))
    page = client.get(reverse("club_home", args=[public_club.slug]))
    assert page.status_code == 200
    html = page.content.decode()
    assert "Open cup" in html
    assert reverse("tournament_detail", args=[tournaments["open"].pk]) in html
    assert "Members&#x27; league" not in html and "Members' league" not in html
    assert reverse("tournament_detail", args=[tournaments["closed"].pk]) not in html
    assert "Last year" not in html


@pytest.mark.django_db
def test_members_see_their_clubs_private_tournaments_on_its_home(
    client, public_club, tournaments, today
):
    member = factories.UserFactory(username="club-member")
    factories.MembershipFactory(club=public_club, user=member, role="member")
    client.force_login(member)
    html = client.get(reverse("club_home", args=[public_club.slug])).content.decode()
    assert "Open cup" in html
    assert reverse("tournament_detail", args=[tournaments["closed"].pk]) in html
    assert "Last year" not in html
