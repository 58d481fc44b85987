"""ETags on the API's reads: from the club's data version, what the reader may see and the
language; 304 to a poller at the cost of one query; never another reader's 304."""

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests import factories
from tests.events.conftest import napoleon_win
from tests.selectors.data import club_with_history
from tournaments.services import events as svc
from tournaments.services.api import token_create

pytestmark = pytest.mark.django_db


def bearer(user) -> dict:
    _token, raw = token_create(user=user, name="poller")
    return {"HTTP_AUTHORIZATION": f"Bearer {raw}"}


def test_a_poller_gets_304_for_one_query_until_the_club_changes(public_club):
    history = club_with_history(public_club)
    url = f"/api/v1/clubs/{public_club.slug}/standings/napoleon"
    first = Client().get(url)
    tag = first["ETag"]
    assert first.status_code == 200 and tag
    assert {"Authorization", "Accept-Language"} <= {v.strip() for v in first["Vary"].split(",")}
    with CaptureQueriesContext(connection) as queries:
        again = Client().get(url, HTTP_IF_NONE_MATCH=tag)
    assert again.status_code == 304 and again["ETag"] == tag and again.content == b""
    assert len(queries) == 1, [q["sql"] for q in queries]  # the club, nothing else
    # another language is another answer
    english = Client().get(url, HTTP_IF_NONE_MATCH=tag, HTTP_ACCEPT_LANGUAGE="en")
    assert english.status_code == 200 and english["ETag"] != tag
    # a new deal moves the club's version: the poller reads the new standings
    players = history["players"]
    from tests.selectors.data import napoleon

    napoleon(history["november"], players, napoleon=players[1], adjutant=players[2])
    changed = Client().get(url, HTTP_IF_NONE_MATCH=tag)
    assert changed.status_code == 200 and changed["ETag"] != tag


def test_readers_who_see_different_deals_get_different_etags(club, users, wiki):
    """A member and a scorekeeper of a club whose tournament hides its last round: the member
    may not see the frozen round, so their ETag differs and the scorekeeper's never gives
    them a 304."""
    t = factories.tournament(club=club, ruleset=wiki, entrants=10, rounds_planned=2)
    svc.tournament_freeze_set(tournament=t, hidden_rounds=1)
    for number in (1, 2):
        rnd = svc.round_start(rnd=svc.round_draw(tournament=t))
        for table in rnd.tables.all():
            svc.table_deal_record(table=table, data=napoleon_win(table.seats), staff=True)
        if number == 1:
            svc.round_finish(rnd=rnd)
    url = f"/api/v1/clubs/{club.slug}/sessions"
    member, keeper = bearer(users["member"]), bearer(users["scorekeeper"])
    seen_by_member = Client().get(url, **member)
    seen_by_keeper = Client().get(url, **keeper)
    assert seen_by_member.status_code == seen_by_keeper.status_code == 200
    assert seen_by_member.json()["count"] < seen_by_keeper.json()["count"]  # round 2 hidden
    assert seen_by_member["ETag"] != seen_by_keeper["ETag"]
    stolen = Client().get(url, HTTP_IF_NONE_MATCH=seen_by_keeper["ETag"], **member)
    assert stolen.status_code == 200 and stolen.json() == seen_by_member.json()
    own = Client().get(url, HTTP_IF_NONE_MATCH=seen_by_member["ETag"], **member)
    assert own.status_code == 304
    # two members: one of them the tournament's extra staff, who sees the frozen round
    staff_user = factories.UserFactory(username="extra-staff")
    factories.MembershipFactory(club=club, user=staff_user, role="member")
    svc.tournament_staff_add(tournament=t, who="extra-staff")
    plain = Client().get(url, **member)
    staff = Client().get(url, **bearer(staff_user))
    assert staff.json()["count"] == seen_by_keeper.json()["count"] > plain.json()["count"]
    assert staff["ETag"] != plain["ETag"]
    crossed = Client().get(url, HTTP_IF_NONE_MATCH=staff["ETag"], **member)
    assert crossed.status_code == 200
    # the frozen round's standings too: the member sees round 1 only
    standings = f"/api/v1/tournaments/{t.pk}/standings"
    frozen = Client().get(standings, **member).json()
    live = Client().get(standings, **keeper).json()
    assert frozen["frozen_after"] == 1 and live["frozen_after"] is None
    assert {r["rounds"] for r in frozen["rows"]} == {1}
    assert {r["rounds"] for r in live["rows"]} == {2}


@pytest.fixture
def wiki(club):
    return factories.ClubRuleSetFactory(club=club, code="napoleon-wiki", preset="napoleon-wiki")


def test_private_tournaments_are_hidden_as_on_the_pages(public_club, wiki_public):
    club = public_club
    hidden = factories.tournament(club=club, ruleset=wiki_public, entrants=5, is_public=False)
    shown = factories.tournament(club=club, ruleset=wiki_public, entrants=5, is_public=True)
    listed = Client().get(f"/api/v1/clubs/{club.slug}/tournaments").json()
    assert [t["id"] for t in listed["items"]] == [shown.pk]
    assert Client().get(f"/api/v1/tournaments/{hidden.pk}").status_code == 404
    detail = Client().get(f"/api/v1/tournaments/{shown.pk}")
    assert detail.status_code == 200 and detail.json()["rounds"] == []
    svc.round_draw(tournament=shown)
    rounds = Client().get(f"/api/v1/tournaments/{shown.pk}").json()["rounds"]
    seats = [s["name"] for table in rounds[0]["tables"] for s in table["seats"]]
    assert sorted(seats) == sorted(f"選手{i}" for i in range(1, 6))


@pytest.fixture
def wiki_public(public_club):
    return factories.ClubRuleSetFactory(
        club=public_club, code="napoleon-wiki", preset="napoleon-wiki"
    )


def test_players_and_rulesets(public_club):
    history = club_with_history(public_club)
    base = f"/api/v1/clubs/{public_club.slug}"
    listed = Client().get(f"{base}/players").json()
    assert listed["count"] == 5
    taro = history["players"][0]
    player = Client().get(f"{base}/players/{taro.pk}").json()
    napoleon = next(g for g in player["games"] if g["game"] == "napoleon")
    assert napoleon["totals"]["deals"] == 4 and napoleon["months"][-1]["month"] == "2026-11"
    assert sum(r["deals"] for r in player["by_bid"]) == 2  # Napoleon twice
    rulesets = {r["code"]: r for r in Client().get(f"{base}/rulesets").json()}
    wiki = rulesets["napoleon-wiki"]["point_tables"]
    five = next(t for t in wiki if t["players"] == 5)["rows"][0]
    assert (five["napoleon"], five["adjutant"], five["ally"]) == (2, 1, 1)  # as printed
    assert rulesets["daifugo-common"]["point_tables"] == []
