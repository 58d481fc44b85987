"""The session store (config/sessions.py) and the backends' ``get_user`` (config/auth.py) read
a session and its user with one SQL statement each, written out once; everything they answer is
what Django's own store and backends answer for the same rows."""

import datetime
import re

import pytest
from django.contrib.auth import BACKEND_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore as DjangoStore
from django.contrib.sessions.models import Session
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.django import TestCase

from config.auth import RENAMED, user_by_id
from config.sessions import SessionStore
from tests import factories

pytestmark = pytest.mark.django_db


def stored(data: dict, *, expires_in: datetime.timedelta) -> str:
    store = SessionStore()
    store.update(data)
    store.create()
    Session.objects.filter(session_key=store.session_key).update(
        expire_date=timezone.now() + expires_in
    )
    return store.session_key


def test_a_live_session_is_read_with_one_query():
    key = stored({"answer": 42, "名前": "花子"}, expires_in=datetime.timedelta(hours=1))
    store = SessionStore(key)
    with CaptureQueriesContext(connection) as ctx:
        assert store.load() == {"answer": 42, "名前": "花子"}
    assert len(ctx.captured_queries) == 1
    assert store.session_key == key


@pytest.mark.parametrize(
    "key",
    ["expired", "unknown-key-but-long-enough", "short", "", None],
)
def test_a_session_that_is_not_there_is_empty_and_its_key_is_dropped(key):
    expired = stored({"answer": 42}, expires_in=-datetime.timedelta(seconds=1))
    store = SessionStore(expired if key == "expired" else key)
    assert store.load() == {}
    assert store.session_key is None  # the next save makes a new key: no fixation
    store["x"] = 1
    store.save()
    assert store.session_key not in (None, expired, key)


def test_logging_out_ends_the_session_for_every_reader(django_user_model):
    user = factories.UserFactory(username="leaving")
    client = Client()
    client.force_login(user)
    cookie = client.cookies["sessionid"].value
    assert SessionStore(cookie).load()[SESSION_KEY] == str(user.pk)
    client.post("/accounts/logout/")
    assert SessionStore(cookie).load() == {}
    other = Client()
    other.cookies["sessionid"] = cookie  # the same cookie, kept by someone else
    assert b"leaving" not in other.get("/").content


class SameAnswersAsDjangosStore(TestCase):
    @settings(max_examples=60, deadline=None)
    @given(
        data=st.dictionaries(st.text(max_size=8), st.integers() | st.text(max_size=8), max_size=4),
        # a minute or more from expiry: the two stores read at the same moment, give or take
        seconds=st.integers(min_value=-3600, max_value=3600).filter(lambda s: abs(s) >= 60),
        which=st.sampled_from(["stored", "other", "garbage"]),
    )
    def test_load(self, data, seconds, which):
        key = stored(data, expires_in=datetime.timedelta(seconds=seconds))
        asked = {"stored": key, "other": key[::-1], "garbage": "x!"}[which]
        ours, django = SessionStore(asked), DjangoStore(asked)
        assert ours.load() == django.load()
        assert ours.session_key == django.session_key


# --- who is logged in (config/auth.py) -------------------------------------------------------


def logged_in_as(client) -> str | None:
    """The user name the page's header shows, or None for a visitor."""
    body = client.get("/").content.decode()
    found = re.search(r'<a class="who" href="[^"]*"><bdi>([^<]+)</bdi>', body)
    return found.group(1) if found else None


@pytest.mark.parametrize("login", ["kaoru", "kaoru@example.org"])
def test_logging_in_by_name_or_address_goes_through_efudas_backends(login):
    factories.UserFactory(username="kaoru", email="kaoru@example.org", password="pw-kaoru-2026")
    client = Client()
    response = client.post("/accounts/login/", {"login": login, "password": "pw-kaoru-2026"})
    assert response.status_code == 302
    session = SessionStore(client.cookies["sessionid"].value).load()
    assert session[BACKEND_SESSION_KEY] in settings_backends()
    assert session[BACKEND_SESSION_KEY].startswith("config.auth.")
    assert logged_in_as(client) == "kaoru"


def settings_backends():
    from django.conf import settings as django_settings

    return django_settings.AUTHENTICATION_BACKENDS


@pytest.mark.parametrize("old", sorted(RENAMED))
def test_a_session_from_before_the_backends_keeps_its_login(old):
    user = factories.UserFactory(username="before")
    client = Client()
    client.force_login(user)
    key = client.cookies["sessionid"].value
    store = DjangoStore(key)
    data = store.load()
    data[BACKEND_SESSION_KEY] = old  # as Django's own login stored it before config/auth.py
    Session.objects.filter(session_key=key).update(session_data=store.encode(data))
    assert logged_in_as(client) == "before"
    assert SessionStore(key).load()[BACKEND_SESSION_KEY] == RENAMED[old]


@pytest.mark.parametrize("change", ["deactivated", "deleted", "new password"])
def test_the_user_read_once_still_ends_a_login_that_must_end(change):
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


def test_the_user_is_read_with_one_query_and_is_the_orms_user():
    user = factories.UserFactory(username="same", email="same@example.org")
    type(user).objects.filter(pk=user.pk).update(
        last_login=timezone.now() - datetime.timedelta(days=3), is_staff=True
    )
    orm = type(user).objects.get(pk=user.pk)
    with CaptureQueriesContext(connection) as ctx:
        ours = user_by_id(user.pk)
    assert len(ctx.captured_queries) == 1
    fields = [f.attname for f in type(user)._meta.concrete_fields]
    assert [getattr(ours, f) for f in fields] == [getattr(orm, f) for f in fields]
    assert ours.last_login.tzinfo is not None and not ours._state.adding
    assert user_by_id(user.pk + 1000) is None
