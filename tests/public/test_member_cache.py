"""Logged-in readers get the parts of a page that every reader shares from the cache and their
own parts rendered for them (views/page_cache.py): no member ever sees another member's own
parts, each language, view and role keeps its own copy, and the next read after any write is
fresh."""

import datetime
import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests import factories
from tests.selectors.data import club_with_history, napoleon
from tournaments.context_processors import CSRF_PLACEHOLDER
from tournaments.models import Role
from tournaments.services import events as svc
from tournaments.services.claims import claim_confirm, player_claim
from tournaments.services.members import membership_set
from tournaments.views import cards

pytestmark = pytest.mark.django_db

TODAY = datetime.date(2026, 11, 23)  # the club's history is in October and November 2026


@pytest.fixture(autouse=True)
def today(monkeypatch):
    monkeypatch.setattr("django.utils.timezone.localdate", lambda *a, **k: TODAY)


@pytest.fixture
def club(public_club):
    """The public club's history, an owner, a scorekeeper, two members who are players (aki is
    太郎, ben is Ken) and a logged-in outsider."""
    history = club_with_history(public_club)
    taro, _watanabe, ken, *_ = history["players"]
    people = {}
    for name, role in (("own", Role.OWNER), ("kei", Role.SCOREKEEPER), ("aki", Role.MEMBER),
                       ("ben", Role.MEMBER), ("out", None)):  # fmt: skip
        people[name] = factories.UserFactory(username=f"{name}-user")
        if role:
            membership_set(club=public_club, user=people[name], role=role)
    for name, player in (("aki", taro), ("ben", ken)):
        claim = player_claim(club=public_club, user=people[name], player=player)
        claim_confirm(claim=claim, by=people["own"])
    return {"club": public_club, "people": people, **history}


def reader(club, name: str | None, language: str = "ja") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    if name:
        client.force_login(club["people"][name])
    return client


def page(client, name, club, *args) -> str:
    response = client.get(reverse(name, args=[club["club"].slug, *args]))
    assert response.status_code == 200
    body = response.content.decode()
    assert CSRF_PLACEHOLDER not in body
    return body


def section(html: str, start: str, end: str = "</main>") -> str:
    """The markup from ``start`` to ``end``: a part of the page."""
    assert start in html, start
    return html[html.index(start) : html.index(end, html.index(start))]


def my_standing(html: str) -> str:
    found = re.search(
        r'<section class="card my-standing" id="my-standing">.*?</section>', html, re.S
    )
    return found.group(0) if found else ""


SHARED_HOME = '<nav class="pub-nav"'  # the club home's part every reader shares


def test_two_members_never_see_each_others_own_parts(club):
    aki, ben = reader(club, "aki"), reader(club, "ben")
    first = page(aki, "club_home", club)
    assert "aki-user" in first and "太郎" in my_standing(first)
    second = page(ben, "club_home", club)  # the shared part now comes from the cache
    assert section(second, SHARED_HOME) == section(first, SHARED_HOME)
    assert "ben-user" in second and "aki-user" not in second
    assert "Ken" in my_standing(second) and "太郎" not in my_standing(second)
    again = page(aki, "club_home", club)
    assert "aki-user" in again and "ben-user" not in again
    assert my_standing(again) == my_standing(first)
    # Neither page carries the other's CSRF token: each form has its own reader's.
    token = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
    assert set(token.findall(first)).isdisjoint(token.findall(second))


def test_a_second_read_costs_the_reader_and_the_club_only(club):
    aki = reader(club, "aki")
    targets = [
        ("standings_all", "napoleon"),
        ("player_detail", club["players"][1].pk),
        ("session_detail", club["november"].pk),
        ("ratings", "napoleon"),
    ]
    for name, arg in targets:
        first = page(aki, name, club, arg)
        with CaptureQueriesContext(connection) as ctx:
            second = page(aki, name, club, arg)
        # the session, the user, the club with the reader's role: nothing of the page itself
        assert len(ctx.captured_queries) == 3, (name, [q["sql"] for q in ctx.captured_queries])
        assert section(second, "<main") == section(first, "<main")
    first = page(aki, "club_home", club)
    with CaptureQueriesContext(connection) as ctx:
        second = page(aki, "club_home", club)
    # which player the reader is comes with the club; "my standing" is kept rendered
    assert len(ctx.captured_queries) == 3, [q["sql"] for q in ctx.captured_queries]
    assert section(second, "<main") == section(first, "<main")
    assert "太郎" in my_standing(second)


def test_each_language_keeps_its_own_copy(club):
    japanese = page(reader(club, "aki", "ja"), "club_home", club)
    english = page(reader(club, "ben", "en"), "club_home", club)
    assert '<html lang="en">' in english and '<html lang="ja">' in japanese
    assert section(english, SHARED_HOME) != section(japanese, SHARED_HOME)
    assert "Leaders in" in section(english, SHARED_HOME)
    assert "Leaders in" not in section(japanese, SHARED_HOME)
    # The same member switching language gets the other copy, and their own part in it.
    aki_english = page(reader(club, "aki", "en"), "club_home", club)
    assert section(aki_english, SHARED_HOME) == section(english, SHARED_HOME)
    assert "My standing" in my_standing(aki_english) and "太郎" in my_standing(aki_english)
    ben_japanese = page(reader(club, "ben", "ja"), "standings_all", club, "napoleon")
    assert page(reader(club, "aki", "en"), "standings_all", club, "napoleon") != ben_japanese


@pytest.mark.parametrize("first", ["kei", "aki", None])
def test_a_roles_buttons_stay_with_the_role(club, first):
    session = club["november"].pk
    page(reader(club, first), "session_detail", club, session)  # whoever fills the cache
    for name in ("kei", "own"):
        html = page(reader(club, name), "session_detail", club, session)
        assert html.count('class="deal-actions"') == 3
        assert reverse("deal_new", args=[club["club"].slug, session]) in html
        assert "js/fresh.js" in html
    for name in ("aki", "out", None):
        html = page(reader(club, name), "session_detail", club, session)
        assert 'class="deal-actions"' not in html and "/deals/" not in html
        assert "js/fresh.js" not in html


def test_a_scorekeepers_buttons_post_with_their_own_token(club):
    kei = reader(club, "kei")
    page(reader(club, "own"), "session_detail", club, club["november"].pk)  # kept by the owner
    html = page(kei, "session_detail", club, club["november"].pk)
    deal = club["november"].deals.order_by("seq").first()
    action = reverse("deal_delete", args=[club["club"].slug, deal.pk])
    form = section(html, f'action="{action}"', "</form>")
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form).group(1)
    # One masked token in the whole page: the header's forms and the kept parts' buttons.
    every = re.findall(r'(?:name="csrfmiddlewaretoken" value=|"X-CSRFToken": )"([^"]+)"', html)
    assert len(every) > 3 and set(every) == {token}
    kei.handler.enforce_csrf_checks = True
    response = kei.post(action, {"csrfmiddlewaretoken": token})
    assert response.status_code == 302
    deal.refresh_from_db()
    assert deal.is_deleted


def test_a_private_tournament_stays_with_the_members(club):
    svc.tournament_create(
        club=club["club"], name="Members' league", date=TODAY + datetime.timedelta(days=4),
        ruleset=club["nap_rules"], is_public=False,
    )  # fmt: skip
    assert "Members&#x27; league" in page(reader(club, "aki"), "club_home", club)
    for name in ("out", None):
        assert "Members&#x27; league" not in page(reader(club, name), "club_home", club)
    assert "Members&#x27; league" in page(reader(club, "kei"), "club_home", club)


def test_a_private_clubs_members_get_its_pages_and_nobody_else(club):
    private = factories.ClubFactory(is_public=False)
    membership_set(club=private, user=club["people"]["out"], role=Role.MEMBER)
    for name in ("standings_all", "ratings"):
        url = reverse(name, args=[private.slug, "napoleon"])
        assert reader(club, "out").get(url).status_code == 200
        assert reader(club, "out").get(url).status_code == 200  # from the cache
        for other in ("aki", "own", None):  # members of the public club only, and a visitor
            assert reader(club, other).get(url).status_code == 404


def frozen_tournament(club):
    """A public tournament of two rounds, the first finished, standings frozen after it."""
    t = svc.tournament_create(
        club=club["club"], name="公開大会", date=TODAY, ruleset=club["nap_rules"],
        rounds_planned=2, is_public=True, seed=3,
    )  # fmt: skip
    for i in range(1, 6):
        svc.entry_add(tournament=t, name=f"選手{i}", checked_in=True)
    for number in (1, 2):
        rnd = svc.round_start(rnd=svc.round_draw(tournament=t))
        table = rnd.tables.get()
        seats = table.seats
        data = {"seats": seats, "napoleon": seats[number + 2], "bid": 13, "trump": "S",
                "called": "SA", "adjutant": seats[number + 1], "solo": False, "honours": 14,
                "discarded": 0}  # fmt: skip
        svc.table_deal_record(table=table, data=data, staff=True)
        if number == 1:
            svc.round_finish(rnd=rnd)
            svc.tournament_freeze_set(tournament=t, hidden_rounds=1)
    return t


def test_frozen_standings_are_kept_apart_for_the_tournaments_staff(club):
    t = frozen_tournament(club)
    url = reverse("tournament_standings", args=[t.pk])
    staff_first = reader(club, "kei", "en").get(url).content.decode()
    assert "shown to staff only" in staff_first
    for name in ("aki", "out", None):
        html = reader(club, name, "en").get(url).content.decode()
        assert "Standings frozen after round 1" in html and "shown to staff only" not in html
    assert "shown to staff only" in reader(club, "own", "en").get(url).content.decode()
    fragment = reader(club, "aki", "en").get(url, HTTP_HX_REQUEST="true").content.decode()
    assert fragment.startswith('<div id="ev-standings"') and "Standings frozen" in fragment


def test_a_share_card_drawn_for_the_staff_is_never_shown_to_a_member(club, monkeypatch):
    """A month's share card is kept under the reader's view (views/cards.py), which the card
    computes itself: the one drawn for a scorekeeper counts the frozen round and a member who
    asks next, of the same role, gets one drawn without it, as they would first."""
    frozen_tournament(club)
    drawn = []
    draw = cards.card_png
    monkeypatch.setattr(cards, "card_png", lambda card: drawn.append(card) or draw(card))
    slug = club["club"].slug
    url = reverse("standings_card", args=[slug, "napoleon", TODAY.year, f"{TODAY.month:02d}"])
    staff = reader(club, "kei").get(url)
    member = reader(club, "aki").get(url)
    assert staff.status_code == member.status_code == 200
    assert len(drawn) == 2 and drawn[0].lines != drawn[1].lines
    assert member.content != staff.content and member["ETag"] != staff["ETag"]
    cache.clear()
    assert reader(club, "aki").get(url).content == member.content


@pytest.mark.parametrize(
    "write", ["deal", "rename", "claim", "role", "merge", "tournament", "session"]
)
def test_every_write_moves_what_members_read(club, write):
    """A member's next read after a write shows it: the shared parts and their own figures."""
    aki = reader(club, "aki", "en")
    taro, watanabe, ken, yuki, hanako = club["players"]
    if write == "merge":  # 由紀 played once, never beside ゆき: the same person, twice
        yuki2 = factories.PlayerFactory(club=club["club"], name="由紀")
        seated = [taro, watanabe, ken, hanako, yuki2]
        napoleon(club["october"], seated, napoleon=yuki2, adjutant=taro, honours=16)
    before = {
        name: page(aki, name, club, *args)
        for name, args in (("club_home", ()), ("standings_all", ("napoleon",)))
    }
    if write == "deal":
        november = club["november"]
        napoleon(november, club["players"], napoleon=taro, adjutant=yuki, bid=16, honours=19)
    elif write == "rename":
        from tournaments.services.players import player_rename

        player_rename(player=ken, name="Kenji")
    elif write == "claim":  # a new member says they are 花子, and an owner confirms it
        user = factories.UserFactory(username="hana-user")
        membership_set(club=club["club"], user=user, role=Role.MEMBER)
        claim_confirm(
            claim=player_claim(club=club["club"], user=user, player=hanako),
            by=club["people"]["own"],
        )
    elif write == "role":
        membership_set(club=club["club"], user=club["people"]["aki"], role=Role.SCOREKEEPER)
    elif write == "merge":
        from tournaments.services.merge import player_merge

        assert "由紀" in before["standings_all"]
        player_merge(club=club["club"], keep=yuki, merge=yuki2, by=club["people"]["own"])
    elif write == "tournament":
        svc.tournament_create(
            club=club["club"], name="Winter cup", date=TODAY + datetime.timedelta(days=2),
            ruleset=club["nap_rules"], is_public=True,
        )  # fmt: skip
    elif write == "session":
        from tournaments.services.sessions import session_start

        session_start(club=club["club"], rules_code="napoleon-wiki", date=TODAY, table="Z")
    after = page(aki, "club_home", club)
    changed = {
        "deal": lambda: my_standing(after) != my_standing(before["club_home"]),
        "rename": lambda: "Kenji" in after,
        "claim": lambda: after != before["club_home"],
        "role": lambda: "Start a session" in after,
        "merge": lambda: "由紀" not in page(aki, "standings_all", club, "napoleon"),
        "tournament": lambda: "Winter cup" in after,
        "session": lambda: "Table <bdi>Z</bdi>" in after,
    }[write]
    assert changed(), f"{write}: the member's next read did not show it"
    if write == "deal":
        assert page(aki, "standings_all", club, "napoleon") != before["standings_all"]


def test_pages_read_the_same_with_the_cache_off(club, settings):
    """The shared parts are rendered alike kept or not (and a second read comes from the
    cache): a scorekeeper's pages with the cache on and off, tokens aside."""
    kei = reader(club, "kei", "en")
    targets = [
        ("club_home",),
        ("standings_all", "napoleon"),
        ("session_detail", club["november"].pk),
        ("player_detail", club["players"][0].pk),
        ("ratings", "napoleon"),
    ]
    for target in targets:
        page(kei, target[0], club, *target[1:])
    kept = [page(kei, target[0], club, *target[1:]) for target in targets]
    settings.EFUDA_PAGE_CACHE_SECONDS = 0
    fresh = [page(kei, target[0], club, *target[1:]) for target in targets]
    token = re.compile(r'"[A-Za-z0-9]{64}"')
    assert [token.sub("", html) for html in kept] == [token.sub("", html) for html in fresh]


def test_what_is_not_the_clubs_is_404_for_everyone(club):
    """Kept parts never stand in for the check that a session or player is the club's."""
    elsewhere = club_with_history(factories.ClubFactory(is_public=True))
    slug = club["club"].slug
    for name in ("aki", "kei", None):
        for target in (
            reverse("session_detail", args=[slug, elsewhere["november"].pk]),
            reverse("session_detail", args=[slug, 987654]),
            reverse("player_detail", args=[slug, elsewhere["players"][0].pk]),
            reverse("player_detail", args=[slug, 987654]),
        ):
            assert reader(club, name).get(target).status_code == 404, (name, target)


def test_tournament_standings_cost_three_queries_and_extra_staff_shows_at_the_next_read(club):
    """The tournament comes with the reader's role and whether they are its extra staff (one
    query, that answer kept per club data version: a kept read asks the tournament's row
    only); becoming extra staff, or no longer being it, shows at the next read."""
    t = frozen_tournament(club)
    url = reverse("tournament_standings", args=[t.pk])
    for name in ("aki", "kei", "out"):
        client = reader(club, name, "en")
        first = client.get(url).content.decode()
        with CaptureQueriesContext(connection) as ctx:
            second = client.get(url).content.decode()
        # the session, the user, the tournament with its club (the reader's answer kept)
        assert len(ctx.captured_queries) == 3, (name, [q["sql"] for q in ctx.captured_queries])
        assert "membership" not in ctx.captured_queries[2]["sql"].lower()
        assert section(second, "<main") == section(first, "<main")
    aki = reader(club, "aki", "en")
    assert "shown to staff only" not in aki.get(url).content.decode()
    svc.tournament_staff_add(tournament=t, who="aki-user")
    assert "shown to staff only" in aki.get(url).content.decode()
    assert "shown to staff only" not in reader(club, "ben", "en").get(url).content.decode()
    svc.tournament_staff_remove(tournament=t, member=club["people"]["aki"])
    assert "shown to staff only" not in aki.get(url).content.decode()
    # extra staff who left the club are no staff: the role is read with the tournament too
    svc.tournament_staff_add(tournament=t, who="ben-user")
    assert "shown to staff only" in reader(club, "ben", "en").get(url).content.decode()
    from tournaments.models import Membership
    from tournaments.services.members import member_remove

    member_remove(membership=Membership.objects.get(club=club["club"], user=club["people"]["ben"]))
    assert "shown to staff only" not in reader(club, "ben", "en").get(url).content.decode()


def test_my_standing_kept_per_player_follows_a_new_claim(club):
    """ "My standing" is kept rendered per player: a member who becomes another player's
    account gets that player's box, and the first player's box is never shown to them."""
    own = club["people"]["own"]
    taro, watanabe, *_ = club["players"]
    newcomer = factories.UserFactory(username="new-user")
    membership_set(club=club["club"], user=newcomer, role=Role.MEMBER)
    aki_home = page(reader(club, "aki"), "club_home", club)
    assert "太郎" in my_standing(aki_home)
    client = Client(HTTP_ACCEPT_LANGUAGE="ja")
    client.force_login(newcomer)
    assert my_standing(page(client, "club_home", club)) == ""  # no player yet
    claim_confirm(claim=player_claim(club=club["club"], user=newcomer, player=watanabe), by=own)
    box = my_standing(page(client, "club_home", club))
    assert watanabe.name in box and "太郎" not in box
    assert my_standing(page(reader(club, "aki"), "club_home", club)) == my_standing(aki_home)


def my_claim(html: str) -> str:
    found = re.search(r'<p class="card waiting" id="my-claim">.*?</p>', html, re.S)
    return found.group(0) if found else ""


def test_a_claim_waiting_for_an_owner_comes_with_the_club_and_stays_the_readers_own(club):
    """A member who said "this is me" and waits for an owner is told so on the club home: the
    claimed player's name is read with the club (no query of its own), and no other reader —
    another member without a player, the scorekeeper — is ever shown it."""
    from tournaments.services.claims import claim_reject

    _taro, watanabe, *_ = club["players"]
    waiting, other = (factories.UserFactory(username=n) for n in ("wait-user", "other-user"))
    for user in (waiting, other):
        membership_set(club=club["club"], user=user, role=Role.MEMBER)
    claim = player_claim(club=club["club"], user=waiting, player=watanabe)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(waiting)
    first = page(client, "club_home", club)
    assert watanabe.name in my_claim(first) and "waiting for an owner" in my_claim(first)
    with CaptureQueriesContext(connection) as ctx:
        second = page(client, "club_home", club)
    # the session, the user, the club with the reader's role, player and waiting claim
    assert len(ctx.captured_queries) == 3, [q["sql"] for q in ctx.captured_queries]
    assert my_claim(second) == my_claim(first)
    someone = Client(HTTP_ACCEPT_LANGUAGE="en")
    someone.force_login(other)
    assert my_claim(page(someone, "club_home", club)) == ""
    assert my_claim(page(reader(club, "kei", "en"), "club_home", club)) == ""
    assert my_claim(page(reader(club, "aki", "en"), "club_home", club)) == ""  # has a player
    claim_reject(claim=claim, by=club["people"]["own"])
    assert my_claim(page(client, "club_home", club)) == ""


def test_a_replica_failing_mid_page_leaves_the_primary_to_build_the_parts_again(club, monkeypatch):
    """What the shared parts were built from on a replica that then failed is forgotten: the
    primary reads it again, and the page is the page."""
    from contextlib import contextmanager

    from django.core.cache import cache
    from django.db import DatabaseError

    from tournaments.views import page_cache

    expected = page(reader(club, "aki"), "standings_all", club, "napoleon")
    cache.clear()
    failures, on_replica, read = [], [], []

    @contextmanager
    def failing_replica():
        on_replica.append(True)
        try:
            yield
        finally:
            on_replica.pop()
        raise DatabaseError("the replica went away")

    def note(execute, sql, params, many, context):
        read.append(("replica" if on_replica else "primary", sql))
        return execute(sql, params, many, context)

    monkeypatch.setattr(page_cache, "replica_caught_up", lambda **kw: True)
    monkeypatch.setattr(page_cache, "reading_replica", failing_replica)
    monkeypatch.setattr(page_cache, "replica_failed", failures.append)
    with connection.execute_wrapper(note):
        again = page(reader(club, "aki"), "standings_all", club, "napoleon")
    assert failures and all(isinstance(error, DatabaseError) for error in failures)
    assert section(again, "<table") == section(expected, "<table")
    standings_reads = {where for where, sql in read if "tournaments_standingaggregate" in sql}
    assert standings_reads == {"replica", "primary"}  # read again where it can be trusted
