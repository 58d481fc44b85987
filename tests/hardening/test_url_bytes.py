"""No HTTP 500 for any byte in any URL part, NUL included, on SQLite and PostgreSQL (which
refuses NUL in text): every URL keyword of every pattern, and the query string, with arbitrary
bytes, percent-encoded, on GET and POST, logged in as the club's owner (every view runs past
its permission checks) and logged out.

The URL resolver is walked, so a new URL is covered without editing this file.
"""

import re
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.hardening.helpers import hit_all_methods as _hit
from tests.hardening.urls import all_routes, build_world
from tournaments.services.worker_beat import worker_beat_record

pytestmark = pytest.mark.django_db
SLOW_OK = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow]

_PARAM = re.compile(r"<(?:(\w+):)?(\w+)>")
NASTY = [
    b"\x00", b"a\x00b", b"\xff", b"\xc3", b"\xed\xa0\x80", b"%", b"\x7f", b"\r\n", b"..",
    b"\xef\xbb\xbf", "ｘ\u202e".encode(), b" ", b"\x00" * 70, b"9" * 30,
]  # fmt: skip
# Query keys the pages read (formats, filters, paging, forms sent by GET, redirects).
QUERY_KEYS = ["format", "min", "sort", "page", "per_page", "all", "table", "next", "ruleset",
              "players", "names", "date", "sheet", "bom", "game", "seat", "pin"]  # fmt: skip


def _routes():
    routes = []
    for route in all_routes():
        if route.name.startswith("admin:"):
            continue
        names = [name for _conv, name in _PARAM.findall(route.route)]
        if names:
            routes.append((route, names))
    return routes


ROUTES = _routes()
PAGES = [route for route in all_routes() if not route.name.startswith("admin:")]


def _fill(route, values: dict[str, bytes], objects: dict) -> str:
    def one(match):
        name = match.group(2)
        if name in values:
            return quote(values[name], safe="")
        value = objects.get(name, objects.get("pk:session") if name == "pk" else "x")
        return quote(str(value[0] if isinstance(value, list) else value))

    return "/" + _PARAM.sub(one, route.route).lstrip("^")


@pytest.fixture
def world(client):
    # The task worker runs, as on a live site: /healthz (one of the pages) answers 200, so a 5xx
    # here is an error, not the health check saying the worker is away.
    worker_beat_record(host="worker-1")
    return build_world(payload="x", public=True)


def test_every_url_pattern_with_a_keyword_is_covered():
    names = {route.name for route, _names in ROUTES}
    assert {"invitation_open", "standings_all", "tournament_table", "club_home"} <= names
    assert len(ROUTES) >= 50


def test_the_reported_url_is_404(client, world):
    assert client.get("/invite/%00/").status_code == 404


@pytest.mark.parametrize("raw", NASTY, ids=[repr(b)[:20] for b in NASTY])
def test_nasty_bytes_in_every_url_part(client, world, raw):
    client.force_login(world.owner)
    for route, names in ROUTES:
        for name in names:
            _hit(client, _fill(route, {name: raw}, world.objects))


@pytest.mark.parametrize("raw", [b"\x00", b"\xff", b"a\x00"], ids=["nul", "ff", "a-nul"])
def test_nasty_bytes_in_every_query_value(client, world, raw):
    query = "&".join(f"{key}={quote(raw, safe='')}" for key in QUERY_KEYS)
    for logged_in in (True, False):
        if logged_in:
            client.force_login(world.owner)
        else:
            client.logout()
        for route in PAGES:
            names = [name for _conv, name in _PARAM.findall(route.route)]
            url = _fill(route, {}, world.objects) if names else "/" + route.route.lstrip("^")
            response = client.get(f"{url}?{query}")
            assert response.status_code < 500, (url, response.status_code)


@settings(max_examples=80, deadline=None, derandomize=True, suppress_health_check=SLOW_OK)
@given(data=st.data())
def test_any_bytes_in_any_url_part_never_give_500(client, world, data):
    route, names = data.draw(st.sampled_from(ROUTES))
    values = {
        name: data.draw(st.one_of(st.binary(max_size=40), st.sampled_from(NASTY)))
        for name in names
        if data.draw(st.booleans())
    } or {names[0]: data.draw(st.binary(min_size=1, max_size=40))}
    if data.draw(st.booleans()):
        client.force_login(world.owner)
    else:
        client.logout()
    _hit(client, _fill(route, values, world.objects))
