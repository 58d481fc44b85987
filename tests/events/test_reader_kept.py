"""A reader's role in the club and whether they are a tournament's extra staff are kept per
club data version for reads (selectors.events.access._with_reader_kept), as the club's pages
keep theirs (tests/public/test_reader_kept.py): a kept read asks the tournament's own row
only, a change of a membership or of the tournament's staff is seen at the next read, and a
write (POST) never takes a kept answer."""

import pytest
from django.core.cache import cache
from django.db import connection, transaction
from django.http import Http404
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests import club_versions, factories
from tournaments.models import Club, Membership, Role, Tournament
from tournaments.selectors.events import tournament_for_reader
from tournaments.services.cache import club_version_bump
from tournaments.services.events.registration import registration_set

pytestmark = pytest.mark.django_db


@pytest.fixture
def helper(club):
    user = factories.UserFactory(username="helper-user")
    factories.MembershipFactory(club=club, user=user, role="member")
    return user


def kept_key(tournament, user) -> str:
    version = Club.objects.get(pk=tournament.club_id).data_version
    return f"efuda:treader:{tournament.club_id}:{version}:{tournament.pk}:{user.pk}"


def reader_queries(ctx) -> list[str]:
    """The queries that read the reader's role or their place on the tournament's staff."""
    return [
        q["sql"]
        for q in ctx.captured_queries
        if "tournaments_membership" in q["sql"] or "extra_staff" in q["sql"]
    ]


def tournament_queries(ctx) -> list[str]:
    """The queries that read the tournament's own row."""
    return [q["sql"] for q in ctx.captured_queries if 'FROM "tournaments_tournament" ' in q["sql"]]


def _read(tournament, user):
    return tournament_for_reader(tournament_id=tournament.pk, reader=user, read_only=True)


def test_a_members_second_read_asks_the_tournament_row_only(client, users, make_tournament):
    t = make_tournament(5)
    client.force_login(users["member"])
    url = reverse("tournament_standings", args=[t.pk])
    with CaptureQueriesContext(connection) as first:
        assert client.get(url).status_code == 200
    # the version's first read asks the role and the staff (a plain query each) and keeps them
    assert len(reader_queries(first)) == 2
    with CaptureQueriesContext(connection) as kept:
        assert client.get(url).status_code == 200
    # the session, the user, the club's row (the tournament's row is kept under its version)
    assert len(kept.captured_queries) == 3, [q["sql"] for q in kept.captured_queries]
    assert tournament_queries(kept) == []
    assert reader_queries(kept) == []
    cache.delete(kept_key(t, users["member"]))  # the kept answer gone (evicted, expired)
    with CaptureQueriesContext(connection) as missed:
        assert client.get(url).status_code == 200
    assert len(missed.captured_queries) == 5 and len(reader_queries(missed)) == 2


def test_removed_from_the_extra_staff_the_next_read_denies_staff_rights(
    client, users, helper, make_tournament
):
    t = make_tournament(5)
    client.force_login(users["owner"])
    client.post(reverse("tournament_staff_add", args=[t.pk]), {"who": "helper-user"})
    manage = reverse("tournament_manage", args=[t.pk])
    client.force_login(helper)
    assert client.get(manage).status_code == 200
    assert client.get(manage).status_code == 200  # the kept answer
    client.force_login(users["owner"])
    removed = client.post(reverse("tournament_staff_remove", args=[t.pk, helper.pk]))
    assert removed.status_code == 302 and not t.extra_staff.exists()
    client.force_login(helper)
    assert client.get(manage).status_code == 403
    assert client.get(reverse("tournament_staff", args=[t.pk])).status_code == 403
    # still a member of the club: the private tournament's pages stay theirs to read
    assert client.get(reverse("tournament_standings", args=[t.pk])).status_code == 200


def test_removed_from_the_club_the_private_tournament_is_gone_at_the_next_read(
    client, users, make_tournament
):
    t = make_tournament(5)
    assert not t.is_public
    member = users["member"]
    pages = [reverse(name, args=[t.pk]) for name in ("tournament_detail", "tournament_standings")]
    client.force_login(member)
    for url in pages + pages:  # the second time from the kept answer
        assert client.get(url).status_code == 200
    membership = Membership.objects.get(club=t.club, user=member)
    client.force_login(users["owner"])
    client.post(reverse("member_remove", args=[t.club.slug, membership.pk]))
    assert not Membership.objects.filter(pk=membership.pk).exists()
    client.force_login(member)
    for url in pages:
        assert client.get(url).status_code == 404


def test_extra_staff_who_leave_the_club_lose_the_staff_pages_at_the_next_read(
    client, users, helper, make_tournament
):
    """A public tournament stays readable to them; its staff pages do not."""
    t = make_tournament(5, is_public=True)
    client.force_login(users["owner"])
    client.post(reverse("tournament_staff_add", args=[t.pk]), {"who": "helper-user"})
    manage = reverse("tournament_manage", args=[t.pk])
    client.force_login(helper)
    assert client.get(manage).status_code == 200
    assert client.get(manage).status_code == 200
    membership = Membership.objects.get(club=t.club, user=helper)
    client.force_login(users["owner"])
    client.post(reverse("member_remove", args=[t.club.slug, membership.pk]))
    client.force_login(helper)
    assert client.get(manage).status_code == 403
    assert client.get(reverse("tournament_standings", args=[t.pk])).status_code == 200


def test_a_scorekeeper_made_member_loses_the_staff_pages_at_the_next_read(
    client, users, make_tournament
):
    t = make_tournament(5)
    keeper = users["scorekeeper"]
    manage = reverse("tournament_manage", args=[t.pk])
    client.force_login(keeper)
    assert client.get(manage).status_code == 200
    assert client.get(manage).status_code == 200
    membership = Membership.objects.get(club=t.club, user=keeper)
    client.force_login(users["owner"])
    role = reverse("member_role", args=[t.club.slug, membership.pk])
    assert client.post(role, {"role": Role.MEMBER}).status_code == 302
    client.force_login(keeper)
    assert client.get(manage).status_code == 403


def test_a_write_never_takes_a_kept_answer(client, users, make_tournament):
    """A kept answer that says "owner, and on the staff" (as if an earlier read had kept it) is
    taken by a read and ignored by a POST, which reads the role afresh."""
    t = make_tournament(5)
    member = users["member"]
    cache.set(kept_key(t, member), (Role.OWNER, True))
    client.force_login(member)
    assert client.get(reverse("tournament_manage", args=[t.pk])).status_code == 200  # taken
    entries = t.entries.count()
    add = client.post(reverse("tournament_entry_add", args=[t.pk]), {"name": "森"})
    assert add.status_code == 403 and t.entries.count() == entries


def test_a_kept_tournament_row_is_read_afresh_once_the_tournament_changed(users, make_tournament):
    """The tournament's row kept under the club's version is the row of that version: a
    change to the tournament moves the version, and the next read has it."""
    t = make_tournament(5)
    member = users["member"]
    assert not _read(t, member).registration_open
    with CaptureQueriesContext(connection) as kept:
        assert not _read(t, member).registration_open
    assert tournament_queries(kept) == [] and len(kept.captured_queries) == 1
    registration_set(tournament=t, open=True, cap=7)
    with CaptureQueriesContext(connection) as fresh:
        found = _read(t, member)
    assert found.registration_open and found.registration_cap == 7
    assert len(tournament_queries(fresh)) == 1
    assert found.club.data_version == Club.objects.get(pk=t.club_id).data_version
    assert (found.reader_role, found.reader_extra_staff) == (Role.MEMBER, False)


def test_a_kept_tournament_row_brings_the_clubs_row_read_now(users, make_tournament):
    """The club comes from its own row read on each request, not from the kept one."""
    t = make_tournament(5)
    member = users["member"]
    _read(t, member)
    with club_versions.unchecked():  # no version moved: only the club's row says it
        Club.objects.filter(pk=t.club_id).update(name="renamed")
    assert _read(t, member).club.name == "renamed"


def test_a_deleted_tournament_is_not_found_though_its_row_was_kept(users, make_tournament):
    t = make_tournament(5)
    member = users["member"]
    _read(t, member)
    with transaction.atomic():
        club_version_bump(club_id=t.club_id)
        Tournament.objects.filter(pk=t.pk).delete()
    with pytest.raises(Http404):
        _read(t, member)


def test_a_write_reads_the_tournament_row_afresh(users, make_tournament):
    """A POST never takes a kept row: a row planted under the current version is ignored."""
    t = make_tournament(5)
    member = users["member"]
    _read(t, member)
    planted = Tournament.objects.get(pk=t.pk)
    planted.name = "planted"
    club = Club.objects.get(pk=t.club_id)
    cache.set(f"efuda:trow:{club.pk}:{club.data_version}:{t.pk}", planted)
    assert _read(t, member).name == "planted"  # a read takes what is kept
    fresh = tournament_for_reader(tournament_id=t.pk, reader=member, read_only=False)
    assert fresh.name == t.name
