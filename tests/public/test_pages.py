import csv
import io
import re

import pytest
from django.core.cache import cache
from django.urls import reverse

from tests import factories
from tests.public.helpers import shared
from tests.selectors.data import club_with_history
from tournaments.management.commands import export_standings  # noqa: F401 (import check)


@pytest.fixture
def history(public_club):
    return club_with_history(public_club)


def url(name, club, *args):
    return reverse(name, args=[club.slug, *args])


@pytest.mark.django_db
def test_public_club_pages_open_to_anyone(client, public_club, history):
    taro = history["players"][0]
    for target in (
        url("club_home", public_club),
        url("standings_all", public_club, "napoleon"),
        url("standings_season", public_club, "daifugo", 2026),
        url("standings_month", public_club, "napoleon", 2026, 11),
        url("player_detail", public_club, taro.id),
    ):
        response = client.get(target)
        assert response.status_code == 200, target


@pytest.mark.django_db
def test_private_club_is_404_for_outsiders_and_open_to_members(client, club, users):
    history = club_with_history(club)
    session = history["november"]
    targets = [
        url("club_home", club),
        url("standings_all", club, "napoleon"),
        url("standings_month", club, "napoleon", 2026, 11) + "?format=csv",
        url("standings_month", club, "napoleon", 2026, 11) + "?format=pdf",
        url("player_detail", club, history["players"][0].id),
        url("session_sheet_pdf", club, session.id),
        url("session_blank_pdf", club, session.id),
    ]
    for target in targets:
        assert client.get(target).status_code == 404, target
    client.force_login(users["outsider"])
    for target in targets:
        assert client.get(target).status_code == 404, target
    client.force_login(users["member"])
    for target in targets:
        assert client.get(target).status_code == 200, target


@pytest.mark.django_db
def test_month_standings_page(client, public_club, history):
    response = client.get(url("standings_month", public_club, "napoleon", 2026, 11))
    html = response.content.decode()
    assert "渡邊" in html and "<bdi>Ken</bdi>" in html
    # tiebreak order shown; previous/next months linked
    assert "average per deal" in html or "平均" in html
    assert url("standings_month", public_club, "napoleon", 2026, 10) in html
    assert url("standings_month", public_club, "napoleon", 2026, 12) in html
    rows = shared(response)["standings"].rows
    assert [(r.rank, r.name) for r in rows][:2] == [(1, "Ken"), (1, "太郎")]


@pytest.mark.django_db
def test_min_filter_blanks_rates(client, public_club, history):
    response = client.get(url("standings_all", public_club, "napoleon") + "?min=10")
    assert shared(response)["standings"].min_deals == 10
    assert all(r.win_rate is None for r in shared(response)["standings"].rows)
    response = client.get(url("standings_all", public_club, "napoleon") + "?min=x")
    assert shared(response)["standings"].min_deals == 0


@pytest.mark.django_db
def test_sorting_reorders_rows_but_keeps_rank(client, public_club, history):
    response = client.get(url("standings_all", public_club, "napoleon") + "?sort=name")
    table = shared(response)["table"]
    names = [row.record.name for row in table.rows]
    assert names == sorted(names)
    ranks = {row.record.name: row.record.rank for row in table.rows}
    assert ranks["ゆき"] == 1


@pytest.mark.django_db
def test_csv_download_matches_page(client, public_club, history):
    response = client.get(url("standings_all", public_club, "napoleon") + "?format=csv")
    assert response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"]
    # The page is Japanese, so the file's header is too (the command keeps the column keys).
    rows = list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert list(rows[0])[:5] == ["順位", "プレイヤー", "得点", "ディール", "平均"]
    assert [(r["プレイヤー"], int(r["得点"])) for r in rows] == [
        ("ゆき", 2),
        ("Ken", 1),
        ("太郎", 0),
        ("花子", 0),
        ("渡邊", -3),
    ]
    assert rows[2]["ナポレオン勝利"] == "1"


@pytest.mark.django_db
def test_pdf_download(client, public_club, history):
    response = client.get(url("standings_month", public_club, "daifugo", 2026, 11) + "?format=pdf")
    assert response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF")


@pytest.mark.django_db
def test_bad_game_or_month_is_404(client, public_club):
    assert client.get(f"/c/{public_club.slug}/standings/poker/").status_code == 404
    assert client.get(f"/c/{public_club.slug}/standings/napoleon/2026/13/").status_code == 404
    assert client.get("/c/no-such-club/").status_code == 404


@pytest.mark.django_db
def test_player_page_has_charts_and_bid_record(client, public_club, history):
    taro = history["players"][0]
    response = client.get(url("player_detail", public_club, taro.id))
    html = response.content.decode()
    # points: cumulative, monthly; ratings: one per game; each drawn for a phone and wider
    assert html.count("<svg") == 8
    assert "2026-10" in html and "2026-11" in html
    stats = shared(response)["stats"]
    assert [(b.label, b.deals, b.wins) for b in stats.by_bid] == [("13", 2, 1)]


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["ja", "en"])
def test_player_page_tables_write_each_row(client, public_club, history, language):
    taro = history["players"][0]
    response = client.get(url("player_detail", public_club, taro.id), HTTP_ACCEPT_LANGUAGE=language)
    html = response.content.decode()
    stats = shared(response)["stats"]

    def rows(after: str) -> list[list[str]]:
        body = html[html.index("<tbody>", html.index(after)) :]
        body = body[: body.index("</tbody>")]
        return [
            re.findall(r"<td[^>]*>(.*?)</td>", tr) for tr in re.findall(r"<tr>(.*?)</tr>", body)
        ]

    for anchor, records in (('id="by-bid"', stats.by_bid), ('id="by-trump"', stats.by_trump)):
        assert rows(anchor) == [
            [r.label, str(r.deals), str(r.wins), str(r.lost), f"{r.win_rate}%", str(r.points)]
            for r in records
        ]
    assert rows('id="by-month"') == [
        [m["month"], *("–" if m[k] is None else str(m[k]) for k in
                       ("napoleon_points", "napoleon_deals", "daifugo_points", "daifugo_deals"))]
        for m in stats.month_table
    ]  # fmt: skip
    assert any(None in m.values() for m in stats.month_table)  # a game not played that month
    facts = re.findall(r"<dt>(.*?)</dt><dd>(.*?)</dd>", html)
    assert [value for _dt, value in facts] == [
        value for game in ("napoleon", "daifugo") for _f, value in stats.facts(game)
    ]


@pytest.mark.django_db
def test_player_of_another_club_is_404(client, public_club, history):
    other = factories.PlayerFactory(club=factories.ClubFactory(is_public=True))
    assert client.get(url("player_detail", public_club, other.id)).status_code == 404


@pytest.mark.django_db
def test_hostile_names_are_escaped(client, public_club, history):
    from tournaments.services.deals import deal_record

    evil = factories.PlayerFactory(club=public_club, name="<script>alert(1)</script>")
    rtl = factories.PlayerFactory(club=public_club, name="\u05e9\u05dc\u05d5\u05dd $x$ 🃏")
    others = history["players"][:3]
    seats = [evil, rtl, *others]
    deal_record(
        session=history["november"],
        data={
            "seats": [p.id for p in seats],
            "napoleon": evil.id,
            "bid": 13,
            "trump": "S",
            "called": "SA",
            "adjutant": rtl.id,
            "honours": 15,
            "discarded": 0,
        },
    )
    for target in (
        url("standings_month", public_club, "napoleon", 2026, 11),
        url("player_detail", public_club, evil.id),
        url("club_home", public_club),
        url("standings_all", public_club, "napoleon"),
        url("ratings", public_club, "napoleon") + "?all=1",
        url("session_detail", public_club, history["november"].id),
    ):
        html = client.get(target).content.decode()
        assert "<script>alert(1)</script>" not in html
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html, target
    html = client.get(url("standings_month", public_club, "napoleon", 2026, 11)).content.decode()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "<bdi>\u05e9\u05dc\u05d5\u05dd $x$ 🃏</bdi>" in html


@pytest.mark.django_db
def test_page_query_counts_do_not_grow_with_history(
    client, public_club, history, django_assert_max_num_queries
):
    target = url("standings_all", public_club, "napoleon")
    client.get(target)
    # Not logged in: one query finds the club's data version, the page comes from the cache.
    with django_assert_max_num_queries(1):
        client.get(target)
    cache.clear()
    # Cold pages: each also reads the club's data version for its cache key (one query) and
    # which of its tournaments hide deals from this reader (one query: none here, so no
    # score line is read); the player page also reads the ratings, which keep their charts'
    # points (one query whatever the history).
    with django_assert_max_num_queries(5):
        client.get(target)
    with django_assert_max_num_queries(6):
        client.get(url("player_detail", public_club, history["players"][0].id))
    with django_assert_max_num_queries(8):
        client.get(url("club_home", public_club))
