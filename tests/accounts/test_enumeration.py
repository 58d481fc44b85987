"""No one learns which addresses have accounts from sign-up, and no one gets more guesses by
changing a user name's case."""

import re
from unittest import mock

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import get_hasher
from django.test import Client
from django.urls import reverse

from tests import factories

pytestmark = pytest.mark.django_db


def _signup(client, email, username):
    return client.post(
        reverse("account_signup"),
        {"email": email, "username": username, "password1": "yuki-pass-4242",
         "password2": "yuki-pass-4242"},
    )  # fmt: skip


def _page(client, url) -> str:
    text = client.get(url).content.decode()
    text = re.sub(r'"X-CSRFToken": "[^"]*"', "", text)
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", text)


def test_signup_with_a_known_address_answers_like_a_new_one(mailoutbox, english):
    owner = factories.UserFactory(username="hanako")
    EmailAddress.objects.create(user=owner, email="hanako@example.org", verified=True)
    hasher = type(get_hasher())
    answers = []
    for email, username in (("New@Example.org", "newcomer"), ("Hanako@Example.org", "other")):
        client = Client()
        with mock.patch.object(hasher, "encode", autospec=True, side_effect=hasher.encode) as enc:
            response = _signup(client, email, username)
        answers.append((response.status_code, response["Location"], enc.call_count))
        answers.append(_page(client, response["Location"]).replace(email.lower(), "ADDRESS"))
    new, new_page, known, known_page = answers
    assert new == known  # the same redirect, and the same password work (one hash each)
    assert new[0] == 302 and new[2] == 1
    assert new_page == known_page  # the same "check your mail" page
    assert not get_user_model().objects.filter(username="other").exists()
    assert [m.to[0].lower() for m in mailoutbox] == ["new@example.org", "hanako@example.org"]
    assert "/accounts/confirm-email/" in mailoutbox[0].body
    already = mailoutbox[1]
    assert "/accounts/confirm-email/" not in already.body
    assert "already" in (already.subject + already.body).lower()


def test_login_lock_is_one_per_account_whatever_the_case():
    factories.UserFactory(username="race12")
    client = Client()
    for spelling in ("race12", "Race12", "rAce12", "raCe12", "RACE12"):
        response = client.post(reverse("login"), {"login": spelling, "password": "wrong"})
    assert response.status_code == 429
    for spelling in ("race12", "rACE12"):
        response = client.post(reverse("login"), {"login": spelling, "password": "pass-word-123"})
        assert response.status_code in (403, 429) and "_auth_user_id" not in client.session
    # another account is not locked by it
    factories.UserFactory(username="race13")
    response = client.post(reverse("login"), {"login": "Race13", "password": "pass-word-123"})
    assert response.status_code == 302 and "_auth_user_id" in client.session
