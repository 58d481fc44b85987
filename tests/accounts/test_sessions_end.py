"""What the security reviews found holding about sessions, kept (docs/accounts.md, "What the
tests keep"): a password changed on its page, or reset through the mailed link, logs the
person's other browsers out (the one that changed it stays logged in after a change); an
account deactivated in the admin is logged out everywhere at its next request; a login never
keeps the session key the browser brought (no session fixation), whether planted by someone
else or made by a PIN before logging in. Logout ending the session for whoever holds the
cookie is in tests/hardening/test_sessions.py.

Everything goes through the pages: allauth's login, password change and reset, Django's
admin."""

import re

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.test import Client
from django.urls import reverse

from tests import factories
from tests.hardening.test_sessions import logged_in_as
from tournaments.services import events as ev

pytestmark = pytest.mark.django_db

PASSWORD = "pass-word-123"  # tests.factories.UserFactory's


def _person(username="midori"):
    user = factories.UserFactory(username=username)
    user.email = f"{username}@example.org"
    user.save()
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    return user


def _logged_in(login: str, password: str = PASSWORD) -> Client:
    """A browser logged in through the login page."""
    client = Client()
    response = client.post(reverse("login"), {"login": login, "password": password})
    assert response.status_code == 302, response.content.decode()[:300]
    return client


def test_a_password_changed_on_its_page_logs_the_other_browsers_out(english):
    _person()
    phone, laptop, tablet = (_logged_in("midori") for _ in range(3))
    assert {logged_in_as(c) for c in (phone, laptop, tablet)} == {"midori"}
    response = laptop.post(reverse("account_change_password"), {
        "oldpassword": PASSWORD, "password1": "a-new-pass-4242", "password2": "a-new-pass-4242",
    })  # fmt: skip
    assert response.status_code == 302
    assert logged_in_as(laptop) == "midori"  # the browser that changed it stays in
    assert logged_in_as(phone) is None and logged_in_as(tablet) is None
    assert logged_in_as(_logged_in("midori", "a-new-pass-4242")) == "midori"


def test_a_password_reset_through_the_mail_logs_every_browser_out(mailoutbox, english):
    _person()
    phone, laptop = _logged_in("midori"), _logged_in("midori@example.org")
    stranger = Client()  # whoever asks for the reset: it needs only the address
    stranger.post(reverse("account_reset_password"), {"email": "midori@example.org"})
    assert logged_in_as(phone) == "midori"  # asking changes nothing
    link = re.search(r"https?://\S+/accounts/password/reset/key/\S+/", mailoutbox[0].body)
    path = "/" + link.group(0).split("://", 1)[1].split("/", 1)[1]
    opened = stranger.get(path, follow=True)
    form = opened.redirect_chain[-1][0] if opened.redirect_chain else path
    done = stranger.post(form, {"password1": "reset-pass-5151", "password2": "reset-pass-5151"})
    assert done.status_code == 302
    assert logged_in_as(phone) is None and logged_in_as(laptop) is None
    assert logged_in_as(stranger) is None  # a reset logs nobody in (LOGIN_ON_PASSWORD_RESET)


def test_an_account_deactivated_in_the_admin_is_logged_out_everywhere(admin_client):
    user = _person()
    phone = _logged_in("midori")
    url = reverse("admin:auth_user_change", args=[user.pk])
    form = admin_client.get(url).context["adminform"].form
    data = {
        name: value
        for name, value in form.initial.items()
        if value is not None and name not in ("password", "is_active", "groups",
                                              "user_permissions", "last_login")
    }  # fmt: skip
    data["date_joined_0"], data["date_joined_1"] = (
        user.date_joined.strftime("%Y-%m-%d"), user.date_joined.strftime("%H:%M:%S"),
    )  # fmt: skip
    response = admin_client.post(url, data)
    assert response.status_code == 302, response.context["adminform"].form.errors
    assert logged_in_as(phone) is None
    again = Client()
    again.post(reverse("login"), {"login": "midori", "password": PASSWORD})
    assert logged_in_as(again) is None  # allauth's "account inactive" page


def _planted(client: Client) -> str:
    """A session made by someone else and handed to ``client`` (a link, a shared computer)."""
    store = SessionStore()
    store["planted"] = "by someone else"
    store.create()
    client.cookies["sessionid"] = store.session_key
    return store.session_key


@pytest.mark.parametrize("login", ["midori", "midori@example.org"])
def test_a_login_never_keeps_the_session_key_it_was_given(login):
    user = _person()
    client = Client()
    planted = _planted(client)
    assert client.post(reverse("login"), {"login": login, "password": PASSWORD}).status_code == 302
    now = client.cookies["sessionid"].value
    assert now != planted
    assert SessionStore(now).load()[SESSION_KEY] == str(user.pk)
    assert not Session.objects.filter(session_key=planted).exists()
    holder = Client()  # whoever planted it holds the old key: a visitor
    holder.cookies["sessionid"] = planted
    assert logged_in_as(holder) is None


def test_a_pin_holders_session_gets_a_new_key_at_login(english):
    """A PIN is kept in the session of a browser that is not logged in; logging in on the same
    browser afterwards cycles its key all the same."""
    user = _person()
    club = factories.ClubFactory(is_public=True)
    wiki = factories.ClubRuleSetFactory(club=club, code="napoleon-wiki", preset="napoleon-wiki")
    t = factories.tournament(club=club, ruleset=wiki, entrants=5, is_public=True)
    table = factories.started_round(t).tables.get()
    pin = ev.pin_issue(entry=t.entries.get(player_id=table.seats[0]))
    client = Client()
    assert client.post(reverse("tournament_pin", args=[t.pk]), {"pin": pin}).status_code == 302
    before = client.cookies["sessionid"].value
    assert client.post(reverse("login"), {"login": "midori", "password": PASSWORD}
                       ).status_code == 302  # fmt: skip
    after = client.cookies["sessionid"].value
    assert after != before and not Session.objects.filter(session_key=before).exists()
    assert SessionStore(after).load()[SESSION_KEY] == str(user.pk)
