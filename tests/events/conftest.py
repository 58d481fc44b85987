import datetime

import pytest

from tests import factories
from tournaments.services import events as svc


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
        kwargs.setdefault("seed", 7)
        t = svc.tournament_create(
            club=club,
            name="秋の大会",
            date=datetime.date(2026, 11, 21),
            ruleset=kwargs.pop("ruleset", wiki),
            **kwargs,
        )
        for i in range(1, count + 1):
            svc.entry_add(tournament=t, name=f"選手{i}", checked_in=True)
        return t

    return make


@pytest.fixture(autouse=True)
def _english(english):
    """These tests assert English page texts."""
