"""Access follows membership: who is removed from a club (or loses a role) loses every right
that came from it — tournament staff, invitations they made, claims — the history says so,
and the permissions check the membership at every request even if a row was left behind."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from tests import club_versions, factories
from tests.hardening.helpers import napoleon_data
from tournaments.models import ClaimStatus, Deal, Invitation, Membership, PlayerClaim
from tournaments.services import events as ev
from tournaments.services.claims import player_claim
from tournaments.services.clubs import club_update
from tournaments.services.invitations import (
    invitation_accept,
    invitation_create,
    invitation_revoke,
)
from tournaments.services.members import member_add, member_remove, membership_role_change

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(club, users):
    """A private tournament of the (private) club, round 1 running; ``helper`` (a member) is on
    its extra staff."""
    helper = factories.UserFactory(username="helper-user")
    factories.MembershipFactory(club=club, user=helper, role="member")
    wiki = factories.ClubRuleSetFactory(club=club, code="napoleon-wiki", preset="napoleon-wiki")
    t = ev.tournament_create(
        club=club, name="秘密の大会", date=timezone.localdate(), ruleset=wiki, rounds_planned=2,
        seed=2, user=users["scorekeeper"],
    )  # fmt: skip
    for i in range(5):
        ev.entry_add(tournament=t, name=f"選手{i}", checked_in=True)
    ev.tournament_staff_add(tournament=t, who="helper-user", user=users["owner"])
    rnd = ev.round_start(rnd=ev.round_draw(tournament=t))
    return t, rnd.tables.get(), helper


def _staff_requests(client, t, table):
    """What the issue found a removed member could still do: (label, response)."""
    entry = t.entries.first()
    deal = napoleon_data(table.seats, n=1)
    post = {
        "seats": table.seats, "napoleon": deal["napoleon"], "bid": "13", "trump": "S",
        "called_suit": "S", "called_rank": "A", "adjutant": deal["adjutant"], "honours": "14",
        "discarded": "0", "last_trick": "",
    }  # fmt: skip
    return [
        ("detail", client.get(reverse("tournament_detail", args=[t.pk]))),
        ("manage", client.get(reverse("tournament_manage", args=[t.pk]))),
        ("staff", client.get(reverse("tournament_staff", args=[t.pk]))),
        ("standings", client.get(reverse("tournament_standings", args=[t.pk]))),
        (
            "record",
            client.post(reverse("tournament_table_record", args=[t.pk, table.pk]), post),
        ),
        (
            "freeze",
            client.post(
                reverse("tournament_freeze", args=[t.pk]), {"standings_hidden_rounds": "1"}
            ),
        ),
        ("pin", client.post(reverse("tournament_entry_pin", args=[t.pk, entry.pk]), {})),
        (
            "all pins",
            client.post(reverse("tournament_seating_pdf", args=[t.pk, 1]), {"pins": "all"}),
        ),
    ]


def test_a_removed_member_keeps_no_tournament_right(client, club, users, event):
    t, table, helper = event
    client.force_login(helper)
    before = _staff_requests(client, t, table)
    assert all(r.status_code in (200, 302) for _label, r in before), [
        (label, r.status_code) for label, r in before
    ]
    deals = Deal.objects.count()
    ev.tournament_freeze_set(tournament=t, hidden_rounds=0)
    owner = factories.UserFactory(username="second-owner")
    factories.MembershipFactory(club=club, user=owner, role="owner")
    client.force_login(owner)
    membership = Membership.objects.get(club=club, user=helper)
    assert client.post(reverse("member_remove", args=[club.slug, membership.pk])).status_code == 302
    assert not t.extra_staff.filter(pk=helper.pk).exists()
    # the tournament's history: who took them off, and why
    latest = t.history.first()
    assert latest.history_user == owner and "left the club" in latest.history_change_reason
    assert list(latest.extra_staff.all()) == []
    gone = Membership.history.filter(club_id=club.pk, user_id=helper.pk).first()
    assert gone.history_type == "-" and gone.history_user == owner
    entry = t.entries.first()
    pin_issued = entry.pin_issued_at
    client.force_login(helper)
    for label, response in _staff_requests(client, t, table):
        assert response.status_code == 404, label  # a private tournament: as if it did not exist
    assert Deal.objects.count() == deals
    t.refresh_from_db()
    entry.refresh_from_db()
    assert t.standings_hidden_rounds == 0 and entry.pin_issued_at == pin_issued


def test_staff_rights_are_checked_at_every_request(client, club, users, event):
    """Defence in depth: a membership gone by any path (an administrator's delete, a cascade)
    leaves the extra-staff row behind; it gives nothing."""
    t, table, helper = event
    with club_versions.unchecked():  # no service: the extra-staff row stays
        Membership.objects.filter(club=club, user=helper).delete()
    assert t.extra_staff.filter(pk=helper.pk).exists()
    client.force_login(helper)
    for label, response in _staff_requests(client, t, table):
        assert response.status_code == 404, label
    # in a public club the public tournament is readable, but nothing of the staff's
    club_update(club=club, name=club.name, is_public=True)
    with club_versions.unchecked():  # made public by site staff (the admin moves the version)
        type(t).objects.filter(pk=t.pk).update(is_public=True)
    results = dict(_staff_requests(client, t, table))
    assert results["detail"].status_code == 200
    for label in ("manage", "staff", "record", "freeze", "pin", "all pins"):
        assert results[label].status_code in (403, 404), label
    assert t.entries.first().pin_issued_at is None


def test_a_creator_lowered_to_member_no_longer_runs_their_tournament(client, club, users, event):
    t, table, helper = event
    creator = users["scorekeeper"]
    client.force_login(creator)
    assert client.get(reverse("tournament_manage", args=[t.pk])).status_code == 200
    membership_role_change(
        membership=Membership.objects.get(club=club, user=creator), role="member", by=users["owner"]
    )
    assert client.get(reverse("tournament_manage", args=[t.pk])).status_code == 403
    assert client.get(reverse("tournament_staff", args=[t.pk])).status_code == 403
    record = Membership.history.filter(club_id=club.pk, user_id=creator.pk).first()
    assert record.role == "member" and record.history_change_reason == "role scorekeeper → member"


@pytest.mark.parametrize("change", ["removed", "lowered", "account deleted"])
def test_open_invitations_of_an_owner_who_leaves_are_withdrawn(club, users, change):
    inviter = factories.UserFactory(username="inviter")
    factories.MembershipFactory(club=club, user=inviter, role="owner")
    invitation = invitation_create(club=club, by=inviter, role="scorekeeper", max_uses=5, days=7)
    used = invitation_create(club=club, by=users["owner"], role="member", max_uses=5, days=7)
    membership = Membership.objects.get(club=club, user=inviter)
    if change == "removed":
        member_remove(membership=membership, by=users["owner"])
    elif change == "lowered":
        membership_role_change(membership=membership, role="member", by=users["owner"])
    else:  # the account goes: the invitation's maker becomes unknown, the row stays open
        with club_versions.unchecked():  # by site staff: no service deletes an account
            inviter.delete()
    invitation.refresh_from_db()
    if change != "account deleted":
        assert invitation.revoked_at is not None
        record = invitation.history.first()
        assert record.history_user == users["owner"] and "inviter" in record.history_change_reason
    newcomer = factories.UserFactory(username="newcomer")
    with pytest.raises(Exception) as err:
        invitation_accept(invitation=invitation, user=newcomer)
    assert getattr(err.value, "code", None) == "invitation_revoked"
    assert not Membership.objects.filter(club=club, user=newcomer).exists()
    # another owner's invitation is untouched
    assert invitation_accept(invitation=used, user=newcomer).role == "member"


def test_pending_claims_of_a_removed_member_are_turned_down(club, users, players):
    member = users["member"]
    claim = player_claim(club=club, user=member, player=players[0])
    assert claim.status == ClaimStatus.PENDING
    member_remove(membership=Membership.objects.get(club=club, user=member), by=users["owner"])
    claim.refresh_from_db()
    assert claim.status == ClaimStatus.REJECTED and claim.decided_by == users["owner"]
    assert claim.history.first().history_change_reason == "claimant left the club"
    assert not PlayerClaim.objects.filter(status=ClaimStatus.PENDING).exists()


def test_adding_a_member_finds_the_user_name_in_any_case(club, users):
    newbie = factories.UserFactory(username="Newbie")
    assert member_add(club=club, username="nEWBIE", role="member").user == newbie
    twin = factories.UserFactory(username="newbie")  # two spellings: the exact one wins
    assert member_add(club=club, username="newbie", role="member").user == twin
    assert Invitation.objects.count() == 0


def test_a_blank_user_name_adds_nobody_whatever_the_accounts_are_called(club, users):
    from core.errors import EfudaError

    for odd in ("XXXX", "None", "null", "_"):  # names a blank might be mistaken for
        factories.UserFactory(username=odd)
    members = Membership.objects.filter(club=club).count()
    for blank in ("", "   ", None):
        with pytest.raises(EfudaError) as refused:
            member_add(club=club, username=blank, role="member")
        assert refused.value.params == {"username": ""}
    assert Membership.objects.filter(club=club).count() == members


def test_leaving_one_club_withdraws_only_that_club_s_open_invitations_and_staff(club, users):
    """Someone who owns two clubs leaves one: their open invitations into it are withdrawn and
    they are off its tournaments' staff; the other club's are untouched, and so are the
    invitations that were no longer open (revoked before, or expired) and the tournaments they
    were not on."""
    other = factories.ClubFactory(slug="other-club")
    factories.MembershipFactory(club=other, user=factories.UserFactory(), role="owner")
    leaver = factories.UserFactory(username="leaver")
    for each in (club, other):
        factories.MembershipFactory(club=each, user=leaver, role="owner")

    def invite(where):
        return invitation_create(club=where, by=leaver, role="member", max_uses=5, days=7)

    open_here, open_there = invite(club), invite(other)
    expired, revoked = invite(club), invite(club)
    invitation_revoke(invitation=revoked, by=leaver)
    revoked.refresh_from_db()
    with club_versions.unchecked():  # its week has passed
        Invitation.objects.filter(pk=expired.pk).update(
            expires_at=timezone.now() - datetime.timedelta(days=1)
        )
    staffed = {}
    for each in (club, other):
        wiki = factories.ClubRuleSetFactory(club=each, code="napoleon-wiki", preset="napoleon-wiki")
        staffed[each] = factories.tournament(club=each, ruleset=wiki, entrants=0)
        ev.tournament_staff_add(tournament=staffed[each], who="leaver")
    wiki = club.rulesets.get(code="napoleon-wiki")
    unstaffed = factories.tournament(club=club, ruleset=wiki, entrants=0)
    histories = {t.pk: t.history.count() for t in (unstaffed, staffed[other])}
    revoked_history = revoked.history.count()

    member_remove(membership=Membership.objects.get(club=club, user=leaver), by=users["owner"])

    def revoked_at(invitation):
        return Invitation.objects.get(pk=invitation.pk).revoked_at

    assert revoked_at(open_here) is not None
    assert revoked_at(open_there) is None and revoked_at(expired) is None
    assert revoked_at(revoked) == revoked.revoked_at  # withdrawn once, when it was
    assert revoked.history.count() == revoked_history
    assert not staffed[club].extra_staff.exists()
    assert list(staffed[other].extra_staff.all()) == [leaver]
    assert {t.pk: t.history.count() for t in (unstaffed, staffed[other])} == histories


def test_leaving_turns_down_only_the_leaver_s_pending_claims_in_that_club(club, users, players):
    """The claims turned down are the leaver's pending ones in the club they leave, each with
    when, by whom and why; another member's, the leaver's in another club and the leaver's
    claim already decided (replaced by a later choice) stay as they were."""
    member, owner = users["member"], users["owner"]
    other = factories.ClubFactory(slug="other-club")
    factories.MembershipFactory(club=other, user=member, role="member")
    elsewhere = player_claim(
        club=other, user=member, player=factories.PlayerFactory(club=other, name="太郎")
    )
    replaced = player_claim(club=club, user=member, player=players[1])
    pending = player_claim(club=club, user=member, player=players[0])  # replaces the first
    replaced.refresh_from_db()
    assert replaced.status == ClaimStatus.REJECTED and replaced.decided_by is None
    someone_else = player_claim(club=club, user=users["scorekeeper"], player=players[2])
    replaced_history = replaced.history.count()
    before = timezone.now()

    member_remove(membership=Membership.objects.get(club=club, user=member), by=owner)

    pending.refresh_from_db()
    assert pending.status == ClaimStatus.REJECTED and pending.decided_by == owner
    assert pending.decided_at >= before
    latest = pending.history.first()
    assert latest.history_user == owner and latest.history_change_reason == "claimant left the club"
    statuses = {
        c.pk: c.status for c in PlayerClaim.objects.filter(pk__in=[elsewhere.pk, someone_else.pk])
    }
    assert statuses == {elsewhere.pk: ClaimStatus.PENDING, someone_else.pk: ClaimStatus.PENDING}
    assert PlayerClaim.objects.get(pk=replaced.pk).decided_at == replaced.decided_at
    assert replaced.history.count() == replaced_history
