"""Who may do what in a club (tournaments/permissions.py): the role ladder, site staff, the
404 that hides a private club and the 403 for a visible one, and the role read once per
reader."""

import pytest
from django.core.exceptions import PermissionDenied
from django.db import connection, transaction
from django.http import Http404
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext

from tests import factories
from tournaments.models import Membership, Role
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
from tournaments.services.members import member_remove, membership_role_change

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
    club's row, then the reader's role, player and claim (a plain query each); a second read of
    the same version asks the club's row only and takes the rest as kept."""
    request = _request(user)
    with CaptureQueriesContext(connection) as queries:
        found = club_for_request(request, club.slug, role=Role.MEMBER, with_player=True)
    assert found == club and len(queries.captured_queries) == 4
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


def _sql(read) -> tuple[object, list[str]]:
    """What ``read()`` answers, and the SQL of the queries it sends."""
    with CaptureQueriesContext(connection) as queries:
        found = read()
    return found, [query["sql"] for query in queries.captured_queries]


@pytest.mark.django_db
def test_site_staff_role_is_not_remembered_as_a_membership(club):
    staff = factories.UserFactory(username="site-staff", is_superuser=True)
    request = _request(staff)
    # Staff act as owners: no membership is read, and without the player the club's row alone.
    found, read = _sql(lambda: club_for_request(request, club.slug, role=Role.OWNER))
    assert found == club and len(read) == 1 and "tournaments_membership" not in read[0]
    assert "tournaments_player" not in read[0]
    found, read = _sql(
        lambda: club_for_request(request, club.slug, role=Role.OWNER, with_player=True)
    )
    assert found == club and not [sql for sql in read if "tournaments_membership" in sql]
    assert request.reader.roles == {}
    assert request.reader.players == {club.pk: None}
    # their player and claim are kept for the club's version as anyone's: the next read asks
    # the club's row alone
    again = _request(staff)
    found, read = _sql(
        lambda: club_for_request(again, club.slug, role=Role.OWNER, with_player=True)
    )
    assert found == club and len(read) == 1 and "tournaments_player" not in read[0]
    assert (again.reader.roles, again.reader.players) == ({}, {club.pk: None})


@pytest.mark.django_db
def test_a_plain_read_or_a_head_reads_the_role_alone_and_takes_it_as_kept(club, users):
    """Without ``with_player`` only the reader's role is read with the club (no player, no
    claim); it is kept for the club's version like the rest, and a HEAD reads as a GET: the
    next reads ask the club's row alone."""
    member = users["member"]
    _, first = _sql(lambda: club_for_request(_request(member), club.slug))
    assert len(first) == 2 and "tournaments_membership" in first[1]
    assert not [sql for sql in first if "tournaments_player" in sql]  # nor playerclaim
    for method in ("get", "head"):
        request = getattr(RequestFactory(), method)("/")
        request.user = member
        _, again = _sql(lambda request=request: club_for_request(request, club.slug))
        assert len(again) == 1 and "tournaments_membership" not in again[0], method
        assert request.reader.roles == {club.pk: Role.MEMBER}, method


def _read_as(how: str, user):
    """A request of ``user``: a GET (the answers kept per club version, read by a plain query
    each on a miss), a POST, or a GET with the cache off (both read with the club, one query)."""
    request = (RequestFactory().post if how == "post" else RequestFactory().get)("/")
    request.user = user
    return request


@pytest.mark.django_db
@pytest.mark.parametrize("how", ["get", "post", "uncached"])
def test_the_player_and_the_claim_read_are_the_readers_own_in_this_club(
    club, players, users, how, settings
):
    """A member of two clubs: their player in one is not theirs in the other, their claim in
    one is not a claim in the other, and another member's claim is not theirs; the same
    whichever way the answers are read."""
    if how == "uncached":
        settings.EFUDA_PAGE_CACHE_SECONDS = 0
    member = users["member"]
    other = factories.ClubFactory(slug="other-club")
    factories.MembershipFactory(club=other, user=member, role=Role.OWNER)
    neighbour = factories.UserFactory(username="neighbour")
    factories.MembershipFactory(club=other, user=neighbour, role=Role.MEMBER)
    mine, theirs = (factories.PlayerFactory(club=other, name=n) for n in ("本人", "隣人"))
    player_claim(club=other, user=member, player=mine)  # an owner's claim confirms itself
    player_claim(club=other, user=neighbour, player=theirs)  # waits
    player_claim(club=club, user=member, player=players[1])  # waits
    for _ in range(2):  # read, then (on a GET) taken as kept
        request = _read_as(how, member)
        club_for_request(request, club.slug, with_player=True)
        club_for_request(request, other.slug, with_player=True)
        assert request.reader.players == {club.pk: None, other.pk: mine.pk}
        assert request.reader.claims == {club.pk: players[1].name, other.pk: None}
        assert request.reader.roles == {club.pk: Role.MEMBER, other.pk: Role.OWNER}


@pytest.mark.django_db
def test_a_member_of_another_club_is_an_outsider_here(club, public_club, users):
    outsider = users["outsider"]
    factories.MembershipFactory(club=public_club, user=outsider, role=Role.OWNER)
    for _ in range(2):  # read, then taken as kept
        with pytest.raises(Http404):
            club_for_request(_request(outsider), club.slug)
    request = _request(outsider)
    assert club_for_request(request, public_club.slug, role=Role.OWNER) == public_club
    assert request.reader.roles == {public_club.pk: Role.OWNER}


@pytest.mark.django_db
def test_a_write_reads_the_readers_answers_afresh_and_keeps_none(club, players, users):
    """A POST reads the role, the player and the claim with the club (one query) and keeps
    nothing for the reads: it may read inside a transaction that is then rolled back, and
    the club's version that transaction moved to is taken again by the next change."""
    member, owner = users["member"], users["owner"]
    player_claim(club=club, user=member, player=players[2])
    membership = Membership.objects.get(club=club, user=member)
    post = RequestFactory().post("/")
    post.user = member
    with pytest.raises(RuntimeError), transaction.atomic():
        membership_role_change(membership=membership, role=Role.SCOREKEEPER, by=owner)
        found, read = _sql(
            lambda: club_for_request(post, club.slug, role=Role.SCOREKEEPER, with_player=True)
        )
        assert found == club and len(read) == 1 and "tournaments_membership" in read[0]
        assert (post.reader.roles, post.reader.players, post.reader.claims) == (
            {club.pk: Role.SCOREKEEPER},
            {club.pk: None},
            {club.pk: players[2].name},
        )
        raise RuntimeError("the request fails: its transaction is rolled back")
    member_remove(membership=membership, by=owner)  # the same version number, another change
    for _ in range(2):
        with pytest.raises(Http404):
            club_for_request(_request(member), club.slug, with_player=True)


@pytest.mark.django_db
def test_answers_read_after_the_version_moved_are_kept_as_the_change_left_them(
    club, users, monkeypatch
):
    """The club's row names version v; a change commits before the reader's answers are read
    (they are the change's, version v + 1): they answer this request, and what is kept under v
    is the change's answer, never the one before it: a reader who read the club at v before
    the change and takes the kept answer is refused as well (``answers_kept``)."""
    from django.core.cache import cache

    from tournaments import permissions
    from tournaments.models import Club

    member, owner = users["member"], users["owner"]
    membership = Membership.objects.get(club=club, user=member)
    version = Club.objects.get(pk=club.pk).data_version
    answers = permissions._reader_answers

    def change_between(*args, **kwargs):
        member_remove(membership=membership, by=owner)  # commits; the version moves
        return answers(*args, **kwargs)

    monkeypatch.setattr(permissions, "_reader_answers", change_between)
    with pytest.raises(Http404):  # read after the removal: a private club, hidden
        club_for_request(_request(member), club.slug, with_player=True)
    assert Club.objects.get(pk=club.pk).data_version > version
    key = f"efuda:reader:{club.pk}:{version}:{member.pk}:{member.pk}"
    assert cache.get(key) == (None, None, None)
    monkeypatch.setattr(permissions, "_reader_answers", answers)
    late = _request(member)  # read the club at v before the change: takes the kept answer
    stale = Club.objects.get(pk=club.pk)
    stale.data_version = version
    monkeypatch.setattr(permissions, "get_object_or_404", lambda qs: stale)
    with pytest.raises(Http404):
        club_for_request(late, club.slug, with_player=True)
    assert late.reader.roles == {club.pk: None}
