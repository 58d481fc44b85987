"""Site staff in the Django admin cannot leave a club without an owner either: deleting or
deactivating the account of a club's last owner, lowering or deleting their membership is
refused with a message that names the clubs; with another owner, each goes through the club's
own services. ``manage.py club_owner`` gives a club whose owners are all gone a new one.
allauth offers no account deletion."""

from io import StringIO

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.messages import get_messages
from django.core.management import CommandError, call_command
from django.urls import get_resolver, reverse
from django.utils import timezone

from core.errors import EfudaError
from tests import club_versions, factories
from tournaments.models import Invitation, Membership, Role
from tournaments.services.invitations import invitation_create
from tournaments.services.members import membership_set

pytestmark = pytest.mark.django_db

LAST_OWNER = "A club needs at least one owner: make someone else owner first."
KOU = (
    "These clubs would be left without an owner: “甲” (kou). Make someone else owner of each first."
)


@pytest.fixture
def club_of(english):
    """「甲」 (kou): ``boss`` its one owner, ``helper`` a member."""
    club = factories.ClubFactory(slug="kou", name="甲")
    people = {}
    for name, role in (("boss", Role.OWNER), ("helper", Role.MEMBER)):
        people[name] = factories.UserFactory(username=name, email=f"{name}@example.org")
        factories.MembershipFactory(club=club, user=people[name], role=role)
    return club, people


def _said(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def _account_form(user, *, active: bool) -> dict:
    """The admin's change form of ``user`` as shown, with "active" ticked or not."""
    joined = timezone.localtime(user.date_joined)
    data = {
        "username": user.username,
        "email": user.email,
        "date_joined_0": joined.strftime("%Y-%m-%d"),
        "date_joined_1": joined.strftime("%H:%M:%S"),
        "initial-date_joined_0": joined.strftime("%Y-%m-%d"),
        "initial-date_joined_1": joined.strftime("%H:%M:%S"),
    }
    return data | ({"is_active": "on"} if active else {})


def _active(user) -> bool:
    return get_user_model().objects.get(pk=user.pk).is_active


def test_the_admin_does_not_deactivate_a_club_s_last_owner(admin_client, club_of):
    club, people = club_of
    url = reverse("admin:auth_user_change", args=[people["boss"].pk])
    response = admin_client.post(url, _account_form(people["boss"], active=False))
    assert response.status_code == 200
    assert KOU in response.context["adminform"].form.errors["is_active"]
    assert _active(people["boss"])
    # A member is deactivated as before; so is boss once helper owns the club too.
    url = reverse("admin:auth_user_change", args=[people["helper"].pk])
    assert admin_client.post(url, _account_form(people["helper"], active=False)).status_code == 302
    assert not _active(people["helper"])
    url = reverse("admin:auth_user_change", args=[people["boss"].pk])
    admin_client.post(url, _account_form(people["boss"], active=False))
    assert _active(people["boss"])  # helper cannot log in: no owner left who can
    assert (
        admin_client.post(
            reverse("admin:auth_user_change", args=[people["helper"].pk]),
            _account_form(people["helper"], active=True),
        ).status_code
        == 302
    )
    membership_set(club=club, user=people["helper"], role=Role.OWNER)
    assert admin_client.post(url, _account_form(people["boss"], active=False)).status_code == 302
    assert not _active(people["boss"])


def test_the_admin_does_not_delete_a_club_s_last_owner(admin_client, club_of):
    club, people = club_of
    url = reverse("admin:auth_user_delete", args=[people["boss"].pk])
    page = admin_client.get(url)
    assert KOU in page.content.decode() and "Cannot delete user" in page.content.decode()
    assert admin_client.post(url, {"post": "yes"}).status_code == 200
    assert get_user_model().objects.filter(pk=people["boss"].pk).exists()
    # The "delete selected" action, with boss among others: nobody is deleted.
    changelist = reverse("admin:auth_user_changelist")
    selected = [people["helper"].pk, people["boss"].pk]
    response = admin_client.post(
        changelist, {"action": "delete_selected", "_selected_action": selected, "post": "yes"}
    )
    assert KOU in response.content.decode()
    assert get_user_model().objects.filter(pk__in=selected).count() == 2


def test_the_admin_deletes_an_owner_who_is_not_the_last(admin_client, club_of):
    club, people = club_of
    membership_set(club=club, user=people["helper"], role=Role.OWNER)
    url = reverse("admin:auth_user_delete", args=[people["boss"].pk])
    assert admin_client.post(url, {"post": "yes"}).status_code == 302
    assert list(Membership.objects.values_list("user__username", "role")) == [("helper", "owner")]
    # helper is now the last owner: the "delete selected" action refuses them.
    response = admin_client.post(
        reverse("admin:auth_user_changelist"),
        {"action": "delete_selected", "_selected_action": [people["helper"].pk], "post": "yes"},
    )
    assert KOU in response.content.decode()
    assert get_user_model().objects.filter(pk=people["helper"].pk).exists()


def test_the_admin_changes_memberships_through_the_club_s_services(admin_client, club_of):
    club, people = club_of
    boss = Membership.objects.get(user=people["boss"])
    url = reverse("admin:tournaments_membership_change", args=[boss.pk])
    response = admin_client.post(url, {"role": "member", "display_name": "ボス"}, follow=True)
    assert LAST_OWNER in _said(response)
    boss.refresh_from_db()
    assert (boss.role, boss.display_name) == ("owner", "")  # nothing of the refused change
    helper = Membership.objects.get(user=people["helper"])
    change = reverse("admin:tournaments_membership_change", args=[helper.pk])
    admin_client.post(change, {"role": "owner", "display_name": "助っ人"})
    helper.refresh_from_db()
    assert (helper.role, helper.display_name) == ("owner", "助っ人")
    assert helper.history.first().history_user.username == "admin"
    invitation = invitation_create(club=club, by=people["boss"], role="member", max_uses=3, days=7)
    assert admin_client.post(url, {"role": "member", "display_name": ""}).status_code == 302
    boss.refresh_from_db()
    assert boss.role == "member"
    # Lowered through the service: the invitations of an owner no longer owner are withdrawn.
    assert Invitation.objects.get(pk=invitation.pk).revoked_at is not None


def test_the_admin_does_not_delete_the_last_owner_s_membership(admin_client, club_of):
    club, people = club_of
    boss = Membership.objects.get(user=people["boss"])
    url = reverse("admin:tournaments_membership_delete", args=[boss.pk])
    page = admin_client.get(url).content.decode()
    assert "These clubs would be left without an owner: “甲” (kou)." in page
    assert admin_client.post(url, {"post": "yes"}).status_code == 200
    helper = Membership.objects.get(user=people["helper"])
    admin_client.post(
        reverse("admin:tournaments_membership_changelist"),
        {"action": "delete_selected", "_selected_action": [boss.pk, helper.pk], "post": "yes"},
    )
    assert Membership.objects.count() == 2
    # With a second owner, boss's membership is removed as the club's own page removes it.
    invitation = invitation_create(club=club, by=people["boss"], role="member", max_uses=3, days=7)
    membership_set(club=club, user=people["helper"], role=Role.OWNER)
    assert admin_client.post(url, {"post": "yes"}).status_code == 302
    assert list(Membership.objects.values_list("user__username", flat=True)) == ["helper"]
    withdrawn = Invitation.objects.get(pk=invitation.pk)
    assert withdrawn.history.first().history_change_reason == "inviter left the club"


def test_the_admin_cannot_move_a_membership_to_another_person_or_club(admin_client, club_of):
    club, people = club_of
    other = factories.ClubFactory(slug="otsu")
    boss = Membership.objects.get(user=people["boss"])
    url = reverse("admin:tournaments_membership_change", args=[boss.pk])
    admin_client.post(url, {"role": "owner", "club": other.pk, "user": people["helper"].pk})
    boss.refresh_from_db()
    assert (boss.club_id, boss.user_id) == (club.pk, people["boss"].pk)


def test_club_owner_gives_an_ownerless_club_an_owner(club_of):
    club, people = club_of
    with club_versions.unchecked():  # as if the owners were all gone (no service does it)
        Membership.objects.filter(user=people["boss"]).delete()
    empty = factories.ClubFactory(slug="empty")
    out = StringIO()
    call_command("club_owner", "--ownerless", stdout=out)
    assert out.getvalue().splitlines() == ["empty\t" + empty.name, "kou\t甲"]
    out = StringIO()
    call_command("club_owner", "--club", "kou", "HELPER", stdout=out)
    assert out.getvalue() == "helper is now an owner of kou\n"
    assert Membership.objects.get(club=club, user=people["helper"]).role == Role.OWNER
    history = Membership.objects.get(club=club, user=people["helper"]).history.first()
    assert (history.history_change_reason, history.history_user) == ("role member → owner", None)
    call_command("club_owner", "--club", "empty", "boss", stdout=StringIO())
    assert Membership.objects.get(club=empty, user=people["boss"]).role == Role.OWNER
    out = StringIO()
    call_command("club_owner", "--ownerless", stdout=out)
    assert out.getvalue() == ""


def test_club_owner_refuses_what_would_not_recover_a_club(club_of):
    club, people = club_of
    people["helper"].is_active = False
    people["helper"].save(update_fields=["is_active"])
    refusals = {
        ("--club", "nowhere", "boss"): "no club with the address 'nowhere'",
        ("--club", "kou", "nobody"): "There is no user called “nobody”.",
        ("--club", "kou", "helper"): (
            "the account 'helper' is deactivated: activate it in the admin first "
            "(an owner who cannot log in owns nothing)"
        ),
        ("--club", "kou"): "give --club SLUG and the USERNAME (or --ownerless)",
    }
    for args, message in refusals.items():
        with pytest.raises(CommandError) as refused:
            call_command("club_owner", *args, stdout=StringIO())
        assert str(refused.value) == message
    assert Membership.objects.get(club=club, user=people["helper"]).role == Role.MEMBER
    # A deactivated owner counts as none.
    out = StringIO()
    with club_versions.unchecked():  # no service gives a deactivated account the role
        Membership.objects.filter(user=people["boss"]).update(role=Role.MEMBER)
        Membership.objects.filter(user=people["helper"]).update(role=Role.OWNER)
    call_command("club_owner", "--ownerless", stdout=out)
    assert out.getvalue() == "kou\t甲\n"


def test_no_page_deletes_or_deactivates_an_account_outside_the_admin():
    """allauth has no account deletion as efuda configures it: the only pages that delete or
    deactivate an account are the admin's (above). A new one must go through
    services.accounts."""
    names = [
        name
        for name in get_resolver().reverse_dict
        if isinstance(name, str) and ("delete" in name or "deactivat" in name or "close" in name)
    ]
    assert not [name for name in names if "account" in name or "user" in name], names


def test_the_admin_s_own_deletes_check_again_under_the_lock(rf, admin_user, club_of):
    """What the confirmation page checked may have changed before the delete: the admin's
    delete hooks go through the services, which count the owners again."""
    club, people = club_of
    request = rf.post("/")
    request.user = admin_user
    accounts = admin.site._registry[get_user_model()]
    memberships = admin.site._registry[Membership]
    boss = Membership.objects.get(user=people["boss"])
    for call in (
        lambda: accounts.delete_model(request, people["boss"]),
        lambda: accounts.delete_queryset(request, get_user_model().objects.filter(username="boss")),
    ):
        with pytest.raises(EfudaError) as refused:
            call()
        assert refused.value.code == "clubs_last_owner"
    for call in (
        lambda: memberships.delete_model(request, boss),
        lambda: memberships.delete_queryset(request, Membership.objects.filter(pk=boss.pk)),
    ):
        with pytest.raises(EfudaError) as refused:
            call()
        assert refused.value.code == "last_owner"
    assert Membership.objects.filter(club=club).count() == 2
