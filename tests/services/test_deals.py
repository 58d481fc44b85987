"""deal_record / deal_update / deal_delete / deal_restore: stored lines and aggregates always
equal what the scoring core says, and every write is all or nothing."""

import re
import uuid
from collections import defaultdict

import pytest
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone

from core.errors import EfudaError
from scoring.daifugo import DaifugoRound, score_daifugo
from scoring.napoleon import NapoleonDeal, score_napoleon
from tests import factories
from tests.japanese import japanese
from tournaments.models import BidAggregate, Deal, ScoreLine, StandingAggregate
from tournaments.selectors.rulesets import session_rules
from tournaments.services.deals import (
    deal_delete,
    deal_preview,
    deal_record,
    deal_restore,
    deal_update,
)

pytestmark = pytest.mark.django_db


def napoleon_data(players, **changes):
    seats = [p.id for p in players[:5]]
    data = {
        "seats": seats,
        "napoleon": seats[0],
        "bid": 13,
        "trump": "S",
        "called": "SA",
        "adjutant": seats[1],
        "honours": 14,
        "discarded": 0,
        "last_trick": None,
        "redeal": False,
    }
    data.update(changes)
    return data


def lines_of(deal):
    return {line.player_id: line.points for line in ScoreLine.objects.filter(deal=deal)}


def aggregates(club):
    """{(player, period): (points, deals, napoleon_deals, title_daihinmin, miyako)} non-zero."""
    rows = StandingAggregate.objects.filter(club=club)
    return {
        (a.player_id, a.period): (
            a.points,
            a.deals,
            a.napoleon_deals,
            a.title_daihinmin,
            a.miyako_ochi,
        )
        for a in rows
        if a.deals or a.points
    }


def aggregates_from_lines(club):
    totals = defaultdict(lambda: [0, 0, 0, 0, 0])
    for line in ScoreLine.objects.filter(club=club):
        for period in (line.date.strftime("%Y-%m"), str(line.date.year), "all"):
            t = totals[(line.player_id, period)]
            t[0] += line.points
            t[1] += 1
            t[2] += line.role == "napoleon"
            t[3] += line.role == "daihinmin"
            t[4] += line.miyako_ochi
    return {k: tuple(v) for k, v in totals.items()}


def test_record_matches_scoring_core(napoleon_session, players, club, users):
    data = napoleon_data(players)
    deal = deal_record(session=napoleon_session, data=data, user=users["scorekeeper"])
    expected = score_napoleon(
        NapoleonDeal(
            seats=tuple(str(s) for s in data["seats"]),
            napoleon=str(data["napoleon"]),
            bid=13,
            trump="S",
            called="SA",
            adjutant=str(data["adjutant"]),
            honours=14,
            discarded=0,
        ),
        session_rules(napoleon_session),
    )
    assert lines_of(deal) == {int(k): v for k, v in expected.points.items()}
    assert sum(lines_of(deal).values()) == 0
    assert aggregates(club) == aggregates_from_lines(club)
    assert deal.created_by == users["scorekeeper"] and deal.seq == 1
    bid = BidAggregate.objects.get(player_id=data["napoleon"])
    assert (bid.bid, bid.trump, bid.deals, bid.wins) == (13, "S", 1, 1)


def test_redeal_scores_nothing(napoleon_session, players, club):
    data = {"seats": [p.id for p in players[:5]], "redeal": True}
    deal = deal_record(session=napoleon_session, data=data)
    assert deal.redeal and not ScoreLine.objects.filter(deal=deal).exists()
    assert aggregates(club) == {}


def test_double_submit_records_once(napoleon_session, players):
    data = napoleon_data(players)
    tap, other_tap = uuid.uuid4(), uuid.uuid4()
    first = deal_record(session=napoleon_session, data=data, client_id=tap)
    second = deal_record(session=napoleon_session, data=data, client_id=str(tap))
    assert first.pk == second.pk
    assert not first.already_recorded and second.already_recorded
    assert Deal.objects.count() == 1 and ScoreLine.objects.count() == 5
    third = deal_record(session=napoleon_session, data=data, client_id=other_tap)
    assert third.seq == 2 and ScoreLine.objects.count() == 10


def test_invalid_deal_writes_nothing(napoleon_session, players, club):
    with pytest.raises(EfudaError) as info:
        deal_record(session=napoleon_session, data=napoleon_data(players, bid=25))
    assert info.value.field == "bid"
    assert not Deal.objects.exists() and not ScoreLine.objects.exists()
    assert aggregates(club) == {}


def test_update_rescores_and_keeps_history(napoleon_session, players, club, users):
    deal = deal_record(session=napoleon_session, data=napoleon_data(players))
    updated = deal_update(
        deal=deal,
        data=napoleon_data(players, honours=10),
        user=users["owner"],
        version=deal.version,
    )
    assert updated.version == 2 and updated.updated_by == users["owner"]
    assert lines_of(updated)[players[0].id] == -2  # set: the army took 10 of 13
    assert aggregates(club) == aggregates_from_lines(club)
    assert deal.history.count() == 2
    assert [h.data["honours"] for h in deal.history.order_by("history_date")] == [14, 10]


def test_stale_update_is_refused_and_changes_nothing(napoleon_session, players, club, users):
    deal = deal_record(session=napoleon_session, data=napoleon_data(players))
    deal_update(deal=deal, data=napoleon_data(players, bid=14), user=users["owner"], version=1)
    before = (aggregates(club), lines_of(deal), Deal.objects.get(pk=deal.pk).data)
    with pytest.raises(EfudaError) as info:
        deal_update(deal=deal, data=napoleon_data(players, honours=3), version=1)
    assert info.value.field == "version"
    assert info.value.params["user"] == "owner-user"
    # when, to the minute in local time, and what the deal now says, as the editor reads it
    saved = Deal.objects.get(pk=deal.pk)
    assert info.value.params["time"] == timezone.localtime(saved.updated_at).strftime(
        "%Y-%m-%d %H:%M"
    )
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d", info.value.params["time"])
    assert info.value.params["summary"] == (
        "太郎が♠14枚で立候補し、副官は花子（指名カード ♠A）。 / "
        "ナポレオン軍はトリックで絵札を14枚取りました。 / "
        "ナポレオン軍の絵札 14枚 ≥ 立候補 14枚：ナポレオンの勝ち。 / "
        "得点：ナポレオン +2、副官 +1、連合軍各自 -1。"
    )
    after = (aggregates(club), lines_of(deal), Deal.objects.get(pk=deal.pk).data)
    assert before == after


def test_delete_then_restore_gives_identical_aggregates(napoleon_session, players, club):
    deal_record(session=napoleon_session, data=napoleon_data(players))
    second = deal_record(session=napoleon_session, data=napoleon_data(players, honours=9))
    before = aggregates(club)
    deal_delete(deal=second)
    assert not ScoreLine.objects.filter(deal=second).exists()
    assert aggregates(club) == aggregates_from_lines(club) != before
    deal_restore(deal=Deal.objects.get(pk=second.pk))
    assert aggregates(club) == before
    assert Deal.objects.get(pk=second.pk).history.count() == 3


def test_daifugo_miyako_ochi_and_rescoring_later_rounds(daifugo_session, players, club):
    a, b, c, d = (p.id for p in players[:4])
    r1 = deal_record(session=daifugo_session, data={"order": [a, b, c, d], "forbidden": []})
    r2 = deal_record(session=daifugo_session, data={"order": [b, a, c, d], "forbidden": []})
    # a was 大富豪 in round 1 and did not go out first in round 2: 都落ち to 大貧民.
    assert r2.outcome["miyako_ochi"] == str(a)
    assert lines_of(r2)[a] == -2 and lines_of(r2)[b] == 2
    expected = score_daifugo(
        DaifugoRound(order=tuple(map(str, [b, a, c, d])), previous_daifugo=str(a)),
        session_rules(daifugo_session),
    )
    assert lines_of(r2) == {int(k): v for k, v in expected.points.items()}
    # Correct round 1 so that b was 大富豪: round 2 is re-scored without 都落ち.
    deal_update(deal=r1, data={"order": [b, a, c, d], "forbidden": []}, version=r1.version)
    r2.refresh_from_db()
    assert r2.outcome["miyako_ochi"] is None and r2.data["previous_daifugo"] == str(b)
    assert lines_of(r2)[a] == 1
    assert aggregates(club) == aggregates_from_lines(club)
    # Deleting round 1 leaves round 2 as the session's first round: no 都落ち either.
    deal_delete(deal=r1)
    r2.refresh_from_db()
    assert r2.data["previous_daifugo"] is None
    assert aggregates(club) == aggregates_from_lines(club)


def test_daifugo_forbidden_finish(daifugo_session, players):
    a, b, c, d = (p.id for p in players[:4])
    deal = deal_record(session=daifugo_session, data={"order": [a, b, c, d], "forbidden": [a]})
    assert deal.outcome["final_order"] == [str(b), str(c), str(d), str(a)]
    assert lines_of(deal)[a] == -2


def test_players_of_another_club_are_refused(napoleon_session, players):
    from tests.factories import PlayerFactory

    stranger = PlayerFactory()
    data = napoleon_data(players)
    data["seats"] = data["seats"][:4] + [stranger.id]
    with pytest.raises(EfudaError) as info:
        deal_record(session=napoleon_session, data=data)
    assert info.value.field == "seats"
    assert not Deal.objects.exists()


def test_an_edit_moves_the_deals_own_columns_with_its_data(napoleon_session, players, users):
    """The columns lists and the merge select deals by (Napoleon, adjutant, bid, trump, 流れ)
    follow every edit: a redeal corrected into a real deal no longer reads as 流れ."""
    seats = [p.id for p in players[:5]]
    deal = deal_record(session=napoleon_session, data={"seats": seats, "redeal": True})
    assert (deal.redeal, deal.napoleon_id, deal.adjutant_id, deal.bid, deal.trump) == (
        True, None, None, None, "",
    )  # fmt: skip
    deal = deal_update(deal=deal, data=napoleon_data(players), version=deal.version)
    stored = Deal.objects.get(pk=deal.pk)
    assert (stored.redeal, stored.napoleon_id, stored.adjutant_id, stored.bid, stored.trump) == (
        False, seats[0], seats[1], 13, "S",
    )  # fmt: skip
    solo = napoleon_data(players, napoleon=seats[2], adjutant=None, solo=True, bid=14, trump="H")
    deal = deal_update(deal=stored, data=solo, version=stored.version)
    stored = Deal.objects.get(pk=deal.pk)
    assert (stored.redeal, stored.napoleon_id, stored.adjutant_id, stored.bid, stored.trump) == (
        False, seats[2], None, 14, "H",
    )  # fmt: skip
    deal = deal_update(deal=stored, data={"seats": seats, "redeal": True}, version=stored.version)
    stored = Deal.objects.get(pk=deal.pk)
    assert (stored.redeal, stored.napoleon_id, stored.bid, stored.trump) == (True, None, None, "")
    assert not ScoreLine.objects.filter(deal=stored).exists()


def test_a_later_round_re_scored_by_an_edit_moves_on_and_says_why(daifugo_session, players, users):
    """A round re-scored because an earlier one changed gets a new version (an editor who
    opened it before is refused, not allowed to overwrite the re-score) and a history entry
    naming the editor and the reason."""
    a, b, c, d = (p.id for p in players[:4])
    r1 = deal_record(session=daifugo_session, data={"order": [a, b, c, d], "forbidden": []})
    r2 = deal_record(session=daifugo_session, data={"order": [b, a, c, d], "forbidden": []})
    opened = r2.version
    deal_update(
        deal=r1, data={"order": [b, a, c, d], "forbidden": []}, version=r1.version,
        user=users["owner"],
    )  # fmt: skip
    r2.refresh_from_db()
    assert r2.version == opened + 1
    latest = r2.history.order_by("-history_date", "-history_id").first()
    assert latest.history_user == users["owner"]
    assert latest.history_change_reason == "after:1"  # shown as "round 1 before it changed"
    with pytest.raises(EfudaError) as info:
        deal_update(deal=r2, data={"order": [c, a, b, d], "forbidden": []}, version=opened)
    assert info.value.code == "deal_stale"


def test_a_round_whose_daifugo_did_not_change_is_left_alone(daifugo_session, players):
    a, b, c, d = (p.id for p in players[:4])
    r1 = deal_record(session=daifugo_session, data={"order": [a, b, c, d], "forbidden": []})
    r2 = deal_record(session=daifugo_session, data={"order": [b, a, c, d], "forbidden": []})
    # Round 1 still has a as 大富豪: round 2 keeps its version and its history.
    deal_update(deal=r1, data={"order": [a, c, b, d], "forbidden": []}, version=r1.version)
    r2.refresh_from_db()
    assert r2.version == 1 and r2.history.count() == 1


def test_a_twin_committed_after_the_check_is_returned_not_recorded_again(
    napoleon_session, players, monkeypatch
):
    """The race path without threads: the first look (read with the session's lock) finds
    nothing (the twin had not committed yet), the insert meets the unique id, and the twin's
    deal is returned."""
    from tournaments.services import deals as deals_module

    tap = uuid.uuid4()
    first = deal_record(session=napoleon_session, data=napoleon_data(players), client_id=tap)
    calls = []

    def first_look_misses(client_id):
        calls.append(client_id)
        return {}  # the locked read asks nothing about the id: it finds no deal

    monkeypatch.setattr(deals_module, "_recorded_in", first_look_misses)
    again = deal_record(session=napoleon_session, data=napoleon_data(players), client_id=tap)
    assert again.pk == first.pk and again.already_recorded and calls == [tap]
    assert Deal.objects.count() == 1 and ScoreLine.objects.count() == 5


def test_a_twin_in_another_session_after_the_check_is_refused(
    napoleon_session, players, monkeypatch
):
    from tests import factories
    from tournaments.services import deals as deals_module

    other = factories.session(
        club=napoleon_session.club, ruleset=napoleon_session.ruleset,
        date=napoleon_session.date, table="B",
    )  # fmt: skip
    tap = uuid.uuid4()
    deal_record(session=napoleon_session, data=napoleon_data(players), client_id=tap)
    monkeypatch.setattr(deals_module, "_recorded_in", lambda client_id: {})  # the look misses
    with pytest.raises(EfudaError) as info:
        deal_record(session=other, data=napoleon_data(players), client_id=tap)
    assert info.value.code == "client_id_other_session"
    assert Deal.objects.count() == 1 and not Deal.objects.filter(session=other).exists()


def test_the_preview_of_an_edited_round_reads_the_daifugo_before_it(daifugo_session, players):
    """Editing round 2 of 3 previews 都落ち against round 1's 大富豪, as the saved edit will,
    not against the latest round's."""
    a, b, c, d = (p.id for p in players[:4])
    deal_record(session=daifugo_session, data={"order": [a, b, c, d], "forbidden": []})
    r2 = deal_record(session=daifugo_session, data={"order": [b, a, c, d], "forbidden": []})
    deal_record(session=daifugo_session, data={"order": [c, b, a, d], "forbidden": []})
    data, result = deal_preview(
        session=daifugo_session, data={"order": [b, a, c, d], "forbidden": []}, deal=r2
    )
    assert data["previous_daifugo"] == str(a) and result.miyako_ochi == str(a)
    data, result = deal_preview(
        session=daifugo_session, data={"order": [b, a, c, d], "forbidden": []}
    )
    assert data["previous_daifugo"] == str(c) and result.miyako_ochi == str(c)  # a fourth round


def _rounds(session, *orders):
    return [deal_record(session=session, data={"order": list(o), "forbidden": []}) for o in orders]


def test_an_edit_leaves_other_sessions_and_deleted_rounds_alone(club, daifugo_session, players):
    a, b, c, d = (p.id for p in players[:4])
    r1, r2, r3 = _rounds(daifugo_session, (a, b, c, d), (b, a, c, d), (c, a, b, d))
    deal_delete(deal=r2)
    ruleset = daifugo_session.ruleset
    other = factories.session(club=club, ruleset=ruleset, date=daifugo_session.date, table="B")
    o1, o2, o3 = _rounds(other, (a, b, c, d), (b, a, c, d), (d, a, b, c))
    deal_update(deal=r1, data={"order": [d, a, b, c], "forbidden": []}, version=r1.version)
    r2.refresh_from_db()
    assert r2.is_deleted and r2.version == 2  # the delete moved it; the edit did not
    r3.refresh_from_db()
    # the delete re-read round 3 against round 1, the edit once more: past the deleted round
    assert r3.version == 3 and r3.data["previous_daifugo"] == str(d)
    for round_ in (o1, o2, o3):
        round_.refresh_from_db()
        assert round_.version == 1 and round_.history.count() == 1


def test_an_edit_by_hand_records_no_reason(napoleon_session, players, users):
    """History gives a reason only where efuda changed a deal by itself or the edit gave one."""
    deal = deal_record(session=napoleon_session, data=napoleon_data(players))
    deal_update(deal=deal, data=napoleon_data(players, bid=14), user=users["owner"], version=1)
    latest = deal.history.order_by("-history_date", "-history_id").first()
    assert latest.history_user == users["owner"] and not latest.history_change_reason
    # an edit that gives its reason (a tournament table's correction) records it
    deal_update(deal=deal, data=napoleon_data(players, bid=15), version=2, reason="席の訂正")
    latest = deal.history.order_by("-history_date", "-history_id").first()
    assert latest.history_change_reason == "席の訂正"


def test_a_first_round_reads_no_daifugo_from_another_session(club, daifugo_session, players):
    a, b, c, d = (p.id for p in players[:4])
    _rounds(daifugo_session, (a, b, c, d), (b, a, c, d))
    other = factories.session(
        club=club, ruleset=daifugo_session.ruleset, date=daifugo_session.date, table="B"
    )
    first = deal_record(session=other, data={"order": [c, d, a, b], "forbidden": []})
    assert first.data["previous_daifugo"] is None
    assert first.outcome["miyako_ochi"] is None


def test_a_change_without_a_signed_in_user_records_nobody(napoleon_session, players):
    deal = deal_record(session=napoleon_session, data=napoleon_data(players), user=AnonymousUser())
    deal_delete(deal=deal, user=AnonymousUser())
    deal.refresh_from_db()
    assert deal.is_deleted and deal.updated_by is None and deal.created_by is None


@pytest.mark.parametrize("game", ["napoleon", "daifugo"])
def test_a_deal_naming_a_player_removed_before_its_write_is_refused_whole(
    monkeypatch, request, players, club, game
):
    """A merge can remove a player after the form was read and before the deal's write: the
    write checks and locks the players it names in one query inside its transaction (so no
    merge can come between), and refuses the deal naming the field; nothing of it is written."""
    from tournaments.models import Player
    from tournaments.services import deals

    session = request.getfixturevalue(f"{game}_session")
    data, field = (
        (napoleon_data(players), "seats")
        if game == "napoleon"
        else ({"order": [p.id for p in players[:5]], "forbidden": []}, "order")
    )
    original = deals._players_checked_and_locked
    gone = players[2]

    def merged_just_before(session, data):
        Player.objects.filter(pk=gone.pk).delete()
        return original(session, data)

    monkeypatch.setattr(deals, "_players_checked_and_locked", merged_just_before)
    with pytest.raises(EfudaError) as info:
        deal_record(session=session, data=data)
    assert (info.value.field, info.value.code) == (field, "player_unknown")
    assert info.value.params == {"value": str(gone.pk)}
    assert not Deal.objects.filter(session=session).exists()
    assert not ScoreLine.objects.filter(club=club).exists()


def test_an_edit_naming_a_player_removed_after_its_check_is_refused_whole(
    monkeypatch, players, napoleon_session
):
    """An edit checks its players first and locks them at the write of the lines: a player
    removed in between (a merge) refuses the edit naming the field, and the deal stays as it
    was."""
    from tournaments.models import Player
    from tournaments.services import deals

    deal = deal_record(session=napoleon_session, data=napoleon_data(players))
    before = sorted(ScoreLine.objects.filter(deal=deal).values_list("player_id", "points"))
    original = deals._check_players
    gone = players[5]  # named by the edit only: no lines of their own yet

    def check_then_remove(session, data):
        original(session, data)
        Player.objects.filter(pk=gone.pk).delete()

    monkeypatch.setattr(deals, "_check_players", check_then_remove)
    with pytest.raises(EfudaError) as info:
        deal_update(deal=deal, data=napoleon_data(players[1:]), version=deal.version)
    assert (info.value.field, info.value.code) == ("seats", "player_unknown")
    assert info.value.params == {"value": str(gone.pk)}
    deal.refresh_from_db()
    assert deal.version == 1
    assert sorted(ScoreLine.objects.filter(deal=deal).values_list("player_id", "points")) == before


def test_the_phones_deal_id(club, napoleon_session, players):
    """A damaged id is refused beside it; an empty one is no id; a repeat returns the deal
    recorded under its id before anything of the repeat is read (even data that would now be
    refused); an id of another session is refused without naming the session that holds it
    (it may be another club's)."""
    with pytest.raises(EfudaError) as info:
        deal_record(session=napoleon_session, data=napoleon_data(players), client_id="x-1")
    assert (info.value.field, info.value.code) == ("client_id", "client_id_invalid")
    assert not Deal.objects.exists()
    plain = deal_record(session=napoleon_session, data=napoleon_data(players), client_id="")
    assert plain.client_id is None and not plain.already_recorded
    phone_id = uuid.uuid4()
    first = deal_record(session=napoleon_session, data=napoleon_data(players), client_id=phone_id)
    again = deal_record(
        session=napoleon_session, data=napoleon_data(players, bid=None), client_id=phone_id
    )
    assert again.pk == first.pk and again.already_recorded and first.seq == 2
    other = factories.session(
        club=club, ruleset=napoleon_session.ruleset, date=napoleon_session.date, table="B"
    )
    with pytest.raises(EfudaError) as info:
        deal_record(session=other, data=napoleon_data(players), client_id=phone_id)
    assert (info.value.field, info.value.code) == ("client_id", "client_id_other_session")
    assert info.value.params == {}
    assert japanese(info.value).startswith("この入力はすでに別のセッションで記録済みなので")
