"""One header language rule for both standings CSVs (docs/standings.md): the download's header
is in its reader's language, ``export_standings``'s in ``--language`` (Japanese unless given);
the same reader and language give the same bytes."""

import io

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from tests.selectors.data import club_with_history

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("game", ["napoleon", "daifugo"])
def test_the_command_and_the_download_print_the_same_bytes(public_club, game):
    club_with_history(public_club)
    url = reverse("standings_all", args=[public_club.slug, game]) + "?format=csv"
    for language, first in (("ja", "順位"), ("en", "Rank")):
        download = Client().get(url, HTTP_ACCEPT_LANGUAGE=language, HTTP_COOKIE="")
        out = io.StringIO()
        args = ["--club", public_club.slug, "--game", game]
        call_command("export_standings", *args, "--language", language, stdout=out)
        assert out.getvalue().encode("utf-8") == download.content, language
        assert out.getvalue().removeprefix("\ufeff").startswith(first + ",")
    default = io.StringIO()
    call_command("export_standings", "--club", public_club.slug, "--game", game, stdout=default)
    assert default.getvalue().removeprefix("\ufeff").startswith("順位,")
