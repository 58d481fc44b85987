"""A club always keeps an owner who can log in (docs/accounts.md, "Owners"): the services that
change roles and memberships, delete or deactivate accounts refuse to take the last one away,
with a message that says what to do; nothing of the refused change is left behind. (Two such
changes at the same moment: tests/hardening/test_owner_races.py.)"""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from core.errors import EfudaError
from tests import factories
from tournaments.i18n import error_text
from tournaments.models import Invitation, Membership, Role
from tournaments.services.accounts import accounts_delete, accounts_owner_check
from tournaments.services.invitations import invitation_check, invitation_create
from tournaments.services.members import (
    clubs_left_without_owner,
    member_add,
    member_remove,
    membership_role_change,
    membership_set,
    owners_kept_check,
)

pytestmark = pytest.mark.django_db

LAST_OWNER = "A club needs at least one owner: make someone else owner first."
GONE = "This person is no longer a member of the club."


def _refusal(call) -> tuple[str, str, str]:
    with pytest.raises(EfudaError) as caught:
        call()
    with translation.override("en"):
        return caught.value.field, caught.value.code, error_text(caught.value)


def _clubs_refused(*names) -> str:
    return (
        f"These clubs would be left without an owner: {', '.join(names)}. "
        "Make someone else owner of each first."
    )


def _member(club, username, role, *, active=True):
    user = factories.UserFactory(username=username)
    if not active:
        user.is_active = False
        user.save(update_fields=["is_active"])
    return factories.MembershipFactory(club=club, user=user, role=role)


def _roles(club) -> dict[str, str]:
    return dict(
        Membership.objects.filter(club=club).values_list("user__username", "role").order_by("pk")
    )


@pytest.fixture
def alone(club):
    """A club whose one owner is ``solo``, with a scorekeeper and a member."""
    owner = _member(club, "solo", Role.OWNER)
    _member(club, "keeper", Role.SCOREKEEPER)
    _member(club, "plain", Role.MEMBER)
    return owner


def test_the_last_owner_cannot_step_down_to_any_role_and_nothing_changes(club, alone):
    invitation = invitation_create(club=club, by=alone.user, role="member", max_uses=5, days=7)
    before = alone.history.count()
    for role in (Role.SCOREKEEPER, Role.MEMBER):
        refused = _refusal(lambda role=role: membership_role_change(membership=alone, role=role))
        assert refused == ("role", "last_owner", LAST_OWNER)
    assert _roles(club) == {"solo": "owner", "keeper": "scorekeeper", "plain": "member"}
    assert alone.history.count() == before
    invitation.refresh_from_db()
    assert invitation.revoked_at is None  # an owner who stays owner keeps their invitations


def test_the_last_owner_cannot_leave_and_nothing_changes(club, alone):
    refused = _refusal(lambda: member_remove(membership=alone, by=alone.user))
    assert refused == ("role", "last_owner", LAST_OWNER)
    assert _roles(club) == {"solo": "owner", "keeper": "scorekeeper", "plain": "member"}


def test_an_owner_keeping_their_role_is_no_change(club, alone):
    assert membership_role_change(membership=alone, role=Role.OWNER).role == Role.OWNER
    assert alone.history.count() == 1  # only its creation


def test_with_a_second_owner_the_first_steps_down_and_then_the_second_is_the_last(club, alone):
    second = membership_role_change(
        membership=Membership.objects.get(club=club, user__username="keeper"), role=Role.OWNER
    )
    membership_role_change(membership=alone, role=Role.MEMBER, by=second.user)
    assert _roles(club) == {"solo": "member", "keeper": "owner", "plain": "member"}
    assert alone.history.first().history_change_reason == "role owner → member"
    refused = _refusal(lambda: member_remove(membership=second))
    assert refused == ("role", "last_owner", LAST_OWNER)
    member_remove(membership=Membership.objects.get(pk=alone.pk), by=second.user)
    assert _roles(club) == {"keeper": "owner", "plain": "member"}


def test_other_roles_come_and_go_freely_beside_the_last_owner(club, alone):
    keeper = Membership.objects.get(club=club, user__username="keeper")
    assert membership_role_change(membership=keeper, role=Role.MEMBER).role == Role.MEMBER
    member_remove(membership=Membership.objects.get(club=club, user__username="plain"))
    assert _roles(club) == {"solo": "owner", "keeper": "member"}


def test_an_owner_whose_account_is_deactivated_does_not_count(club, alone):
    idle = _member(club, "idle", Role.OWNER, active=False)
    for call in (
        lambda: membership_role_change(membership=alone, role=Role.MEMBER),
        lambda: member_remove(membership=alone),
    ):
        assert _refusal(call) == ("role", "last_owner", LAST_OWNER)
    # The deactivated owner takes no owner who can log in away: lowered and removed freely.
    membership_role_change(membership=idle, role=Role.SCOREKEEPER)
    member_remove(membership=Membership.objects.get(pk=idle.pk))
    assert _roles(club) == {"solo": "owner", "keeper": "scorekeeper", "plain": "member"}


def test_a_club_whose_only_owner_is_deactivated_still_changes_its_other_members(club):
    idle = _member(club, "idle", Role.OWNER, active=False)
    plain = _member(club, "plain", Role.MEMBER)
    membership_role_change(membership=plain, role=Role.SCOREKEEPER)
    member_remove(membership=Membership.objects.get(pk=plain.pk))
    membership_role_change(membership=idle, role=Role.MEMBER)
    assert _roles(club) == {"idle": "member"}


def test_a_membership_gone_meanwhile_is_refused_with_a_message(club, alone):
    plain = Membership.objects.get(club=club, user__username="plain")
    member_remove(membership=plain)  # meanwhile, in another request
    for call in (
        lambda: membership_role_change(membership=plain, role=Role.SCOREKEEPER),
        lambda: member_remove(membership=plain),
    ):
        assert _refusal(call) == ("__all__", "member_gone", GONE)
    assert _roles(club) == {"solo": "owner", "keeper": "scorekeeper"}


def test_member_add_changes_an_existing_role_under_the_same_rule(club, alone):
    assert _refusal(lambda: member_add(club=club, username="SOLO", role=Role.MEMBER)) == (
        "role",
        "last_owner",
        LAST_OWNER,
    )
    member_add(club=club, username="plain", role=Role.OWNER)
    member_add(club=club, username="solo", role=Role.MEMBER)
    assert _roles(club) == {"solo": "member", "keeper": "scorekeeper", "plain": "owner"}


def test_membership_set_keeps_the_last_owner(club, alone):
    assert _refusal(lambda: membership_set(club=club, user=alone.user, role=Role.SCOREKEEPER)) == (
        "role",
        "last_owner",
        LAST_OWNER,
    )
    assert membership_set(club=club, user=alone.user, role=Role.OWNER).pk == alone.pk
    newcomer = factories.UserFactory(username="newcomer")
    membership_set(club=club, user=newcomer, role=Role.OWNER)
    membership_set(club=club, user=alone.user, role=Role.MEMBER)
    assert _roles(club) == {
        "solo": "member",
        "keeper": "scorekeeper",
        "plain": "member",
        "newcomer": "owner",
    }


def test_clubs_left_without_owner_names_only_the_clubs_that_would_have_none():
    a, b, c = (factories.ClubFactory(slug=slug) for slug in ("a-club", "b-club", "c-club"))
    one, two = factories.UserFactory(username="one"), factories.UserFactory(username="two")
    for club in (a, b):
        factories.MembershipFactory(club=club, user=one, role=Role.OWNER)
    factories.MembershipFactory(club=b, user=two, role=Role.OWNER)
    factories.MembershipFactory(club=c, user=two, role=Role.MEMBER)
    ids = [c.pk, b.pk, a.pk, a.pk]
    by_one = clubs_left_without_owner(club_ids=ids, leaving=lambda o: o.user_id == one.pk)
    assert by_one == [a.pk]
    by_both = clubs_left_without_owner(
        club_ids=ids, leaving=lambda o: o.user_id in {one.pk, two.pk}
    )
    assert by_both == [a.pk, b.pk]  # in the order of their ids; c has no owner to lose
    assert clubs_left_without_owner(club_ids=ids, leaving=lambda o: False) == []
    refused = _refusal(
        lambda: owners_kept_check(club_ids=ids, leaving=lambda o: o.user_id in {one.pk, two.pk})
    )
    named = _clubs_refused(f"“{a.name}” (a-club)", f"“{b.name}” (b-club)")
    assert refused == ("__all__", "clubs_last_owner", named)
    owners_kept_check(club_ids=ids, leaving=lambda o: o.user_id == two.pk)  # b keeps one


@pytest.fixture
def two_clubs():
    """``boss`` owns 「甲」 alone and 「乙」 with ``deputy``; ``helper`` is a member of 甲."""
    first = factories.ClubFactory(slug="kou", name="甲")
    second = factories.ClubFactory(slug="otsu", name="乙")
    boss, deputy = factories.UserFactory(username="boss"), factories.UserFactory(username="deputy")
    helper = factories.UserFactory(username="helper")
    factories.MembershipFactory(club=first, user=boss, role=Role.OWNER)
    factories.MembershipFactory(club=first, user=helper, role=Role.MEMBER)
    factories.MembershipFactory(club=second, user=boss, role=Role.OWNER)
    factories.MembershipFactory(club=second, user=deputy, role=Role.OWNER)
    return first, second, {"boss": boss, "deputy": deputy, "helper": helper}


def test_an_account_that_owns_a_club_alone_is_not_deleted(two_clubs):
    first, second, people = two_clubs
    refused = _refusal(lambda: accounts_delete(users=[people["boss"]]))
    assert refused == ("__all__", "clubs_last_owner", _clubs_refused("“甲” (kou)"))
    assert Membership.objects.filter(user=people["boss"]).count() == 2
    # Deleted together, boss and deputy would leave both clubs without an owner: neither goes.
    refused = _refusal(lambda: accounts_delete(users=[people["deputy"], people["boss"]]))
    assert refused == ("__all__", "clubs_last_owner", _clubs_refused("“乙” (otsu)", "“甲” (kou)"))
    assert set(Membership.objects.values_list("user__username", flat=True)) == set(people)


def test_an_account_is_deleted_once_every_club_it_owns_has_another_owner(two_clubs):
    first, second, people = two_clubs
    version = type(first).objects.get(pk=first.pk).data_version
    assert accounts_delete(users=[people["deputy"], people["helper"]]) == 2
    assert _roles(first) == {"boss": "owner"} and _roles(second) == {"boss": "owner"}
    assert type(first).objects.get(pk=first.pk).data_version > version
    member_add(club=first, username="boss", role=Role.OWNER)  # no change: already owner
    newcomer = factories.UserFactory(username="newcomer")
    membership_set(club=first, user=newcomer, role=Role.OWNER)
    refused = _refusal(lambda: accounts_delete(users=[people["boss"]]))
    assert refused == ("__all__", "clubs_last_owner", _clubs_refused("“乙” (otsu)"))
    membership_set(club=second, user=newcomer, role=Role.OWNER)
    assert accounts_delete(users=[people["boss"]]) == 1
    assert _roles(first) == {"newcomer": "owner"} and _roles(second) == {"newcomer": "owner"}


def test_deactivating_is_checked_as_deleting(two_clubs):
    first, second, people = two_clubs
    assert _refusal(lambda: accounts_owner_check(users=[people["boss"]]))[2] == _clubs_refused(
        "“甲” (kou)"
    )
    accounts_owner_check(users=[people["deputy"], people["helper"]])  # 乙 keeps boss
    people["deputy"].is_active = False
    people["deputy"].save(update_fields=["is_active"])
    # With deputy deactivated, boss is the last owner of both clubs who can log in.
    assert _refusal(lambda: accounts_owner_check(users=[people["boss"]]))[2] == _clubs_refused(
        "“乙” (otsu)", "“甲” (kou)"
    )


def test_a_deleted_owner_s_invitations_stop_working(two_clubs):
    first, second, people = two_clubs
    invitation = invitation_create(
        club=second, by=people["deputy"], role="member", max_uses=5, days=7
    )
    accounts_delete(users=[people["deputy"]])
    invitation = Invitation.objects.get(pk=invitation.pk)
    assert invitation.created_by is None
    refused = _refusal(lambda: invitation_check(invitation))
    assert refused[:2] == ("__all__", "invitation_revoked")


def test_a_change_by_nobody_signed_in_is_recorded_as_by_nobody(club, alone):
    """A service given an anonymous visitor as ``by`` (not signed in) records the change as made
    by nobody, as with ``by=None``."""
    keeper = Membership.objects.get(club=club, user__username="keeper")
    membership_role_change(membership=keeper, role=Role.OWNER, by=AnonymousUser())
    record = keeper.history.first()
    assert record.role == Role.OWNER and record.history_user is None


def test_the_club_rows_are_locked_in_the_order_of_their_ids_before_their_owners_are_read():
    """The lock that makes two owner changes of one club run one after the other: each club's
    row, by its id, in the order of the ids (so two changes of the same clubs cannot wait for
    each other), each before its owners are listed. On PostgreSQL, as ``FOR NO KEY UPDATE``."""
    clubs = [factories.ClubFactory(slug=slug) for slug in ("l-one", "l-two", "l-three")]
    for each in clubs:
        factories.MembershipFactory(club=each, role=Role.OWNER)
    ids = sorted(each.pk for each in clubs)
    with CaptureQueriesContext(connection) as ctx:
        clubs_left_without_owner(club_ids=[ids[2], ids[0], ids[1], ids[0]], leaving=lambda o: False)
    reads = []
    for query in ctx.captured_queries:
        sql = query["sql"]
        if sql.startswith("SELECT") and 'FROM "tournaments_club"' in sql:
            reads.append(("club", int(sql.rsplit("=", 1)[1].split()[0])))
            if connection.vendor == "postgresql":
                assert "FOR NO KEY UPDATE" in sql
        elif sql.startswith("SELECT") and 'FROM "tournaments_membership"' in sql:
            reads.append(("owners", int(sql.split('"club_id" = ', 1)[1].split()[0])))
    assert reads == [(what, pk) for pk in ids for what in ("club", "owners")]
