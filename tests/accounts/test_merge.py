"""Player merge: the standings after merging a typo player equal a club where the name was
right from the start (every period, both games, per-bid records, score lines)."""

import datetime

import pytest
from django.test import Client
from django.urls import reverse

from core.errors import EfudaError
from tests import factories
from tests.hardening.helpers import daifugo_data, napoleon_data
from tournaments.models import (
    BidAggregate,
    Deal,
    Player,
    PlayerMerge,
    Rating,
    ScoreLine,
    StandingAggregate,
)
from tournaments.services.deals import deal_delete, deal_record
from tournaments.services.merge import player_merge

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
    bids = _by_name(BidAggregate.objects.filter(club=club).values(*bid_fields), *bid_fields)
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
