"""Club reads: which clubs the front page lists, and what a club's owners manage."""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.urls import reverse

from tests import factories
from tournaments.selectors.clubs import club_admin, clubs_visible
from tournaments.services.players import player_set_active


@pytest.fixture
def clubs(db):
    open_ = factories.ClubFactory(slug="open", name="Open club", is_public=True)
    closed = factories.ClubFactory(slug="closed", name="Closed club", is_public=False)
    other = factories.ClubFactory(slug="other", name="Other closed club", is_public=False)
    return open_, closed, other


def test_front_page_lists_public_clubs_own_clubs_and_everything_for_staff(clubs):
    open_, closed, other = clubs
    member = factories.UserFactory(username="member-x")
    for club in (open_, closed):  # a member of a public club must not see it twice
        factories.MembershipFactory(club=club, user=member, role="member")
    factories.MembershipFactory(club=open_, user=factories.UserFactory(), role="member")
    staff = factories.UserFactory(username="staff-x", is_superuser=True)
    assert list(clubs_visible(user=AnonymousUser())) == [open_]
    assert list(clubs_visible(user=factories.UserFactory())) == [open_]
    assert list(clubs_visible(user=member)) == [closed, open_]
    assert list(clubs_visible(user=staff)) == [closed, open_, other]


def test_front_page_shows_the_visible_clubs(client, clubs):
    html = client.get(reverse("home")).content.decode()
    assert "Open club" in html and "Closed club" not in html


def test_club_admin_lists_members_players_and_rule_sets(club, users, players):
    factories.ClubRuleSetFactory(club=club, code="b-rules", preset="napoleon-wiki")
    factories.ClubRuleSetFactory(club=club, code="a-rules", preset="daifugo-common")
    player_set_active(player=players[0], active=False)
    admin = club_admin(club=club)
    assert [m.user.username for m in admin.memberships] == sorted(
        ["owner-user", "scorekeeper-user", "member-user"]
    )
    assert admin.players[-1] == players[0]  # inactive players last
    assert [r.code for r in admin.rulesets] == ["a-rules", "b-rules"]
