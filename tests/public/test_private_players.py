"""A player is seen where their deals are seen (docs/tournaments.md, "Who sees a tournament's
deals"): names entered in a private tournament become club players, and a player the club knows
only from private tournaments does not exist for a reader who may not see them — their page is
404 (title, heading and description with it), and no list, file or export names them — while
the club's members, scorekeepers, owners and site staff see them as any other player.

The tournament and its entrants are made as the club's staff make them: the new-tournament
page, the entry form, the draw and the round's start, by a scorekeeper's browser; its deals
are recorded at the table by the staff. 太郎 plays the club's ordinary sessions and the
tournament: a regular stays seen by everyone.
"""

from __future__ import annotations

import datetime
import io
import re

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests import factories
from tests.hardening.helpers import napoleon_data
from tests.reports.test_pdfs import pdf_text
from tournaments.models import Player, Tournament
from tournaments.selectors.visibility import deal_visibility
from tournaments.services import events as ev
from tournaments.services.deals import deal_record

pytestmark = pytest.mark.django_db

SECRET = ["秘密一", "秘密二", "秘密三", "秘密四"]
REGULARS = ["太郎", "花子", "Ken", "ゆき", "Sam"]
SEES = {"visitor": False, "outsider": False, "member": True, "scorekeeper": True,
        "owner": True, "site staff": True}  # fmt: skip
TITLE = re.compile(r"<title>([^<]*)</title>")
HEADING = re.compile(r"<h1[^>]*>(.*?)</h1>", re.S)
DESCRIPTION = re.compile(r'<meta name="description" content="([^"]*)">')


def _users(club) -> dict:
    users = {}
    for role in ("owner", "scorekeeper", "member"):
        users[role] = factories.UserFactory(username=f"pp-{role}")
        factories.MembershipFactory(club=club, user=users[role], role=role)
    users["outsider"] = factories.UserFactory(username="pp-outsider")
    users["site staff"] = factories.UserFactory(username="pp-admin", is_superuser=True)
    return users


def _staff_makes_a_private_tournament(club, users, wiki, *, started: bool) -> Tournament:
    """Through the pages a scorekeeper uses: new tournament (Public left unticked), entries,
    the draw and the start; then two deals recorded at the table by the staff."""
    staff = Client()
    staff.force_login(users["scorekeeper"])
    response = staff.post(reverse("tournament_new", args=[club.slug]), {
        "name": "内輪の大会", "date": timezone.localdate().isoformat(), "ruleset": wiki.pk,
        "rounds_planned": "2", "draw_method": "mixing", "standings_mode": "raw",
    })  # fmt: skip
    assert response.status_code == 302, response.content.decode()[:500]
    tournament = Tournament.objects.get(club=club, name="内輪の大会")
    assert not tournament.is_public
    for name in [*SECRET, "太郎"]:
        added = staff.post(
            reverse("tournament_entry_add", args=[tournament.pk]),
            {"name": name, "checked_in": "on"},
        )
        assert added.status_code == 302, name
    if started:
        assert staff.post(reverse("tournament_draw", args=[tournament.pk])).status_code == 302
        start = reverse("tournament_round_start", args=[tournament.pk, 1])
        assert staff.post(start).status_code == 302
        table = tournament.rounds.get(number=1).tables.get()
        for n in range(2):
            ev.table_deal_record(
                table=table, data=napoleon_data(table.seats, n=n), user=users["scorekeeper"],
                staff=True,
            )  # fmt: skip
    return tournament


def build(*, started: bool) -> dict:
    club = factories.ClubFactory(is_public=True, slug="naisho", name="内緒の会")
    users = _users(club)
    wiki = factories.ClubRuleSetFactory(club=club, code="napoleon-wiki", preset="napoleon-wiki")
    plain = factories.session(club=club, ruleset=wiki, date=timezone.localdate(), table="A")
    regulars = [factories.PlayerFactory(club=club, name=name) for name in REGULARS]
    for n in range(2):
        deal_record(session=plain, data=napoleon_data([p.id for p in regulars], n=n))
    tournament = _staff_makes_a_private_tournament(club, users, wiki, started=started)
    secret = list(Player.objects.filter(club=club, name__in=SECRET).order_by("name"))
    assert len(secret) == len(SECRET)
    return {"club": club, "users": users, "t": tournament, "secret": secret,
            "taro": regulars[0]}  # fmt: skip


def client_for(world, reader: str) -> Client:
    client = Client()
    if reader != "visitor":
        client.force_login(world["users"][reader])
    return client


def _names_in(text: str) -> set[str]:
    return {name for name in SECRET if name in text}


def _lists(world) -> dict[str, str]:
    """Every list of the club's pages a reader may open, by a short label."""
    slug = world["club"].slug
    today = timezone.localdate()
    standings = reverse("standings_all", args=[slug, "napoleon"])
    return {
        "home": reverse("club_home", args=[slug]),
        "standings": standings,
        "month": reverse("standings_month", args=[slug, "napoleon", today.year, today.month]),
        "season": reverse("standings_season", args=[slug, "napoleon", today.year]),
        "daifugo": reverse("standings_all", args=[slug, "daifugo"]),
        "sessions": reverse("session_list", args=[slug]) + "?per_page=100",
        "ratings": reverse("ratings", args=[slug, "napoleon"]) + "?all=1",
        "tournaments": reverse("tournament_list", args=[slug]),
        "csv": standings + "?format=csv",
    }


@pytest.mark.parametrize("started", [False, True], ids=["entered", "played"])
def test_a_private_tournaments_players_exist_only_for_who_may_see_it(started):
    world = build(started=started)
    slug = world["club"].slug
    for reader, sees in SEES.items():
        client = client_for(world, reader)
        for player in world["secret"]:
            response = client.get(reverse("player_detail", args=[slug, player.pk]))
            page = response.content.decode()
            if not sees:
                assert response.status_code == 404, (reader, player.name)
                assert player.name not in page, reader
                continue
            assert response.status_code == 200, (reader, player.name)
            for found in (TITLE.findall(page), HEADING.findall(page), DESCRIPTION.findall(page)):
                assert player.name in found[0], (reader, found)
        taro = client.get(reverse("player_detail", args=[slug, world["taro"].pk]))
        assert taro.status_code == 200 and "太郎" in DESCRIPTION.findall(taro.content.decode())[0]
        # lists and files: a private entrant is named only to readers who see the tournament,
        # and only where their deals are (the standings once they played)
        for label, url in _lists(world).items():
            response = client.get(url)
            assert response.status_code == 200, (reader, label)
            shown = _names_in(response.content.decode("utf-8-sig"))
            if not sees:
                assert not shown, (reader, label, shown)
            elif started and label in ("standings", "month", "season", "csv"):
                assert shown == set(SECRET), (reader, label)
        pdf = pdf_text(client.get(_lists(world)["standings"] + "?format=pdf").content)
        assert bool(_names_in(pdf)) == (sees and started), reader
        # the tournament's own pages: 404 to whoever may not see it
        detail = client.get(reverse("tournament_detail", args=[world["t"].pk]))
        assert detail.status_code == (200 if sees else 404), reader


def test_the_exports_name_them_only_to_the_clubs_staff():
    world = build(started=True)
    slug = world["club"].slug
    out = io.StringIO()  # what every reader of the club sees
    call_command("export_standings", club=slug, game="napoleon", stdout=out)
    assert not _names_in(out.getvalue()) and "太郎" in out.getvalue()
    out = io.StringIO()
    call_command("export_standings", club=slug, game="napoleon", everything=True, stdout=out)
    assert _names_in(out.getvalue()) == set(SECRET)
    # the results file: for the club's scorekeepers and owners, who see everything
    url = reverse("results_export", args=[slug]) + "?game=napoleon&format=csv"
    staff = client_for(world, "scorekeeper").get(url)
    assert staff.status_code == 200 and _names_in(staff.content.decode("utf-8-sig"))
    for reader in ("member", "outsider"):
        assert client_for(world, reader).get(url).status_code in (403, 404), reader
    # a round-1 table's sheets: 404 to whoever may not see the tournament
    session_id = world["t"].rounds.get(number=1).tables.get().session_id
    for name in ("session_sheet_pdf", "session_blank_pdf"):
        address = reverse(name, args=[slug, session_id])
        assert client_for(world, "visitor").get(address).status_code == 404, name
        assert client_for(world, "member").get(address).status_code == 200, name


def test_a_private_entrant_who_plays_in_the_club_is_seen(client):
    world = build(started=False)
    club, player = world["club"], world["secret"][0]
    url = reverse("player_detail", args=[club.slug, player.pk])
    assert client.get(url).status_code == 404
    wiki = club.rulesets.get(code="napoleon-wiki")
    evening = factories.session(
        club=club, ruleset=wiki, date=timezone.localdate() - datetime.timedelta(days=1)
    )
    seats = [player.pk, *(p.pk for p in Player.objects.filter(club=club, name__in=REGULARS))]
    deal_record(session=evening, data=napoleon_data(seats, n=1))
    response = client.get(url)
    assert response.status_code == 200 and player.name in response.content.decode()


def test_a_name_taken_out_of_a_private_tournament_stays_unseen(client):
    """A name entered by mistake and taken out again (the staff's *Remove*) stays a club
    player with no entry and no score line: still known only from the private tournament."""
    world = build(started=False)
    club, t, player = world["club"], world["t"], world["secret"][0]
    staff = client_for(world, "scorekeeper")
    entry = t.entries.get(player=player)
    assert staff.post(reverse("tournament_entry_remove", args=[t.pk, entry.pk])).status_code == 302
    assert not t.entries.filter(player=player).exists()
    assert Player.objects.filter(pk=player.pk).exists()
    url = reverse("player_detail", args=[club.slug, player.pk])
    for reader, sees in SEES.items():
        response = client_for(world, reader).get(url)
        assert response.status_code == (200 if sees else 404), reader
        assert (player.name in response.content.decode()) == sees, reader
    # once they play an ordinary session, everyone sees them
    wiki = club.rulesets.get(code="napoleon-wiki")
    evening = factories.session(
        club=club, ruleset=wiki, date=timezone.localdate() - datetime.timedelta(days=1)
    )
    seats = [player.pk, *(p.pk for p in Player.objects.filter(club=club, name__in=REGULARS))]
    deal_record(session=evening, data=napoleon_data(seats[:5], n=1))
    assert client.get(url).status_code == 200


def test_a_public_tournaments_entrants_are_seen(client):
    club = factories.ClubFactory(is_public=True)
    wiki = factories.ClubRuleSetFactory(club=club, code="napoleon-wiki", preset="napoleon-wiki")
    factories.tournament(club=club, ruleset=wiki, entrants=5, is_public=True)
    for player in Player.objects.filter(club=club):
        assert client.get(reverse("player_detail", args=[club.slug, player.pk])).status_code == 200


def test_the_check_costs_nothing_where_nothing_is_hidden(django_assert_num_queries):
    """A club without a private tournament: deciding a player may be seen asks nothing (the
    one query over the club's tournaments, kept per data version, already said so). With one:
    one query, and a member asks nothing."""
    world = build(started=True)
    club, secret, taro = world["club"], world["secret"][0], world["taro"]
    club = type(club).objects.get(pk=club.pk)  # as a request reads it (its hiding flags)
    plain = factories.ClubFactory(is_public=True)
    someone = factories.PlayerFactory(club=plain)
    visibility = deal_visibility(club=plain, reader=None)
    with django_assert_num_queries(0):
        assert visibility.player_visible(someone.pk)
    visitor = deal_visibility(club=club, reader=None)
    with django_assert_num_queries(1):
        assert not visitor.player_visible(secret.pk)
    with django_assert_num_queries(1):
        assert visitor.player_visible(taro.pk)
    member = deal_visibility(club=club, reader=world["users"]["member"])
    with django_assert_num_queries(0):
        assert member.player_visible(secret.pk)
    assert set(visitor.hidden_players()) == set(secret for secret in world["secret"])
    assert not member.hidden_players().exists()


def _routes(resolver=None, prefix=""):
    from django.urls import URLPattern, URLResolver, get_resolver

    for entry in (resolver or get_resolver()).url_patterns:
        if isinstance(entry, URLResolver):
            yield from _routes(entry, prefix + str(entry.pattern))
        elif isinstance(entry, URLPattern):
            yield entry.name, prefix + str(entry.pattern)


# Every address that names one player to readers who are not the club's owners: each checks
# Visibility.player_visible and is tested above. A new one (a player's file, an API player,
# a sitemap) joins this set only with that check and a test.
PLAYER_ADDRESSES = {"player_detail", "player_read"}  # the page, and the API's (tests/api)


def test_every_address_naming_a_player_is_one_the_rule_covers():
    found = {
        name for name, route in _routes()
        if "players/" in route and "/manage/" not in route
    }  # fmt: skip
    assert found == PLAYER_ADDRESSES, found
    assert not [route for _name, route in _routes() if "sitemap" in route.lower()]
