"""A reader's role in the club and whether they are a tournament's extra staff are kept per
club data version for reads (selectors.events.access._with_reader_kept), as the club's pages
keep theirs (tests/public/test_reader_kept.py): a kept read asks the tournament's own row
only, a change of a membership or of the tournament's staff is seen at the next read, and a
write (POST) never takes a kept answer."""

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests import factories
from tournaments.models import Club, Membership, Role

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
    # the session, the user, the tournament's row with its club and rule set
    assert len(kept.captured_queries) == 3, [q["sql"] for q in kept.captured_queries]
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
