"""Two owners changing each other at the same moment: real threads behind a barrier, each on its
own database connection, through the real services and through the pages.

Every change that can take an owner away locks the club row first
(``services.members.clubs_left_without_owner``), so the two run one after the other and the second
counts the owners the first left: exactly one of the two is refused, and the club keeps one
owner. Before that lock, two owners who demoted each other both succeeded (``select_for_update()``
with ``count()`` locks nothing: Django drops ``FOR UPDATE`` from an aggregate). On PostgreSQL the
requests wait on the row lock; on SQLite (``BEGIN IMMEDIATE``) they wait on the database lock.
"""

import threading

import pytest
from django.contrib.auth import get_user_model
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from core.errors import EfudaError
from tests import factories
from tests.hardening.helpers import run_threads
from tournaments.i18n import error_text
from tournaments.models import Membership, Role
from tournaments.services.accounts import accounts_delete
from tournaments.services.members import member_remove, membership_role_change
from tournaments.views import manage

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("threaded_db")]

RACES = 10
LAST_OWNER = "A club needs at least one owner: make someone else owner first."


def _club_of_two_owners(n):
    """A club with owners ``a`` and ``b`` (and a member, who must stay a member)."""
    club = factories.ClubFactory(slug=f"race{n}")
    people = {}
    for name, role in (("a", Role.OWNER), ("b", Role.OWNER), ("m", Role.MEMBER)):
        user = factories.UserFactory(username=f"race{n}-{name}")
        people[name] = factories.MembershipFactory(club=club, user=user, role=role)
    return club, people


def _demote(by, target):
    return lambda: membership_role_change(membership=target, role=Role.MEMBER, by=by.user)


def _remove(by, target):
    return lambda: member_remove(membership=target, by=by.user)


# Each race: (name, the two calls as functions of the club's memberships a, b).
RACE_PATHS = {
    "demote each other": lambda a, b: (_demote(a, b), _demote(b, a)),
    "remove each other": lambda a, b: (_remove(a, b), _remove(b, a)),
    "both leave": lambda a, b: (_remove(a, a), _remove(b, b)),
    "one leaves, the other steps down": lambda a, b: (_remove(a, a), _demote(b, b)),
    "one demotes the other, who removes them": lambda a, b: (_demote(a, b), _remove(b, a)),
}


# Whose membership each of the two calls changes: the refused one's target stays the owner.
REFUSED_TARGET = {
    "demote each other": "ba",
    "remove each other": "ba",
    "both leave": "ab",
    "one leaves, the other steps down": "ab",
    "one demotes the other, who removes them": "ba",
}


def _owners(club):
    return list(
        Membership.objects.filter(club=club, role=Role.OWNER)
        .order_by("pk")
        .values_list("user__username", flat=True)
    )


@pytest.mark.parametrize("path", RACE_PATHS)
def test_two_owners_racing_leave_exactly_one_owner(path):
    for n in range(RACES):
        club, people = _club_of_two_owners(n)
        calls = RACE_PATHS[path](people["a"], people["b"])
        results, errors = run_threads(2, lambda i, calls=calls: calls[i]())
        assert len(errors) == 1 and len(results) == 1, (path, n, results, errors)
        ((loser, err),) = errors.items()
        assert isinstance(err, EfudaError), err
        assert (err.field, err.code) == ("role", "last_owner")
        with translation.override("en"):
            assert error_text(err) == LAST_OWNER
        owners = _owners(club)
        assert len(owners) == 1, (path, n, owners)
        # The refused change changed nothing: its target is still the one owner.
        refused_target = REFUSED_TARGET[path][loser]
        assert owners == [f"race{n}-{refused_target}"], (path, n, loser, owners)
        assert Membership.objects.get(club=club, user__username=f"race{n}-m").role == Role.MEMBER


def _post_as(user, url, data):
    client = Client()
    client.force_login(user)
    response = client.post(url, data, HTTP_ACCEPT_LANGUAGE="en")
    return response, [str(m) for m in get_messages(response.wsgi_request)]


@pytest.mark.parametrize("action", ["role", "remove"])
def test_two_owners_racing_through_the_pages_leave_exactly_one_owner(action, monkeypatch):
    """The issue's own reproduction: each owner posts the other's role (or removal) form. Both
    requests pass the page's own check (both are owners) before either reaches the service: a
    barrier between the page and the service holds the first until the second is there too."""
    service = {"role": manage.membership_role_change, "remove": manage.member_remove}[action]
    barrier = threading.Barrier(2)

    def both_past_the_door(**kwargs):
        barrier.wait(timeout=30)
        return service(**kwargs)

    name = {"role": "membership_role_change", "remove": "member_remove"}[action]
    monkeypatch.setattr(manage, name, both_past_the_door)
    done = {"role": "Role changed.", "remove": "Member removed."}[action]
    for n in range(RACES):
        barrier.reset()
        club, people = _club_of_two_owners(n)
        a, b = people["a"], people["b"]
        url = {"role": "member_role", "remove": "member_remove"}[action]
        posts = [
            (a.user, reverse(url, args=[club.slug, b.pk])),
            (b.user, reverse(url, args=[club.slug, a.pk])),
        ]
        data = {"role": "member"} if action == "role" else {}
        results, errors = run_threads(
            2, lambda i, posts=posts, data=data: _post_as(*posts[i], data)
        )
        assert not errors, errors
        assert [results[i][0].status_code for i in (0, 1)] == [302, 302]
        said = [results[i][1] for i in (0, 1)]
        assert sorted(said) == sorted([[done], [LAST_OWNER]]), said
        winner = said.index([done])
        # The winner took the other's role (or membership) away and is the one owner left.
        assert _owners(club) == [f"race{n}-{'ab'[winner]}"]


CLUBS_REFUSED = (
    "These clubs would be left without an owner: “{name}” ({slug}). "
    "Make someone else owner of each first."
)


def test_an_owner_s_account_deleted_while_the_other_steps_down_leaves_one_owner():
    for n in range(RACES):
        club, people = _club_of_two_owners(n)
        a, b = people["a"], people["b"]
        calls = (
            lambda a=a: accounts_delete(users=[a.user]),
            lambda b=b: membership_role_change(membership=b, role=Role.MEMBER, by=b.user),
        )
        results, errors = run_threads(2, lambda i, calls=calls: calls[i]())
        assert len(errors) == 1 and len(results) == 1, (n, results, errors)
        ((loser, err),) = errors.items()
        with translation.override("en"):
            said = error_text(err)
        if loser == 0:  # b stepped down first: a's account stays, a the one owner
            assert said == CLUBS_REFUSED.format(name=club.name, slug=club.slug)
            assert _owners(club) == [f"race{n}-a"]
        else:  # a's account went first: b cannot step down
            assert said == LAST_OWNER
            assert _owners(club) == [f"race{n}-b"]
            assert not get_user_model().objects.filter(pk=a.user_id).exists()


def test_the_admin_deactivating_an_owner_while_the_other_steps_down_leaves_one_owner():
    """Through both pages: site staff untick "active" for a in the admin while b lowers
    themselves on the club's members page."""
    staff = get_user_model().objects.create_superuser("site-admin", "admin@example.org", "pw")
    for n in range(RACES):
        club, people = _club_of_two_owners(n)
        a, b = people["a"], people["b"]
        joined = timezone.localtime(a.user.date_joined)
        form = {
            "username": a.user.username,
            "date_joined_0": joined.strftime("%Y-%m-%d"),
            "date_joined_1": joined.strftime("%H:%M:%S"),
        }
        posts = [
            (staff, reverse("admin:auth_user_change", args=[a.user_id]), form),
            (b.user, reverse("member_role", args=[club.slug, b.pk]), {"role": "member"}),
        ]
        results, errors = run_threads(2, lambda i, posts=posts: _post_as(*posts[i]))
        assert not errors, errors
        deactivated = not get_user_model().objects.get(pk=a.user_id).is_active
        admin_page, members_page = results[0], results[1]
        if deactivated:  # the admin went first: b, the one owner who can log in, stays
            assert admin_page[0].status_code == 302
            assert members_page[1] == [LAST_OWNER]
            assert _owners(club) == [f"race{n}-a", f"race{n}-b"]
        else:  # b stepped down first: the admin's form says which club needs an owner
            assert admin_page[0].status_code == 200
            refused = CLUBS_REFUSED.format(name=club.name, slug=club.slug)
            assert refused in admin_page[0].context["adminform"].form.errors["is_active"]
            assert members_page[1] == ["Role changed."]
            assert _owners(club) == [f"race{n}-a"]
        active_owners = Membership.objects.filter(club=club, role=Role.OWNER, user__is_active=True)
        assert active_owners.count() == 1
