"""The club's feeds (views/feeds.py): the Atom feed of its sessions and the iCalendar of its
tournaments and sessions, read through the test client, and what each reader may see there —
the same as on the session list and the tournament list."""

from __future__ import annotations

import datetime
import xml.etree.ElementTree as ET

import pytest
from django.urls import reverse

from tests import factories
from tests.hardening.helpers import napoleon_data
from tournaments.ical import escape_text, fold
from tournaments.selectors.sessions import session_detail
from tournaments.services import events as ev
from tournaments.services.deals import deal_record

ATOM = "{http://www.w3.org/2005/Atom}"
DAY = datetime.date(2026, 11, 21)
HOSTILE = 'Bad, name; \\ <b>&"\nnext'


def parse_ics(text: str) -> list[dict[str, str]]:
    """The calendar's VEVENTs as {property: raw value}: CRLF lines, continuations unfolded."""
    assert "\n" not in text.replace("\r\n", "")  # every line ends in CRLF, and only there
    lines = text.split("\r\n")
    assert lines[-1] == ""
    unfolded: list[str] = []
    for line in lines[:-1]:
        assert len(line.encode("utf-8")) <= 75
        if line.startswith(" "):
            unfolded[-1] += line[1:]
        else:
            unfolded.append(line)
    assert unfolded[0] == "BEGIN:VCALENDAR" and unfolded[-1] == "END:VCALENDAR"
    events, current = [], None
    for line in unfolded:
        if line == "BEGIN:VEVENT":
            current = {}
        elif line == "END:VEVENT":
            events.append(current)
            current = None
        elif current is not None:
            name, _, value = line.partition(":")
            current[name] = value
    return events


def unescape_text(value: str) -> str:
    out, chars = [], iter(value)
    for char in chars:
        if char == "\\":
            nxt = next(chars)
            out.append("\n" if nxt in "nN" else nxt)
        else:
            out.append(char)
    return "".join(out)


def atom_entries(response):
    root = ET.fromstring(response.content)
    assert root.tag == f"{ATOM}feed"
    return root, root.findall(f"{ATOM}entry")


@pytest.fixture
def setup(db):
    def make(*, is_public: bool, club_name: str = "ナポレオン部"):
        club = factories.ClubFactory(is_public=is_public, name=club_name)
        member = factories.UserFactory(username=f"member-{club.slug}")
        factories.MembershipFactory(club=club, user=member, role="member")
        wiki = factories.ClubRuleSetFactory(club=club, code="napoleon-wiki", preset="napoleon-wiki")
        names = ["太郎", "花子", "Ken", "ゆき", "Sam"]
        ids = [factories.PlayerFactory(club=club, name=n).pk for n in names]
        old = factories.session(club=club, ruleset=wiki, date=DAY - datetime.timedelta(days=7))
        new = factories.session(club=club, ruleset=wiki, date=DAY)
        for n in range(3):
            deal_record(session=new, data=napoleon_data(ids, n=n))
        deal_record(session=old, data=napoleon_data(ids, n=0))
        return club, member, wiki, old, new

    return make


@pytest.mark.django_db
def test_atom_feed_lists_sessions_newest_first_with_results(client, setup):
    club, member, wiki, old, new = setup(is_public=True)
    response = client.get(reverse("club_sessions_feed", args=[club.slug]))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/atom+xml")
    root, entries = atom_entries(response)
    assert club.name in root.find(f"{ATOM}title").text
    links = [e.find(f"{ATOM}link").get("href") for e in entries]
    assert links == [
        "http://testserver" + reverse("session_detail", args=[club.slug, s.pk]) for s in (new, old)
    ]
    summary = entries[0].find(f"{ATOM}summary").text
    assert summary.endswith("3ディール")  # Japanese first
    detail = session_detail(new)
    assert detail.winners
    assert summary.startswith("トップ: " + ", ".join(detail.winners))
    assert f"{detail.totals[0].points:+d}" in summary
    assert "2026-11-21" in entries[0].find(f"{ATOM}title").text


@pytest.mark.django_db
def test_private_club_feeds_404_to_anonymous_and_outsiders_200_to_members(client, setup):
    club, member, *_ = setup(is_public=False)
    urls = [
        reverse("club_sessions_feed", args=[club.slug]),
        reverse("club_tournaments_ics", args=[club.slug]),
    ]
    for url in urls:
        assert client.get(url).status_code == 404
    client.force_login(factories.UserFactory(username="passer-by"))
    for url in urls:
        assert client.get(url).status_code == 404
    client.force_login(member)
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200
        assert "private" in response["Cache-Control"]  # never kept by a shared cache
    assert client.post(urls[0]).status_code == 405


@pytest.mark.django_db
def test_calendar_lists_tournaments_and_sessions_private_ones_for_members(client, setup):
    club, member, wiki, old, new = setup(is_public=True)
    public = ev.tournament_create(
        club=club, name="秋の大会", date=DAY, ruleset=wiki, is_public=True
    )
    private = ev.tournament_create(
        club=club, name="部内リーグ", date=DAY + datetime.timedelta(days=14), ruleset=wiki,
        is_public=False,
    )  # fmt: skip
    url = reverse("club_tournaments_ics", args=[club.slug])
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    events = {e["UID"]: e for e in parse_ics(response.content.decode())}
    assert f"tournament-{public.pk}@efuda" in events
    assert f"tournament-{private.pk}@efuda" not in events
    assert "部内リーグ" not in response.content.decode()
    cup = events[f"tournament-{public.pk}@efuda"]
    assert unescape_text(cup["SUMMARY"]) == "秋の大会"
    assert cup["DTSTART;VALUE=DATE"] == "20261121"
    assert cup["DTEND;VALUE=DATE"] == "20261122"
    assert cup["URL"].endswith(reverse("tournament_detail", args=[public.pk]))
    assert cup["DTSTAMP"].endswith("Z")
    assert {f"session-{old.pk}@efuda", f"session-{new.pk}@efuda"} <= set(events)

    client.force_login(member)
    again = {e["UID"] for e in parse_ics(client.get(url).content.decode())}
    assert f"tournament-{private.pk}@efuda" in again
    assert set(events) < again  # the same objects keep their UID


@pytest.mark.django_db
def test_private_tournament_tables_stay_out_of_the_feeds_of_visitors(client, setup):
    club, member, wiki, *_ = setup(is_public=True)
    t = factories.tournament(club=club, ruleset=wiki, entrants=5, is_public=False)
    table = factories.started_round(t).tables.get()
    session_url = reverse("session_detail", args=[club.slug, table.session_id])
    atom = reverse("club_sessions_feed", args=[club.slug])
    ics = reverse("club_tournaments_ics", args=[club.slug])
    assert session_url not in client.get(atom).content.decode()
    assert f"session-{table.session_id}@efuda" not in client.get(ics).content.decode()
    client.force_login(member)
    assert session_url in client.get(atom).content.decode()
    assert f"session-{table.session_id}@efuda" in client.get(ics).content.decode()


@pytest.mark.django_db
def test_frozen_round_stays_out_of_the_feed_until_the_reveal(client, setup):
    club, member, wiki, *_ = setup(is_public=True)
    t = factories.tournament(club=club, ruleset=wiki, entrants=5, is_public=True, rounds_planned=1)
    ev.tournament_freeze_set(tournament=t, hidden_rounds=1)
    table = factories.started_round(t).tables.get()
    ev.table_deal_record(table=table, data=napoleon_data(table.seats), staff=True)
    session_url = reverse("session_detail", args=[club.slug, table.session_id])
    atom = reverse("club_sessions_feed", args=[club.slug])
    for who in (None, member):
        if who:
            client.force_login(who)
        assert session_url not in client.get(atom).content.decode()
    ev.round_finish(rnd=table.round)
    ev.tournament_standings_reveal(tournament=t)
    assert session_url in client.get(atom).content.decode()


@pytest.mark.django_db
def test_hostile_names_are_escaped_in_both_feeds(client, setup):
    club, member, wiki, *_ = setup(is_public=True, club_name=HOSTILE)
    t = ev.tournament_create(club=club, name=HOSTILE, date=DAY, ruleset=wiki, is_public=True)
    response = client.get(reverse("club_sessions_feed", args=[club.slug]))
    root, _entries = atom_entries(response)  # parses: the name is escaped XML
    # the feed's title is one line (the syndication framework turns line breaks into spaces)
    assert HOSTILE.replace("\n", " ") in root.find(f"{ATOM}title").text
    assert "<b>" not in response.content.decode()
    text = client.get(reverse("club_tournaments_ics", args=[club.slug])).content.decode()
    events = {e["UID"]: e for e in parse_ics(text)}
    raw = events[f"tournament-{t.pk}@efuda"]["SUMMARY"]
    # names are kept on one line (the services turn a line break into a space)
    assert raw == 'Bad\\, name\\; \\\\ <b>&" next'
    assert unescape_text(raw) == HOSTILE.replace("\n", " ")
    assert escape_text("a\r\nb\nc") == "a\\nb\\nc"


def test_fold_keeps_lines_within_75_octets_and_never_splits_a_character():
    line = "SUMMARY:" + "大会" * 60
    folded = fold(line)
    parts = folded.split("\r\n")
    assert all(len(p.encode("utf-8")) <= 75 for p in parts)
    assert parts[0] + "".join(p[1:] for p in parts[1:]) == line
    assert fold("SHORT:x") == "SHORT:x"


@pytest.mark.django_db
def test_club_home_links_to_both_feeds(client, setup):
    club, *_ = setup(is_public=True)
    html = client.get(reverse("club_home", args=[club.slug])).content.decode()
    atom = reverse("club_sessions_feed", args=[club.slug])
    ics = reverse("club_tournaments_ics", args=[club.slug])
    assert '<link rel="alternate" type="application/atom+xml"' in html
    assert f'href="{atom}"' in html and f'href="{ics}"' in html
    assert html.count(atom) >= 2 and html.count(ics) >= 2  # the head and a visible link
