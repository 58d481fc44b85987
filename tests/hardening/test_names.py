"""Bidi and other control characters are refused in every name, by one validator; page titles
isolate names so a right-to-left name cannot reorder the rest of the title."""

import datetime

import pytest
from django.urls import reverse

from core.errors import EfudaError
from tests import factories
from tournaments.services.clubs import club_create, club_update
from tournaments.services.events import tournament_create
from tournaments.services.names import BIDI_CONTROLS
from tournaments.services.players import player_get_or_create
from tournaments.services.rulesets import ruleset_save
from tournaments.services.sessions import session_create

pytestmark = pytest.mark.django_db

CONTROLS = sorted(BIDI_CONTROLS) + ["\x00", "\x1b"]


def _refused(call, field):
    with pytest.raises(EfudaError) as caught:
        call()
    assert caught.value.field == field
    assert caught.value.code == "player_name_control"


@pytest.mark.parametrize("ch", CONTROLS)
def test_every_name_refuses_bidi_and_control_characters(club, ch):
    bad = f"evil{ch}gpj.exe"
    ruleset = factories.ClubRuleSetFactory(club=club, code="napoleon-wiki", preset="napoleon-wiki")
    _refused(lambda: club_create(slug="x-club", name=bad), "name")
    _refused(lambda: club_update(club=club, name=bad, is_public=False), "name")
    _refused(lambda: player_get_or_create(club=club, name=bad), "name")
    _refused(lambda: session_create(club=club, ruleset=ruleset, date=datetime.date(2026, 1, 1),
                                    table=bad), "table")  # fmt: skip
    _refused(lambda: ruleset_save(club=club, code="mine", preset="napoleon-wiki", name=bad), "name")
    _refused(lambda: tournament_create(club=club, name=bad, date=datetime.date(2026, 1, 1),
                                       ruleset=ruleset), "name")  # fmt: skip


def test_import_refuses_a_bidi_control_in_a_table_label(club):
    from tournaments.services.imports import ImportFailed, results_import

    data = "date,table,rules,order,forbidden\n2026-11-20,A\u202e,daifugo-common,a;b;c,\n"
    with pytest.raises(ImportFailed) as caught:
        results_import(club=club, file=data.encode())
    assert [(p.line, p.field) for p in caught.value.problems] == [(2, "table")]


def test_right_to_left_names_are_kept_and_isolated_in_the_title(client):
    club = club_create(slug="rtl", name="نادي الورق", is_public=True)
    response = client.get(reverse("club_home", args=[club.slug]))
    assert response.status_code == 200
    title = response.content.decode().split("<title>")[1].split("</title>")[0]
    assert "\u2068نادي الورق\u2069" in title


@pytest.mark.parametrize(
    ("points", "stored"),
    [("99999.94", "99999.9"), ("-0.05", "-0.1"), ("1.25", "1.3"), ("-12", "-12.0")],
)
def test_adjustments_are_stored_as_checked(club, points, stored):
    from tournaments.services.events import adjustment_add, entry_add

    ruleset = factories.ClubRuleSetFactory(club=club, code="napoleon-wiki", preset="napoleon-wiki")
    t = tournament_create(club=club, name="T", date=datetime.date(2026, 1, 1), ruleset=ruleset)
    entry = entry_add(tournament=t, name="太郎")
    assert str(adjustment_add(entry=entry, points=points, reason="r").points) == stored


@pytest.mark.parametrize("points", ["99999.96", "-99999.95", "1e-30", "0.04", "-0.049", "1e999999",
                                    "NaN", "Infinity", "x", ""])  # fmt: skip
def test_adjustments_out_of_range_after_rounding_are_refused(club, points):
    from tournaments.models import Adjustment
    from tournaments.services.events import adjustment_add, entry_add

    ruleset = factories.ClubRuleSetFactory(club=club, code="napoleon-wiki", preset="napoleon-wiki")
    t = tournament_create(club=club, name="T", date=datetime.date(2026, 1, 1), ruleset=ruleset)
    entry = entry_add(tournament=t, name="太郎")
    with pytest.raises(EfudaError) as caught:
        adjustment_add(entry=entry, points=points, reason="r")
    assert caught.value.field == "points"
    assert not Adjustment.objects.exists()
