"""The tournament's staff page: club admins and the tournament's creator add members of the
club to its staff and remove them (with confirmation); nobody removes the last person able to
run it; every change is in the tournament's history."""

import pytest
from django.urls import reverse

from core.errors import EfudaError
from tests import club_versions, factories
from tournaments.models import Membership
from tournaments.services import events as svc
from tournaments.services.members import member_remove

pytestmark = pytest.mark.django_db


@pytest.fixture
def helper(club):
    user = factories.UserFactory(username="helper-user", email="Helper@example.org")
    factories.MembershipFactory(club=club, user=user, role="member")
    return user


def staff_names(t):
    return sorted(u.username for u in t.extra_staff.all())


def test_owner_adds_a_member_by_user_name_who_can_then_run_it(
    client, users, helper, make_tournament
):
    t = make_tournament(5)
    manage = reverse("tournament_manage", args=[t.pk])
    client.force_login(helper)
    assert client.get(manage).status_code == 403
    client.force_login(users["owner"])
    response = client.post(reverse("tournament_staff_add", args=[t.pk]), {"who": " helper-user "})
    assert response.status_code == 302
    assert staff_names(t) == ["helper-user"]
    page = client.get(reverse("tournament_staff", args=[t.pk])).content.decode()
    assert "helper-user" in page and "now runs this tournament" in page
    client.force_login(helper)
    assert client.get(manage).status_code == 200
    # the history keeps who was on the staff after each change
    latest = t.history.first()
    assert [row.user_id for row in latest.extra_staff.all()] == [helper.pk]


def test_add_by_e_mail_address_any_case(client, users, helper, make_tournament):
    t = make_tournament(5)
    client.force_login(users["owner"])
    client.post(reverse("tournament_staff_add", args=[t.pk]), {"who": "helper@EXAMPLE.org"})
    assert staff_names(t) == ["helper-user"]


@pytest.mark.parametrize("who", ["outsider-user", "nobody", "", "x" * 300, "helper-user"])
def test_add_refused_beside_the_field(client, users, helper, make_tournament, who):
    t = make_tournament(5)
    if who == "helper-user":
        svc.tournament_staff_add(tournament=t, who="helper-user")
    before = staff_names(t)
    client.force_login(users["owner"])
    response = client.post(reverse("tournament_staff_add", args=[t.pk]), {"who": who})
    assert response.status_code == 400
    html = response.content.decode()
    assert 'class="field-error"' in html
    if who == "helper-user":
        assert "already runs this tournament" in html
    elif who in ("outsider-user", "nobody"):
        assert "is not the user name or e-mail address of a member of this club" in html
    assert staff_names(t) == before


def test_only_club_admins_and_the_creator_change_the_staff(client, users, helper, make_tournament):
    t = make_tournament(5)  # created by nobody in particular
    svc.tournament_staff_add(tournament=t, who="helper-user")
    add = reverse("tournament_staff_add", args=[t.pk])
    remove = reverse("tournament_staff_remove", args=[t.pk, helper.pk])
    # a scorekeeper runs the tournament and sees the page, without the controls
    client.force_login(users["scorekeeper"])
    page = client.get(reverse("tournament_staff", args=[t.pk])).content.decode()
    assert "helper-user" in page and 'name="who"' not in page and remove not in page
    assert client.post(add, {"who": "member-user"}).status_code == 403
    assert client.post(remove).status_code == 403
    # extra staff cannot take anyone off either (nobody locks others out)
    client.force_login(helper)
    assert client.post(remove).status_code == 403
    # members and outsiders: no page at all
    client.force_login(users["member"])
    assert client.get(reverse("tournament_staff", args=[t.pk])).status_code == 403
    client.force_login(users["outsider"])
    assert client.get(reverse("tournament_staff", args=[t.pk])).status_code == 404
    client.logout()
    assert client.get(reverse("tournament_staff", args=[t.pk])).status_code == 302
    assert staff_names(t) == ["helper-user"]
    # the scorekeeper who created a tournament manages its staff
    mine = svc.tournament_create(
        club=t.club, name="記録係の大会", date=t.date, ruleset=t.ruleset, user=users["scorekeeper"]
    )
    client.force_login(users["scorekeeper"])
    assert (
        client.post(
            reverse("tournament_staff_add", args=[mine.pk]), {"who": "helper-user"}
        ).status_code
        == 302
    )
    assert staff_names(mine) == ["helper-user"]


def test_remove_asks_first_then_removes_with_history(client, users, helper, make_tournament):
    t = make_tournament(5)
    svc.tournament_staff_add(tournament=t, who="helper-user")
    url = reverse("tournament_staff_remove", args=[t.pk, helper.pk])
    client.force_login(users["owner"])
    page = client.get(url)
    assert page.status_code == 200 and "helper-user" in page.content.decode()
    assert staff_names(t) == ["helper-user"]  # asking changes nothing
    assert client.post(url).status_code == 302
    assert staff_names(t) == []
    assert list(t.history.first().extra_staff.all()) == []
    assert len({tuple(r.user_id for r in h.extra_staff.all()) for h in t.history.all()}) == 2
    # not on the staff (any more): 404, nothing to confirm
    assert client.get(url).status_code == 404


def test_nobody_removes_the_last_person_able_to_run_it(
    client, club, users, helper, make_tournament
):
    creator = users["scorekeeper"]
    t = make_tournament(5, user=creator)
    svc.tournament_staff_add(tournament=t, who="helper-user")
    # the club loses its owner (an administrator's delete: no service removes the last owner);
    # the creator, a scorekeeper, runs it and manages its staff
    with club_versions.unchecked():
        Membership.objects.filter(club=club, role="owner").delete()
    client.force_login(creator)
    assert client.get(reverse("tournament_manage", args=[t.pk])).status_code == 200
    svc.tournament_staff_remove(tournament=t, member=helper, user=creator)
    svc.tournament_staff_add(tournament=t, who="helper-user", user=creator)
    # the creator leaves the club: the helper is the last person who can run the tournament
    member_remove(membership=Membership.objects.get(club=club, user=creator))
    assert client.get(reverse("tournament_manage", args=[t.pk])).status_code == 404
    with pytest.raises(EfudaError) as err:
        svc.tournament_staff_remove(tournament=t, member=helper)
    assert err.value.code == "staff_last"
    site_admin = factories.UserFactory(username="site-admin", is_superuser=True)
    client.force_login(site_admin)  # acts as the club's owner, yet cannot lock everyone out
    response = client.post(reverse("tournament_staff_remove", args=[t.pk, helper.pk]))
    assert response.status_code == 400
    assert "last person who can run this tournament" in response.content.decode()
    assert staff_names(t) == ["helper-user"]
    second = factories.UserFactory(username="second-helper")
    factories.MembershipFactory(club=club, user=second, role="member")
    svc.tournament_staff_add(tournament=t, who="second-helper")
    svc.tournament_staff_remove(tournament=t, member=helper)
    assert staff_names(t) == ["second-helper"]


def test_staff_changes_bump_the_club_version(club, users, helper, make_tournament):
    from tournaments.models import Club

    t = make_tournament(5)
    start = Club.objects.get(pk=club.pk).data_version
    svc.tournament_staff_add(tournament=t, who="helper-user")
    middle = Club.objects.get(pk=club.pk).data_version
    svc.tournament_staff_remove(tournament=t, member=helper)
    assert start < middle < Club.objects.get(pk=club.pk).data_version
