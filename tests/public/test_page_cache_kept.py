"""What the visitors' page cache keeps, and for whom (views/page_cache.py ``cached_page``): a
kept page is served with what made it a page (its type, a file's name), only to a visitor who
would have got the same page (the same address, language, fragment or page), and only a page
that answered well; a HEAD is served like a GET, and with the cache switched off every read
renders."""

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests import factories
from tests.selectors.data import club_with_history

pytestmark = pytest.mark.django_db


@pytest.fixture
def history(public_club):
    return club_with_history(public_club)


def _standings(club, **query):
    url = reverse("standings_all", args=[club.slug, "napoleon"])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def test_a_kept_file_keeps_its_type_and_its_name(public_club, history, django_assert_num_queries):
    url = _standings(public_club, format="csv")
    first = Client().get(url)
    assert first.status_code == 200 and first["Content-Type"].startswith("text/csv")
    assert "attachment" in first["Content-Disposition"]
    with django_assert_num_queries(1):  # the club's version: the file comes from the cache
        again = Client().get(url)
    assert again.content == first.content
    assert again["Content-Type"] == first["Content-Type"]
    assert again["Content-Disposition"] == first["Content-Disposition"]


def test_a_head_is_served_from_the_kept_page(public_club, history, django_assert_num_queries):
    url = _standings(public_club)
    assert Client().get(url).status_code == 200
    with django_assert_num_queries(1):
        assert Client().head(url).status_code == 200


def test_each_address_and_language_keeps_its_own_page(public_club, history):
    url = _standings(public_club)
    japanese = Client(HTTP_ACCEPT_LANGUAGE="ja").get(url).content.decode()
    english = Client(HTTP_ACCEPT_LANGUAGE="en").get(url).content.decode()
    assert 'lang="ja"' in japanese and 'lang="en"' in english
    assert 'lang="en"' in Client(HTTP_ACCEPT_LANGUAGE="en").get(url).content.decode()
    few = Client().get(_standings(public_club, min_deals=999)).content
    assert few != Client().get(url).content


def test_a_fragment_and_its_page_are_kept_apart(public_club, history):
    wiki = history["nap_rules"]
    t = factories.tournament(club=public_club, ruleset=wiki, entrants=5, is_public=True)
    factories.started_round(t)
    url = reverse("tournament_standings", args=[t.pk])
    for _ in range(2):  # the second time, both from the cache
        page = Client().get(url).content.decode()
        fragment = Client().get(url, HTTP_HX_REQUEST="true").content.decode()
        assert page.startswith("<!DOCTYPE html>")
        assert fragment.startswith('<div id="ev-standings"')


def test_a_page_that_did_not_answer_well_is_not_kept(public_club, history):
    url = reverse("player_detail", args=[public_club.slug, 999_999])
    for _ in range(2):
        assert Client().get(url).status_code == 404


def test_without_a_cache_time_every_read_renders(public_club, history, settings):
    settings.EFUDA_PAGE_CACHE_SECONDS = 0
    url = _standings(public_club)
    assert Client().get(url).status_code == 200
    with CaptureQueriesContext(connection) as again:
        assert Client().get(url).status_code == 200
    assert len(again.captured_queries) > 1  # rendered anew, not from the cache
