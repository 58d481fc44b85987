"""Invitations: created by owners, opened by anyone, refused when used up, expired or revoked."""

import datetime
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from core.errors import EfudaError
from tests import club_versions, factories
from tournaments.models import Invitation, Membership
from tournaments.services.invitations import (
    invitation_accept,
    invitation_create,
    invitation_reissue,
    invitation_revoke,
)

pytestmark = pytest.mark.django_db


def _join(invitation, username):
    client = Client()
    client.force_login(factories.UserFactory(username=username))
    return client, client.post(reverse("invitation_open", args=[invitation.token]))


def test_owner_creates_an_invitation_with_link_and_qr_code(club, owner, settings, english):
    settings.SITE_URL = "https://scores.example.org"
    client = Client()
    client.force_login(owner)
    response = client.post(
        reverse("invitation_create", args=[club.slug]),
        {"role": "scorekeeper", "max_uses": 3, "days": 5, "note": "Tuesday table"},
    )
    assert response.status_code == 302
    invitation = Invitation.objects.get(club=club)
    assert (invitation.role, invitation.max_uses, invitation.uses) == ("scorekeeper", 3, 0)
    assert invitation.expires_at - timezone.now() > datetime.timedelta(days=4, hours=23)
    page = client.get(reverse("club_invitations", args=[club.slug])).content.decode()
    assert f"https://scores.example.org/invite/{invitation.token}/" in page
    qr = page[page.index("<svg") : page.index("</svg>")]
    assert "<script" not in qr and "style=" not in qr and "on" not in qr.split(">")[0].split()


def test_invitation_joins_the_club_with_its_role_and_history_says_who_invited(
    club, owner, make_invitation
):
    invitation = make_invitation(role="scorekeeper", max_uses=2)
    client, response = _join(invitation, "newcomer")
    assert response.status_code == 302
    assert response["Location"] == reverse("club_home", args=[club.slug])
    membership = Membership.objects.get(club=club, user__username="newcomer")
    assert membership.role == "scorekeeper" and membership.invited_by == owner
    assert membership.invitation == invitation
    invitation.refresh_from_db()
    assert invitation.uses == 1
    joined = membership.history.earliest("history_date")
    assert joined.history_type == "+" and joined.invited_by_id == owner.id
    assert joined.history_user.username == "newcomer"


@pytest.mark.parametrize("how", ["used", "expired", "revoked"])
def test_unusable_invitations_are_refused_with_a_clear_message(
    club, owner, make_invitation, how, english
):
    invitation = make_invitation(role="member", max_uses=1)
    if how == "used":
        _join(invitation, "first")
        expected = "already been used by everyone it was for (1)"
    elif how == "expired":
        with club_versions.unchecked():  # its time ran out
            Invitation.objects.filter(pk=invitation.pk).update(
                expires_at=timezone.now() - datetime.timedelta(minutes=1)
            )
        expected = "This invitation expired on"
    else:
        invitation_revoke(invitation=invitation, by=owner)
        expected = "withdrawn by the club"
    members_before = Membership.objects.count()
    # Opening it says so (and offers no way to join) ...
    page = Client().get(reverse("invitation_open", args=[invitation.token]))
    assert page.status_code == 410 and expected in page.content.decode()
    assert "signup/?next=" not in page.content.decode()
    # ... and joining is refused, nothing changes.
    client, response = _join(invitation, "latecomer")
    assert response.status_code == 400 and expected in response.content.decode()
    assert Membership.objects.count() == members_before
    invitation.refresh_from_db()
    assert invitation.uses <= 1


def test_service_refuses_unusable_invitation(club, owner, make_invitation):
    invitation = make_invitation(max_uses=1)
    invitation_accept(invitation=invitation, user=factories.UserFactory())
    with pytest.raises(EfudaError) as err:
        invitation_accept(invitation=invitation, user=factories.UserFactory())
    assert err.value.code == "invitation_used"


def test_a_member_cannot_invite(club, users):
    client = Client()
    client.force_login(users["member"])
    url = reverse("invitation_create", args=[club.slug])
    assert client.post(url, {"role": "member", "max_uses": 1, "days": 7}).status_code == 403
    assert client.get(reverse("club_invitations", args=[club.slug])).status_code == 403
    client.force_login(users["scorekeeper"])
    assert client.post(url, {"role": "member", "max_uses": 1, "days": 7}).status_code == 403
    assert not Invitation.objects.exists()


def test_no_owner_invitations_and_bad_numbers_are_refused(club, owner):
    for kwargs, code in (
        ({"role": "owner", "max_uses": 1, "days": 1}, "invitation_role"),
        ({"role": "member", "max_uses": 0, "days": 1}, "invitation_uses"),
        ({"role": "member", "max_uses": 1, "days": 400}, "invitation_days"),
    ):
        with pytest.raises(EfudaError) as err:
            invitation_create(club=club, by=owner, **kwargs)
        assert err.value.code == code
    client = Client()
    client.force_login(owner)
    response = client.post(
        reverse("invitation_create", args=[club.slug]), {"role": "owner", "max_uses": 1, "days": 1}
    )
    assert response.status_code == 400 and not Invitation.objects.exists()


def test_reissue_withdraws_the_old_link(club, owner, make_invitation):
    old = make_invitation(role="member", max_uses=4)
    new = invitation_reissue(invitation=old, by=owner)
    old.refresh_from_db()
    assert old.revoked_at is not None and new.reissued_from == old
    assert (new.role, new.max_uses, new.uses) == ("member", 4, 0) and new.token != old.token
    _client, response = _join(new, "via-new")
    assert response.status_code == 302


def test_existing_member_is_not_joined_twice(club, users, make_invitation, english):
    invitation = make_invitation(role="member")
    client = Client()
    client.force_login(users["scorekeeper"])
    response = client.post(reverse("invitation_open", args=[invitation.token]))
    assert response.status_code == 400 and "already a member" in response.content.decode()
    assert Membership.objects.get(user=users["scorekeeper"], club=club).role == "scorekeeper"
    invitation.refresh_from_db()
    assert invitation.uses == 0


def test_invitation_naming_a_player_links_it(club, owner, players, make_invitation):
    invitation = make_invitation(role="member", player=players[0])
    _client, response = _join(invitation, "taro")
    assert response.status_code == 302
    players[0].refresh_from_db()
    assert players[0].user.username == "taro"


def test_unknown_token_is_404():
    assert Client().get("/invite/not-a-token/").status_code == 404


def test_anonymous_is_led_through_signup_and_verification_back_to_the_invitation(
    club, make_invitation, mailoutbox, english
):
    invitation = make_invitation(role="scorekeeper")
    client = Client()
    invite_url = reverse("invitation_open", args=[invitation.token])
    page = client.get(invite_url).content.decode()
    assert "Sign up" in page
    response = client.post(
        reverse("account_signup") + f"?next={invite_url}",
        {"email": "new@example.org", "username": "newbie", "password1": "a-long-pass-42",
         "password2": "a-long-pass-42", "next": invite_url},
    )  # fmt: skip
    assert response.status_code == 302
    assert "_auth_user_id" not in client.session  # not before the address is verified
    assert len(mailoutbox) == 1
    link = re.search(r"https?://\S+/accounts/confirm-email/\S+/", mailoutbox[0].body).group(0)
    confirm = link.split("://", 1)[1].split("/", 1)[1]
    response = client.post("/" + confirm)
    assert response.status_code == 302 and response["Location"] == invite_url
    assert "_auth_user_id" in client.session
    response = client.post(invite_url)
    assert response.status_code == 302
    assert Membership.objects.get(club=club, user__username="newbie").role == "scorekeeper"


@pytest.mark.parametrize(("role", "article"), [("scorekeeper", "a"), ("member", "a")])
def test_invitation_names_its_role_in_the_sentence_in_lowercase(
    club, make_invitation, role, article, english
):
    """The role is a lowercase word in a whole sentence, not "... as Member." (issue 28)."""
    invitation = make_invitation(role=role, max_uses=1)
    page = Client().get(reverse("invitation_open", args=[invitation.token])).content.decode()
    assert f"You are invited to join as {article} <strong>{role}</strong>." in page
    client, response = _join(invitation, "newcomer")
    shown = client.get(response["Location"]).content.decode()
    assert f"You joined {club.name} as {article} {role}." in shown


def test_invitation_sentence_in_japanese(club, make_invitation):
    invitation = make_invitation(role="scorekeeper", max_uses=1)
    page = Client().get(reverse("invitation_open", args=[invitation.token])).content.decode()
    assert "<strong>記録係</strong>として参加するよう招待されています。" in page
