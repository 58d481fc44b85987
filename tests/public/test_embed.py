"""The standings on another site (views/embeds.py): a public club's bare standings page, the
frame rules it sends (CSP frame-ancestors from the owner's list, no X-Frame-Options DENY) and
the owner's list checked in the club's settings form."""

from __future__ import annotations

import datetime
import re

import pytest
from django.test import Client
from django.urls import reverse

from tests import factories
from tests.hardening.helpers import napoleon_data
from tournaments.services import events as ev
from tournaments.services.clubs import club_update
from tournaments.services.deals import deal_record

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 11, 21)
ROW = re.compile(r"<tr>(.*?)</tr>", re.S)
CELL = re.compile(r"<td[^>]*>(.*?)</td>", re.S)
TAG = re.compile(r"<[^>]+>")


def policy(response) -> dict[str, list[str]]:
    out = {}
    for part in response["Content-Security-Policy"].split(";"):
        words = part.split()
        if words:
            out[words[0]] = words[1:]
    return out


def body_rows(response) -> list[list[str]]:
    """The standings table's body as the cells' texts, row by row."""
    html = response.content.decode()
    tbody = html[html.index("<tbody>") : html.index("</tbody>")]
    return [[TAG.sub("", c).strip() for c in CELL.findall(r)] for r in ROW.findall(tbody)]


@pytest.fixture
def club(db):
    club = factories.ClubFactory(is_public=True, slug="hiroba", name="広場の会")
    owner = factories.UserFactory(username="owner-hiroba")
    factories.MembershipFactory(club=club, user=owner, role="owner")
    wiki = factories.ClubRuleSetFactory(club=club, code="napoleon-wiki", preset="napoleon-wiki")
    names = ["太郎", "花子", "Ken", "ゆき", "Sam"]
    ids = [factories.PlayerFactory(club=club, name=n).pk for n in names]
    session = factories.session(club=club, ruleset=wiki, date=DAY)
    for n in range(4):
        deal_record(session=session, data=napoleon_data(ids, n=n))
    # a private tournament's deals: hidden from visitors, on the page as in the frame
    t = factories.tournament(club=club, ruleset=wiki, entrants=5, is_public=False)
    table = factories.started_round(t).tables.get()
    ev.table_deal_record(table=table, data=napoleon_data(table.seats), staff=True)
    club.owner = owner
    return club


def embed_url(club, game="napoleon"):
    return reverse("embed_standings_all", args=[club.slug, game])


def save_settings(club, origins: str):
    client = Client()
    client.force_login(club.owner)
    return client.post(
        reverse("club_settings", args=[club.slug]),
        {"name": club.name, "is_public": "on", "embed_origins": origins},
        HTTP_ACCEPT_LANGUAGE="ja",
    )


def test_with_no_site_listed_only_efuda_may_frame_it(club):
    response = Client().get(embed_url(club))
    assert response.status_code == 200
    rules = policy(response)
    assert rules["frame-ancestors"] == ["'self'"]
    assert response["X-Frame-Options"] == "SAMEORIGIN"
    assert rules["script-src"] == ["'self'"] and rules["style-src"] == ["'self'"]  # unchanged
    # every other page keeps the site's rule
    page = Client().get(reverse("standings_all", args=[club.slug, "napoleon"]))
    assert policy(page)["frame-ancestors"] == ["'none'"]
    assert page["X-Frame-Options"] == "DENY"


def test_two_listed_sites_and_nothing_else_may_frame_it(club):
    response = save_settings(club, " https://Blog.example.org/\n\nhttps://club.example.jp:8443\n")
    assert response.status_code == 302
    club.refresh_from_db()
    assert club.embed_origins == "https://blog.example.org\nhttps://club.example.jp:8443"
    for game in ("napoleon", "daifugo"):
        framed = Client().get(embed_url(club, game))
        assert policy(framed)["frame-ancestors"] == [
            "'self'", "https://blog.example.org", "https://club.example.jp:8443",
        ]  # fmt: skip
        assert "X-Frame-Options" not in framed
    page = Client().get(reverse("standings_all", args=[club.slug, "napoleon"]))
    assert policy(page)["frame-ancestors"] == ["'none'"] and page["X-Frame-Options"] == "DENY"


def test_a_line_that_is_not_a_site_is_refused_naming_it(club):
    save_settings(club, "https://blog.example.org")
    response = save_settings(club, "https://ok.example.org\nhttp://plain.example.org/path")
    assert response.status_code == 400
    text = response.content.decode()
    assert "2 行目" in text and "http://plain.example.org/path" in text
    club.refresh_from_db()
    assert club.embed_origins == "https://blog.example.org"  # unchanged
    client = Client()
    client.force_login(club.owner)
    english = client.post(
        reverse("club_settings", args=[club.slug]),
        {"name": club.name, "is_public": "on", "embed_origins": "https://a.example\n*.b.example"},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert "Line 2 (“*.b.example”) is not a site" in english.content.decode()


def test_a_private_club_has_no_embed_even_for_its_members(club):
    club_update(club=club, name=club.name, is_public=False)
    assert Client().get(embed_url(club)).status_code == 404
    client = Client()
    client.force_login(club.owner)
    assert client.get(embed_url(club)).status_code == 404
    assert client.get(embed_url(club) + "?format=csv").status_code == 404
    assert "<iframe" not in client.get(reverse("club_manage", args=[club.slug])).content.decode()


def test_the_rows_are_the_standings_pages(club):
    for game, path in (("napoleon", ()), ("napoleon", (2026,)), ("napoleon", (2026, "11"))):
        suffix = {0: "all", 1: "season", 2: "month"}[len(path)]
        page = Client().get(reverse(f"standings_{suffix}", args=[club.slug, game, *path]))
        framed = Client().get(reverse(f"embed_standings_{suffix}", args=[club.slug, game, *path]))
        rows = body_rows(page)
        assert len(rows) == 5 and rows == body_rows(framed)
    # a logged-in owner sees the private tournament on the page; the frame shows visitors' rows
    owner = Client()
    owner.force_login(club.owner)
    assert body_rows(owner.get(embed_url(club))) == body_rows(Client().get(embed_url(club)))
    assert body_rows(Client().get(embed_url(club, "daifugo"))) == body_rows(
        Client().get(reverse("standings_all", args=[club.slug, "daifugo"]))
    )


def test_the_page_is_bare(club):
    response = Client().get(embed_url(club))
    html = response.content.decode()
    assert "<form" not in html and "csrfmiddlewaretoken" not in html
    assert "topbar" not in html and reverse("login") not in html
    assert "css/embed.css" in html and "css/efuda.css" not in html and "<script" not in html
    assert '<base target="_blank">' in html
    assert "Set-Cookie" not in str(response.headers) and "public" in response["Cache-Control"]
    assert Client().get(embed_url(club, "chess")).status_code == 404


def test_the_owner_gets_the_snippet_to_paste(club):
    client = Client()
    client.force_login(club.owner)
    html = client.get(reverse("club_manage", args=[club.slug])).content.decode()
    assert "&lt;iframe src=&quot;http://testserver" + embed_url(club) in html
