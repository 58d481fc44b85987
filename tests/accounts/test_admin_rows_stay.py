"""Site staff cannot move a saved row to another club in the admin: a player, a rule set, a
session or a tournament keeps its club (its deals, score lines and entries stay with it, and
both clubs' pages stay true). A new row still chooses its club."""

import pytest
from django.test import Client
from django.urls import reverse

from tests import factories
from tests.hardening.helpers import build_club
from tests.public.test_hiding_flags import _admin_form
from tournaments.models import ClubRuleSet, GameSession, Player, Tournament
from tournaments.services.events.entries import tournament_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff():
    client = Client()
    client.force_login(factories.UserFactory(is_staff=True, is_superuser=True))
    return client


def test_no_saved_row_moves_to_another_club(staff):
    club, players, nap, _dai = build_club(deals=1)
    other = factories.ClubFactory(slug="other-club")
    wiki = club.rulesets.get(code="napoleon-wiki")
    tournament = tournament_create(
        club=club, name="春の大会", date=nap.date, ruleset=wiki, rounds_planned=2
    )
    rows = [players[0], wiki, nap, tournament]
    for row in rows:
        name = type(row)._meta.model_name
        change = reverse(f"admin:tournaments_{name}_change", args=[row.pk])
        page = staff.get(change)
        assert page.status_code == 200, name
        assert "club" not in page.context["adminform"].form.fields, name
        response = staff.post(change, {**_admin_form(staff, change), "club": other.pk})
        assert response.status_code == 302, (name, response.content[:300])
        row.refresh_from_db()
        assert row.club_id == club.pk, name
    assert not Player.objects.filter(club=other).exists()
    assert not ClubRuleSet.objects.filter(club=other).exists()
    assert not GameSession.objects.filter(club=other).exists()
    assert not Tournament.objects.filter(club=other).exists()


def test_a_new_row_chooses_its_club(staff):
    club = factories.ClubFactory(slug="new-rows")
    add = reverse("admin:tournaments_player_add")
    assert "club" in staff.get(add).context["adminform"].form.fields
    response = staff.post(add, {"club": club.pk, "name": "新人", "active": "on"})
    assert response.status_code == 302
    assert Player.objects.get(name="新人").club_id == club.pk
