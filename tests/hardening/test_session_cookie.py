"""A session cookie Django could not have made (tournaments.middleware.SessionCookieMiddleware)
is no session: every page answers as to a visitor, never a 500, and the response deletes the
cookie; a real session goes on working. Run on SQLite and on PostgreSQL (DATABASE_URL), where a
NUL byte in a looked-up key is an error of the database."""

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.http import parse_cookie
from django.test import Client
from django.urls import reverse

from tests import factories
from tournaments.middleware import SESSION_KEY_FORM

pytestmark = pytest.mark.django_db

# The Cookie header as a server hands it to Django (bytes read as Latin-1), and what Django
# reads from it: a quoted value's octal escapes become the bytes they name.
MALFORMED = {
    "a NUL byte": 'sessionid="\\000' + "a" * 31 + '"',
    "a NUL byte inside": 'sessionid="' + "a" * 16 + "\\000" + "a" * 15 + '"',
    "odd characters": "sessionid=abc!def$ghi*jkl~mno'pqr-stu_vwx",
    "capitals": "sessionid=" + "A" * 32,
    "non-ASCII": "sessionid=" + ("花子" * 16).encode().decode("latin-1"),
    "1,000 characters": "sessionid=" + "a" * 1000,
    "too short": "sessionid=abc",
    "empty": "sessionid=",
}


@pytest.fixture
def pages(public_club):
    ruleset = factories.ClubRuleSetFactory(club=public_club, preset="napoleon-wiki")
    event = factories.tournament(club=public_club, ruleset=ruleset, entrants=8, is_public=True)
    return [
        "/",
        reverse("club_home", args=[public_club.slug]),
        reverse("standings_all", args=[public_club.slug, "napoleon"]),
        reverse("session_list", args=[public_club.slug]),
        reverse("tournament_detail", args=[event.pk]),
        reverse("tournament_standings", args=[event.pk]),
        "/accounts/login/",
    ]


def read(header: str) -> str:
    """The session cookie's value as Django reads it from the header (WSGIRequest.COOKIES)."""
    return parse_cookie(header.encode("latin-1").decode(errors="replace"))["sessionid"]


def test_the_headers_carry_what_they_say():
    values = {name: read(header) for name, header in MALFORMED.items()}
    assert values["a NUL byte"][0] == "\x00" and "\x00" in values["a NUL byte inside"]
    assert values["non-ASCII"] == "花子" * 16
    assert len(values["1,000 characters"]) == 1000
    assert not any(SESSION_KEY_FORM.fullmatch(value) for value in values.values())


def test_every_key_django_makes_has_the_form():
    for _ in range(20):
        store = SessionStore()
        store.create()
        assert SESSION_KEY_FORM.fullmatch(store.session_key)


@pytest.mark.parametrize("kind", sorted(MALFORMED))
def test_a_malformed_cookie_is_no_session_and_is_deleted(kind, pages):
    visitor = Client()
    for page in pages:
        expected = visitor.get(page)
        response = Client().get(page, HTTP_COOKIE=MALFORMED[kind])
        assert response.status_code == expected.status_code == 200, page
        deleted = response.cookies["sessionid"]
        assert deleted.value == "" and deleted["max-age"] == 0, page


def test_a_visitor_with_a_malformed_cookie_can_log_in():
    factories.UserFactory(username="kaoru", password="pw-kaoru-2026")
    client = Client()
    response = client.post(
        "/accounts/login/",
        {"login": "kaoru", "password": "pw-kaoru-2026"},
        HTTP_COOKIE=MALFORMED["a NUL byte"],
    )
    assert response.status_code == 302
    key = response.cookies["sessionid"].value  # the new session's, not deleted
    assert SESSION_KEY_FORM.fullmatch(key) and response.cookies["sessionid"]["max-age"] != 0
    assert b"kaoru" in client.get("/").content


def test_a_real_session_still_works(pages, public_club):
    user = factories.UserFactory(username="kaoru")
    factories.MembershipFactory(club=public_club, user=user, role="member")
    client = Client()
    client.force_login(user)
    key = client.cookies["sessionid"].value
    for page in pages[:-1]:
        response = client.get(page)
        assert response.status_code == 200, page
        assert "sessionid" not in response.cookies, page  # kept, neither deleted nor renewed
        assert b"kaoru" in response.content, page
    assert client.get(pages[-1]).status_code == 302  # the login page sends the logged-in on
    assert SessionStore(key).load()["_auth_user_id"] == str(user.pk)


def test_an_unknown_key_of_the_right_form_is_djangos_to_answer():
    response = Client().get("/", HTTP_COOKIE="sessionid=" + "a" * 32)
    assert response.status_code == 200
    assert response.cookies["sessionid"]["max-age"] == 0  # Django's own middleware deletes it
