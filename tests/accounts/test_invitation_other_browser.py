"""An invitation survives the confirmation mail opened in another browser: the link in the mail
carries the invitation, so confirming there leads to it, and the mail names the club."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from tournaments.models import Membership

pytestmark = pytest.mark.django_db


def _path(url: str) -> str:
    return re.sub(r"^https?://[^/]+", "", url)


def test_confirming_in_another_browser_leads_back_to_the_invitation(
    club, make_invitation, mailoutbox, english
):
    invitation = make_invitation(role="member", max_uses=5)
    invite_url = reverse("invitation_open", args=[invitation.token])
    phone = Client()
    phone.get(invite_url)  # the invitation is remembered in this browser's session
    phone.post(reverse("account_signup"), {
        "email": "ken@example.org", "username": "ken", "password1": "ken-pass-4242",
        "password2": "ken-pass-4242"})  # fmt: skip
    mail = mailoutbox[-1]
    # The mail greets from efuda and names the club; no host and port in the greeting.
    assert club.name in mail.body
    assert mail.subject.startswith("[efuda 絵札]")
    assert "testserver" not in mail.body.splitlines()[0]
    link = re.search(r"https?://\S+/accounts/confirm-email/\S+", mail.body).group(0)
    # Opened on a laptop: a new browser, nothing in its session.
    laptop = Client()
    page = laptop.get(_path(link))
    assert page.status_code == 200 and invite_url.encode() in page.content
    confirmed = laptop.post(_path(link), {"next": invite_url})
    assert confirmed.status_code == 302 and confirmed["Location"] == invite_url
    landing = laptop.get(invite_url)
    assert club.name in landing.content.decode()
    # Logging in there joins the club through the same invitation.
    login = laptop.post(reverse("login"), {"login": "ken", "password": "ken-pass-4242"})
    assert login["Location"] == invite_url
    joined = laptop.post(invite_url)
    assert joined.status_code == 302
    assert Membership.objects.filter(club=club, user__username="ken").exists()


def test_a_mail_without_an_invitation_has_no_club_and_no_next(mailoutbox, english):
    Client().post(reverse("account_signup"), {
        "email": "sam@example.org", "username": "sam", "password1": "sam-pass-4242",
        "password2": "sam-pass-4242"})  # fmt: skip
    body = mailoutbox[-1].body
    assert body.startswith("Hello from efuda!")
    assert "next=" not in body
