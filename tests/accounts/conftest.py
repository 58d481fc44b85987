import pytest

from tests import factories
from tournaments.services.invitations import invitation_create


@pytest.fixture
def owner(club):
    user = factories.UserFactory(username="club-owner")
    factories.MembershipFactory(club=club, user=user, role="owner")
    return user


@pytest.fixture
def make_invitation(club, owner):
    def make(**kwargs):
        params = {"role": "scorekeeper", "max_uses": 1, "days": 7} | kwargs
        return invitation_create(club=club, by=owner, **params)

    return make
