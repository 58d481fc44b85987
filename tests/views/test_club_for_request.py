"""``club_for_request``: the one way a view loads the club its URL names."""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.http import Http404
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext

from tests import factories
from tournaments.models import Role
from tournaments.permissions import club_for_request


def _request(user):
    request = RequestFactory().get("/")
    request.user = user
    return request


@pytest.mark.django_db
def test_unknown_and_hidden_clubs_answer_alike(club, users):
    for user in (AnonymousUser(), users["outsider"]):
        for role in (None, Role.MEMBER, Role.OWNER):
            with pytest.raises(Http404):
                club_for_request(_request(user), club.slug, role=role)  # private club
            with pytest.raises(Http404):
                club_for_request(_request(user), "no-such-club", role=role)


@pytest.mark.django_db
def test_members_see_their_club_and_are_refused_roles_they_lack(club, users):
    member = _request(users["member"])
    assert club_for_request(member, club.slug) == club
    assert club_for_request(member, club.slug, role=Role.MEMBER) == club
    with pytest.raises(PermissionDenied):
        club_for_request(member, club.slug, role=Role.SCOREKEEPER)
    keeper = _request(users["scorekeeper"])
    assert club_for_request(keeper, club.slug, role=Role.SCOREKEEPER) == club
    with pytest.raises(PermissionDenied):
        club_for_request(keeper, club.slug, role=Role.OWNER)
    assert club_for_request(_request(users["owner"]), club.slug, role=Role.OWNER) == club


@pytest.mark.django_db
def test_a_public_club_is_open_to_read_and_403_for_roles(public_club):
    passer_by = factories.UserFactory(username="passer-by")
    for user in (AnonymousUser(), passer_by):
        assert club_for_request(_request(user), public_club.slug) == public_club
        for role in (Role.MEMBER, Role.SCOREKEEPER, Role.OWNER):
            with pytest.raises(PermissionDenied):
                club_for_request(_request(user), public_club.slug, role=role)


@pytest.mark.django_db
def test_site_staff_act_as_owners_of_every_club(club):
    staff = factories.UserFactory(username="site-staff", is_superuser=True)
    assert club_for_request(_request(staff), club.slug, role=Role.OWNER) == club


@pytest.mark.django_db
def test_nobody_logged_in_reads_the_club_alone(public_club):
    """A visitor has no role, player or claim: every read asks the club's row alone (one
    query, nothing kept for them), and a view asking for the player gets None."""
    for _ in range(2):
        request = _request(AnonymousUser())
        with CaptureQueriesContext(connection) as queries:
            found = club_for_request(request, public_club.slug, with_player=True)
        assert found == public_club and len(queries.captured_queries) == 1
        reader = request.reader
        assert reader.players == {public_club.pk: None} and reader.claims == {public_club.pk: None}
        assert reader.roles == {}
