"""One rule for a tournament's deals, wherever they appear (docs/tournaments.md, "Who sees a
tournament's deals"): the matrix of places × tournament states × readers.

A public club runs a three-round tournament (two tables of five a round) and an ordinary
session. Player 幽霊 joins for round 3 only, so their name anywhere shows that a round-3 deal
leaked; every other figure is compared with the sums of the score lines the reader may see.

Places (URL and format):
- ``/c/<club>/`` — home: this month's leaders, latest sessions (links);
- ``/c/<club>/sessions/`` — the session list (links);
- ``/c/<club>/sessions/<id>/``, ``…/sheet.pdf``, ``…/blank.pdf`` — a round-1 and a round-3 table;
- ``/c/<club>/deals/<id>/history/`` — a round-3 deal's history (members);
- ``/c/<club>/standings/napoleon/`` all time, ``…/<YYYY>/``, ``…/<YYYY>/<MM>/`` — HTML,
  ``?format=csv``, ``?format=pdf``;
- ``/c/<club>/players/<id>/`` — 幽霊's page (404 where the private tournament is hidden) and a
  round-1 player's, who also plays the club's ordinary sessions (totals, charts);
- ``/c/<club>/ratings/napoleon/?all=1`` — the ratings (what every reader sees);
- ``/t/<id>/``, ``/t/<id>/standings/`` (幽霊's points), ``/t/<id>/results.pdf``,
  ``/t/<id>/table/<round-3 table>/``;
- ``manage.py export_standings`` (and ``--all``).

States: public; private; frozen (the last round hidden, round 3 running); private and frozen;
finished while frozen; finished and revealed. Readers: not logged in, member, member on the
tournament's extra staff, member removed from the club (was extra staff), scorekeeper (club
staff), PIN holder of the other round-3 table (not logged in).
"""

from __future__ import annotations

import csv
import datetime
import io
import re
from html import unescape

import pytest
from django.core.management import call_command
from django.db.models import Count, Sum
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests import factories
from tests.hardening.helpers import napoleon_data
from tests.public.helpers import shared
from tests.reports.test_pdfs import pdf_text
from tournaments.models import Deal, Membership, ScoreLine
from tournaments.services import events as ev
from tournaments.services.deals import deal_record
from tournaments.services.members import member_remove

pytestmark = pytest.mark.django_db(transaction=False)

GHOST = "幽霊"
STATES = ["public", "private", "frozen", "private_frozen", "finished_frozen", "revealed"]
READERS = ["anonymous", "member", "extra", "removed", "staff", "pin"]


def _solo_win(seats, napoleon, bid=16):
    data = napoleon_data(seats, n=3)  # n = 3: a solo
    data.update({"napoleon": str(napoleon), "bid": bid, "honours": bid + 1, "trump": "S"})
    return data


def build(state: str):
    today = timezone.localdate()
    club = factories.ClubFactory(is_public=True, slug="matrix")
    users = {}
    for name, role in (
        ("owner", "owner"), ("staff", "scorekeeper"), ("member", "member"),
        ("extra", "member"), ("removed", "member"),
    ):  # fmt: skip
        users[name] = factories.UserFactory(username=f"m-{name}")
        factories.MembershipFactory(club=club, user=users[name], role=role)
    wiki = factories.ClubRuleSetFactory(club=club, code="napoleon-wiki", preset="napoleon-wiki")
    t = ev.tournament_create(
        club=club, name="冬の大会", date=today, ruleset=wiki, rounds_planned=3,
        is_public=state not in ("private", "private_frozen"), seed=5, user=users["staff"],
    )  # fmt: skip
    entries = [ev.entry_add(tournament=t, name=f"選手{i}", checked_in=True) for i in range(10)]
    ev.tournament_staff_add(tournament=t, who="m-extra")
    ev.tournament_staff_add(tournament=t, who="m-removed")
    if state != "public" and state != "private":
        ev.tournament_freeze_set(tournament=t, hidden_rounds=1)
    # an ordinary session of the club, the same day
    plain = factories.session(club=club, ruleset=wiki, date=today, table="A")
    regulars = [e.player_id for e in entries[:5]]
    for n in range(2):
        deal_record(session=plain, data=napoleon_data(regulars, n=n), user=users["owner"])
    tables = {}
    for number in (1, 2, 3):
        if number == 3:
            ev.entry_leave(entry=entries[9])
            ghost_entry = ev.entry_add(tournament=t, name=GHOST, checked_in=True)
        rnd = ev.round_draw(tournament=t)
        ev.round_start(rnd=rnd, user=users["owner"])
        tables[number] = list(rnd.tables.order_by("number"))
        for table in tables[number]:
            for n in range(2):
                seats = table.seats
                data = napoleon_data(seats, n=n + number)
                if number == 3 and ghost_entry.player_id in seats:
                    data = _solo_win(seats, ghost_entry.player_id, bid=16 + n)
                ev.table_deal_record(table=table, data=data, user=users["owner"], staff=True)
        if number < 3 or state in ("finished_frozen", "revealed"):
            ev.round_finish(rnd=rnd)
    if state == "revealed":
        ev.tournament_standings_reveal(tournament=t)
    ghost_table = next(tb for tb in tables[3] if ghost_entry.player_id in tb.seats)
    other_table = next(tb for tb in tables[3] if tb is not ghost_table)
    pin_entry = t.entries.get(player_id=other_table.seats[0])
    pin = ev.pin_issue(entry=pin_entry)
    member_remove(membership=Membership.objects.get(club=club, user=users["removed"]))
    return {
        "club": club, "t": t, "users": users, "tables": tables, "plain": plain,
        "ghost": ghost_entry.player, "ghost_table": ghost_table, "pin": pin,
        "regular": entries[0].player,
    }  # fmt: skip


def sees_round(state: str, reader: str, number: int) -> bool:
    """The rule, stated independently of the code under test."""
    if reader == "staff":
        return True
    private = state in ("private", "private_frozen")
    frozen = state in ("frozen", "private_frozen", "finished_frozen")
    if private and reader not in ("member", "extra"):
        return False
    return not (frozen and number == 3 and reader != "extra")


def client_for(world, reader: str) -> Client:
    client = Client(REMOTE_ADDR="198.51.100.7")
    if reader in ("member", "extra", "removed", "staff"):
        client.force_login(world["users"][reader])
    elif reader == "pin":
        response = client.post(
            reverse("tournament_pin", args=[world["t"].pk]), {"pin": world["pin"]}
        )
        assert response.status_code == 302, response.content.decode()[:500]
    return client


def visible_sessions(world, state, reader) -> set[int]:
    ids = {world["plain"].pk}
    for number, tables in world["tables"].items():
        if sees_round(state, reader, number):
            ids |= {tb.session_id for tb in tables}
    return ids


def expected_rows(world, sessions, period=None) -> dict[str, tuple[int, int]]:
    lines = ScoreLine.objects.filter(club=world["club"], game="napoleon", session_id__in=sessions)
    if period is not None:
        lines = lines.filter(date__year=period.year, date__month=period.month)
    return {
        row["player__name"]: (row["points"], row["deals"])
        for row in lines.values("player__name").annotate(points=Sum("points"), deals=Count("id"))
    }


def csv_rows(response) -> dict[str, tuple[int, int]]:
    text = response.content.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text)))[1:]  # rank, player, points, deals, … (any language)
    return {r[1]: (int(r[2]), int(r[3])) for r in rows}


STANDINGS_ROW = re.compile(
    r'<td class="player"><a href="[^"]*"><bdi>([^<]*)</bdi></a></td>\s*'
    r'<td class="num">([^<]*)</td>\s*<td class="num">([^<]*)</td>'
)


def html_rows(response) -> dict[str, tuple[int, int]]:
    """The standings table as the page shows it (its shared part may come from the cache)."""
    html = response.content.decode()
    return {
        unescape(name): (int(points), int(deals))
        for name, points, deals in STANDINGS_ROW.findall(html)
    }


def without_token(response) -> str:
    return re.sub(r'"[A-Za-z0-9]{64}"', "", response.content.decode())


def session_links(html: str, club) -> set[int]:
    return {int(m) for m in re.findall(rf"/c/{club.slug}/sessions/(\d+)/", html)}


@pytest.mark.parametrize("state", STATES)
def test_what_each_reader_sees_of_a_tournament_everywhere(
    state, django_capture_on_commit_callbacks, settings
):
    kept_seconds = settings.EFUDA_PAGE_CACHE_SECONDS
    assert kept_seconds  # pages and their parts are kept: every reader below reads through it
    with django_capture_on_commit_callbacks(execute=True):  # the ratings' replay after a reveal
        world = build(state)
    club, t = world["club"], world["t"]
    today = timezone.localdate()
    month = datetime.date(today.year, today.month, 1)
    slug = club.slug
    round1 = world["tables"][1][0].session_id
    round3 = world["ghost_table"].session_id
    round3_deal = Deal.objects.filter(session_id=round3).first()
    standings_urls = {
        None: reverse("standings_all", args=[slug, "napoleon"]),
        "season": reverse("standings_season", args=[slug, "napoleon", today.year]),
        month: reverse("standings_month", args=[slug, "napoleon", today.year, today.month]),
    }
    for reader in READERS:
        client = client_for(world, reader)
        seen = visible_sessions(world, state, reader)
        ghost_seen = sees_round(state, reader, 3)
        where = f"{state}/{reader}"
        tournament_sessions = {tb.session_id for tbs in world["tables"].values() for tb in tbs}

        # session list and home: exactly the visible tables are linked
        listing = client.get(reverse("session_list", args=[slug]) + "?per_page=100")
        assert listing.status_code == 200, where
        linked = session_links(listing.content.decode(), club)
        assert linked & tournament_sessions == seen & tournament_sessions, where
        home = client.get(reverse("club_home", args=[slug]))
        home_linked = session_links(home.content.decode(), club) & tournament_sessions
        assert home_linked <= seen, where
        # session pages and sheets: 404 exactly where the deals are hidden
        for session_id in (round1, round3):
            expected = 200 if session_id in seen else 404
            for name in ("session_detail", "session_sheet_pdf", "session_blank_pdf"):
                key = "pk" if name == "session_detail" else "session_id"
                url = reverse(name, kwargs={"club_slug": slug, key: session_id})
                assert client.get(url).status_code == expected, (where, name, session_id)
        history = client.get(reverse("deal_history", args=[slug, round3_deal.pk]))
        if reader in ("member", "extra", "staff"):
            assert history.status_code == (200 if ghost_seen else 404), where
        else:
            assert history.status_code in (302, 403, 404), where
        # standings in every period and format: the sums of the visible lines
        for period, url in standings_urls.items():
            expected = expected_rows(world, seen, period if period != "season" else None)
            page = client.get(url)
            assert html_rows(page) == expected, (where, url)
            assert (GHOST in page.content.decode()) == ghost_seen, (where, url)
            assert csv_rows(client.get(url + "?format=csv")) == expected, (where, url)
            if period is None:  # one PDF per reader keeps the test short
                text = pdf_text(client.get(url + "?format=pdf").content)
                assert (GHOST in text) == ghost_seen, where
        leaders = shared(home)["home"].leaders["napoleon"]
        points = sorted((p for p, _d in expected_rows(world, seen, month).values()), reverse=True)
        assert [row.points for row in leaders] == points[:3], where
        assert (GHOST in [row.name for row in leaders]) == ghost_seen, where
        # player pages: 幽霊 only played hidden deals when round 3 is hidden; known only from
        # a private tournament, 幽霊 does not exist for whoever may not see it (a frozen round
        # hides points, never a player)
        ghost_page = client.get(reverse("player_detail", args=[slug, world["ghost"].pk]))
        if not sees_round(state, reader, 1):
            assert ghost_page.status_code == 404 and GHOST not in ghost_page.content.decode()
        else:
            assert ("napoleon" in shared(ghost_page)["stats"].totals) == ghost_seen, where
            by_bid = sum(r.deals for r in shared(ghost_page)["stats"].by_bid)
            assert (by_bid > 0) == ghost_seen, where
        regular = world["regular"]
        page = client.get(reverse("player_detail", args=[slug, regular.pk]))
        total = shared(page)["stats"].totals["napoleon"]
        assert (total["points"], total["deals"]) == expected_rows(world, seen)[regular.name], where
        # ratings: what every reader of the club sees, whoever asks
        ratings = client.get(reverse("ratings", args=[slug, "napoleon"]) + "?all=1")
        rated = sees_round(state, "anonymous", 3)
        assert (GHOST in ratings.content.decode()) == rated, where
        # the tournament's own pages answer by the same rule
        detail = client.get(reverse("tournament_detail", args=[t.pk]))
        may_see_tournament = sees_round(state, reader, 1) or reader == "pin"
        assert detail.status_code == (200 if may_see_tournament else 404), where
        standings = client.get(reverse("tournament_standings", args=[t.pk]))
        if may_see_tournament:
            row = next(r for r in shared(standings)["standings"].rows if r.name == GHOST)
            assert (row.points != 0) == (ghost_seen or reader == "pin" and not _frozen(state))
        else:
            assert standings.status_code == 404, where
        # what the cache gave this reader is what a render of their own shows (parts kept for
        # an earlier reader with another view would differ: 幽霊, the sums, the links)
        pages = [reverse("club_home", args=[slug]), standings_urls[None], standings_urls[month],
                 reverse("player_detail", args=[slug, world["ghost"].pk]),
                 reverse("player_detail", args=[slug, regular.pk])]  # fmt: skip
        kept = [without_token(client.get(address)) for address in pages]
        settings.EFUDA_PAGE_CACHE_SECONDS = 0
        fresh = [without_token(client.get(address)) for address in pages]
        settings.EFUDA_PAGE_CACHE_SECONDS = kept_seconds
        assert kept == fresh, where
        table = client.get(reverse("tournament_table", args=[t.pk, world["ghost_table"].pk]))
        if reader == "staff" or reader == "extra":
            assert table.status_code == 200, where
        elif reader == "pin":  # another table's card: refused (410 once its round is over)
            finished = state in ("finished_frozen", "revealed")
            assert table.status_code == (410 if finished else 403), where
            assert GHOST not in table.content.decode(), where
        elif not may_see_tournament:  # nothing of a private tournament, not even its seating
            assert table.status_code == 404, where
            assert GHOST not in table.content.decode(), where

    # the command line prints what every reader sees, or everything with --all
    out = io.StringIO()
    call_command("export_standings", club=club.slug, game="napoleon", stdout=out)
    assert (GHOST in out.getvalue()) == sees_round(state, "anonymous", 3)
    out = io.StringIO()
    call_command("export_standings", club=club.slug, game="napoleon", everything=True, stdout=out)
    assert GHOST in out.getvalue()


def _frozen(state):
    return state in ("frozen", "private_frozen", "finished_frozen")
