"""Each public page describes itself to search engines and link previews in the reader's
language (base.html's ``description`` block), not with the site's one default sentence."""

import re

import pytest
from django.urls import reverse

from tests.hardening.helpers import build_club

pytestmark = pytest.mark.django_db

DESCRIPTION = re.compile(r'<meta name="description" content="([^"]*)">')


def _description(client, url, language) -> str:
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200, url
    (found,) = DESCRIPTION.findall(response.content.decode())
    return found


def test_every_public_page_has_its_own_description_in_both_languages(client):
    club, players, nap, dai = build_club(deals=2, public=True)
    urls = [
        reverse("club_home", args=[club.slug]),
        reverse("standings_all", args=[club.slug, "napoleon"]),
        reverse("standings_all", args=[club.slug, "daifugo"]),
        reverse("ratings", args=[club.slug, "daifugo"]),
        reverse("ratings_about", args=[club.slug]),
        reverse("player_detail", args=[club.slug, players[0].pk]),
        reverse("session_list", args=[club.slug]),
        reverse("session_detail", args=[club.slug, nap.pk]),
        reverse("tournament_list", args=[club.slug]),
    ]
    for language, word in (("ja", "の"), ("en", " ")):
        seen = set()
        for url in urls:
            text = _description(client, url, language)
            assert club.name in text and word in text, (url, text)
            seen.add(text)
        assert len(seen) == len(urls), language  # one per page, none the default
