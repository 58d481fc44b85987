"""No HTTP 500 for any number in a URL: every numeric URL keyword is range-checked (404).

The URL resolver is walked, so a new URL with a number in it is covered without editing this
file. Values: edge cases (0, 2**63 − 1, 2**63, twenty digits, superscript and Arabic-Indic
digits, signs) and whatever Hypothesis draws, on GET and POST, logged in as the club's owner
(every view runs past its permission checks) and logged out.
"""

import re
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.hardening.helpers import hit_all_methods as _hit
from tests.hardening.urls import all_routes, build_world

pytestmark = pytest.mark.django_db
SLOW_OK = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow]

NUMERIC = {"id", "int", "year", "month"}
_PARAM = re.compile(r"<(?:(\w+):)?(\w+)>")
EDGES = ["0", str(2**63 - 1), str(2**63), "9" * 25, "²", "٣", "-1"]
MORE = ["1", "00", "9999", "2147483648", "9" * 19, "+1", "1.0", "1e3", "０"]


def numeric_routes():
    routes = []
    for route in all_routes():
        if route.name.startswith("admin:"):
            continue
        numbers = [name for conv, name in _PARAM.findall(route.route) if conv in NUMERIC]
        if numbers:
            routes.append((route, numbers))
    return routes


ROUTES = numeric_routes()


def _fill(route, numbers, values: dict, objects: dict) -> str:
    def one(match):
        name = match.group(2)
        if name in numbers:
            return quote(str(values[name]))
        value = objects.get(name, "x")
        return quote(str(value[0] if isinstance(value, list) else value))

    return "/" + _PARAM.sub(one, route.route).lstrip("^")


@pytest.fixture
def world(client):
    world = build_world(payload="x")
    return world


def test_every_numeric_url_pattern_is_covered():
    names = {route.name for route, _numbers in ROUTES}
    # A few every club has: the walk must find them (and more as the site grows).
    assert {"session_detail", "deal_edit", "player_detail", "standings_month"} <= names
    assert len(ROUTES) >= 30


@pytest.mark.parametrize("value", EDGES)
def test_edge_numbers_in_every_url_never_give_500(client, world, value):
    client.force_login(world.owner)
    for route, numbers in ROUTES:
        _hit(client, _fill(route, numbers, dict.fromkeys(numbers, value), world.objects))


def test_reported_urls_are_404(client, world):
    club = world.club.slug
    for path in (f"/c/{club}/standings/napoleon/0/", f"/c/{club}/standings/napoleon/0/1/",
                 f"/c/{club}/standings/napoleon/2026/13/", f"/c/{club}/players/{2**63}/",
                 f"/c/{club}/sessions/{2**64}/"):  # fmt: skip
        client.force_login(world.owner)
        assert client.get(path).status_code == 404, path


NUMBER_TEXT = st.one_of(
    st.integers(min_value=0, max_value=2**70).map(str),
    st.sampled_from(EDGES + MORE),
    st.text(alphabet="0123456789²³¹٣०０", min_size=1, max_size=22),
)


@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=SLOW_OK)
@given(data=st.data())
def test_any_number_in_any_url_never_gives_500(client, world, data):
    route, numbers = data.draw(st.sampled_from(ROUTES))
    values = {name: data.draw(NUMBER_TEXT) for name in numbers}
    if data.draw(st.booleans()):
        client.force_login(world.owner)
    else:
        client.logout()
    _hit(client, _fill(route, numbers, values, world.objects))
