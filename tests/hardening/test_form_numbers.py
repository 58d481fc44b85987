"""No HTTP 500 for any number typed into a form: every numeric form field has a range, and
Hypothesis posts arbitrary numbers into every numeric field of every form that writes."""

import datetime
import importlib
import inspect
import json

import pytest
from django import forms
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.hardening.urls import build_world
from tournaments.fields import INT32_MAX

pytestmark = pytest.mark.django_db
SLOW_OK = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow]

FORM_MODULES = (
    "tournaments.forms.entry",
    "tournaments.forms.clubs",
    "tournaments.forms.events",
    "tournaments.forms.printing",
    "tournaments.views.manage",
    "tournaments.views.sessions",
    "tournaments.views.imports",
)
NUMERIC_FIELDS = (forms.IntegerField, forms.FloatField, forms.DecimalField)


def _form_classes():
    for name in FORM_MODULES:
        module = importlib.import_module(name)
        for _n, obj in inspect.getmembers(module, inspect.isclass):
            if issubclass(obj, forms.BaseForm) and obj.__module__ == name:
                yield obj


def _instances(cls):
    if "preset" in inspect.signature(cls.__init__).parameters:
        import rules

        return [cls(preset=code) for code in rules.PRESETS]
    try:
        return [cls()]
    except TypeError:
        return []


def test_every_numeric_form_field_has_a_range():
    seen = 0
    for cls in _form_classes():
        for form in _instances(cls):
            for name, field in form.fields.items():
                if isinstance(field, NUMERIC_FIELDS):
                    seen += 1
                    assert field.min_value is not None, (cls.__name__, name)
                    assert field.max_value is not None, (cls.__name__, name)
                    assert field.max_value <= 2**63 - 1, (cls.__name__, name)
    assert seen >= 5


NUMBER = st.one_of(
    st.integers(min_value=-(2**70), max_value=2**70).map(str),
    st.sampled_from(["", "0", "-1", "²", "٣", "０", "1e400", "NaN", "inf", "1.5", str(2**63),
                     str(INT32_MAX + 1), "99999.96", "1e-30", " 7 ", "0x10"]),
)  # fmt: skip


@pytest.fixture
def world():
    return build_world(payload="x")


def _posts(world, data) -> list[tuple[str, dict]]:
    """(url, form data) for every form that writes and has numbers in it."""
    o = world.objects
    club = o["club_slug"]
    seats = [str(v) for v in data.draw(st.lists(NUMBER, min_size=0, max_size=6))]
    napoleon = {
        "seats": seats, "napoleon": data.draw(NUMBER), "bid": data.draw(NUMBER),
        "trump": "S", "called_suit": "H", "called_rank": "A", "adjutant": data.draw(NUMBER),
        "honours": data.draw(NUMBER), "discarded": data.draw(NUMBER),
        "version": data.draw(NUMBER), "action": data.draw(st.sampled_from(["save", "preview"])),
    }  # fmt: skip
    daifugo = {"order": seats, "forbidden": seats[:1], "action": "save"}
    mapping = {k: int(data.draw(st.integers(-(2**70), 2**70))) for k in ("daifugo", "daihinmin")}
    t = o["tournament_id"]
    return [
        (reverse("deal_new", args=[club, o["pk:session"]]), napoleon),
        (reverse("deal_preview", args=[club, o["pk:session"]]), napoleon),
        (reverse("deal_edit", args=[club, o["pk:deal"]]), napoleon),
        (reverse("round_new", args=[club, o["pk:dai_session"]]), daifugo),
        (reverse("tournament_new", args=[club]), {
            "name": "T", "date": "2026-12-01", "ruleset": data.draw(NUMBER),
            "rounds_planned": data.draw(NUMBER), "deals_per_round": data.draw(NUMBER),
            "minutes_per_round": data.draw(NUMBER), "draw_method": "mixing",
            "table_size": data.draw(NUMBER), "standings_mode": "raw"}),
        (reverse("tournament_adjustment_add", args=[t]), {
            "entry": data.draw(NUMBER), "points": data.draw(NUMBER), "reason": "r",
            "round_number": data.draw(NUMBER)}),
        (reverse("tournament_round_swap", args=[t, 1]), {"a": data.draw(NUMBER),
                                                          "b": data.draw(NUMBER)}),
        (reverse("tournament_table_record", args=[t, o["table_id"]]), napoleon),
        (reverse("ruleset_new", args=[club]), {
            "code": "fuzz", "preset": "napoleon-wiki", "options.min_bid": data.draw(NUMBER)}),
        (reverse("ruleset_new", args=[club]), {
            "code": "fuzz-d", "preset": "daifugo-common",
            "options.title_points": json.dumps(mapping)}),
        (reverse("session_new", args=[club]), {
            "date": "2026-12-02", "table": "N", "ruleset": data.draw(NUMBER)}),
    ]  # fmt: skip


@settings(max_examples=12, deadline=None, derandomize=True, suppress_health_check=SLOW_OK)
@given(data=st.data())
def test_any_number_in_any_form_never_gives_500(client, world, data):
    client.force_login(world.owner)
    for url, post in _posts(world, data):
        response = client.post(url, post)
        assert response.status_code < 500, (url, post, response.status_code)
    # Standings take a minimum number of deals from the query string.
    url = reverse("standings_all", args=[world.objects["club_slug"], "napoleon"])
    assert client.get(url, {"min": data.draw(NUMBER)}).status_code == 200


def test_session_dates_far_away_are_refused_or_stored(client, world):
    client.force_login(world.owner)
    url = reverse("session_new", args=[world.objects["club_slug"]])
    for day in ("0001-01-01", "9999-12-31", "10000-01-01", "0000-00-00"):
        response = client.post(url, {"date": day, "table": f"D{day[:2]}", "ruleset": "1"})
        assert response.status_code < 500, day
    assert datetime.date.max.year == 9999
