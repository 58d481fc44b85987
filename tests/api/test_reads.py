"""The API's reads: the same rows as the pages and export_standings, hidden where they hide."""

import csv
import io

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import translation

from tests.selectors.data import club_with_history
from tournaments.i18n import heading
from tournaments.models import Membership
from tournaments.services.api import token_create
from tournaments.services.members import member_remove
from tournaments.standings_fields import FILE, shown

pytestmark = pytest.mark.django_db


def bearer(user, scope="read") -> dict:
    _token, raw = token_create(user=user, name="script", scope=scope)
    return {"HTTP_AUTHORIZATION": f"Bearer {raw}"}


def export(club, game, *args) -> list[list[str]]:
    out = io.StringIO()
    call_command("export_standings", "--club", club.slug, "--game", game, "--no-bom", *args,
                 stdout=out)  # fmt: skip
    return list(csv.reader(io.StringIO(out.getvalue())))[1:]


def as_csv(game: str, rows: list[dict]) -> list[list[str]]:
    """The API's rows written as export_standings writes them (its columns, CSV cells)."""
    out = io.StringIO()
    writer = csv.writer(out)
    for r in rows:
        values = (r[f.name] for f in shown(game, FILE))
        writer.writerow([r["rank"], r["name"], *("" if v is None else v for v in values)])
    return list(csv.reader(io.StringIO(out.getvalue())))


@pytest.mark.parametrize("game", ["napoleon", "daifugo"])
def test_api_standings_equal_export_standings(public_club, game):
    club = public_club
    club_with_history(club)
    answer = Client().get(f"/api/v1/clubs/{club.slug}/standings/{game}")
    assert answer.status_code == 200
    body = answer.json()
    assert body["rows"], "the club has standings to compare"
    assert as_csv(game, body["rows"]) == export(club, game)
    month = Client().get(f"/api/v1/clubs/{club.slug}/standings/{game}/2026/11").json()
    assert month["period"] == "2026-11"
    assert as_csv(game, month["rows"]) == export(club, game, "--month", "2026-11")
    season = Client().get(f"/api/v1/clubs/{club.slug}/standings/{game}/2026").json()
    assert season["period"] == "2026" and season["tiebreaks"][0] == "points"


def test_the_header_of_export_matches_what_as_csv_writes(public_club):
    club_with_history(public_club)
    out = io.StringIO()
    call_command("export_standings", "--club", public_club.slug, "--game", "napoleon",
                 "--no-bom", "--language", "en", stdout=out)  # fmt: skip
    header = next(csv.reader(io.StringIO(out.getvalue())))
    assert header[:2] == ["Rank", "Player"]  # the header's words, in the asked language
    with translation.override("en"):
        assert header[2:] == [heading(f, FILE, html=False) for f in shown("napoleon", FILE)]


def test_private_club_standings_hidden_from_anonymous_and_outsiders_shown_to_owner(club, users):
    club_with_history(club)
    url = f"/api/v1/clubs/{club.slug}/standings/napoleon"
    anonymous = Client().get(url)
    assert anonymous.status_code == 404
    assert anonymous.json()["code"] == "not_found"
    assert Client().get(url, **bearer(users["outsider"])).status_code == 404
    owner = Client().get(url, **bearer(users["owner"]))
    assert owner.status_code == 200
    assert as_csv("napoleon", owner.json()["rows"]) == export(club, "napoleon")
    # a browser's session counts for nothing here: only the token says who calls
    logged_in = Client()
    logged_in.force_login(users["owner"])
    assert logged_in.get(url).status_code == 404


def test_membership_ended_ends_the_token_rights_at_the_next_call(club, users):
    club_with_history(club)
    headers = bearer(users["member"])
    url = f"/api/v1/clubs/{club.slug}"
    assert Client().get(url, **headers).status_code == 200
    member_remove(membership=Membership.objects.get(club=club, user=users["member"]))
    assert Client().get(url, **headers).status_code == 404


def test_sessions_paginated_and_a_session_with_its_deals_and_points(public_club):
    club_with_history(public_club)
    base = f"/api/v1/clubs/{public_club.slug}/sessions"
    page = Client().get(base, {"page_size": 2}).json()
    assert page["count"] == 3 and len(page["items"]) == 2
    assert [s["date"] for s in page["items"]] == sorted(
        (s["date"] for s in page["items"]), reverse=True
    )
    rest = Client().get(base, {"page_size": 2, "page": 2}).json()
    assert len(rest["items"]) == 1
    november = next(s for s in page["items"] if s["date"] == "2026-11-07" and
                    s["game"] == "napoleon")  # fmt: skip
    detail = Client().get(f"{base}/{november['id']}").json()
    assert detail["deal_count"] == 3 and len(detail["deals"]) == 3
    assert sum(p["points"] for p in detail["players"]) == 0  # Napoleon's points sum to zero
    first = detail["deals"][0]
    assert {s["name"] for s in first["seats"]} >= {first["napoleon"], first["adjutant"]}
    totals = {p["player_id"]: p["points"] for p in detail["players"]}
    summed: dict[int, int] = {}
    for deal in detail["deals"]:
        for seat in deal["seats"]:
            summed[seat["player_id"]] = summed.get(seat["player_id"], 0) + seat["points"]
    assert summed == totals


def test_errors_are_json_in_the_callers_language(club):
    url = f"/api/v1/clubs/{club.slug}"
    ja = Client().get(url, HTTP_ACCEPT_LANGUAGE="ja")
    en = Client().get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert ja.status_code == en.status_code == 404
    assert en.json() == {"field": None, "code": "not_found", "message": "Not found.",
                         "errors": [en.json()["errors"][0]]}  # fmt: skip
    assert ja.json()["message"] != en.json()["message"]
    bad = Client().get(url, HTTP_AUTHORIZATION="Bearer efuda_nonsense")
    assert bad.status_code == 401 and bad["WWW-Authenticate"] == "Bearer"
    assert bad.json()["field"] == "Authorization"


def test_the_schema_has_a_bearer_security_scheme_and_the_docs_are_served_locally():
    schema = Client().get("/api/v1/openapi.json").json()
    assert schema["openapi"].startswith("3.")
    assert schema["components"]["securitySchemes"]["TokenAuth"] == {
        "type": "http", "scheme": "bearer"
    }  # fmt: skip
    docs = Client().get("/api/v1/docs/")
    assert docs.status_code == 200
    page = docs.content.decode()
    assert "/static/ninja/swagger-ui-bundle.js" in page and "https://" not in page
    assert "script-src 'self'" in docs["Content-Security-Policy"]
    assert "unsafe" not in docs["Content-Security-Policy"]
