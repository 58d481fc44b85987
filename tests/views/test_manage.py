"""Club management by owners, and founding a club."""

import pytest
from django.urls import reverse

from tournaments.models import Club, ClubRuleSet, Membership, Player

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner(client, users):
    client.force_login(users["owner"])
    return client


def test_the_last_owner_cannot_leave_or_step_down(owner, club, users):
    mine = Membership.objects.get(club=club, user=users["owner"])
    owner.post(reverse("member_remove", args=[club.slug, mine.pk]))
    owner.post(reverse("member_role", args=[club.slug, mine.pk]), {"role": "member"})
    mine.refresh_from_db()
    assert mine.role == "owner"
    page = owner.get(reverse("club_manage", args=[club.slug])).content.decode()
    assert "owner" in page
    # With a second owner, the first may step down.
    other = Membership.objects.get(club=club, user=users["member"])
    owner.post(reverse("member_role", args=[club.slug, other.pk]), {"role": "owner"})
    owner.post(reverse("member_role", args=[club.slug, mine.pk]), {"role": "member"})
    mine.refresh_from_db()
    assert mine.role == "member"


def test_add_member_by_username(owner, club):
    from tests.factories import UserFactory

    UserFactory(username="newbie")
    response = owner.post(
        reverse("member_add", args=[club.slug]), {"username": "nobody-here", "role": "member"}
    )
    assert response.status_code == 400 and "nobody-here" in response.content.decode()
    owner.post(
        reverse("member_add", args=[club.slug]), {"username": "newbie", "role": "scorekeeper"}
    )
    assert Membership.objects.get(club=club, user__username="newbie").role == "scorekeeper"


def test_rename_checks_names(owner, club, players):
    url = reverse("player_rename", args=[club.slug, players[0].pk])
    owner.post(url, {"name": "bad\u202ename"})
    owner.post(url, {"name": players[1].name})
    players[0].refresh_from_db()
    assert players[0].name == "太郎"
    owner.post(url, {"name": "  タロウ  "})
    players[0].refresh_from_db()
    assert players[0].name == "タロウ"


def test_deactivate_hides_from_entry(owner, club, players, napoleon_session):
    owner.post(reverse("player_active", args=[club.slug, players[5].pk]), {"active": "0"})
    assert not Player.objects.get(pk=players[5].pk).active
    html = owner.get(reverse("deal_new", args=[club.slug, napoleon_session.pk])).content.decode()
    assert f'name="seats" value="{players[5].pk}"' not in html
    assert f'name="seats" value="{players[4].pk}"' in html


def test_ruleset_option_error_beside_option(owner, club):
    url = reverse("ruleset_new", args=[club.slug])
    html = owner.get(url + "?preset=napoleon-wiki").content.decode()
    assert 'name="options.min_bid"' in html and 'name="options.discard_policy"' in html
    response = owner.post(
        url, {"code": "house", "preset": "napoleon-wiki", "options.min_bid": "25", "action": "save"}
    )
    html = response.content.decode()
    assert not ClubRuleSet.objects.filter(code="house").exists()
    option_block = html.split('name="options.min_bid"')[1].split("<label")[0]
    assert "field-error" in option_block
    owner.post(
        url,
        {
            "code": "house",
            "preset": "napoleon-wiki",
            "options.min_bid": "12",
            "options.discard_policy": "last_trick",
            "action": "save",
        },
    )
    ruleset = ClubRuleSet.objects.get(club=club, code="house")
    assert ruleset.options == {"min_bid": 12, "discard_policy": "last_trick"}


def test_club_settings_and_publishing(owner, club):
    owner.post(
        reverse("club_settings", args=[club.slug]), {"name": "新しい名前", "is_public": "on"}
    )
    club.refresh_from_db()
    assert club.name == "新しい名前" and club.is_public


def test_found_a_club(client, users):
    client.force_login(users["outsider"])
    response = client.post(reverse("club_new"), {"slug": "new-club", "name": "新クラブ"})
    assert response.status_code == 302
    club = Club.objects.get(slug="new-club")
    assert Membership.objects.get(club=club).role == "owner"
    again = client.post(reverse("club_new"), {"slug": "new-club", "name": "x"})
    assert "new-club" in again.content.decode() and Club.objects.count() == 2
