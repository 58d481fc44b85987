"""Accounts: password reset end to end, login by user name or e-mail, the lock shared by both,
accounts made before sign-up, and LINE login only when configured."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import NoReverseMatch, reverse

from tests import factories

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


def _user_with_address(username="hanako", email="hanako@example.org"):
    user = factories.UserFactory(username=username)
    user.email = email
    user.save()
    EmailAddress.objects.create(user=user, email=email, verified=True, primary=True)
    return user


def _path(link: str) -> str:
    return "/" + link.split("://", 1)[1].split("/", 1)[1]


def test_password_reset_end_to_end(mailoutbox, english):
    _user_with_address()
    client = Client()
    response = client.post(reverse("account_reset_password"), {"email": "hanako@example.org"})
    assert response.status_code == 302
    assert len(mailoutbox) == 1 and mailoutbox[0].to == ["hanako@example.org"]
    link = re.search(r"https?://\S+/accounts/password/reset/key/\S+/", mailoutbox[0].body)
    # The e-mailed link leads to the form (allauth moves the key into the session first).
    response = client.get(_path(link.group(0)), follow=True)
    assert response.status_code == 200
    form_url = response.redirect_chain[-1][0] if response.redirect_chain else _path(link.group(0))
    response = client.post(
        form_url, {"password1": "brand-new-pass-77", "password2": "brand-new-pass-77"}
    )
    assert response.status_code == 302
    # The old password no longer works, the new one does (by e-mail and by user name).
    assert client.post(reverse("login"), {"login": "hanako", "password": "pass-word-123"}
                       ).status_code == 200  # fmt: skip
    response = client.post(
        reverse("login"), {"login": "hanako@example.org", "password": "brand-new-pass-77"}
    )
    assert response.status_code == 302 and "_auth_user_id" in client.session
    client.logout()
    response = client.post(reverse("login"), {"login": "hanako", "password": "brand-new-pass-77"})
    assert response.status_code == 302


def test_reset_for_an_unknown_address_reveals_nothing(mailoutbox):
    response = Client().post(reverse("account_reset_password"), {"email": "nobody@example.org"})
    assert response.status_code == 302  # same answer as for a known address
    assert all("password/reset/key" not in m.body for m in mailoutbox)


def test_failed_logins_by_e_mail_and_user_name_count_towards_one_lock():
    _user_with_address(username="jiro", email="jiro@example.org")
    client = Client()
    for attempt in range(1, 6):
        login = "jiro" if attempt % 2 else "JIRO@example.org"
        response = client.post(reverse("login"), {"login": login, "password": "wrong"})
    assert response.status_code == 429
    response = client.post(reverse("login"), {"login": "jiro", "password": "pass-word-123"})
    assert response.status_code in (403, 429) and "_auth_user_id" not in client.session


@pytest.mark.parametrize(
    ("language", "says"),
    [("ja", "ログインの失敗が多すぎます"), ("en", "Too many failed logins")],
)
def test_lockout_page_in_the_visitors_language_with_the_way_out(language, says):
    factories.UserFactory(username="kenji")
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    for _attempt in range(6):
        response = client.post(reverse("login"), {"login": "kenji", "password": "wrong"})
    assert response.status_code == 429
    page = response.content.decode()
    assert says in page and "Account locked" not in page
    assert reverse("account_reset_password") in page  # the way out: a new password by mail


def test_signup_needs_a_verified_address_before_login(mailoutbox):
    client = Client()
    response = client.post(
        reverse("account_signup"),
        {"email": "yuki@example.org", "username": "yuki", "password1": "yuki-pass-4242",
         "password2": "yuki-pass-4242"},
    )  # fmt: skip
    assert response.status_code == 302 and "_auth_user_id" not in client.session
    assert get_user_model().objects.filter(username="yuki").exists()
    assert len(mailoutbox) == 1
    # Logging in before confirming only re-sends the confirmation.
    other = Client()
    other.post(reverse("login"), {"login": "yuki", "password": "yuki-pass-4242"})
    assert "_auth_user_id" not in other.session
    link = re.search(r"https?://\S+/accounts/confirm-email/\S+/", mailoutbox[0].body).group(0)
    assert client.get(_path(link)).status_code == 200  # a page with a button: GET confirms nothing
    assert not EmailAddress.objects.get(email="yuki@example.org").verified
    client.post(_path(link))
    assert EmailAddress.objects.get(email="yuki@example.org").verified
    assert (
        other.post(reverse("login"), {"login": "yuki", "password": "yuki-pass-4242"}).status_code
        == 302
    )


def test_accounts_made_before_signup_log_in_as_before():
    """Demo users and accounts from createsuperuser have no address on record: not locked out."""
    factories.UserFactory(username="old-hand")
    client = Client()
    response = client.post(reverse("login"), {"login": "old-hand", "password": "pass-word-123"})
    assert response.status_code == 302 and "_auth_user_id" in client.session


def test_line_login_is_absent_unless_configured(client):
    with pytest.raises(NoReverseMatch):
        reverse("line_login")
    assert "LINE" not in client.get(reverse("login")).content.decode()


def test_line_login_appears_when_configured():
    """With a LINE Login channel in the environment, the provider and its URLs exist."""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "LINE_CHANNEL_ID": "1234567890",
        "LINE_CHANNEL_SECRET": "not-a-real-secret",
    }
    env.pop("DATABASE_URL", None)
    code = (
        "import django; django.setup();"
        "from django.urls import reverse;"
        "from django.conf import settings;"
        "assert 'allauth.socialaccount.providers.line' in settings.INSTALLED_APPS;"
        "print(reverse('line_login'))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=120,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "/accounts/line/login/"
