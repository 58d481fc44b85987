"""The API hides what the pages hide (docs/tournaments.md, "Who sees a tournament's deals"): a
private tournament's deals and the players known only from it, a frozen round's points, an
anonymised player's name. Each caller's answer is compared with the rule stated in the pages'
own tests (``tests/public``), the worlds built by the same staff pages and services."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import timezone

from tests.accounts.test_anonymise import OLD, world  # noqa: F401 - the fixture
from tests.api.test_reads import bearer
from tests.public import test_deal_visibility as matrix
from tests.public import test_private_players as private
from tournaments.services.players import player_anonymise

pytestmark = pytest.mark.django_db


def caller(built, reader: str) -> dict:
    """The headers of ``reader``'s calls: a personal token, or none for a visitor."""
    if reader in ("visitor", "anonymous"):
        return {}
    return bearer(built["users"][reader])


def answers(slug: str, headers: dict) -> dict[str, object]:
    """Every read of the club a caller may make: the standings of each period, the session
    list and each listed session with its deals."""
    today = timezone.localdate()
    base = f"/api/v1/clubs/{slug}"
    found = {}
    for label, path in (
        ("all", "/standings/napoleon"),
        ("season", f"/standings/napoleon/{today.year}"),
        ("month", f"/standings/napoleon/{today.year}/{today.month}"),
        ("daifugo", "/standings/daifugo"),
    ):
        response = Client().get(base + path, **headers)
        assert response.status_code == 200, (label, response.content[:300])
        found[label] = response.json()
    listing = Client().get(f"{base}/sessions", {"page_size": 100}, **headers)
    assert listing.status_code == 200
    found["sessions"] = listing.json()
    for item in found["sessions"]["items"]:
        found[f"session {item['id']}"] = Client().get(f"{base}/sessions/{item['id']}",
                                                      **headers).json()  # fmt: skip
    return found


@pytest.mark.parametrize("started", [False, True], ids=["entered", "played"])
def test_a_private_tournaments_players_are_in_no_answer_for_who_may_not_see_it(started):
    built = private.build(started=started)
    slug = built["club"].slug
    tables = [tb.session_id for r in built["t"].rounds.all() for tb in r.tables.all()]
    for reader, sees in private.SEES.items():
        headers = caller(built, reader)
        found = answers(slug, headers)
        named = private._names_in(str(found))
        if not sees:
            assert not named, (reader, named)
        elif started:
            assert named == set(private.SECRET), reader
            standings = {row["name"] for row in found["all"]["rows"]}
            assert standings >= set(private.SECRET), reader
        assert "太郎" in {row["name"] for row in found["all"]["rows"]}, reader
        # the private tables' sessions: as if they did not exist, the same 404 as an unknown id
        for session_id in tables:
            response = Client().get(f"/api/v1/clubs/{slug}/sessions/{session_id}", **headers)
            assert response.status_code == (200 if sees else 404), (reader, session_id)
            if not sees:
                assert not private._names_in(response.content.decode()), reader


@pytest.mark.parametrize("state", ["private", "frozen", "revealed"])
def test_the_api_shows_each_caller_the_points_the_pages_show_them(state):
    built = matrix.build(state)
    slug = built["club"].slug
    tournament = {tb.session_id for tables in built["tables"].values() for tb in tables}
    ghost_session = built["ghost_table"].session_id
    for reader in ("anonymous", "member", "extra", "removed", "staff"):
        headers = caller(built, reader)
        seen = matrix.visible_sessions(built, state, reader)
        where = f"{state}/{reader}"
        found = answers(slug, headers)
        rows = {r["name"]: (r["points"], r["deals"]) for r in found["all"]["rows"]}
        assert rows == matrix.expected_rows(built, seen), where
        month = timezone.localdate().replace(day=1)
        rows = {r["name"]: (r["points"], r["deals"]) for r in found["month"]["rows"]}
        assert rows == matrix.expected_rows(built, seen, month), where
        listed = {s["id"] for s in found["sessions"]["items"]}
        assert listed & tournament == seen & tournament, where
        read = Client().get(f"/api/v1/clubs/{slug}/sessions/{ghost_session}", **headers)
        assert read.status_code == (200 if ghost_session in seen else 404), where
        assert (matrix.GHOST in str(found)) == matrix.sees_round(state, reader, 3), where


def test_an_anonymised_player_is_anonymous_in_every_answer(world):  # noqa: F811 - the fixture
    club, taro = world["club"], world["taro"]
    before = answers(club.slug, {})
    assert "太郎" in str(before)
    points = {r["player_id"]: r["points"] for r in before["all"]["rows"]}
    player_anonymise(player=taro)
    after = answers(club.slug, {})
    assert not any(name in str(after) for name in OLD)
    assert "匿名 1" in {r["name"] for r in after["all"]["rows"]}
    assert {r["player_id"]: r["points"] for r in after["all"]["rows"]} == points


@pytest.mark.parametrize("started", [False, True], ids=["entered", "played"])
def test_players_and_tournaments_answer_as_the_pages_for_a_private_tournament(started):
    """The players list, a player, the club's tournaments, the tournament and its standings:
    a private tournament's players and the tournament itself are in no answer to a caller who
    may not see it, and the player's own address answers 404 to them, as the player page."""
    built = private.build(started=started)
    slug, t = built["club"].slug, built["t"]
    base = f"/api/v1/clubs/{slug}"
    for reader, sees in private.SEES.items():
        headers = caller(built, reader)
        listed = Client().get(f"{base}/players", {"page_size": 200}, **headers).json()
        names = {p["name"] for p in listed["items"]}
        assert names & set(private.SECRET) == (set(private.SECRET) if sees else set()), reader
        assert "太郎" in names, reader
        for secret in built["secret"]:
            read = Client().get(f"{base}/players/{secret.pk}", **headers)
            assert read.status_code == (200 if sees else 404), (reader, secret.name)
        tournaments = Client().get(f"{base}/tournaments", **headers).json()
        assert ([x["id"] for x in tournaments["items"]] == [t.pk]) == sees, reader
        for path in (f"/api/v1/tournaments/{t.pk}", f"/api/v1/tournaments/{t.pk}/standings"):
            read = Client().get(path, **headers)
            assert read.status_code == (200 if sees else 404), (reader, path)
            if not sees:
                assert not private._names_in(read.content.decode()), (reader, path)
