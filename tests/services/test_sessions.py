"""Starting a session resolves its rule set and creates the session in one transaction."""

import datetime

import pytest

from core.errors import EfudaError
from tournaments.models import ClubRuleSet, GameSession
from tournaments.services.sessions import session_start

DAY = datetime.date(2026, 11, 20)


@pytest.mark.django_db
def test_a_preset_code_becomes_the_clubs_rule_set_with_the_session(club):
    session = session_start(club=club, rules_code="napoleon-joker", date=DAY, table="B")
    assert session.ruleset.code == "napoleon-joker" and session.ruleset.club == club
    assert session.rules_snapshot["preset"] == "napoleon-joker"


@pytest.mark.django_db
def test_a_refused_session_leaves_no_rule_set_behind(club, napoleon_session):
    """The table is taken that day: nothing is written, not even the preset's club rule set."""
    before = set(ClubRuleSet.objects.values_list("code", flat=True))
    with pytest.raises(EfudaError) as caught:
        session_start(club=club, rules_code="napoleon-joker", date=DAY, table="A")
    assert caught.value.field == "table"
    assert set(ClubRuleSet.objects.values_list("code", flat=True)) == before
    assert GameSession.objects.count() == 1


@pytest.mark.django_db
def test_an_unknown_rule_set_is_refused_on_its_field(club):
    with pytest.raises(EfudaError) as caught:
        session_start(club=club, rules_code="no-such-rules", date=DAY)
    assert caught.value.field == "rules"
    assert not GameSession.objects.exists()
