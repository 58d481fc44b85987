"""Readers of the kept parts never see each other's (docs/accounts.md, "What the tests keep"):
what a security review tried across workers, kept in the suite. Two visitors, two members who
are players, a scorekeeper, an owner and a logged-in outsider read the club's pages in both
languages, interleaved in a shuffled order (each page twice per reader), so every reader gets
pages and parts that another reader filled the cache with. Each answer carries this reader's
name only, their own "my standing" only, the buttons of their role only, a CSRF token of their
own browser only, and the reader's language; and it is exactly the page the reader gets with
the cache off."""

import random
import re

import pytest
from django.middleware.csrf import _unmask_cipher_token
from django.test import Client
from django.urls import reverse

from tests.public.test_member_cache import (  # noqa: F401 - the fixtures
    CSRF_PLACEHOLDER,
    club,
    frozen_tournament,
    my_standing,
    today,
)

pytestmark = pytest.mark.django_db

READERS = ["visitor-1", "visitor-2", "aki", "ben", "kei", "own", "out"]
OWN_PLAYER = {"aki": "太郎", "ben": "Ken"}  # whose standing each member's home page shows
BUTTONS = ("kei", "own")  # who records and edits deals on a session's page
STAFF_ONLY = {"en": "shown to staff only", "ja": "スタッフだけに見える"}  # the live standings' note
TOKEN = re.compile(r'(?:name="csrfmiddlewaretoken" value=|"X-CSRFToken": )"([^"]+)"')


def _addresses(world, tournament) -> dict[str, str]:
    slug = world["club"].slug
    return {
        "home": reverse("club_home", args=[slug]),
        "standings": reverse("standings_all", args=[slug, "napoleon"]),
        "player": reverse("player_detail", args=[slug, world["players"][0].pk]),
        "session": reverse("session_detail", args=[slug, world["november"].pk]),
        "ratings": reverse("ratings", args=[slug, "napoleon"]),
        "tournament": reverse("tournament_standings", args=[tournament.pk]),
    }


def _browsers(world) -> dict[tuple[str, str], Client]:
    browsers = {}
    for name in READERS:
        for language in ("ja", "en"):
            client = Client(HTTP_ACCEPT_LANGUAGE=language)
            if not name.startswith("visitor"):
                client.force_login(world["people"][name])
            browsers[name, language] = client
    return browsers


def _check(world, name: str, language: str, client: Client, label: str, html: str) -> None:
    where = (name, language, label)
    assert f'<html lang="{language}">' in html, where
    assert CSRF_PLACEHOLDER not in html, where
    secret = client.cookies["csrftoken"].value  # this browser's own CSRF secret
    tokens = TOKEN.findall(html)
    assert tokens, where
    assert {_unmask_cipher_token(t) if len(t) == 64 else t for t in tokens} == {secret}, where
    for other in ("aki", "ben", "kei", "own", "out"):  # the header names the reader alone
        assert (f"{other}-user" in html) == (other == name), (where, other)
    if label == "home":
        standing = my_standing(html)
        assert bool(standing) == (name in OWN_PLAYER), where
        for member, player in OWN_PLAYER.items():
            assert (player in standing) == (member == name), (where, member)
    if label == "session":
        buttons = 'class="deal-actions"' in html
        assert buttons == (name in BUTTONS), where
    if label == "tournament":  # a frozen round: the staff's live standings, the others' frozen
        assert (STAFF_ONLY[language] in html) == (name in BUTTONS), where


def _without_tokens(html: str) -> str:
    return TOKEN.sub("", html)


def test_interleaved_readers_of_both_languages_get_only_their_own(club, settings):  # noqa: F811
    tournament = frozen_tournament(club)
    addresses = _addresses(club, tournament)
    browsers = _browsers(club)
    order = [(name, language, label) for (name, language) in browsers for label in addresses] * 2
    random.Random(35).shuffle(order)
    kept = {}
    for name, language, label in order:
        client = browsers[name, language]
        response = client.get(addresses[label])
        assert response.status_code == 200, (name, language, label)
        html = response.content.decode()
        _check(club, name, language, client, label, html)
        kept[name, language, label] = _without_tokens(html)
    settings.EFUDA_PAGE_CACHE_SECONDS = 0  # the same pages, each rendered for its reader alone
    for (name, language, label), html in kept.items():
        fresh = browsers[name, language].get(addresses[label]).content.decode()
        assert _without_tokens(fresh) == html, (name, language, label)
