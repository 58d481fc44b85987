import csv
import io

import pytest
from django.core.management import CommandError, call_command
from django.db.models import Sum

from tests.selectors.data import club_with_history
from tournaments.models import ScoreLine


def run(*args) -> list[dict]:
    """The command's rows, read by its English header (``--language en``)."""
    out = io.StringIO()
    call_command("export_standings", *args, "--language", "en", stdout=out)
    text = out.getvalue()
    assert text.startswith("\ufeff")  # a byte-order mark by default, for spreadsheet apps
    return list(csv.DictReader(io.StringIO(text.removeprefix("\ufeff"))))


def line_sums(club, game, **filters):
    return dict(
        ScoreLine.objects.filter(club=club, game=game, **filters)
        .values_list("player__name")
        .annotate(s=Sum("points"))
        .values_list("player__name", "s")
    )


@pytest.mark.django_db
@pytest.mark.parametrize("game", ["napoleon", "daifugo"])
def test_all_time_export_matches_stored_score_lines(club, game):
    club_with_history(club)
    rows = run("--club", club.slug, "--game", game)
    assert {r["Player"]: int(r["Points"]) for r in rows} == line_sums(club, game)
    assert list(rows[0])[:3] == ["Rank", "Player", "Points"]


@pytest.mark.django_db
def test_month_export_and_same_rows_as_download(club, client, users):
    club_with_history(club)
    rows = run("--club", club.slug, "--game", "napoleon", "--month", "2026-10")
    assert {r["Player"]: int(r["Points"]) for r in rows} == line_sums(
        club, "napoleon", date__year=2026, date__month=10
    )
    client.force_login(users["member"])
    response = client.get(f"/c/{club.slug}/standings/napoleon/2026/10/?format=csv")
    out = io.StringIO()
    call_command(
        "export_standings",
        "--club",
        club.slug,
        "--game",
        "napoleon",
        "--month",
        "2026-10",
        stdout=out,
    )
    # The same rows and the same header: the page's file in its reader's language, the
    # command's in --language (Japanese unless given).
    page_header, *page_rows = response.content.decode().splitlines()
    command_header, *command_rows = out.getvalue().splitlines()
    assert page_rows == command_rows
    assert page_header.startswith("\ufeff順位,プレイヤー,得点")
    assert command_header == page_header


@pytest.mark.django_db
def test_export_errors(club):
    with pytest.raises(CommandError):
        run("--club", "nope", "--game", "napoleon")
    with pytest.raises(CommandError):
        run("--club", club.slug, "--game", "napoleon", "--month", "2026")
