import datetime

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db.models import Sum

from tests.selectors.data import club_with_history
from tournaments.models import ScoreLine
from tournaments.selectors.clubs import club_home
from tournaments.selectors.players import player_stats
from tournaments.selectors.standings import Period, standings
from tournaments.selectors.visibility import Visibility
from tournaments.services.deals import deal_delete


def ALL(club):  # noqa: N802 - reads as a constant: everything visible (the club's staff)
    return Visibility(club_id=club.pk)


def table(result):
    return [(r.rank, r.name, r.points, r.deals) for r in result.rows]


@pytest.mark.django_db
def test_month_standings_share_rank_when_every_tiebreak_is_equal(club):
    club_with_history(club)
    result = standings(club=club, game="napoleon", period=Period.of(2026, 11), visibility=ALL(club))
    assert table(result) == [
        (1, "Ken", 2, 3),
        (1, "太郎", 2, 3),
        (3, "ゆき", 1, 3),
        (4, "花子", -1, 3),
        (5, "渡邊", -4, 3),
    ]


@pytest.mark.django_db
def test_all_time_tiebreak_uses_napoleon_wins(club):
    club_with_history(club)
    result = standings(club=club, game="napoleon", period=Period("all"), visibility=ALL(club))
    # 太郎 and 花子 both 0 points, 0.0 average; 太郎 won once as Napoleon.
    assert table(result) == [
        (1, "ゆき", 2, 4),
        (2, "Ken", 1, 4),
        (3, "太郎", 0, 4),
        (4, "花子", 0, 4),
        (5, "渡邊", -3, 4),
    ]
    taro = result.rows[2]
    assert (taro.napoleon_deals, taro.napoleon_wins, taro.win_rate) == (2, 1, 50.0)
    watanabe = result.rows[4]
    assert (watanabe.solo_deals, watanabe.solo_wins, watanabe.adjutant_deals) == (1, 0, 1)


@pytest.mark.django_db
def test_season_matches_sum_of_score_lines(club):
    club_with_history(club)
    result = standings(club=club, game="napoleon", period=Period.of(2026), visibility=ALL(club))
    sums = dict(
        ScoreLine.objects.filter(club=club, game="napoleon", date__year=2026)
        .values_list("player__name")
        .annotate(s=Sum("points"))
        .values_list("player__name", "s")
    )
    assert {r.name: r.points for r in result.rows} == sums


@pytest.mark.django_db
def test_min_deals_blanks_rates_only(club):
    club_with_history(club)
    result = standings(
        club=club, game="napoleon", period=Period("all"), min_deals=5, visibility=ALL(club)
    )
    assert all(r.average is None and r.win_rate is None for r in result.rows)
    assert [r.points for r in result.rows] == [2, 1, 0, 0, -3]


@pytest.mark.django_db
def test_daifugo_titles_and_miyako_ochi(club):
    club_with_history(club)
    result = standings(club=club, game="daifugo", period=Period.of(2026, 11), visibility=ALL(club))
    by_name = {r.name: r for r in result.rows}
    assert [r.name for r in result.rows] == ["花子", "ゆき", "Ken", "太郎"]
    assert (
        by_name["ゆき"].title_daifugo,
        by_name["ゆき"].title_daihinmin,
        by_name["ゆき"].miyako_ochi,
    ) == (1, 1, 1)
    assert by_name["花子"].title_fugo == 1


@pytest.mark.django_db
def test_deleted_deal_leaves_standings(club):
    history = club_with_history(club)
    deal = history["october"].deals.get()
    deal_delete(deal=deal)
    result = standings(club=club, game="napoleon", period=Period.of(2026, 10), visibility=ALL(club))
    assert result.rows == []


@pytest.mark.django_db
def test_standings_is_one_query(club, django_assert_num_queries):
    club_with_history(club)
    with django_assert_num_queries(1):
        standings(club=club, game="napoleon", period=Period("all"), visibility=ALL(club))


def test_period_navigation():
    assert Period.of(2026, 1).previous() == Period.of(2025, 12)
    assert Period.of(2026, 12).next() == Period.of(2027, 1)
    assert Period.of(2026).next().key == "2027"
    assert Period("all").previous() is None
    assert Period.parse("2026-03").key == "2026-03"
    with pytest.raises(ValueError):
        Period.parse("2026-13")
    with pytest.raises(ValueError):
        Period.parse("march")


@pytest.mark.django_db
def test_player_stats_by_bid_trump_and_months(club):
    history = club_with_history(club)
    taro, watanabe = history["players"][:2]
    stats = player_stats(player=taro, visibility=ALL(club))
    assert [(m.month, m.points, m.cumulative) for m in stats.months["napoleon"]] == [
        ("2026-10", -1 - 1, -2),
        ("2026-11", 2, 0),
    ]
    assert [(b.label, b.deals, b.wins) for b in stats.by_bid] == [("13", 2, 1)]
    assert [(b.label, b.deals, b.wins) for b in stats.by_trump] == [("♠", 2, 1)]
    solo = player_stats(player=watanabe, visibility=ALL(club))
    assert [(b.label, b.deals, b.wins, b.solo_deals) for b in solo.by_bid] == [("14", 1, 0, 1)]
    assert stats.totals["daifugo"]["title_hinmin"] == 2


@pytest.mark.django_db
def test_club_home_leaders_and_sessions(club):
    club_with_history(club)
    home = club_home(
        club=club, reader=AnonymousUser(), visibility=ALL(club), today=datetime.date(2026, 11, 23)
    )
    assert [r.name for r in home.leaders["napoleon"]] == ["Ken", "太郎", "ゆき"]
    assert [s.date.day for s in home.sessions] == [8, 7, 3]
    assert [s.deal_count for s in home.sessions] == [2, 3, 1]
    assert home.tournaments == []
