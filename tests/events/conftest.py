import pytest

from tests import factories


def napoleon_win(seats, *, bid=13):
    """A won deal: seat 1 is Napoleon, seat 2 the adjutant (wiki 5 players: +2 +1 −1 −1 −1)."""
    return {
        "seats": list(seats),
        "napoleon": seats[0],
        "bid": bid,
        "trump": "S",
        "called": "SA",
        "adjutant": seats[1],
        "honours": 14,
        "discarded": 0,
        "last_trick": None,
        "redeal": False,
    }


@pytest.fixture
def wiki(club):
    return factories.ClubRuleSetFactory(club=club, code="napoleon-wiki", preset="napoleon-wiki")


@pytest.fixture
def make_tournament(club, wiki):
    def make(count=10, **kwargs):
        return factories.tournament(
            club=club, ruleset=kwargs.pop("ruleset", wiki), entrants=count, **kwargs
        )

    return make


@pytest.fixture(autouse=True)
def _english(english):
    """These tests assert English page texts."""
