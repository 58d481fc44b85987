"""Share cards (views/cards.py): the PNG of a session's result and of a month's standings, the
``og:`` tags that name them, who may fetch them and how they are kept by the club's version."""

from __future__ import annotations

import datetime
import io
import re
from html import unescape

import pytest
from django.conf import settings as django_settings
from django.contrib.auth.models import AnonymousUser
from django.test import Client
from django.urls import reverse
from PIL import Image

from tests import factories
from tests.hardening.helpers import napoleon_data
from tournaments.reader import Reader
from tournaments.reports import cards as drawing
from tournaments.selectors.cards import CardLine, ShareCard
from tournaments.selectors.sessions import session_detail
from tournaments.selectors.standings import Period, standings
from tournaments.selectors.visibility import deal_visibility
from tournaments.services import events as ev
from tournaments.services.deals import deal_record
from tournaments.views import cards as card_views

DAY = datetime.date(2026, 11, 21)
HOSTILE = '<script>alert("x")</script>' + "とても長い名前の選手" * 3 + "ー" * 7  # 64: the most


@pytest.fixture
def drawn(monkeypatch):
    """Every card the views draw, as the values handed to the drawing function."""
    seen: list[ShareCard] = []

    def spy(card):
        seen.append(card)
        return drawing.card_png(card)

    monkeypatch.setattr(card_views, "card_png", spy)
    return seen


@pytest.fixture
def setup(db):
    def make(*, is_public: bool, names=("太郎", "花子", "Ken", "ゆき", "Sam")):
        club = factories.ClubFactory(is_public=is_public, name="ナポレオン部")
        member = factories.UserFactory(username=f"member-{club.slug}")
        factories.MembershipFactory(club=club, user=member, role="member")
        wiki = factories.ClubRuleSetFactory(club=club, code="napoleon-wiki", preset="napoleon-wiki")
        ids = [factories.PlayerFactory(club=club, name=n).pk for n in names]
        session = factories.session(club=club, ruleset=wiki, date=DAY)
        for n in range(3):
            deal_record(session=session, data=napoleon_data(ids, n=n))
        return club, member, wiki, ids, session

    return make


def meta(response) -> dict[str, str]:
    html = response.content.decode()
    found = re.findall(r'<meta (?:property|name)="((?:og|twitter):[^"]+)" content="([^"]*)"', html)
    return {name: unescape(value) for name, value in found}


def local(url: str) -> str:
    assert url.startswith(django_settings.SITE_URL)
    return url[len(django_settings.SITE_URL) :]


def png_size(response) -> tuple[int, int]:
    assert response["Content-Type"] == "image/png"
    image = Image.open(io.BytesIO(response.content))
    assert image.format == "PNG"
    return image.size


def month_url(club, name="standings_month"):
    return reverse(name, args=[club.slug, "napoleon", DAY.year, f"{DAY.month:02d}"])


def test_a_public_session_page_names_its_card_and_the_card_shows_the_top_player(setup, drawn):
    club, _member, _wiki, _ids, session = setup(is_public=True)
    page = Client().get(reverse("session_detail", args=[club.slug, session.pk]))
    tags = meta(page)
    assert tags["twitter:card"] == "summary_large_image"
    assert tags["og:image:width"] == "1200" and tags["og:image:height"] == "630"
    assert tags["og:url"].endswith(reverse("session_detail", args=[club.slug, session.pk]))
    detail = session_detail(session)
    top = detail.totals[0]
    assert tags["og:description"].startswith(f"1. {top.name} {top.points:+d}")
    assert "3ディール" in tags["og:description"]  # Japanese first
    assert "2026-11-21" in tags["og:title"] and club.name in tags["og:title"]

    image = Client().get(local(tags["og:image"]))
    assert image.status_code == 200
    assert png_size(image) == (1200, 630)
    assert image["Cache-Control"] == "public, max-age=86400"
    card = drawn[-1]
    assert card.club == club.name
    assert card.lines[0] == CardLine(top.rank, top.name, top.points)
    assert [line.name for line in card.lines] == [r.name for r in detail.totals[:5]]
    assert card.footer.startswith("3ディール")

    again = Client().get(local(tags["og:image"]), HTTP_IF_NONE_MATCH=image["ETag"])
    assert again.status_code == 304
    assert len(drawn) == 1  # kept: drawn once for this version


def test_a_month_standings_page_names_its_card_with_the_same_top_rows(setup, drawn):
    club, *_ = setup(is_public=True)
    tags = meta(Client().get(month_url(club)))
    assert tags["twitter:card"] == "summary_large_image"
    image = Client().get(local(tags["og:image"]))
    assert png_size(image) == (1200, 630)
    rows = standings(
        club=club, game="napoleon", period=Period.of(DAY.year, DAY.month),
        visibility=deal_visibility(club=club, reader=Reader(user=AnonymousUser())),
    ).rows  # fmt: skip
    assert [(c.rank, c.name, c.points) for c in drawn[-1].lines] == [
        (r.rank, r.name, r.points) for r in rows[:5]
    ]
    assert "ナポレオン" in drawn[-1].title and "2026-11" in drawn[-1].title
    # the season and all-time pages name no card: a month's is the one shared
    all_time = Client().get(reverse("standings_all", args=[club.slug, "napoleon"]))
    assert all_time.status_code == 200 and "og:image" not in meta(all_time)


def test_english_is_drawn_when_the_address_asks_for_it(setup, drawn):
    club, _m, _w, _i, session = setup(is_public=True)
    url = reverse("session_card", args=[club.slug, session.pk])
    assert Client().get(url, {"lang": "en"}).status_code == 200
    assert drawn[-1].footer.startswith("3 deals")
    assert Client().get(url, {"lang": "ja"}).status_code == 200
    assert drawn[-1].footer.startswith("3ディール")


def test_a_private_club_names_no_card_and_its_cards_404_to_outsiders(setup, drawn):
    club, member, _wiki, _ids, session = setup(is_public=False)
    urls = [
        reverse("session_card", args=[club.slug, session.pk]),
        month_url(club, "standings_card"),
    ]
    for who in (None, factories.UserFactory(username="passer-by")):
        client = Client()
        if who:
            client.force_login(who)
        for url in urls:
            assert client.get(url).status_code == 404
    assert drawn == []
    client = Client()
    client.force_login(member)
    for page in (reverse("session_detail", args=[club.slug, session.pk]), month_url(club)):
        response = client.get(page)
        assert response.status_code == 200
        assert "og:image" not in response.content.decode()
    for url in urls:  # its members may fetch them, never through a shared cache
        response = client.get(url)
        assert png_size(response) == (1200, 630)
        assert "private" in response["Cache-Control"]


def test_a_private_tournament_table_has_no_card_for_visitors(setup, drawn):
    club, member, wiki, *_ = setup(is_public=True)
    t = factories.tournament(club=club, ruleset=wiki, entrants=5, is_public=False)
    table = factories.started_round(t).tables.get()
    page = reverse("session_detail", args=[club.slug, table.session_id])
    card = reverse("session_card", args=[club.slug, table.session_id])
    assert Client().get(page).status_code == 404
    assert Client().get(card).status_code == 404
    client = Client()
    client.force_login(member)
    assert client.get(page).status_code == 200
    assert "og:image" not in client.get(page).content.decode()  # logged in: no tags written
    assert client.get(card).status_code == 200
    assert "private" in client.get(card)["Cache-Control"]


def test_a_new_deal_names_a_new_card_address_with_the_new_result(setup, drawn):
    club, _member, _wiki, ids, session = setup(is_public=True)
    page = reverse("session_detail", args=[club.slug, session.pk])
    before = meta(Client().get(page))["og:image"]
    Client().get(local(before))
    deal_record(session=session, data=napoleon_data(ids, n=3))
    after = meta(Client().get(page))["og:image"]
    assert after != before
    club.refresh_from_db()
    assert f"v={club.data_version}" in after
    assert Client().get(local(after)).status_code == 200
    assert drawn[-1].footer.startswith("4ディール")
    old = Client().get(local(before))  # an older address shows the current card, briefly kept
    assert old.status_code == 200 and old["Cache-Control"] == "public, max-age=300"


def test_a_hostile_long_name_is_drawn_cut_and_written_escaped(setup, drawn):
    club, _m, _w, _i, session = setup(is_public=True, names=(HOSTILE, "花子", "Ken", "ゆき", "Sam"))
    page = Client().get(reverse("session_detail", args=[club.slug, session.pk]))
    assert "<script>alert" not in page.content.decode()
    image = Client().get(local(meta(page)["og:image"]))
    assert png_size(image) == (1200, 630)
    assert HOSTILE in [line.name for line in drawn[-1].lines]
    font = drawing._font(42)
    cut = drawing.fit(HOSTILE[:8] + "\n\x00\u202e" + HOSTILE[8:], font, 600)
    assert cut.endswith("…") and font.getlength(cut) <= 600
    assert not {"\n", "\x00", "\u202e"} & set(cut)  # control characters are not drawn


def test_a_card_is_drawn_when_the_cache_is_away(setup, drawn, settings):
    from config.cache import cache_back
    from config.settings.base import redis_cache

    club, _m, _w, _i, session = setup(is_public=True)
    cache_back()
    settings.CACHES = {"default": redis_cache("redis://127.0.0.1:9/0")}  # nothing listens
    try:
        page = Client().get(reverse("session_detail", args=[club.slug, session.pk]))
        assert page.status_code == 200
        image = Client().get(local(meta(page)["og:image"]))
        assert png_size(image) == (1200, 630)
    finally:
        cache_back()


def test_the_card_font_draws_japanese():
    """The PDFs' font is found and has the glyphs (a missing one would be drawn as a box)."""
    path = drawing.font_path()
    assert path is not None, "install fonts-ipaexfont-gothic (scripts/lib.sh)"
    font = drawing._font(42)
    from fontTools.ttLib import TTFont  # noqa: PLC0415 - WeasyPrint's own dependency

    cmap = TTFont(str(path), lazy=True).getBestCmap()
    assert all(ord(c) in cmap for c in "順位表ナポレオン大富豪太郎花子卓")
    assert font.getlength("太郎") > 0


def test_a_card_reads_in_one_line_as_the_pages_print_points():
    card = ShareCard(
        club="ナポレオン部", title="t", subtitle="",
        lines=(CardLine(1, "太郎", 3), CardLine(2, "花子", 0), CardLine(3, "Ken", -3)),
        footer="3ディール",
    )  # fmt: skip
    assert card.description == "1. 太郎 +3 · 2. 花子 0 · 3. Ken -3 · 3ディール"
    empty = ShareCard(club="c", title="t", subtitle="", lines=(), footer="")
    assert empty.description == ""
    assert Image.open(io.BytesIO(drawing.card_png(empty))).size == (1200, 630)


def test_a_month_card_kept_for_a_member_is_never_shown_to_a_visitor(setup, drawn):
    club, member, wiki, *_ = setup(is_public=True)
    t = factories.tournament(club=club, ruleset=wiki, entrants=5, is_public=False)
    table = factories.started_round(t).tables.get()
    ev.table_deal_record(table=table, data=napoleon_data(table.seats), staff=True)
    url = month_url(club, "standings_card")
    client = Client()
    client.force_login(member)
    assert client.get(url).status_code == 200  # kept first, under the member's view
    assert any(line.name.startswith("選手") for line in drawn[-1].lines)
    visitor = Client().get(url)
    assert png_size(visitor) == (1200, 630)
    assert len(drawn) == 2  # drawn again for the visitor's view, not taken from the member's
    assert not any(line.name.startswith("選手") for line in drawn[-1].lines)
    description = meta(Client().get(month_url(club)))["og:description"]
    assert "選手" not in description
