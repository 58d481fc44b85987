"""Who is logged in is read by Django's own session store and Django's, allauth's and axes' own
backends; sessions saved while efuda's own backends (config.auth, gone) logged people in keep
their login through the one-off migration that renames the backend they name."""

import datetime
import importlib
import re

import pytest
from django.apps import apps
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.test import Client
from django.utils import timezone

from tests import factories

pytestmark = pytest.mark.django_db

migration = importlib.import_module("tournaments.migrations.0017_sessions_name_djangos_backends")


def logged_in_as(client) -> str | None:
    """The user name the page's header shows, or None for a visitor."""
    body = client.get("/").content.decode()
    found = re.search(r'<a class="who" href="[^"]*"><bdi>([^<]+)</bdi>', body)
    return found.group(1) if found else None


def test_djangos_own_store_and_backends_are_the_settings():
    assert settings.SESSION_ENGINE == "django.contrib.sessions.backends.db"
    assert settings.AUTHENTICATION_BACKENDS == [
        "axes.backends.AxesStandaloneBackend",
        "django.contrib.auth.backends.ModelBackend",
        "allauth.account.auth_backends.AuthenticationBackend",
    ]


@pytest.mark.parametrize("login", ["kaoru", "kaoru@example.org"])
def test_logging_in_by_name_or_address_stores_a_backend_of_the_settings(login):
    factories.UserFactory(username="kaoru", email="kaoru@example.org", password="pw-kaoru-2026")
    client = Client()
    response = client.post("/accounts/login/", {"login": login, "password": "pw-kaoru-2026"})
    assert response.status_code == 302
    session = SessionStore(client.cookies["sessionid"].value).load()
    assert session[BACKEND_SESSION_KEY] in settings.AUTHENTICATION_BACKENDS
    assert logged_in_as(client) == "kaoru"


def test_logging_out_ends_the_session_for_every_reader():
    user = factories.UserFactory(username="leaving")
    client = Client()
    client.force_login(user)
    cookie = client.cookies["sessionid"].value
    assert SessionStore(cookie).load()[SESSION_KEY] == str(user.pk)
    client.post("/accounts/logout/")
    assert SessionStore(cookie).load() == {}
    other = Client()
    other.cookies["sessionid"] = cookie  # the same cookie, kept by someone else
    assert logged_in_as(other) is None


@pytest.mark.parametrize("change", ["deactivated", "deleted", "new password"])
def test_a_login_ends_when_its_user_may_no_longer_log_in(change):
    user = factories.UserFactory(username="ending", password="old-pass-2026")
    client = Client()
    client.force_login(user)
    assert logged_in_as(client) == "ending"
    if change == "deactivated":
        type(user).objects.filter(pk=user.pk).update(is_active=False)
    elif change == "deleted":
        user.delete()
    else:
        user.set_password("new-pass-2026")
        user.save()
    assert logged_in_as(client) is None


# --- the migration: sessions naming efuda's old backends ----------------------------------------


def _saved_naming(client, backend: str) -> str:
    """The client's session rewritten to name ``backend``, as a login through it stored it."""
    key = client.cookies["sessionid"].value
    store = SessionStore(key)
    data = store.load()
    data[BACKEND_SESSION_KEY] = backend
    Session.objects.filter(session_key=key).update(session_data=store.encode(data))
    return key


def _migrate():
    migration.sessions_name_djangos_backends(apps, None)


@pytest.mark.parametrize("old", sorted(migration.RENAMED))
def test_a_session_saved_under_an_old_backend_is_still_logged_in(old):
    user = factories.UserFactory(username="before")
    client = Client()
    client.force_login(user)
    key = _saved_naming(client, old)
    expiry = Session.objects.get(session_key=key).expire_date
    assert logged_in_as(client) is None  # Django reads no user through a backend it lacks
    _migrate()
    assert logged_in_as(client) == "before"
    row = Session.objects.get(session_key=key)
    assert row.expire_date == expiry
    data = SessionStore(key).load()
    assert data[BACKEND_SESSION_KEY] == migration.RENAMED[old]
    assert data[SESSION_KEY] == str(user.pk)


def test_the_migration_leaves_every_other_session_as_it_was():
    users = [factories.UserFactory(username=f"u{n}") for n in range(3)]
    clients = [Client() for _ in users]
    for client, user in zip(clients, users, strict=True):
        client.force_login(user)
    djangos = clients[0].cookies["sessionid"].value  # already Django's own backend
    expired = _saved_naming(clients[1], "config.auth.ModelBackend")
    Session.objects.filter(session_key=expired).update(
        expire_date=timezone.now() - datetime.timedelta(seconds=1)
    )
    foreign = clients[2].cookies["sessionid"].value
    Session.objects.filter(session_key=foreign).update(session_data="not Django's data")
    before = {s.session_key: s.session_data for s in Session.objects.all()}
    _migrate()
    assert {s.session_key: s.session_data for s in Session.objects.all()} == before
    assert djangos in before and logged_in_as(clients[0]) == "u0"
