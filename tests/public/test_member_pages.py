"""Member pages that explain themselves: the ratings page says one coherent thing in every state,
"provisional" follows the ± the page shows, the player page offers the whole history, and the
charts are drawn for a phone (text ≥ 11 px at 360 px), with no date written twice and the legend
in a row of its own."""

import datetime
import re
from types import SimpleNamespace

import pytest
from django.urls import reverse

from tests import club_versions, factories
from tests.public.helpers import shared
from tests.selectors.data import napoleon
from tournaments import charts
from tournaments.models import Rating
from tournaments.selectors.players import MONTHS_SHOWN, player_stats
from tournaments.selectors.ratings import PROVISIONAL_SIGMA, ratings_page
from tournaments.selectors.visibility import deal_visibility

pytestmark = pytest.mark.django_db


def url(name, club, *args):
    return reverse(name, args=[club.slug, *args])


def _five(club, names=("太郎", "花子", "Ken", "ゆき", "Sam")):
    return [factories.PlayerFactory(club=club, name=n) for n in names]


def _session(club, day, table="A"):
    rules = factories.ClubRuleSetFactory(club=club, code="napoleon-wiki", preset="napoleon-wiki")
    return factories.session(club=club, ruleset=rules, date=day, table=table)


def test_the_ratings_page_says_one_thing_in_every_state(client, public_club, english):
    page = client.get(url("ratings", public_club, "napoleon")).content.decode()
    assert "No rated deals yet" not in page or "As of deal" not in page
    assert "Ratings appear once the club has recorded deals" in page and "As of deal" not in page
    # Three deals: rated, but every player has fewer than ten deals.
    seated = _five(public_club)
    session = _session(public_club, datetime.date(2026, 11, 20))
    for n in range(3):
        napoleon(session, seated, napoleon=seated[n], adjutant=seated[n + 1], honours=14)
    page = client.get(url("ratings", public_club, "napoleon")).content.decode()
    assert "As of deal 3" in page
    assert "All 5 players rated so far have fewer than 10 deals" in page
    assert "No rated deals yet" not in page  # the old page said both
    shown = client.get(url("ratings", public_club, "napoleon") + "?all=1").content.decode()
    assert "No rated deals yet" not in shown and "太郎" in shown


def test_provisional_follows_the_uncertainty_the_page_shows(public_club):
    seated = _five(public_club)
    session = _session(public_club, datetime.date(2026, 11, 20))
    napoleon(session, seated, napoleon=seated[0], adjutant=seated[1], honours=14)
    # Two players whose σ the page shows as ±3.5: one just under, one just over.
    with club_versions.unchecked():  # read back by the selector, no page cached
        Rating.objects.filter(player=seated[0]).update(sigma=PROVISIONAL_SIGMA - 0.04)
        Rating.objects.filter(player=seated[1]).update(sigma=PROVISIONAL_SIGMA + 0.04)
        Rating.objects.filter(player=seated[2]).update(sigma=PROVISIONAL_SIGMA + 0.06)
    rows = {r.name: r for r in ratings_page(club=public_club, game="napoleon", show_all=True).rows}
    assert f"{rows['太郎'].sigma:.1f}" == f"{rows['花子'].sigma:.1f}" == "3.5"
    assert rows["太郎"].provisional == rows["花子"].provisional is False
    assert rows["Ken"].provisional is True  # shown ±3.6


def test_the_player_page_offers_every_month(client, public_club, english):
    seated = _five(public_club)
    # Three years of one deal a month, with idle months.
    days = [datetime.date(2023 + m // 12, m % 12 + 1, 10) for m in range(0, 36, 2)]
    for index, day in enumerate(days):
        session = _session(public_club, day, table=f"T{index}")
        napoleon(session, seated, napoleon=seated[0], adjutant=seated[1], honours=14)
    taro = seated[0]
    recent = player_stats(player=taro, visibility=deal_visibility(club=public_club, reader=None))
    assert recent.earlier and recent.since == "2024-01"  # 24 months back from 2025-11
    page = client.get(url("player_detail", public_club, taro.pk)).content.decode()
    assert f"the last {MONTHS_SHOWN} months (since {recent.since})" in page
    assert "?months=all" in page
    everything = client.get(url("player_detail", public_club, taro.pk) + "?months=all")
    stats = shared(everything)["stats"]
    assert not stats.earlier and stats.since == "2023-01"
    assert "2023-01" in everything.content.decode()
    # The cumulative chart of every month starts from the first deal, not from a window's +17.
    assert stats.months["napoleon"][0].cumulative == stats.months["napoleon"][0].points


def _texts(svg: str) -> list[str]:
    return re.findall(r"<text[^>]*>([^<]*)</text>", svg)


def test_charts_are_drawn_for_a_phone_without_repeated_dates_or_legend_over_lines():
    dates = ["2026-11-20"] * 40 + ["2026-11-27"] * 40 + ["2026-12-04"] * 40
    curve = SimpleNamespace(game="napoleon", dates=dates, mu=[25.0 + i / 10 for i in range(120)],
                            score=[i / 10 for i in range(120)], current=None)  # fmt: skip
    drawn = charts.rating_chart(curve)
    narrow = drawn.narrow
    width = int(re.search(r'viewBox="0 0 (\d+) ', narrow).group(1))
    font = int(re.search(r'font-size="(\d+)"', narrow).group(1))
    assert font * 336 / width >= 11  # shown 336 px wide on a 360 px phone
    labels = [t for t in _texts(narrow) if re.match(r"\d{4}-\d{2}-\d{2}$", t)]
    assert labels == ["2026-11-20", "2026-11-27", "2026-12-04"]  # each date once
    # The legend (μ, μ − 3σ) sits above the highest point of any line.
    legend_y = [float(y) for y in re.findall(r'<text x="[\d.]+" y="([\d.]+)" text-anchor="start"',
                                             narrow)]  # fmt: skip
    points = re.findall(r'<polyline points="([^"]+)"', narrow)
    top_of_lines = min(float(p.split(",")[1]) for line in points for p in line.split())
    assert legend_y and max(legend_y) < top_of_lines
    # Many months on a narrow chart: labels never crowd (at least 16 units apart).
    months = charts.month_range("2023-01", "2026-12")
    bars = charts.bar_chart(labels=months, values=[1] * len(months), title="t",
                            width=charts.NARROW)  # fmt: skip
    xs = [float(x) for x in re.findall(r'<text x="([\d.]+)" y="[\d.]+" text-anchor="end" '
                                       r'transform', bars)]  # fmt: skip
    assert len(xs) >= 6 and min(b - a for a, b in zip(xs, xs[1:], strict=False)) >= 16
