"""Every deal service moves the club's data version itself (services/cache.py), even when the
ratings, which move it too when they learn, have nothing to learn: a private tournament's deals
in a public club are rated by nobody, so only the deal service can say its pages changed."""

import pytest

from tests import factories
from tests.hardening.helpers import napoleon_data
from tournaments.models import Club, Deal, RatingHistory
from tournaments.selectors.ratings import deal_rated
from tournaments.services import events as ev
from tournaments.services.deals import deal_delete, deal_restore, deal_update

pytestmark = pytest.mark.django_db


@pytest.fixture
def hidden_deal():
    """A deal at a private tournament's table in a public club: hidden from its visitors, so
    never rated."""
    club = factories.ClubFactory(is_public=True)
    wiki = factories.ClubRuleSetFactory(club=club, code="napoleon-wiki", preset="napoleon-wiki")
    tournament = factories.tournament(club=club, ruleset=wiki, entrants=5, is_public=False)
    table = factories.started_round(tournament).tables.get()
    deal = ev.table_deal_record(table=table, data=napoleon_data(table.seats), staff=True)
    assert not deal_rated(deal=deal)
    return deal


def _version(deal) -> int:
    return Club.objects.get(pk=deal.club_id).data_version


def test_deleting_restoring_and_editing_a_hidden_deal_move_the_version(hidden_deal):
    deal = hidden_deal
    for change in (
        lambda d: deal_delete(deal=d),
        lambda d: deal_restore(deal=d),
        lambda d: deal_update(deal=d, data=napoleon_data(d.data["seats"], n=1), version=d.version),
    ):
        before = _version(deal)
        change(Deal.objects.get(pk=deal.pk))
        assert _version(deal) == before + 1
    assert not RatingHistory.objects.filter(club_id=deal.club_id).exists()
