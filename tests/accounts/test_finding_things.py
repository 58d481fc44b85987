"""Every task reachable from where a person looks: the club home shows owners and scorekeepers
their tools, an owner sees and is mailed the claims waiting for them, a member sees their claim
waiting instead of being asked again, and a new account is offered a club or an invitation."""

import pytest
from django.test import Client
from django.urls import reverse

from tests import factories
from tournaments.services.claims import player_claim

pytestmark = pytest.mark.django_db


def _client(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def test_the_club_home_shows_each_role_its_tools(club, users, english):
    home = reverse("club_home", args=[club.slug])
    pages = {role: _client(users[role]).get(home).content.decode() for role in users}
    owner_links = [reverse(n, args=[club.slug]) for n in (
        "session_new", "session_list", "tournament_list", "results_export", "club_invitations",
        "manage_import", "player_merge", "club_manage")]  # fmt: skip
    for link in owner_links:
        assert f'href="{link}' in pages["owner"], link
    for link in owner_links[:4]:
        assert f'href="{link}' in pages["scorekeeper"], link
    for link in owner_links[4:]:
        assert f'href="{link}' not in pages["scorekeeper"], link
    for role in ("member",):
        for link in (owner_links[0], owner_links[3], owner_links[5]):
            assert f'href="{link}' not in pages[role], link
    assert "Club tools" in pages["scorekeeper"] and "Club tools" not in pages["member"]


def test_a_claim_is_counted_for_the_owner_mailed_and_shown_to_the_member(
    club, users, mailoutbox, english, django_capture_on_commit_callbacks
):
    owner, member = users["owner"], users["member"]
    owner.email = "owner@example.org"
    owner.save()
    player = factories.PlayerFactory(club=club, name="花子")
    with django_capture_on_commit_callbacks(execute=True):
        player_claim(club=club, user=member, player=player)
    # The owner is told by mail, naming the club and the player, with the way to confirm.
    assert len(mailoutbox) == 1 and mailoutbox[0].to == ["owner@example.org"]
    mail = mailoutbox[0]
    assert club.name in mail.subject and "花子" in mail.body
    assert reverse("club_invitations", args=[club.slug]) in mail.body
    # The club home and the manage page count it for the owner.
    home = reverse("club_home", args=[club.slug])
    page = _client(owner).get(home).content.decode()
    assert "1 person is waiting for you to confirm which player they are." in page
    manage = _client(owner).get(reverse("club_manage", args=[club.slug])).content.decode()
    assert "1 person is waiting for you to confirm" in manage
    # The member's home says it waits; it no longer asks which player they are.
    mine = _client(member).get(home).content.decode()
    assert "waiting for an owner of the club to confirm it" in mine and "花子" in mine
    assert "Which player are you?" not in mine
    # Their own page keeps the choice behind "choose again", with nobody preselected.
    me = _client(member).get(reverse("club_me", args=[club.slug])).content.decode()
    assert "Chose the wrong player? Choose again" in me
    select = me.split('name="player"', 1)[1].split("</select>", 1)[0]
    assert '<option value="" selected>' in select and select.count(" selected") == 1


def test_this_is_me_starts_with_nobody_chosen(club, users, english):
    factories.PlayerFactory(club=club, name="太郎")
    client = _client(users["member"])
    page = client.get(reverse("club_me", args=[club.slug])).content.decode()
    select = page.split('name="player"', 1)[1].split("</select>", 1)[0]
    assert '<option value="" selected>' in select
    response = client.post(reverse("player_claim", args=[club.slug]), {"player": ""})
    assert response.status_code == 400 and "Choose the player you are." in response.content.decode()


def test_a_new_account_is_offered_a_club_or_an_invitation(club, english):
    owner = factories.UserFactory(username="inviter")
    factories.MembershipFactory(club=club, user=owner, role="owner")
    from tournaments.services.invitations import invitation_create

    invitation = invitation_create(club=club, by=owner, role="member", max_uses=3, days=7)
    newcomer = _client(factories.UserFactory(username="newcomer"))
    landing = newcomer.get(reverse("after_login"), follow=True).content.decode()
    assert "Welcome to efuda" in landing
    assert f'href="{reverse("club_new")}"' in landing
    assert f'href="{reverse("invitation_find")}"' in landing
    # The whole link, or only its code, leads to the invitation.
    link = "https://scores.example.org" + reverse("invitation_open", args=[invitation.token])
    for text in (link, invitation.token):
        found = newcomer.get(reverse("invitation_find"), {"link": text})
        assert found.status_code == 302
        assert found["Location"] == reverse("invitation_open", args=[invitation.token])
    wrong = newcomer.get(reverse("invitation_find"), {"link": "https://example.org/nothing"})
    assert wrong.status_code == 400 and "This is not an invitation" in wrong.content.decode()


def test_my_clubs_links_an_owner_to_the_management(club, users, english):
    page = _client(users["owner"]).get(reverse("my_clubs")).content.decode()
    assert f'href="{reverse("club_manage", args=[club.slug])}"' in page
    page = _client(users["member"]).get(reverse("my_clubs")).content.decode()
    assert reverse("club_manage", args=[club.slug]) not in page
