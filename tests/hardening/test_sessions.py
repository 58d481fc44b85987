"""The session store (config/sessions.py) reads a session with one SQL statement written out
once; everything it answers is what Django's own database store answers for the same rows."""

import datetime

import pytest
from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore as DjangoStore
from django.contrib.sessions.models import Session
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.django import TestCase

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
        seconds=st.integers(min_value=-3600, max_value=3600).filter(lambda s: abs(s) > 2),
        which=st.sampled_from(["stored", "other", "garbage"]),
    )
    def test_load(self, data, seconds, which):
        key = stored(data, expires_in=datetime.timedelta(seconds=seconds))
        asked = {"stored": key, "other": key[::-1], "garbage": "x!"}[which]
        ours, django = SessionStore(asked), DjangoStore(asked)
        assert ours.load() == django.load()
        assert ours.session_key == django.session_key
