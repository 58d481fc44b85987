"""No cookie or header gives a server error, on SQLite and PostgreSQL (DATABASE_URL): property
tests over every header a browser, a proxy or a hostile client may send, with any bytes — the
session cookie (tournaments.middleware.SessionCookieMiddleware keeps a NUL byte from
PostgreSQL), the CSRF and language cookies, the languages asked for, the forwarding chain (read:
the test's sender, 127.0.0.1, is a trusted proxy), a Host among ALLOWED_HOSTS with any port,
caching validators, the phone's outbox headers — on a handful of read pages, logged in or not,
and on the writes that read headers past their checks."""

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import given, settings
from hypothesis import strategies as st

from tests import factories
from tests.hardening.helpers import build_club, hit_all_methods
from tests.hardening.test_fuzz import FUZZ

pytestmark = pytest.mark.django_db


def _wsgi(raw: bytes) -> str:
    """A header's bytes as a WSGI server hands them to Django (PEP 3333: read as Latin-1)."""
    return raw.decode("latin-1")


# fmt: off
header_value = st.one_of(
    st.binary(max_size=60),
    st.text(max_size=30).map(lambda t: t.encode("utf-8", "surrogatepass")),
    st.tuples(st.binary(max_size=20), st.binary(max_size=20)).map(b"\x00".join),
    st.sampled_from([
        b"", b" ", b"\x00", b"a\x00b", b"\\000", b"\xff\xfe", b"\xb2", b"\xc3", "花子".encode(),
        b"9" * 20, b'"', b";", b",", b"=", b"*", b"ja", b"en-US,en;q=0.5", b"ja;q=x", b"zz-ZZ",
        b'W/"x"', b"127.0.0.1", b"::1", b"1.2.3.4, 10.0.0.1", b"unknown, ,", b"[::1]:80",
        b"live", b"queued", b"1", b"0", b"99999999999999999", b"-1", b"Mozilla/5.0",
    ]),
).map(_wsgi)
# fmt: on
COOKIE_NAMES = ["sessionid", "csrftoken", "django_language", "messages", "efuda"]


# Values of a session key's length (Django looks up any key of 8 characters or more).
key_sized = st.sampled_from(
    [b"a" * 16 + b"\x00" + b"a" * 15, b"\x00" * 32, "花子".encode() * 8, b"A" * 40]
).map(_wsgi)


@st.composite
def cookie_header(draw, session_key: str) -> str:
    """A Cookie header: named cookies with any values (the session one now and then a real
    session's key, so pages are read logged in too), the malformed session cookies of
    test_session_cookie, or any bytes at all."""
    from tests.hardening.test_session_cookie import MALFORMED

    session = draw(st.one_of(key_sized, header_value, st.just(session_key)))
    parts = [f"sessionid={session}"]
    for name in draw(st.lists(st.sampled_from(COOKIE_NAMES), max_size=3)):
        parts.append(f"{name}={draw(st.one_of(header_value, key_sized))}")
    parts = draw(st.permutations(parts))
    return draw(st.one_of(
        st.just("; ".join(parts)), st.sampled_from(sorted(MALFORMED.values())), header_value,
    ))  # fmt: skip


@st.composite
def request_headers(draw, session_key: str) -> dict[str, str]:
    from django.conf import settings as django_settings

    host = draw(st.sampled_from(django_settings.ALLOWED_HOSTS))
    # mostly a host the site answers (past Django's host check, where the cookies are read)
    port = draw(st.one_of(st.just(""), st.integers(1, 65535).map(str), header_value))
    headers = {
        "HTTP_COOKIE": draw(cookie_header(session_key)),
        "HTTP_HOST": host + (f":{port}" if port else ""),
    }
    for name in ("HTTP_ACCEPT_LANGUAGE", "HTTP_X_FORWARDED_FOR", "HTTP_X_REAL_IP",
                 "HTTP_X_FORWARDED_PROTO", "HTTP_IF_NONE_MATCH", "HTTP_IF_MODIFIED_SINCE",
                 "HTTP_USER_AGENT", "HTTP_ACCEPT", "HTTP_REFERER", "HTTP_ORIGIN",
                 "HTTP_HX_REQUEST"):  # fmt: skip
        if draw(st.booleans()):
            headers[name] = draw(header_value)
    return headers


@pytest.fixture
def header_world():
    """A public club with a public tournament (a PIN issued), a private one's entrant and an
    owner logged in (their session's key)."""
    from django.test import override_settings

    from tournaments.services import events as ev

    owner = factories.UserFactory(username="header-owner")
    club, players, nap, _dai = build_club(deals=2, public=True, owner=owner)
    wiki = club.rulesets.get(code="napoleon-wiki")
    public = factories.tournament(club=club, ruleset=wiki, entrants=5, is_public=True)
    ev.pin_issue(entry=public.entries.first())
    hidden = factories.tournament(club=club, ruleset=wiki, entrants=2, seed=3)
    browser = Client()
    browser.force_login(owner)
    pages = [
        "/",
        reverse("club_home", args=[club.slug]),
        reverse("standings_all", args=[club.slug, "napoleon"]) + "?format=csv",
        reverse("player_detail", args=[club.slug, players[0].pk]),
        reverse("player_detail", args=[club.slug, hidden.entries.first().player_id]),
        reverse("session_detail", args=[club.slug, nap.pk]),
        reverse("tournament_detail", args=[public.pk]),
        reverse("tournament_pin", args=[public.pk]),
        "/accounts/login/",
        "/i18n/setlang/",
        "/sw.js",
    ]
    with override_settings(TRUSTED_PROXIES=["127.0.0.1", "::1"]):
        yield {"owner": owner, "key": browser.cookies["sessionid"].value, "pages": pages,
               "players": players, "nap": nap, "tournament": public}  # fmt: skip


@settings(FUZZ, max_examples=150)
@given(data=st.data())
def test_no_cookie_or_header_gives_a_server_error(header_world, data):
    headers = data.draw(request_headers(header_world["key"]), label="headers")
    page = data.draw(st.sampled_from(header_world["pages"]), label="page")
    hit_all_methods(Client(enforce_csrf_checks=True), page, **headers)


@FUZZ
@given(data=st.data())
def test_no_header_of_a_write_gives_a_server_error(header_world, data):
    """The writes that read headers past their checks: a failed login (axes keeps the client's
    address and user agent), a wrong PIN (the PIN throttle keeps the address), a deal sent by
    the phone's outbox (its author and the time it was made)."""
    from tests.views.helpers import napoleon_post

    headers = data.draw(request_headers(header_world["key"]), label="headers")
    headers.pop("HTTP_COOKIE")
    # Hypothesis starts from the smallest draws (0, False): those take the deepest path, past
    # the host check and the author's, with the time the phone made the deal.
    if data.draw(st.integers(0, 3), label="drawn host") < 3:
        headers["HTTP_HOST"] = "testserver"
    client = Client()
    login = client.post("/accounts/login/", {"login": "header-owner", "password": "wrong"},
                        **headers)  # fmt: skip
    assert login.status_code < 500
    pin = reverse("tournament_pin", args=[header_world["tournament"].pk])
    assert client.post(pin, {"pin": "000000"}, **headers).status_code < 500
    client.force_login(header_world["owner"])
    nap = header_world["nap"]
    outbox = {"HTTP_X_EFUDA_OUTBOX": data.draw(st.sampled_from(["queued", "live"])),
              "HTTP_X_EFUDA_AUTHOR": f"u:{header_world['owner'].pk}"}  # fmt: skip
    if data.draw(st.booleans(), label="duplicate ok"):
        outbox["HTTP_X_EFUDA_DUPLICATE_OK"] = data.draw(header_value)
    if data.draw(st.integers(0, 3), label="other author") == 3:  # refused as someone else's
        outbox["HTTP_X_EFUDA_AUTHOR"] = data.draw(header_value)
    if data.draw(st.integers(0, 3), label="since") < 3:  # when the phone made it, in ms
        outbox["HTTP_X_EFUDA_SINCE"] = data.draw(st.one_of(
            st.sampled_from(["²", "1²", "¹³", "0" * 14, "9" * 15]),
            st.integers(0, 10**20).map(str), header_value,
        ), label="since value")  # fmt: skip
    url = reverse("deal_new", args=[nap.club.slug, nap.pk])
    response = client.post(url, napoleon_post(header_world["players"]), **headers, **outbox)
    assert response.status_code < 500


def test_a_failed_login_with_a_nul_byte_in_its_headers_is_counted():
    """django-axes keeps the User-Agent and Accept headers of each login: with a NUL byte in
    them PostgreSQL refused the row, the login answered 500 and the failure went uncounted
    (so the lock-out never came). Kept as ``0x00`` (KeptHeadersMiddleware), it is counted."""
    from axes.models import AccessAttempt

    factories.UserFactory(username="kaoru", password="pw-kaoru-2026")
    headers = {"HTTP_USER_AGENT": "a\x00b", "HTTP_ACCEPT": "text/html\x00"}
    for tries in (1, 2):
        response = Client().post(
            "/accounts/login/", {"login": "kaoru", "password": "wrong"}, **headers
        )
        assert response.status_code == 200  # the form again, saying the login failed
        attempt = AccessAttempt.objects.get(username="kaoru")
        assert attempt.failures_since_start == tries
    assert attempt.user_agent == "a0x00b" and attempt.http_accept == "text/html0x00"
    assert (
        Client()
        .post("/accounts/login/", {"login": "kaoru", "password": "pw-kaoru-2026"}, **headers)
        .status_code
        == 302
    )
