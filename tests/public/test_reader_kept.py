"""A reader's role, player and claim in a club are kept per club data version for reads
(permissions._club_with_reader): a kept read costs the club's own row only, any change of
membership is seen at the next read, and a write never takes a kept answer."""

import pytest
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.http import Http404
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests import factories
from tournaments.models import Club, Membership, Role
from tournaments.permissions import club_for_request
from tournaments.reader import Reader
from tournaments.services.members import member_remove, membership_role_change, membership_set

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(club):
    own, aki = factories.UserFactory(username="own-user"), factories.UserFactory(username="aki")
    membership_set(club=club, user=own, role=Role.OWNER)
    membership_set(club=club, user=aki, role=Role.MEMBER)
    return {"own": own, "aki": aki}


def request_of(user, method: str = "get"):
    request = getattr(RequestFactory(), method)("/")
    request.user = user
    request.reader = Reader(user=user)
    return request


def test_a_kept_read_costs_the_club_row_only(club, people):
    first = club_for_request(request_of(people["aki"]), club.slug, with_player=True)
    with CaptureQueriesContext(connection) as ctx:
        again = club_for_request(request_of(people["aki"]), club.slug, with_player=True)
    assert len(ctx.captured_queries) == 1, [q["sql"] for q in ctx.captured_queries]
    assert "membership" not in ctx.captured_queries[0]["sql"].lower()
    assert first.user_role == again.user_role == Role.MEMBER
    assert first.reader_player_id is again.reader_player_id is None


def test_a_role_change_shows_at_the_next_read(club, people):
    aki = people["aki"]
    with pytest.raises(PermissionDenied):
        club_for_request(request_of(aki), club.slug, role=Role.SCOREKEEPER)
    with pytest.raises(PermissionDenied):  # asked twice: the second answer was the kept one
        club_for_request(request_of(aki), club.slug, role=Role.SCOREKEEPER)
    membership = Membership.objects.get(club=club, user=aki)
    membership_role_change(membership=membership, role=Role.SCOREKEEPER, by=people["own"])
    club_for_request(request_of(aki), club.slug, role=Role.SCOREKEEPER)  # no refusal


def test_a_removed_member_no_longer_sees_the_private_club(client, club, people):
    assert not club.is_public
    client.force_login(people["aki"])
    home = reverse("club_home", args=[club.slug])
    assert client.get(home).status_code == 200
    assert client.get(home).status_code == 200  # the kept answer
    member_remove(
        membership=Membership.objects.get(club=club, user=people["aki"]), by=people["own"]
    )
    assert client.get(home).status_code == 404
    with pytest.raises(Http404):
        club_for_request(request_of(people["aki"]), club.slug)


def test_a_write_never_takes_a_kept_answer(club, people):
    """A kept answer that said "owner" (as if an earlier read had kept it) is taken by a read
    and ignored by a POST, which reads the role afresh."""
    aki = people["aki"]
    version = Club.objects.get(pk=club.pk).data_version
    cache.set(f"efuda:reader:{club.pk}:{version}:{aki.pk}:None", (Role.OWNER, None, None))
    club_for_request(request_of(aki), club.slug, role=Role.OWNER)  # the read took it
    with pytest.raises(PermissionDenied):
        club_for_request(request_of(aki, "post"), club.slug, role=Role.OWNER)
