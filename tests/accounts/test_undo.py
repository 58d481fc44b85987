"""No irreversible action on one tap: a merge shows what will move and asks; a wrong merge and a
wrong "this is me" confirmation can be undone by an owner, with history, through the same
services as any change."""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import Client
from django.urls import reverse

from core.errors import EfudaError
from tests import club_versions, factories
from tests.accounts.test_merge import DAYS, _club, snapshot
from tests.hardening.helpers import napoleon_data
from tests.services.test_aggregate_counters import from_lines, stored
from tournaments.models import ClaimStatus, Deal, Invitation, Player, PlayerClaim, PlayerMerge
from tournaments.services.claims import claim_confirm, claim_undo, player_claim
from tournaments.services.deals import deal_record, deal_update
from tournaments.services.invitations import invitation_create
from tournaments.services.merge import player_merge, player_merge_undo

pytestmark = pytest.mark.django_db


def test_undoing_a_merge_gives_back_the_club_as_it_was():
    club, players, wrong = _club(typo=True)
    account = factories.UserFactory(username="taro-typo")
    with club_versions.unchecked():  # the typo player had the account
        Player.objects.filter(pk=wrong.pk).update(user=account)
    before = snapshot(club)
    owner = factories.UserFactory(username="undoer")
    record = player_merge(club=club, keep=players["太郎"], merge=wrong, by=owner)
    assert snapshot(club) != before
    # The merged player's history: its account taken off, then the player deleted, by the merge.
    last = Player.history.filter(id=wrong.pk).order_by("-history_id")[:2]
    assert [(h.history_type, h.user_id, h.history_change_reason, h.history_user) for h in last] == [
        ("-", None, f"merge:{record.pk}", owner),
        ("~", None, f"merge:{record.pk}", owner),
    ]
    back = player_merge_undo(record=record, by=owner)
    assert back.pk == wrong.pk and back.name == "太朗" and back.user == account
    after = snapshot(club)
    assert after[4] and after == before  # standings, records, lines, deals and ratings
    assert Player.objects.get(pk=players["太郎"].pk).user is None
    record.refresh_from_db()
    assert record.undone_at is not None and record.undone_by == owner
    # Each moved deal's history shows the merge and its undo, by whom.
    deal = Deal.objects.filter(club=club, napoleon=back).first()
    reasons = [h.history_change_reason or "" for h in deal.history.order_by("history_id")]
    assert f"merge:{record.pk}" in reasons and reasons[-1] == f"merge-undo:{record.pk}"
    assert deal.history.order_by("-history_id").first().history_user == owner
    with pytest.raises(EfudaError) as again:
        player_merge_undo(record=record, by=owner)
    assert again.value.code == "undo_done"


def test_an_undo_that_would_drop_a_later_edit_is_refused_naming_the_deal(english):
    club, players, wrong = _club(typo=True)
    record = player_merge(club=club, keep=players["太郎"], merge=wrong)
    moved = Deal.objects.get(pk=record.moves["deals"][0]["id"])
    seats = [int(s) for s in moved.data["seats"]]
    deal_update(deal=moved, data=napoleon_data(seats, n=2), version=moved.version)
    before = snapshot(club)
    with pytest.raises(EfudaError) as refused:
        player_merge_undo(record=record)
    text = str(refused.value)
    assert refused.value.code == "undo_edited" and f"deal {moved.seq}" in text
    assert snapshot(club) == before and not Player.objects.filter(name="太朗").exists()


def test_an_undo_is_refused_when_the_name_is_taken_again():
    club, players, wrong = _club(typo=True, deals=2)
    record = player_merge(club=club, keep=players["太郎"], merge=wrong)
    factories.PlayerFactory(club=club, name="太朗")
    with pytest.raises(EfudaError) as refused:
        player_merge_undo(record=record)
    assert refused.value.code == "undo_name_taken"


def test_the_merge_page_asks_first_and_offers_the_undo(english):
    club, players, wrong = _club(typo=True, deals=2)
    owner = factories.UserFactory(username="merge-owner")
    factories.MembershipFactory(club=club, user=owner, role="owner")
    client = Client()
    client.force_login(owner)
    url = reverse("player_merge", args=[club.slug])
    page = client.get(url).content.decode()
    for name in ("keep", "merge"):  # nobody chosen
        select = page.split(f'name="{name}"', 1)[1].split("</select>", 1)[0]
        assert '<option value="" selected>' in select and select.count(" selected") == 1
    asked = client.post(url, {"keep": players["太郎"].pk, "merge": wrong.pk}).content.decode()
    assert "This is what will move:" in asked and "Yes, merge them" in asked
    assert "Napoleon deals" in asked and "Daifugō round" in asked
    assert Player.objects.filter(pk=wrong.pk).exists()
    client.post(url, {"keep": players["太郎"].pk, "merge": wrong.pk, "confirm": "1"})
    record = PlayerMerge.objects.get(club=club)
    page = client.get(url).content.decode()
    undo = reverse("player_merge_undo", args=[club.slug, record.pk])
    assert undo in page
    done = client.post(undo, follow=True).content.decode()
    assert "Merge undone" in done and Player.objects.filter(pk=wrong.pk).exists()


def test_a_wrong_confirmation_is_undone_and_the_member_asked_again(club, users, english):
    player = factories.PlayerFactory(club=club, name="花子")
    claim = claim_confirm(
        claim=player_claim(club=club, user=users["member"], player=player), by=users["owner"]
    )
    assert Player.objects.get(pk=player.pk).user == users["member"]
    client = Client()
    client.force_login(users["owner"])
    page = client.get(reverse("club_invitations", args=[club.slug])).content.decode()
    undo = reverse("claim_undo", args=[club.slug, claim.pk])
    assert undo in page
    client.post(undo)
    claim.refresh_from_db()
    assert claim.status == ClaimStatus.UNDONE and claim.decided_by == users["owner"]
    assert Player.objects.get(pk=player.pk).user is None
    latest = Player.objects.get(pk=player.pk).history.order_by("-history_id").first()
    assert "undone" in latest.history_change_reason and latest.history_user == users["owner"]
    member = Client()
    member.force_login(users["member"])
    home = member.get(reverse("club_home", args=[club.slug])).content.decode()
    assert "Which player are you?" in home
    with pytest.raises(EfudaError):
        claim_undo(claim=claim, by=users["owner"])


def test_an_undo_re_reads_the_previous_daifugo_of_a_round_recorded_after_the_merge():
    """Round 2, recorded after the merge, names the kept 太郎 as the previous 大富豪 (and 都落ち
    brings him down) without naming 太朗: the undo gives round 1 back to 太朗, so round 2 re-reads
    its previous 大富豪, as after any edit of round 1 — in each session the undo changed."""
    club = factories.ClubFactory()
    taro, hanako, ken, yuki = (factories.PlayerFactory(club=club, name=n)
                               for n in ("太郎", "花子", "健一", "ゆき"))  # fmt: skip
    wrong = factories.PlayerFactory(club=club, name="太朗")
    rules_ = factories.ClubRuleSetFactory(club=club, code="daifugo-common", preset="daifugo-common")
    sessions = [factories.session(club=club, ruleset=rules_, date=day) for day in DAYS[:2]]
    first = [wrong.pk, hanako.pk, ken.pk, yuki.pk]
    for session in sessions:
        deal_record(session=session, data={"players": first, "order": first, "forbidden": []})
    owner = factories.UserFactory(username="undoer")
    record = player_merge(club=club, keep=taro, merge=wrong, by=owner)
    table = [hanako.pk, taro.pk, ken.pk, yuki.pk]
    later = [
        deal_record(session=session, data={"players": table, "order": table, "forbidden": []})
        for session in sessions
    ]
    assert [d.data["previous_daifugo"] for d in later] == [str(taro.pk)] * 2
    assert [d.outcome["miyako_ochi"] for d in later] == [str(taro.pk)] * 2
    player_merge_undo(record=record, by=owner)
    for deal in later:
        deal.refresh_from_db()
        assert deal.data["previous_daifugo"] == str(wrong.pk) and deal.version == 2
        assert deal.outcome["miyako_ochi"] is None
        assert deal.outcome["points"] == {str(hanako.pk): 2, str(taro.pk): 1, str(ken.pk): -1,
                                          str(yuki.pk): -2}  # fmt: skip
        latest = deal.history.order_by("-history_id").first()
        assert (latest.history_change_reason, latest.history_user) == ("after:1", owner)
    assert stored(club) == from_lines(club)


def test_invitations_claims_and_active_move_with_the_merge_and_back(club, users):
    taro = factories.PlayerFactory(club=club, name="太郎", active=False)
    wrong = factories.PlayerFactory(club=club, name="太朗", active=True)
    other = factories.PlayerFactory(club=club, name="花子")
    invitation = invitation_create(club=club, by=users["owner"], role="member", max_uses=1,
                                   days=7, player=wrong)  # fmt: skip
    untouched = invitation_create(club=club, by=users["owner"], role="member", max_uses=1,
                                  days=7, player=other)  # fmt: skip
    claim = player_claim(club=club, user=users["member"], player=wrong)
    record = player_merge(club=club, keep=taro, merge=wrong, by=users["owner"])
    assert record.moves == {
        "merged_active": True, "keep_active": False, "deals": [],
        "invitations": [invitation.pk], "claims": [claim.pk], "account": False,
    }  # fmt: skip
    assert (record.deals, record.lines, record.by, record.kept) == (0, 0, users["owner"], taro)
    taro.refresh_from_db()
    assert taro.active  # active when either was
    assert Invitation.objects.get(pk=invitation.pk).player == taro
    assert PlayerClaim.objects.get(pk=claim.pk).player == taro
    assert Invitation.objects.get(pk=untouched.pk).player == other
    latest = taro.history.order_by("-history_id").first()
    assert latest.history_change_reason == f"merge:{record.pk}"
    assert latest.history_user == users["owner"]
    back = player_merge_undo(record=record, by=users["owner"])
    taro.refresh_from_db()
    assert back.active and not taro.active
    assert Invitation.objects.get(pk=invitation.pk).player == back
    assert PlayerClaim.objects.get(pk=claim.pk).player == back
    assert Invitation.objects.get(pk=untouched.pk).player == other
    assert taro.history.order_by("-history_id").first().history_change_reason == (
        f"merge-undo:{record.pk}"
    )


def test_a_merge_of_one_player_or_another_clubs_and_an_old_record_are_refused(club):
    taro = factories.PlayerFactory(club=club, name="太郎")
    stranger = factories.PlayerFactory(name="太朗")  # another club's
    for keep, merge in ((taro, taro), (taro, stranger), (stranger, taro)):
        with pytest.raises(EfudaError) as refused:
            player_merge(club=club, keep=keep, merge=merge)
        assert (refused.value.code, refused.value.field) == ("merge_same", "merge")
    with club_versions.unchecked():  # a merge recorded before the undo kept what it needs
        old = PlayerMerge.objects.create(club=club, kept=taro, merged_id=999999,
                                         merged_name="x", moves={"invitations": []})  # fmt: skip
    with pytest.raises(EfudaError) as refused:
        player_merge_undo(record=old)
    assert refused.value.code == "undo_old" and not Player.objects.filter(name="x").exists()


def test_an_undo_gives_the_merged_player_back_as_it_was_and_says_who(club, users):
    """The merged player comes back inactive if it was, without the kept player's own account,
    and both players' histories say the undo and who made it."""
    owner = users["owner"]
    taro = factories.PlayerFactory(club=club, name="太郎")
    wrong = factories.PlayerFactory(club=club, name="太朗", active=False)
    with club_versions.unchecked():  # 太郎 has an account of his own; 太朗 none
        Player.objects.filter(pk=taro.pk).update(user=users["member"])
    record = player_merge(club=club, keep=Player.objects.get(pk=taro.pk), merge=wrong, by=owner)
    assert record.moves["account"] is False and record.moves["merged_active"] is False
    back = Player.objects.get(pk=player_merge_undo(record=record, by=owner).pk)
    taro.refresh_from_db()
    assert (back.active, back.user) == (False, None)
    assert (taro.active, taro.user) == (True, users["member"])
    for player in (back, taro):
        latest = player.history.order_by("-history_id").first()
        assert (latest.history_change_reason, latest.history_user) == (
            f"merge-undo:{record.pk}",
            owner,
        )


def test_an_undo_whose_player_id_is_taken_meanwhile_brings_the_player_back_under_a_new_one(club):
    """Should a player hold the merged player's id by the time of the undo (a row written with
    its id, another club's), the player comes back under a new id and that row is left alone."""
    taro = factories.PlayerFactory(club=club, name="太郎")
    wrong = factories.PlayerFactory(club=club, name="太朗")
    record = player_merge(club=club, keep=taro, merge=wrong)
    elsewhere = factories.ClubFactory(slug="elsewhere")
    with club_versions.unchecked():  # by hand, as a restore of another club could
        Player.objects.create(id=record.merged_id, club=elsewhere, name="別人")
    back = player_merge_undo(record=record)
    assert back.pk != record.merged_id and back.name == "太朗" and back.club == club
    stranger = Player.objects.get(pk=record.merged_id)
    assert (stranger.club, stranger.name) == (elsewhere, "別人")


def test_an_undo_is_refused_after_an_edit_that_left_the_player_in_the_same_places(english):
    """An edit that changed only the honours of a moved deal (the kept player still in exactly
    the places the merge moved) is a later change all the same: the undo refuses, naming it."""
    club, players, wrong = _club(typo=True, deals=2)
    record = player_merge(club=club, keep=players["太郎"], merge=wrong)
    moved = Deal.objects.get(pk=record.moves["deals"][0]["id"])
    data = dict(moved.data) | {"honours": moved.data["honours"] - 1}
    deal_update(deal=moved, data=data, version=moved.version)
    before = snapshot(club)
    with pytest.raises(EfudaError) as refused:
        player_merge_undo(record=record)
    assert refused.value.code == "undo_edited"
    assert refused.value.params == {
        "count": 1,
        "date": moved.session.date.isoformat(),
        "table": moved.session.table,
        "seq": moved.seq,
    }
    assert snapshot(club) == before and not Player.objects.filter(name="太朗").exists()


def test_an_undo_is_refused_when_a_moved_deal_is_gone(english):
    """A moved deal deleted for good meanwhile (by site staff: efuda's own deletes keep the row)
    cannot be given back: the undo refuses, counting it, with no deal to name."""
    club, players, wrong = _club(typo=True, deals=2)
    record = player_merge(club=club, keep=players["太郎"], merge=wrong)
    with club_versions.unchecked():  # in the admin
        Deal.objects.filter(pk=record.moves["deals"][0]["id"]).delete()
    with pytest.raises(EfudaError) as refused:
        player_merge_undo(record=record)
    assert (refused.value.field, refused.value.code) == ("merge", "undo_edited")
    assert refused.value.params == {"count": 1, "date": "?", "table": "?", "seq": "?"}
    assert not Player.objects.filter(name="太朗").exists()


def test_a_merge_by_nobody_signed_in_is_recorded_as_by_nobody(club):
    taro = factories.PlayerFactory(club=club, name="太郎")
    wrong = factories.PlayerFactory(club=club, name="太朗")
    record = player_merge(club=club, keep=taro, merge=wrong, by=AnonymousUser())
    assert record.by is None
    assert player_merge_undo(record=record, by=AnonymousUser()).name == "太朗"
    record.refresh_from_db()
    assert record.undone_by is None and record.undone_at is not None
