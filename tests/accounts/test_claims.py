""" "This is me": claims, the one-account-per-player rule, my standing, my clubs, display name."""

import pytest
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse

from core.errors import EfudaError
from tests import club_versions, factories
from tests.hardening.helpers import napoleon_data
from tournaments.models import ClaimStatus, Membership, Player, PlayerClaim
from tournaments.services.claims import claim_confirm, claim_reject, player_claim
from tournaments.services.deals import deal_record

pytestmark = pytest.mark.django_db


def test_claim_waits_for_the_owner_then_links(club, users, players):
    claim = player_claim(club=club, user=users["member"], player=players[1])
    assert claim.status == ClaimStatus.PENDING
    players[1].refresh_from_db()
    assert players[1].user is None
    claim_confirm(claim=claim, by=users["owner"])
    players[1].refresh_from_db()
    assert players[1].user == users["member"]
    assert players[1].history.latest("history_date").history_change_reason == f"claim {claim.pk}"


def test_a_player_cannot_be_claimed_twice(club, users, players):
    first = player_claim(club=club, user=users["member"], player=players[0])
    second = player_claim(club=club, user=users["scorekeeper"], player=players[0])
    claim_confirm(claim=first, by=users["owner"])
    second.refresh_from_db()
    assert second.status == ClaimStatus.REJECTED  # the other waiting claim is turned down
    with pytest.raises(EfudaError) as err:
        player_claim(club=club, user=users["scorekeeper"], player=players[0])
    assert err.value.code == "claim_player_taken"
    with pytest.raises(EfudaError) as err:  # nor can one account be two players of a club
        player_claim(club=club, user=users["member"], player=players[2])
    assert err.value.code == "claim_already_linked"
    assert Player.objects.get(pk=players[0].pk).user == users["member"]


def test_database_refuses_one_account_as_two_players(club, users, players):
    with club_versions.unchecked():  # the constraint itself, below the services
        Player.objects.filter(pk=players[0].pk).update(user=users["member"])
        with pytest.raises(IntegrityError), transaction.atomic():
            Player.objects.filter(pk=players[1].pk).update(user=users["member"])


def test_competing_claim_confirmed_late_is_refused(club, users, players):
    a = player_claim(club=club, user=users["member"], player=players[0])
    b = player_claim(club=club, user=users["scorekeeper"], player=players[0])
    with club_versions.unchecked():  # b still pending, as in a request that read it earlier
        PlayerClaim.objects.filter(pk=b.pk).update(status=ClaimStatus.PENDING)
    claim_confirm(claim=a, by=users["owner"])
    with club_versions.unchecked():
        PlayerClaim.objects.filter(pk=b.pk).update(status=ClaimStatus.PENDING)
    with pytest.raises(EfudaError) as err:
        claim_confirm(claim=b, by=users["owner"])
    assert err.value.code == "claim_player_taken"
    with pytest.raises(EfudaError):
        claim_reject(claim=a, by=users["owner"])  # decided already


def test_outsiders_cannot_claim_and_owners_claim_at_once(club, users, players):
    with pytest.raises(EfudaError) as err:
        player_claim(club=club, user=users["outsider"], player=players[0])
    assert err.value.code == "claim_not_member"
    claim = player_claim(club=club, user=users["owner"], player=players[3])
    assert claim.status == ClaimStatus.CONFIRMED


def test_claim_through_the_pages(club, users, players, english):
    client = Client()
    client.force_login(users["member"])
    me = reverse("club_me", args=[club.slug])
    page = client.get(me).content.decode()
    assert "This is me" in page and "<h1>My membership</h1>" in page
    assert "Me in this club" not in page + client.get(reverse("my_clubs")).content.decode()
    response = client.post(reverse("player_claim", args=[club.slug]), {"player": players[2].pk})
    assert response.status_code == 302
    claim = PlayerClaim.objects.get(user=users["member"])
    owner = Client()
    owner.force_login(users["owner"])
    page = owner.get(reverse("club_invitations", args=[club.slug])).content.decode()
    assert "says they are" in page
    assert owner.post(reverse("claim_confirm", args=[club.slug, claim.pk])).status_code == 302
    assert Player.objects.get(pk=players[2].pk).user == users["member"]
    # A second person is refused beside the field, nothing changes.
    other = Client()
    other.force_login(users["scorekeeper"])
    response = other.post(reverse("player_claim", args=[club.slug]), {"player": players[2].pk})
    assert response.status_code == 400
    assert Player.objects.get(pk=players[2].pk).user == users["member"]


def test_club_home_shows_my_standing_last_session_and_recent_deals(
    club, users, players, napoleon_session, english
):
    ids = [p.id for p in players[:5]]
    for n in range(3):
        deal_record(session=napoleon_session, data=napoleon_data(ids, n=n))
    claim_confirm(
        claim=player_claim(club=club, user=users["member"], player=players[0]), by=users["owner"]
    )
    client = Client()
    client.force_login(users["member"])
    response = client.get(reverse("club_home", args=[club.slug]))
    html = response.content.decode()
    assert 'id="my-standing"' in html and "My last session" in html and "Recently played" in html
    assert napoleon_session.date.strftime("%Y-%m-%d") in html
    # Not linked: an invitation to say which player one is, no standing.
    client.force_login(users["scorekeeper"])
    html = client.get(reverse("club_home", args=[club.slug])).content.decode()
    assert 'id="my-standing"' not in html and reverse("club_me", args=[club.slug]) in html


def test_my_clubs_lists_every_club_and_display_name(club, users, players, english):
    second = factories.ClubFactory(name="大富豪の会")
    factories.MembershipFactory(club=second, user=users["member"], role="scorekeeper")
    client = Client()
    client.force_login(users["member"])
    html = client.get(reverse("my_clubs")).content.decode()
    assert club.name in html and "大富豪の会" in html and "Scorekeeper" in html
    assert html.count(">My membership</a>") == 2
    response = client.post(reverse("display_name", args=[club.slug]), {"display_name": " ゆき "})
    assert response.status_code == 302
    assert Membership.objects.get(club=club, user=users["member"]).display_name == "ゆき"
    bad = client.post(reverse("display_name", args=[club.slug]), {"display_name": "a\x00b"})
    assert bad.status_code == 400
    assert Membership.objects.get(club=club, user=users["member"]).display_name == "ゆき"
