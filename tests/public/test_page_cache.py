"""Cached read pages are never stale: every write path bumps the club's data version, and the
next read after it renders anew. Logged-in users and PIN holders never see a shared page."""

import datetime
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.test import Client, RequestFactory
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests import factories
from tests.selectors.data import club_with_history
from tournaments.context_processors import CSRF_PLACEHOLDER
from tournaments.models import Club, Deal
from tournaments.reader import Reader
from tournaments.selectors.visibility import deal_visibility
from tournaments.services import cache as page_versions
from tournaments.services import events
from tournaments.services.deals import deal_delete, deal_restore, deal_update
from tournaments.services.imports import results_import
from tournaments.services.members import member_remove
from tournaments.services.rulesets import ruleset_save
from tournaments.views.page_cache import ANONYMOUS, MEMBER, PUBLIC, reader_view

MAIN = b'<main id="main" tabindex="-1">'  # base.html's main, the skip link's target

pytestmark = pytest.mark.django_db

SAMPLE = Path(settings.BASE_DIR) / "docs" / "samples" / "napoleon.csv"


@pytest.fixture
def history(public_club):
    return club_with_history(public_club)


def version(club) -> int:
    return Club.objects.values_list("data_version", flat=True).get(pk=club.pk)


def standings(client, club):
    return client.get(reverse("standings_all", args=[club.slug, "napoleon"]))


def test_second_read_comes_from_the_cache(client, public_club, history, django_assert_num_queries):
    first = standings(client, public_club)
    with django_assert_num_queries(1):  # the club's data version, nothing else
        second = standings(client, public_club)
    assert second.status_code == 200
    assert second.content.split(MAIN)[1] == first.content.split(MAIN)[1]


def test_a_new_deal_shows_on_the_next_read(client, public_club, history):
    player = history["players"][0]
    page = reverse("player_detail", args=[public_club.slug, player.pk])
    before = client.get(page).content.decode()
    deals_before = Deal.objects.filter(session__club=public_club).count()
    v = version(public_club)
    session = history["november"]
    seats = history["players"][:5]
    from tests.selectors.data import napoleon

    napoleon(session, seats, napoleon=player, adjutant=seats[1], bid=16, honours=18)
    assert version(public_club) > v
    after = client.get(page).content.decode()
    assert Deal.objects.filter(session__club=public_club).count() == deals_before + 1
    assert after != before


@pytest.mark.parametrize("path", ["edit", "delete", "restore", "import", "rules", "tournament"])
def test_every_write_path_bumps_the_version(path, public_club, history):
    deal = Deal.objects.filter(session__club=public_club, is_deleted=False).first()
    if path == "restore":
        deal_delete(deal=deal)
    v = version(public_club)
    if path == "edit":
        deal_update(deal=deal, data=dict(deal.data), version=deal.version)
    elif path == "delete":
        deal_delete(deal=deal)
    elif path == "restore":
        deal_restore(deal=Deal.objects.get(pk=deal.pk))
    elif path == "import":
        results_import(club=public_club, file=SAMPLE.read_bytes())
    elif path == "rules":
        ruleset_save(club=public_club, code="house", preset="napoleon-wiki", name="House")
    elif path == "tournament":
        from tournaments.services.events import tournament_create

        tournament_create(
            club=public_club,
            name="秋の大会",
            date=datetime.date(2026, 11, 29),
            ruleset=public_club.rulesets.filter(preset__startswith="napoleon").first(),
        )
    assert version(public_club) > v, f"{path} left the club's pages stale"


def test_the_tables_left_unversioned_are_tables_of_the_app():
    """services/cache.UNVERSIONED names real tables (a renamed model would otherwise leave its
    new table watched and the old name excused for nothing)."""
    from django.apps import apps

    tables = {m._meta.db_table for m in apps.get_app_config("tournaments").get_models()}
    assert page_versions.UNVERSIONED <= tables


def _tournament_with_everything(club):
    """A started tournament of one table: its deals, a penalty, a helper on its staff."""
    ruleset = club.rulesets.get(code="napoleon-wiki")
    made = factories.tournament(club=club, ruleset=ruleset, entrants=5)
    table = factories.started_round(made).tables.get()
    seats = list(table.seats)
    data = {"seats": seats, "napoleon": seats[0], "bid": 13, "trump": "S", "called": "SA",
            "adjutant": seats[1], "honours": 14, "discarded": 0}  # fmt: skip
    deal = events.table_deal_record(table=table, data=data, staff=True)
    entry = made.entries.first()
    adjustment = events.adjustment_add(entry=entry, points=-1, reason="遅刻")
    owner, helper = (
        factories.UserFactory(username="owner"),
        factories.UserFactory(username="helper"),
    )
    factories.MembershipFactory(club=club, user=owner, role="owner")
    factories.MembershipFactory(club=club, user=helper, role="member")
    events.tournament_staff_add(tournament=made, who="helper")
    return {"tournament": made, "deal": deal, "adjustment": adjustment, "helper": helper}


DELETES = {
    "deal": lambda club, t: deal_delete(deal=Deal.objects.filter(club=club).first()),
    "table deal": lambda club, t: events.table_deal_drop(deal=t["deal"]),
    "adjustment": lambda club, t: events.adjustment_delete(adjustment=t["adjustment"]),
    "staff": lambda club, t: events.tournament_staff_remove(
        tournament=t["tournament"], member=t["helper"]
    ),
    "member": lambda club, t: member_remove(membership=club.memberships.get(user=t["helper"])),
    "pin": lambda club, t: events.pin_revoke(entry=t["tournament"].entries.first()),
    "unstarted round": lambda club, t: events.tournament_finish(
        tournament=events.round_draw(
            tournament=events.round_finish(
                rnd=t["tournament"].rounds.get(), decisions={}
            ).tournament
        ).tournament
    ),
}


@pytest.mark.parametrize("path", list(DELETES))
def test_every_delete_path_moves_the_version(path, public_club, history):
    """What a delete takes away leaves the pages too: each removal moves the version."""
    made = _tournament_with_everything(public_club)
    v = version(public_club)
    DELETES[path](public_club, made)
    assert version(public_club) > v, f"deleting a {path} left the club's pages stale"


@pytest.mark.parametrize("how", ["change", "delete", "delete selected"])
def test_site_staff_in_the_admin_move_the_version(how, admin_client, public_club, history):
    from tournaments.services.sessions import session_create

    ruleset = public_club.rulesets.get(code="napoleon-wiki")
    empty = session_create(club=public_club, ruleset=ruleset, date=datetime.date(2026, 12, 1))
    v = version(public_club)
    if how == "change":
        url = reverse("admin:tournaments_club_change", args=[public_club.pk])
        data = {"slug": public_club.slug, "name": "改名した部", "is_public": "on"}
    elif how == "delete":
        url = reverse("admin:tournaments_gamesession_delete", args=[empty.pk])
        data = {"post": "yes"}
    else:
        url = reverse("admin:tournaments_gamesession_changelist")
        data = {"action": "delete_selected", "_selected_action": [empty.pk], "post": "yes"}
    assert admin_client.post(url, data).status_code == 302
    assert version(public_club) > v
    if how == "change":
        assert Club.objects.get(pk=public_club.pk).name == "改名した部"
    else:
        assert not public_club.sessions.filter(pk=empty.pk).exists()


def test_each_visitor_gets_their_own_csrf_token(client, public_club, history):

    standings(client, public_club)
    other = Client()
    response = standings(other, public_club)
    body = response.content.decode()
    assert CSRF_PLACEHOLDER not in body
    token = other.cookies[settings.CSRF_COOKIE_NAME].value
    assert response.status_code == 200 and token
    # The language switch on the cached page works for this visitor.
    switched = other.post(
        reverse("set_language"), {"language": "en", "next": "/"}, enforce_csrf_checks=True
    )
    assert switched.status_code == 302


def test_logged_in_users_and_private_clubs_are_not_shared(client, public_club, history, users):
    standings(client, public_club)  # cached for visitors
    client.force_login(users["member"])
    page = standings(client, public_club).content.decode()
    assert users["member"].get_username() in page
    private = factories.ClubFactory(is_public=False)
    assert client.get(reverse("standings_all", args=[private.slug, "napoleon"])).status_code in (
        403,
        404,
    )


def test_replica_router_reads_there_only_inside_the_block():
    from config.routers import PublicPagesReplicaRouter, reading_replica

    router = PublicPagesReplicaRouter()
    assert router.db_for_read(Club) is None
    with reading_replica():
        assert router.db_for_read(Club) == "replica"
        assert router.db_for_write(Club) == "default"
    assert router.db_for_read(Club) is None
    assert router.allow_migrate("replica", "tournaments") is False


def test_pages_for_the_cache_use_a_replica_only_once_it_caught_up(
    client, public_club, history, monkeypatch
):
    from contextlib import contextmanager

    from tournaments.selectors.clubs import replica_caught_up
    from tournaments.views import page_cache

    assert replica_caught_up(club_id=public_club.pk, version=0) is False  # none configured
    entered = []

    @contextmanager
    def fake_replica():
        entered.append(True)
        yield

    monkeypatch.setattr(page_cache, "reading_replica", fake_replica)
    monkeypatch.setattr(page_cache, "replica_caught_up", lambda **kw: False)
    standings(client, public_club)
    assert entered == []  # lagging replica: the primary renders
    from django.core.cache import cache

    cache.clear()
    monkeypatch.setattr(page_cache, "replica_caught_up", lambda **kw: True)
    assert standings(client, public_club).status_code == 200
    assert entered == [True]


def test_a_visitor_with_a_message_waiting_gets_it_and_nobody_else_does(
    client, public_club, history, users
):

    standings(client, public_club)  # the visitors' page, kept
    signed = Client()
    signed.force_login(users["member"])
    assert signed.post(reverse("account_logout")).status_code == 302
    assert signed.cookies["messages"].value  # "signed out", waiting for the next page
    page = standings(signed, public_club).content.decode()
    assert 'class="messages"' in page  # shown on the page they come back to
    # their page with the message was not kept for the others, nor was the kept page served
    for other in (client, Client()):
        assert b'class="messages"' not in standings(other, public_club).content
    assert b'class="messages"' not in standings(signed, public_club).content  # read once


# What the visitors' page cache keeps, and for whom: a kept page is served with what made it a
# page (its type, a file's name), only to a visitor who would have got the same page (the same
# address, language, fragment or page), and only a page that answered well; a HEAD is served
# like a GET, and with the cache switched off every read renders.
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
    for kept in (False, True):  # the second time, both from the cache
        with CaptureQueriesContext(connection) as queries:
            page = Client().get(url).content.decode()
            fragment = Client().get(url, HTTP_HX_REQUEST="true").content.decode()
        assert page.startswith("<!DOCTYPE html>")
        assert fragment.startswith('<div id="ev-standings"')
        assert (len(queries.captured_queries) == 2) is kept  # the club's version, twice


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


def test_the_replica_is_asked_about_the_club_and_the_version_the_page_is_kept_for(
    client, public_club, history, monkeypatch, users
):
    from tournaments.views import page_cache

    asked = []

    def caught_up(**question):
        asked.append(question)
        return False

    monkeypatch.setattr(page_cache, "replica_caught_up", caught_up)
    standings(client, public_club)  # a visitor's whole page
    expected = {"club_id": public_club.pk, "version": version(public_club)}
    assert asked == [expected]
    asked.clear()
    client.force_login(users["owner"])  # not a member of the public club: a shared part
    standings(client, public_club)
    assert asked and all(question == expected for question in asked)


def test_the_view_of_a_club_s_pages_names_the_reader_s_role(club, users):
    """``reader_view``: nobody signed in shares the visitors' view; a signed-in reader's view
    names ``member`` for the club's members of every role, ``public`` for anyone else, beside
    the key of what is hidden from them."""

    def view(user):
        request = RequestFactory().get("/")
        request.user = user
        return reader_view(request, club)

    assert view(AnonymousUser()) == ANONYMOUS
    expected = {"owner": MEMBER, "scorekeeper": MEMBER, "member": MEMBER, "outsider": PUBLIC}
    for name, role in expected.items():
        key = deal_visibility(club=club, reader=Reader.of(users[name])).key
        assert view(users[name]) == f"{role}:{key}", name
