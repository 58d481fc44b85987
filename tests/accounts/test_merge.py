"""Player merge: the standings after merging a typo player equal a club where the name was
right from the start (every period, both games, per-bid records, score lines)."""

import datetime

import pytest
from django.db.models import F
from django.test import Client
from django.urls import reverse

from core.errors import EfudaError
from tests import club_versions, factories
from tests.hardening.helpers import daifugo_data, napoleon_data
from tests.views.helpers import napoleon_fields
from tournaments.deal_data import PLAYER_KEY, PLAYER_LIST_KEYS
from tournaments.models import (
    BidAggregate,
    Deal,
    Player,
    PlayerMerge,
    Rating,
    ScoreLine,
    StandingAggregate,
)
from tournaments.selectors.merge import deals_naming, merge_obstacles
from tournaments.services.deals import deal_delete, deal_record
from tournaments.services.merge import player_merge, player_merge_undo
from tournaments.services.players import player_rename

pytestmark = pytest.mark.django_db

NAMES = ["太郎", "花子", "健一", "ゆき", "翔太", "美咲"]
# Dates across a month and a year boundary: month, season and all-time rows all differ.
DAYS = [datetime.date(2025, 12, 20), datetime.date(2026, 1, 10), datetime.date(2026, 1, 24)]


def _club(*, typo: bool, deals: int = 6):
    """The same evenings in two clubs. With ``typo``, 太郎 was recorded as 「太朗」 in some of the
    deals (never in the same deal as 太郎), including a redeal, a deleted deal and Daifugō
    rounds where 太朗 was 大富豪 (so a later round names him for 都落ち)."""
    club = factories.ClubFactory()
    players = {n: factories.PlayerFactory(club=club, name=n) for n in NAMES}
    wrong = factories.PlayerFactory(club=club, name="太朗") if typo else players["太郎"]
    nap_rules = factories.ClubRuleSetFactory(
        club=club, code="napoleon-wiki", preset="napoleon-wiki"
    )
    dai_rules = factories.ClubRuleSetFactory(
        club=club, code="daifugo-common", preset="daifugo-common"
    )
    for day_index, day in enumerate(DAYS):
        taro = wrong if day_index != 1 else players["太郎"]  # the typo on two of three evenings
        seated = [taro.id] + [players[n].id for n in NAMES[1:5]]
        nap = factories.session(club=club, ruleset=nap_rules, date=day)
        dai = factories.session(club=club, ruleset=dai_rules, date=day)
        for n in range(deals):
            deal = deal_record(session=nap, data=napoleon_data(seated, n=n, redeal=(n == 3)))
            if n == 4:
                deal_delete(deal=deal)
            if n < 4:
                deal_record(session=dai, data=daifugo_data(seated, n=n))
        # 美咲 plays where 健一 sat, 太郎 (or the typo) still in.
        others = [taro.id, players["美咲"].id] + [players[n].id for n in NAMES[1:4]]
        for n in range(min(deals, 2)):
            deal_record(session=nap, data=napoleon_data(others, n=n + 1))
    return club, players, wrong


def _by_name(rows, *fields):
    return sorted(tuple(r[f] for f in fields) for r in rows)


def snapshot(club):
    fields = ["player__name", "game", "period", *StandingAggregate.COUNTERS]
    aggregates = _by_name(
        StandingAggregate.objects.filter(club=club).exclude(deals=0).values(*fields), *fields
    )
    bid_fields = ["player__name", "bid", "trump", "deals", "wins", "solo_deals", "solo_wins",
                  "points"]  # fmt: skip
    # A record at zero counts nothing (an edit or an undo leaves it; every page skips it).
    bid_rows = BidAggregate.objects.filter(club=club).exclude(deals=0)
    bids = _by_name(bid_rows.values(*bid_fields), *bid_fields)
    line_fields = ["player__name", "game", "date", "seat", "points", "role", "won", "position",
                   "miyako_ochi", "deal__seq"]  # fmt: skip
    lines = _by_name(ScoreLine.objects.filter(club=club).values(*line_fields), *line_fields)
    deals = sorted(
        (d.session.date, d.session.game, d.seq, d.is_deleted, d.redeal, d.bid,
         d.napoleon.name if d.napoleon else None, d.adjutant.name if d.adjutant else None,
         tuple(sorted(d.outcome.get("points", {}).values())))
        for d in Deal.objects.filter(club=club).select_related("session", "napoleon", "adjutant")
    )  # fmt: skip
    rating_fields = ["player__name", "game", "mu", "sigma", "deals"]
    ratings = sorted(
        (r["player__name"], r["game"], round(r["mu"], 9), round(r["sigma"], 9), r["deals"])
        for r in Rating.objects.filter(club=club).values(*rating_fields)
    )
    return aggregates, bids, lines, deals, ratings


def test_merge_equals_the_club_where_the_name_was_right():
    right, _players, _same = _club(typo=False)
    typo, players, wrong = _club(typo=True)
    assert snapshot(typo) != snapshot(right)  # the typo really splits 太郎's results
    owner = factories.UserFactory(username="merger")
    record = player_merge(club=typo, keep=players["太郎"], merge=wrong, by=owner)
    after, expected = snapshot(typo), snapshot(right)
    assert after[4] and after == expected  # standings, records, lines, deals and ratings
    assert not Player.objects.filter(pk=wrong.pk).exists()
    assert record.merged_name == "太朗" and record.kept == players["太郎"] and record.deals > 0
    # The deals moved with history: the latest historical row of a moved deal says why.
    moved = Deal.objects.filter(club=typo, session__date=DAYS[0]).first()
    latest = moved.history.order_by("-history_id").first()
    assert latest.history_change_reason == f"merge:{record.pk}"
    assert latest.history_user == owner
    # Stored inputs name the kept player only.
    for deal in Deal.objects.filter(club=typo):
        assert str(wrong.pk) not in [str(v) for v in deal.data.get("seats", [])]
        assert str(wrong.pk) not in [str(v) for v in deal.data.get("order", [])]
        assert str(deal.data.get("previous_daifugo")) != str(wrong.pk)


def test_a_deal_with_both_players_cannot_be_merged():
    club, players, wrong = _club(typo=True, deals=2)
    session = club.sessions.filter(game="napoleon").first()
    seated = [players["太郎"].id, wrong.id] + [players[n].id for n in NAMES[1:4]]
    deal_record(session=session, data=napoleon_data(seated, n=0))
    before = snapshot(club)
    with pytest.raises(EfudaError) as err:
        player_merge(club=club, keep=players["太郎"], merge=wrong)
    assert err.value.code == "merge_together"
    assert err.value.params["count"] == 1
    assert snapshot(club) == before
    assert Player.objects.filter(pk=wrong.pk).exists()
    assert not PlayerMerge.objects.exists()


def test_merge_view_owner_only_and_shows_the_refusal(english):
    club, players, wrong = _club(typo=True, deals=2)
    owner, member = factories.UserFactory(), factories.UserFactory()
    factories.MembershipFactory(club=club, user=owner, role="owner")
    factories.MembershipFactory(club=club, user=member, role="member")
    url = reverse("player_merge", args=[club.slug])
    client = Client()
    client.force_login(member)
    post = {"keep": players["太郎"].id, "merge": wrong.id}
    assert client.post(url, post).status_code == 403
    client.force_login(owner)
    same = client.post(url, {"keep": wrong.id, "merge": wrong.id})
    assert same.status_code == 400 and "Choose two different players." in same.content.decode()
    # The first press shows what will move and asks; nothing moves yet.
    asked = client.post(url, post)
    assert asked.status_code == 200 and "This is what will move:" in asked.content.decode()
    assert Player.objects.filter(pk=wrong.pk).exists()
    response = client.post(url, post | {"confirm": "1"})
    assert response.status_code == 302
    assert not Player.objects.filter(pk=wrong.pk).exists()


# --- rounds and deals as the phone's entry form stores them ----------------------------------

PHONE_NAMES = ["太郎", "花子", "健一", "ゆき", "翔太"]


def _phone_club(*, typo: bool):
    """Two Daifugō rounds and a Napoleon deal entered through the phone's forms (``players``
    lists, ids as numbers). With ``typo``, round 1 and the Napoleon deal name 「太朗」; in round
    2, which 太朗 sat out, 太郎 sits and 太朗 is only its previous 大富豪 (so 都落ち applies
    once they are one person)."""
    club = factories.ClubFactory()
    owner = factories.UserFactory()
    factories.MembershipFactory(club=club, user=owner, role="owner")
    p = {n: factories.PlayerFactory(club=club, name=n) for n in PHONE_NAMES}
    first = factories.PlayerFactory(club=club, name="太朗") if typo else p["太郎"]
    day = DAYS[0]
    dai = factories.session(club=club, date=day, ruleset=factories.ClubRuleSetFactory(
        club=club, code="daifugo-common", preset="daifugo-common"))  # fmt: skip
    nap = factories.session(club=club, date=day, ruleset=factories.ClubRuleSetFactory(
        club=club, code="napoleon-wiki", preset="napoleon-wiki"))  # fmt: skip
    client = Client()
    client.force_login(owner)
    url = reverse("round_new", args=[club.slug, dai.pk])
    rounds = [
        [first, p["花子"], p["健一"], p["ゆき"]],
        [p["花子"], p["太郎"], p["健一"], p["ゆき"]],
    ]
    for order in rounds:
        ids = [q.id for q in order]
        response = client.post(url, {"players": ids, "order": ids[:-1],
                                     "forbidden": [], "action": "save"})  # fmt: skip
        assert response.status_code == 302
    seats = [first.id] + [p[n].id for n in PHONE_NAMES[1:]]
    post = napoleon_fields(seats) | {"adjutant": "solo", "action": "save"}
    assert client.post(reverse("deal_new", args=[club.slug, nap.pk]), post).status_code == 302
    return club, p, first


def data_by_name(club) -> list:
    """Every deal's stored data with each player id replaced by the player's name, in a fixed
    order (game, day, table, deal number: no two deals share them)."""
    names = {str(pl.pk): pl.name for pl in Player.objects.filter(club=club)}

    def named(value):
        return None if value in (None, "") else names.get(str(value), f"gone:{value}")

    out = []
    deals = Deal.objects.filter(club=club).select_related("session")
    for deal in deals.order_by("session__game", "session__date", "session__table", "seq"):
        data = dict(deal.data)
        for key in PLAYER_KEY:
            if key in data:
                data[key] = named(data[key])
        for key in PLAYER_LIST_KEYS:
            if key in data:
                data[key] = [named(v) for v in data[key]]
        out.append((deal.game, deal.session.table, deal.seq, data))
    return out


def test_rounds_entered_on_the_phone_merge_into_the_club_where_the_name_was_right():
    right, _p, _same = _phone_club(typo=False)
    typo, p, wrong = _phone_club(typo=True)
    round2 = Deal.objects.get(session__club=typo, game="daifugo", seq=2)
    assert round2.data["previous_daifugo"] == str(wrong.pk)  # named, not seated
    assert round2.outcome["miyako_ochi"] is None
    record = player_merge(club=typo, keep=p["太郎"], merge=wrong)
    assert data_by_name(typo) == data_by_name(right)
    assert snapshot(typo) == snapshot(right)
    round2.refresh_from_db()
    kept = str(p["太郎"].pk)
    assert round2.data["previous_daifugo"] == kept and round2.outcome["miyako_ochi"] == kept
    round1 = Deal.objects.get(session__club=typo, game="daifugo", seq=1)
    assert round1.data["players"][0] == round1.data["order"][0] == p["太郎"].pk  # numbers stay
    # Exactly the places that named 太朗, for the undo.
    moved = {m["id"]: m["places"] for m in record.moves["deals"]}
    nap = Deal.objects.get(session__club=typo, game="napoleon")
    assert moved == {
        round1.pk: {"players": [0], "order": [0]},
        round2.pk: {"previous_daifugo": True},
        nap.pk: {"napoleon": True, "seats": [0]},
    }
    assert record.deals == 3 and record.lines == 2  # round 1 and the Napoleon deal had lines


def test_phone_rounds_merge_back_on_undo():
    club, p, wrong = _phone_club(typo=True)
    before = data_by_name(club), snapshot(club)
    record = player_merge(club=club, keep=p["太郎"], merge=wrong)
    player_merge_undo(record=record)
    assert (data_by_name(club), snapshot(club)) == before
    round1 = Deal.objects.get(session__club=club, game="daifugo", seq=1)
    assert wrong.pk in round1.data["players"] and round1.data["order"][0] == wrong.pk


def test_the_previous_daifugo_alone_is_not_playing_together():
    club, p, wrong = _phone_club(typo=True)
    deals = deals_naming(club=club, player_id=wrong.pk)
    assert [(d.game, d.seq) for d in deals] == [("daifugo", 1), ("daifugo", 2), ("napoleon", 1)]
    assert merge_obstacles(keep=p["太郎"], merge=wrong, deals=deals) == []
    # Seated together at one round: refused, naming that round only.
    dai = Deal.objects.get(session__club=club, game="daifugo", seq=1).session
    ids = [wrong.pk, p["太郎"].pk, p["花子"].pk, p["健一"].pk]
    deal_record(session=dai, data={"players": ids, "order": ids, "forbidden": []})
    deals = deals_naming(club=club, player_id=wrong.pk)
    (obstacle,) = merge_obstacles(keep=p["太郎"], merge=wrong, deals=deals)
    assert obstacle.code == "merge_together" and obstacle.deal.seq == 3
    assert obstacle.params == {"kept": "太郎", "merged": "太朗", "count": 1,
                               "date": DAYS[0].isoformat(), "table": "A", "seq": 3}  # fmt: skip


def test_long_names_merge_and_undo(english):
    """A merge's history reason is a short code: 64-character names (the longest a player may
    have) fit the history's 100 characters on PostgreSQL too."""
    club, players, wrong = _club(typo=True, deals=1)
    player_rename(player=wrong, name="朗" * 64)
    player_rename(player=players["太郎"], name="郎" * 64)
    keep, wrong = Player.objects.get(pk=players["太郎"].pk), Player.objects.get(pk=wrong.pk)
    record = player_merge(club=club, keep=keep, merge=wrong)
    assert record.merged_name == "朗" * 64
    assert player_merge_undo(record=record).name == "朗" * 64


@pytest.mark.parametrize(
    ("left", "message"),
    [
        ("points", "merge left totals on the merged player"),
        ("deals", "merge left totals on the merged player"),
        ("bid", "merge left a bid record on the merged player"),
    ],
)
def test_a_merge_that_would_leave_anything_on_the_merged_player_stops_and_changes_nothing(
    left, message
):
    """The merge's last check: once every deal naming the merged player is re-scored, nothing
    of theirs may be left. Totals that no deal explains (here written by hand: a point, a deal,
    a bid record) stop the merge, all of it. (A score line of theirs cannot be left: every deal
    that has one is re-scored from its data.)"""
    club, players, wrong = _club(typo=True, deals=2)
    with club_versions.unchecked():
        if left in ("points", "deals"):
            row = StandingAggregate.objects.filter(player=wrong).order_by("pk").first()
            StandingAggregate.objects.filter(pk=row.pk).update(**{left: F(left) + 1})
        else:
            row = BidAggregate.objects.filter(player=wrong).order_by("pk").first()
            BidAggregate.objects.filter(pk=row.pk).update(deals=F("deals") + 1)
    before = snapshot(club)
    with pytest.raises(RuntimeError) as stopped:
        player_merge(club=club, keep=players["太郎"], merge=wrong)
    assert str(stopped.value) == message
    assert snapshot(club) == before and Player.objects.filter(pk=wrong.pk).exists()
    assert not PlayerMerge.objects.exists()


# --- evenings entered out of date order ------------------------------------------------------

# Entered in this order: the middle evening first, the earliest last.
EVENINGS = [datetime.date(2026, 2, 14), datetime.date(2026, 2, 21), datetime.date(2026, 2, 7)]


def _evenings_club(*, typo: bool):
    """Three Daifugō evenings of four rounds, entered out of date order, 太郎 (with ``typo``,
    「太朗」) at every round: he goes out first in the first three rounds of each evening and
    second in the last, so every round but the first names him as its previous 大富豪 and the
    last one drops him (都落ち)."""
    club = factories.ClubFactory()
    p = {n: factories.PlayerFactory(club=club, name=n) for n in PHONE_NAMES}
    taro = factories.PlayerFactory(club=club, name="太朗") if typo else p["太郎"]
    rules = factories.ClubRuleSetFactory(club=club, code="daifugo-common", preset="daifugo-common")
    others = [str(p[n].id) for n in PHONE_NAMES[1:]]
    for day in EVENINGS:
        session = factories.session(club=club, ruleset=rules, date=day)
        for n in range(4):
            order = others[n:] + others[:n]
            order.insert(1 if n == 3 else 0, str(taro.id))
            deal_record(session=session, data={"order": order, "forbidden": []})
    return club, p, taro


def test_a_merge_rescores_each_evening_round_by_round_whatever_order_they_were_entered_in():
    """A round reads its previous 大富豪 from the round before it, so the merge re-scores each
    evening's rounds in the order of their numbers. The rounds of an evening share its date
    and table, and PostgreSQL's sort keeps such ties in no particular order (here, evenings
    entered out of date order, they come back reversed or shuffled) unless the number is asked
    for. A round re-scored before the round before it would keep the merged player, gone, as
    its previous 大富豪; the last round of an evening would lose his 都落ち."""
    right, _p, _same = _evenings_club(typo=False)
    typo, p, wrong = _evenings_club(typo=True)
    record = player_merge(club=typo, keep=p["太郎"], merge=wrong)
    assert record.deals == 12  # every round of the three evenings
    assert data_by_name(typo) == data_by_name(right)
    assert snapshot(typo) == snapshot(right)
    last_rounds = Deal.objects.filter(session__club=typo, seq=4)
    assert [d.outcome["miyako_ochi"] for d in last_rounds] == [str(p["太郎"].pk)] * 3
