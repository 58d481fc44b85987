"""No HTTP 500 for any number typed into the tournament's staff forms."""

import pytest
from django.urls import reverse

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
