"""No HTTP 500 for any number typed into the tournament's staff forms."""

import re
from urllib.parse import quote

import pytest
from django import forms
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.events.conftest import napoleon_win
from tournaments.models import Tournament
from tournaments.services import events as svc

pytestmark = pytest.mark.django_db

ODD = ["Infinity", "-Infinity", "NaN", "1e20", "9" * 40, "-5", "0", "１０", "²", "1.5e3", ""]


@pytest.fixture
def running(make_tournament):
    t = make_tournament(10)
    rnd = svc.round_start(rnd=svc.round_draw(tournament=t))
    return t, rnd


@pytest.mark.parametrize("minutes", ODD)
def test_timer_minutes_never_500(client, users, running, minutes):
    t, rnd = running
    client.force_login(users["scorekeeper"])
    url = reverse("tournament_round_timer", args=[t.pk, rnd.number])
    response = client.post(url, {"action": "start", "minutes": minutes})
    assert response.status_code == 302
    rnd.refresh_from_db()
    # only ten minutes (typed in full-width digits) start the clock; nothing else changes it
    assert (rnd.timer_ends_at is not None) == (minutes == "１０")


def test_timer_refuses_beyond_a_day(running):
    t, rnd = running
    from core.errors import EfudaError

    for minutes in ("Infinity", "1e20", "1441", "0", "-3", "NaN"):
        with pytest.raises(EfudaError) as err:
            svc.timer_start(rnd=rnd, minutes=minutes)
        assert err.value.field == "minutes" and err.value.params == {"max": 1440}
    assert svc.timer_start(rnd=rnd, minutes="1440").timer_ends_at is not None


@pytest.mark.parametrize(
    "field", ["rounds_planned", "deals_per_round", "minutes_per_round", "table_size"]
)
@pytest.mark.parametrize("value", ["Infinity", "1e20", "9" * 40, "-1", "NaN"])
def test_new_tournament_numbers_answer_beside_the_field(client, users, club, wiki, field, value):
    client.force_login(users["scorekeeper"])
    data = {
        "name": "大会", "date": "2026-11-21", "ruleset": wiki.pk, "rounds_planned": "4",
        "draw_method": "mixing", "standings_mode": "raw", field: value,
    }  # fmt: skip
    response = client.post(reverse("tournament_new", args=[club.slug]), data)
    assert response.status_code == 200
    assert "errorlist" in response.content.decode() or "field-error" in response.content.decode()
    assert not Tournament.objects.exists()


# --- every numeric tournament form field and URL (Hypothesis) ---------------------------------

NUMBER = st.one_of(
    st.integers(min_value=-(2**70), max_value=2**70).map(str),
    st.text(alphabet="0123456789²³¹٣०０１-.e+", min_size=0, max_size=24),
    st.sampled_from(ODD + [str(2**63), str(2**31), "0x10", " 7 ", "1e-30", "99999.96"]),
)
SLOW_OK = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow]


def _form_instances():
    """Every form of the tournament pages, built with a real-looking tournament and club."""
    import inspect

    from tournaments.forms import events as forms_events
    from tournaments.models import Club

    tournament = Tournament(rounds_planned=4, standings_hidden_rounds=0)
    for _name, cls in inspect.getmembers(forms_events, inspect.isclass):
        if issubclass(cls, forms.BaseForm) and cls.__module__ == forms_events.__name__:
            params = inspect.signature(cls.__init__).parameters
            kwargs = {}
            if "tournament" in params:
                kwargs["tournament"] = tournament
            if "club" in params:
                kwargs["club"] = Club(pk=1)
            yield cls(**kwargs)


def test_every_numeric_tournament_form_field_has_a_range():
    seen = []
    for form in _form_instances():
        for name, field in form.fields.items():
            if isinstance(field, forms.IntegerField | forms.DecimalField | forms.FloatField):
                seen.append(f"{type(form).__name__}.{name}")
                assert field.min_value is not None and field.max_value is not None, seen[-1]
                assert field.max_value <= 2**63 - 1, seen[-1]
    assert {
        "FreezeForm.standings_hidden_rounds", "SwapForm.a", "SwapForm.b",
        "PinForm.table", "PinForm.seat", "AdjustmentForm.round_number",
    } <= set(seen)  # fmt: skip


@pytest.fixture
def evening(make_tournament, users, club):
    t = make_tournament(10, rounds_planned=3)
    rnd = svc.round_start(rnd=svc.round_draw(tournament=t))
    helper = users["member"]
    svc.tournament_staff_add(tournament=t, who=helper.username)
    table = rnd.tables.order_by("number").first()
    deal = svc.table_deal_record(table=table, data=napoleon_win(table.seats), staff=True)
    return t, rnd, table, deal, helper


def _posts(t, rnd, table, deal, helper, data):
    def n():
        return data.draw(NUMBER)

    entry = t.entries.first()
    return [
        (reverse("tournament_round_timer", args=[t.pk, rnd.number]),
         {"action": data.draw(st.sampled_from(["start", "stop", "", "x"])), "minutes": n()}),
        (reverse("tournament_round_swap", args=[t.pk, rnd.number]), {"a": n(), "b": n()}),
        (reverse("tournament_adjustment_add", args=[t.pk]),
         {"entry": n(), "points": n(), "round_number": n(), "reason": "r"}),
        (reverse("tournament_freeze", args=[t.pk]), {"standings_hidden_rounds": n()}),
        (reverse("tournament_staff_add", args=[t.pk]), {"who": n()}),
        (reverse("tournament_entry_check_in", args=[t.pk, entry.pk]), {"checked_in": n()}),
        (reverse("tournament_entry_drop", args=[t.pk, entry.pk]), {"undo": n()}),
        (reverse("tournament_entry_pin", args=[t.pk, entry.pk]), {"revoke": n()}),
        (reverse("tournament_deal_dispute", args=[t.pk, deal.pk]), {"note": n()}),
        (reverse("tournament_draw", args=[t.pk]), {"method": n()}),
        (reverse("tournament_pin", args=[t.pk]), {"table": n(), "seat": n(), "pin": n()}),
        (reverse("tournament_new", args=[t.club.slug]),
         {"name": "T", "date": "2026-12-01", "ruleset": n(), "rounds_planned": n(),
          "deals_per_round": n(), "minutes_per_round": n(), "table_size": n(),
          "draw_method": "mixing", "standings_mode": "raw"}),
        (reverse("tournament_table_record", args=[t.pk, table.pk]),
         {"seats": [n() for _ in range(5)], "napoleon": n(), "bid": n(), "trump": "S",
          "called_suit": "S", "called_rank": "A", "adjutant": n(), "honours": n(),
          "discarded": n(), "action": "save"}),
    ]  # fmt: skip


@settings(max_examples=10, deadline=None, derandomize=True, suppress_health_check=SLOW_OK)
@given(data=st.data())
def test_any_number_in_any_tournament_form_never_gives_500(client, users, evening, data):
    t, rnd, table, deal, helper = evening
    client.force_login(users["owner"])
    for url, post in _posts(t, rnd, table, deal, helper, data):
        response = client.post(url, post)
        assert response.status_code < 500, (url, post, response.status_code)
    t.refresh_from_db()
    assert 0 <= t.standings_hidden_rounds <= t.rounds_planned


def _tournament_routes():
    from tests.hardening.urls import all_routes

    routes = []
    for route in all_routes():
        names = re.findall(r"<id:(\w+)>", route.route)
        if "tournament_id" in names:
            routes.append((route, names))
    return routes


TOURNAMENT_ROUTES = _tournament_routes()


def test_tournament_routes_include_the_new_pages():
    names = {route.name for route, _names in TOURNAMENT_ROUTES}
    assert {"tournament_staff", "tournament_staff_remove", "tournament_freeze",
            "tournament_reveal", "tournament_table", "tournament_round_timer"} <= names  # fmt: skip


@settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=SLOW_OK)
@given(data=st.data())
def test_any_number_beside_a_real_tournament_in_a_url_never_gives_500(client, users, evening, data):
    """The tournament exists, the other numbers are anything: every view runs past the
    tournament's lookup and permission checks to its own."""
    t, rnd, table, deal, helper = evening
    route, names = data.draw(st.sampled_from(TOURNAMENT_ROUTES))
    real = {"tournament_id": t.pk, "table_id": table.pk, "deal_id": deal.pk,
            "number": rnd.number, "entry_id": t.entries.first().pk, "user_id": helper.pk,
            "adjustment_id": 1}  # fmt: skip
    values = {
        name: (real[name] if name == "tournament_id" or data.draw(st.booleans()) else None)
        for name in names
    }
    values = {k: v if v is not None else data.draw(NUMBER) for k, v in values.items()}

    def one(match):
        return quote(str(values[match.group(1)]))

    url = "/" + re.sub(r"<id:(\w+)>", one, route.route)
    who = data.draw(st.sampled_from(["owner", "member", "outsider", None]))
    if who:
        client.force_login(users[who])
    else:
        client.logout()
    for method in (client.get, client.post):
        response = method(url)
        assert response.status_code < 500, (method.__name__, url, response.status_code)
