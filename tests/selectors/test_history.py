"""A deal's history page: a re-scored deal shows its points before and after and why (a later
Daifugō round after an earlier one changed, a player merge and its undo), in the reader's
language; an editor's own reason is shown as written."""

import pytest
from django.urls import reverse
from django.utils import translation

from tests import factories
from tests.hardening.helpers import napoleon_data
from tournaments.models import Deal
from tournaments.selectors.history import (
    PointsChange,
    deal_history,
    points_change,
    reason_text,
    seating,
)
from tournaments.services.deals import deal_record, deal_update
from tournaments.services.merge import player_merge, player_merge_undo

pytestmark = pytest.mark.django_db


def _page(client, deal, lang="en") -> str:
    url = reverse("deal_history", args=[deal.club.slug, deal.pk])
    return client.get(url, HTTP_ACCEPT_LANGUAGE=lang).content.decode()


@pytest.fixture
def member(client, users):
    client.force_login(users["member"])
    return client


def test_a_later_round_re_scored_by_an_edit_says_why_and_its_points(
    member, daifugo_session, players, users, english
):
    a, b, c, d = players[:4]
    ids = [p.id for p in (a, b, c, d)]
    deal_record(session=daifugo_session, data={"players": ids, "order": ids, "forbidden": []})
    later = deal_record(session=daifugo_session, data={
        "players": ids, "order": [b.id, c.id, a.id, d.id], "forbidden": []})  # fmt: skip
    assert later.outcome["miyako_ochi"] == str(a.id)  # 太郎 was 大富豪 and fell
    first = Deal.objects.get(session=daifugo_session, seq=1)
    deal_update(deal=first, data={"players": ids, "order": [d.id, a.id, b.id, c.id],
                                  "forbidden": []}, version=1, user=users["owner"])  # fmt: skip
    later.refresh_from_db()
    newest = deal_history(later)[0]
    assert newest.reason == (
        "Re-scored because round 1 before it changed: the previous 大富豪 (grand millionaire) "
        "is read from it."
    )
    before, after = later.history.order_by("history_id")
    assert newest.points == [
        PointsChange(
            p.name, before.outcome["points"][str(p.id)], after.outcome["points"][str(p.id)]
        )
        for p in (b, c, d, a)  # in the order of the round's final places before (太郎 fell)
    ]
    assert newest.points != [PointsChange(q.name, q.before, q.before) for q in newest.points]
    assert newest.changes == [
        "was: Went out: 花子, Ken, 太郎, ゆき; previous 大富豪 (grand millionaire): 太郎"
    ]
    assert (
        newest.summary
        == "Went out: 花子, Ken, 太郎, ゆき; previous 大富豪 (grand millionaire): ゆき"
    )
    page = _page(member, later)
    assert "Re-scored because round 1 before it changed" in page
    assert "Points before and after" in page and "owner-user" in page
    row = page.split("<bdi>太郎</bdi></th>", 1)[1].split("</tr>", 1)[0]
    assert [cell.split(">")[1] for cell in row.split("</td>")[:2]] == ["-2", "-1"]  # 大貧民, 貧民
    japanese = _page(member, later, "ja")
    assert "前の第1回戦が変更されたため再計算しました" in japanese and "変更前後の点数" in japanese
    assert "前回の大富豪：ゆき" in japanese


def test_a_merge_and_its_undo_say_so_with_the_merged_name(
    member, napoleon_session, players, english
):
    club = napoleon_session.club
    typo = factories.PlayerFactory(club=club, name="太朗")
    seats = [typo.id] + [p.id for p in players[1:5]]
    deal = deal_record(session=napoleon_session, data=napoleon_data(seats, n=0))
    record = player_merge(club=club, keep=players[0], merge=typo)
    merged = deal_history(Deal.objects.get(pk=deal.pk))[0]
    assert merged.reason == "Player merge: “太朗” into “太郎”."
    assert merged.changes[0].startswith("was: Napoleon 太朗, 13")  # the gone player's name
    assert [p.name for p in merged.points] == ["太朗", "花子", "Ken", "ゆき", "Sam", "太郎"]
    assert merged.points[0] == PointsChange("太朗", deal.outcome["points"][str(typo.id)], None)
    assert merged.points[-1].before is None and merged.points[-1].after is not None
    assert "Player merge: “太朗” into “太郎”." in _page(member, deal)
    assert "プレイヤーの統合：「太朗」を「太郎」に統合。" in _page(member, deal, "ja")
    player_merge_undo(record=record)
    with translation.override("en"):  # the Japanese page switched this thread's language
        undone = deal_history(Deal.objects.get(pk=deal.pk))[0]
    assert undone.reason == "Player merge undone: “太朗” apart from “太郎” again."
    assert len(deal_history(Deal.objects.get(pk=deal.pk))) == 3


def test_reasons_read_as_written_or_in_the_readers_language(club, english):
    assert reason_text("席の訂正", club_id=club.pk, names={}) == "席の訂正"
    assert reason_text(None, club_id=club.pk, names={}) == ""
    assert reason_text("after:4", club_id=club.pk, names={}).startswith(
        "Re-scored because round 4 before it changed"
    )
    assert reason_text("merge:999", club_id=club.pk, names={}) == "Player merge: “?” into “?”."


def test_points_change_lists_every_player_once_or_nothing():
    names = {"1": "太郎", "2": "花子"}
    assert points_change({"1": 2, "2": -2}, {"1": 2, "2": -2}, names, ["1", "2"]) == []
    assert points_change(None, {}, names) == []
    assert points_change({"2": -2, "1": 2}, {"3": -1, "2": 1}, names) == [
        PointsChange("太郎", 2, None), PointsChange("花子", -2, 1), PointsChange("3", None, -1),
    ]  # fmt: skip
    # In the seating given (ids as numbers or text), then the rest by number.
    assert points_change({"10": 1, "9": -1}, {"10": 2, "9": -2, "x": 0}, {}, [10]) == [
        PointsChange("10", 1, 2), PointsChange("9", -1, -2), PointsChange("x", None, 0),
    ]  # fmt: skip


def test_seating_is_the_seats_or_the_final_places():
    assert seating("napoleon", {"seats": [3, 1, 2]}, {}) == [3, 1, 2]
    assert seating("daifugo", {"order": ["1", "2"]}, {"final_order": ["2", "1"]}) == ["2", "1"]
    assert seating("daifugo", {"order": ["1", "2"]}, {}) == ["1", "2"]
    assert seating("napoleon", None, None) == [] and seating("daifugo", {}, {}) == []
