"""Every CSV efuda writes is safe to open in a spreadsheet (OWASP CSV injection) and readable by
Excel (UTF-8 with a byte-order mark unless plain UTF-8 is asked for)."""

import csv
import datetime
import io
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from tests import factories
from tournaments.exports import csv_text, safe_cell
from tournaments.services.deals import deal_record

HOSTILE = ['=HYPERLINK("http://x","y")', "+SUM(1)", "@x", "-1+1", "\tTab", "\rCR", "＝1+1"]


@pytest.mark.parametrize("name", HOSTILE)
def test_text_that_starts_a_formula_gets_a_quote(name):
    assert safe_cell(name) == "'" + name


@pytest.mark.parametrize("value", [-3, 0, 12, -0.5, Decimal("-1.25"), "-3", "+4", "-0.50", "太郎"])
def test_numbers_and_plain_text_stay_as_they_are(value):
    assert safe_cell(value) == value


@given(st.text())
def test_no_written_cell_starts_a_formula(text):
    rows = list(csv.reader(io.StringIO(csv_text([[text, -1]], bom=False), newline="")))
    cell, number = rows[0]
    assert number == "-1"
    if cell[:1] in ("=", "+", "-", "@", "\t", "\r", "＝", "＋", "－", "＠"):
        float(cell)  # only a plain number may start with a sign
    assert cell.removeprefix("'") == text or cell == text


def _club_with_hostile_players():
    club = factories.ClubFactory(slug="csv", is_public=True)
    ruleset = factories.ClubRuleSetFactory(
        club=club, code="daifugo-common", preset="daifugo-common"
    )
    session = factories.session(club=club, ruleset=ruleset, date=datetime.date(2026, 11, 20))
    players = [factories.PlayerFactory(club=club, name=name) for name in HOSTILE[:4]]
    deal_record(session=session, data={"order": [str(p.id) for p in players], "forbidden": []})
    return club


def _rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text, newline="")))


@pytest.mark.django_db
def test_public_csv_download_neutralises_names_and_keeps_negative_points(client):
    club = _club_with_hostile_players()
    url = reverse("standings_all", args=[club.slug, "daifugo"])
    response = client.get(url, {"format": "csv"})  # logged out: a public club
    assert response.status_code == 200
    body = response.content.decode("utf-8")
    assert body.startswith("\ufeff")
    rows = _rows(body.removeprefix("\ufeff"))
    names = {row[1] for row in rows[1:]}
    assert names == {"'" + name for name in HOSTILE[:4]}
    points = sorted(int(row[2]) for row in rows[1:])
    assert points == [-2, -1, 1, 2]  # numbers, not quoted text
    plain = client.get(url, {"format": "csv", "bom": "0"}).content.decode("utf-8")
    assert not plain.startswith("\ufeff") and _rows(plain)[1:] == rows[1:]


@pytest.mark.django_db
def test_export_standings_command_neutralises_and_can_drop_the_bom():
    club = _club_with_hostile_players()
    out = io.StringIO()
    call_command("export_standings", "--club", club.slug, "--game", "daifugo", stdout=out)
    assert out.getvalue().startswith("\ufeff")
    names = {row[1] for row in _rows(out.getvalue().removeprefix("\ufeff"))[1:]}
    assert names == {"'" + name for name in HOSTILE[:4]}
    plain = io.StringIO()
    call_command(
        "export_standings", "--club", club.slug, "--game", "daifugo", "--no-bom",
        "--language", "en", stdout=plain,
    )  # fmt: skip
    assert plain.getvalue().startswith("Rank,")
