"""Who may do what in a club (tournaments/permissions.py): the role ladder, site staff, the
404 that hides a private club and the 403 for a visible one, and the role read once per
reader."""

import pytest
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.http import Http404
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext

from tests import factories
from tournaments.models import Role
from tournaments.permissions import (
    can_manage,
    can_record,
    can_view,
    club_for_request,
    club_role,
    has_role,
    require_role,
    require_view,
    role_covers,
)
from tournaments.reader import Reader
from tournaments.services.claims import claim_confirm, player_claim

LADDER = (Role.MEMBER, Role.SCOREKEEPER, Role.OWNER)


def test_each_role_covers_the_roles_below_it_and_no_other():
    for i, role in enumerate(LADDER):
        for j, needed in enumerate(LADDER):
            assert role_covers(role, needed) is (i >= j), (role, needed)


@pytest.mark.django_db
def test_each_role_may_do_what_its_rung_allows(club, users):
    rights = {
        "member": (True, False, False),
        "scorekeeper": (True, True, False),
        "owner": (True, True, True),
        "outsider": (False, False, False),
    }
    for name, (view, record, manage) in rights.items():
        user = users[name]
        assert (can_view(user, club), can_record(user, club), can_manage(user, club)) == (
            view,
            record,
            manage,
        ), name
        assert club_role(user, club) == (None if name == "outsider" else name)


@pytest.mark.django_db
def test_nobody_logged_in_has_no_role_even_in_a_public_club(public_club):
    assert club_role(None, public_club) is None
    assert can_view(None, public_club)
    assert not has_role(None, public_club, Role.MEMBER)


@pytest.mark.django_db
def test_site_staff_are_owners_everywhere_without_a_membership(club):
    staff = factories.UserFactory(username="site-staff", is_superuser=True)
    assert club_role(staff, club) == Role.OWNER
    assert can_manage(staff, club)


@pytest.mark.django_db
def test_a_role_is_read_once_per_reader_and_per_club(club, public_club, users):
    factories.MembershipFactory(club=public_club, user=users["owner"], role=Role.MEMBER)
    reader = Reader.of(users["owner"])
    with CaptureQueriesContext(connection) as first:
        assert club_role(reader, club) == Role.OWNER
        assert club_role(reader, public_club) == Role.MEMBER
    assert len(first.captured_queries) == 2
    assert reader.roles == {club.pk: Role.OWNER, public_club.pk: Role.MEMBER}
    with CaptureQueriesContext(connection) as again:
        assert has_role(reader, club, Role.OWNER) and has_role(reader, public_club, Role.MEMBER)
    assert again.captured_queries == []
    # a user, not a reader: nothing is kept between calls
    assert club_role(users["owner"], club) == Role.OWNER


@pytest.mark.django_db
def test_a_private_club_is_hidden_and_a_public_one_refused(club, public_club, users):
    outsider = users["outsider"]
    with pytest.raises(Http404):
        require_view(outsider, club)
    with pytest.raises(Http404):
        require_role(outsider, club, Role.MEMBER)
    require_view(outsider, public_club)  # no exception
    with pytest.raises(PermissionDenied):
        require_role(outsider, public_club, Role.MEMBER)
    member = users["member"]
    require_role(member, club, Role.MEMBER)
    with pytest.raises(PermissionDenied):
        require_role(member, club, Role.SCOREKEEPER)


def _request(user):
    request = RequestFactory().get("/")
    request.user = user
    return request


def _club_read(club, user):
    """The reader's answers as a GET reads them: the first read of a club version asks the
    club's row, then the club with the reader's role, player and claim (one query); a second
    read of the same version asks the club's row only and takes the rest as kept."""
    request = _request(user)
    with CaptureQueriesContext(connection) as queries:
        found = club_for_request(request, club.slug, role=Role.MEMBER, with_player=True)
    assert found == club and len(queries.captured_queries) == 2
    again = _request(user)
    with CaptureQueriesContext(connection) as queries:
        club_for_request(again, club.slug, role=Role.MEMBER, with_player=True)
    assert len(queries.captured_queries) == 1
    assert (again.reader.roles, again.reader.players, again.reader.claims) == (
        request.reader.roles,
        request.reader.players,
        request.reader.claims,
    )
    return request.reader


@pytest.mark.django_db
def test_the_club_brings_the_readers_role_player_and_claim(club, players, users):
    claim = player_claim(club=club, user=users["member"], player=players[1])
    reader = _club_read(club, users["member"])
    assert reader.roles == {club.pk: Role.MEMBER}
    assert reader.players == {club.pk: None}
    assert reader.claims == {club.pk: players[1].name}
    claim_confirm(claim=claim, by=users["owner"])
    reader = _club_read(club, users["member"])
    assert reader.players == {club.pk: players[1].pk}
    assert reader.claims == {club.pk: None}


@pytest.mark.django_db
def test_without_asking_for_the_player_none_is_read(club, users):
    request = _request(users["member"])
    club_for_request(request, club.slug)
    assert request.reader.players == {} and request.reader.claims == {}
    assert request.reader.roles == {club.pk: Role.MEMBER}


@pytest.mark.django_db
def test_site_staff_role_is_not_remembered_as_a_membership(club):
    staff = factories.UserFactory(username="site-staff", is_superuser=True)
    request = _request(staff)
    assert club_for_request(request, club.slug, role=Role.OWNER, with_player=True) == club
    assert request.reader.roles == {}
    assert request.reader.players == {club.pk: None}
