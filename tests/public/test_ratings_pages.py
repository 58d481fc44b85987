"""The ratings page, its explanation, the player page's rating chart, and rating_eval."""

import io
import json
import random
import re

import pytest
from django.core.management import call_command
from django.template.defaultfilters import date as date_filter
from django.template.defaultfilters import floatformat
from django.urls import reverse
from django.utils import translation
from django.utils.formats import get_format
from hypothesis import example, given
from hypothesis import strategies as st

from tests import factories
from tests.public.helpers import shared
from tests.selectors.data import club_with_history, napoleon
from tournaments.models import RatingState
from tournaments.tables.standings import one_decimal

pytestmark = pytest.mark.django_db


def url(name, club, *args):
    return reverse(name, args=[club.slug, *args])


@pytest.fixture
def rated(public_club):
    """The small history plus twelve more November deals; a newcomer sits in three of them
    (below the minimum of ten deals) in place of 花子."""
    history = club_with_history(public_club)
    taro, watanabe, ken, yuki, hanako = history["players"]
    newcomer = factories.PlayerFactory(club=public_club, name="新人")
    rng = random.Random(2)
    session = history["november"]
    for i in range(12):
        seated = [taro, watanabe, ken, yuki, newcomer if i < 3 else hanako]
        nap, adj = rng.sample(seated, 2)
        napoleon(session, seated, napoleon=nap, adjutant=adj, honours=rng.randint(8, 18))
    history["newcomer"] = newcomer
    return history


def test_ratings_page_shows_headline_uncertainty_and_as_of(client, public_club, rated, english):
    response = client.get(url("ratings", public_club, "napoleon"))
    assert response.status_code == 200
    state = RatingState.objects.get(club=public_club, game="napoleon")
    assert state.deals == 16
    body = response.content.decode()
    assert f"As of deal 16 (played {state.last_date:%Y-%m-%d})" in body
    assert "computed" in body
    assert "±" in body and ">Provisional</span>" in body
    table = shared(response)["table"]
    rows = list(table.data)
    assert [r.score for r in rows] == sorted((r.score for r in rows), reverse=True)
    assert all(r.deals >= 10 for r in rows)
    assert shared(response)["page"].hidden == 1
    assert "新人" not in body
    assert reverse("ratings_about", args=[public_club.slug]) in body


def test_a_toggle_shows_players_below_the_minimum(client, public_club, rated):
    response = client.get(url("ratings", public_club, "napoleon") + "?all=1")
    assert shared(response)["page"].hidden == 0
    assert len(shared(response)["page"].rows) == 6
    assert "新人" in response.content.decode()


@pytest.mark.parametrize("language", ["ja", "en"])
def test_each_row_writes_its_numbers_and_day_as_the_filters_do(
    client, public_club, rated, language
):
    response = client.get(
        url("ratings", public_club, "napoleon") + "?all=1", HTTP_ACCEPT_LANGUAGE=language
    )
    body = response.content.decode()
    rows = re.findall(r"<tr>(.*?)</tr>", body[body.index("<tbody>") : body.index("</tbody>")])
    table_rows = list(shared(response)["table"].data)
    assert len(rows) == len(table_rows) == 6
    with translation.override(language):
        for html, row in zip(rows, table_rows, strict=True):
            cells = re.findall(r"<td[^>]*>(.*?)</td>", html)
            assert cells[2:] == [
                floatformat(row.score, 1), "±" + floatformat(row.sigma, 1),
                floatformat(row.mu, 1), str(row.deals), date_filter(row.last_played, "Y-m-d"),
            ]  # fmt: skip


@pytest.mark.django_db(False)
@given(st.floats() | st.floats(-100, 100).map(lambda x: round(x, 2)))
@example(0.25)
@example(-0.25)
@example(-0.04)
@example(2.675)
@example(-0.0)
@example(99.95)
@example(1e-150)
@example(9.99e-151)
@example(1.2345678901234567e-168)
@example(1e15)
@example(-999999999999999.9)
@example(float("nan"))
@example(float("-inf"))
def test_one_decimal_writes_what_floatformat_1_writes(value):
    for language in ("ja", "en"):
        with translation.override(language):
            assert one_decimal(value, get_format("DECIMAL_SEPARATOR")) == floatformat(value, 1)


def test_ratings_page_in_japanese(client, public_club, rated):
    body = client.get(url("ratings", public_club, "napoleon") + "?all=1").content.decode()
    assert "暫定" in body
    assert "第16局" in body


def test_ratings_page_reads_stored_rows_only(
    client, public_club, rated, django_assert_max_num_queries
):
    with django_assert_max_num_queries(8):
        assert client.get(url("ratings", public_club, "daifugo")).status_code == 200


def test_unknown_game_is_404_and_private_club_hidden(client, club, public_club):
    assert client.get(url("ratings", public_club, "mahjong")).status_code == 404
    assert client.get(url("ratings", club, "napoleon")).status_code == 404
    assert client.get(url("ratings_about", club)).status_code == 404


def test_explanation_page_in_both_languages(client, public_club, english):
    body = client.get(url("ratings_about", public_club)).content.decode()
    assert "μ − 3σ" in body and "handicap" in body


def test_explanation_page_in_plain_japanese(client, public_club):
    body = client.get(url("ratings_about", public_club)).content.decode()
    assert "控えめな実力" in body and "独り立ち" in body and "上がった順" in body


def test_player_page_has_a_rating_chart(client, public_club, rated):
    taro = rated["players"][0]
    response = client.get(url("player_detail", public_club, taro.id))
    assert response.status_code == 200
    charts = shared(response)["rating_charts"]
    assert len(charts) == 2  # Daifugō and Napoleon
    assert all("<svg" in chart.narrow and "<svg" in chart.wide for *_, chart in charts)


def test_editing_a_deal_updates_the_page_date(client, public_club, rated):
    from tournaments.services.deals import deal_delete

    before = RatingState.objects.get(club=public_club, game="napoleon")
    deal = rated["october"].deals.first()
    deal_delete(deal=deal)
    after = RatingState.objects.get(club=public_club, game="napoleon")
    assert after.deals == before.deals - 1
    assert after.computed_at >= before.computed_at
    body = client.get(url("ratings", public_club, "napoleon")).content.decode()
    assert "第15局" in body


def test_rating_eval_prints_the_issue_keys(public_club, rated):
    for game in ("napoleon", "daifugo"):
        out = io.StringIO()
        call_command("rating_eval", club=public_club.slug, game=game, json=True, stdout=out)
        result = json.loads(out.getvalue())
        for key in ("deals", "log_loss", "baseline_log_loss", "accuracy", "baseline_accuracy",
                    "mu", "ratings"):  # fmt: skip
            assert key in result
        assert result["deals"] == (16 if game == "napoleon" else 2)
        assert "太郎" in result["mu"]
        assert result["ratings"]["太郎"] < result["mu"]["太郎"]


def test_rating_eval_on_the_synthetic_club():
    out = io.StringIO()
    call_command("rating_eval", synthetic=300, game="napoleon", json=True, stdout=out)
    result = json.loads(out.getvalue())
    assert result["deals"] == 300
    assert result["spearman_mu"] > result["spearman_totals"]
