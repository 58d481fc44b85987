"""A member's secret feed links (services/feed_keys.py, views/feed_keys.py, views/feeds.py),
through the test client: made on the member's page, read by a client with no login as that
member reads, and dead once revoked, made anew, or when the membership or the account ends."""

from __future__ import annotations

import datetime
import re
import xml.etree.ElementTree as ET

import pytest
from django.test import Client
from django.urls import reverse

from tests import factories
from tests.hardening.helpers import napoleon_data
from tournaments.models import FeedKey, Membership
from tournaments.services import events as ev
from tournaments.services.deals import deal_record

pytestmark = pytest.mark.django_db

ATOM = "{http://www.w3.org/2005/Atom}"
DAY = datetime.date(2026, 11, 21)
KEY = re.compile(r"\?key=(efudafeed_[A-Za-z0-9_-]+)")


def make_club(*, is_public: bool = False, slug: str = "kura"):
    """A club with an owner, a member, one session of five players and a private
    tournament whose first round is being played."""
    club = factories.ClubFactory(is_public=is_public, slug=slug, name=f"部 {slug}")
    owner = factories.UserFactory(username=f"owner-{slug}")
    member = factories.UserFactory(username=f"member-{slug}")
    factories.MembershipFactory(club=club, user=owner, role="owner")
    factories.MembershipFactory(club=club, user=member, role="member")
    wiki = factories.ClubRuleSetFactory(club=club, code="napoleon-wiki", preset="napoleon-wiki")
    ids = [factories.PlayerFactory(club=club, name=f"{slug}{n}").pk for n in range(5)]
    session = factories.session(club=club, ruleset=wiki, date=DAY)
    deal_record(session=session, data=napoleon_data(ids, n=0))
    return club, owner, member, wiki, session


def make_links(user, club) -> str:
    """The member's page makes new links; the key they hold (the page shows it once)."""
    client = Client()
    client.force_login(user)
    response = client.post(reverse("club_feed_keys", args=[club.slug]), {"action": "renew"})
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]  # never kept by the browser
    keys = set(KEY.findall(response.content.decode()))
    assert len(keys) == 1  # the same key in both links
    return keys.pop()


def feed(club, key: str | None, client: Client | None = None, name="club_sessions_feed"):
    url = reverse(name, args=[club.slug]) + (f"?key={key}" if key else "")
    return (client or Client()).get(url)


def entry_links(response) -> list[str]:
    root = ET.fromstring(response.content)
    return [e.find(f"{ATOM}link").get("href") for e in root.findall(f"{ATOM}entry")]


def test_a_key_reads_the_private_clubs_feeds_without_login(client):
    club, _owner, member, _wiki, session = make_club()
    assert feed(club, None).status_code == 404  # an outsider without a key
    assert feed(club, None, name="club_tournaments_ics").status_code == 404
    key = make_links(member, club)
    response = feed(club, key)
    assert response.status_code == 200
    assert "private" in response["Cache-Control"]  # no shared cache keeps it
    assert entry_links(response) == [
        "http://testserver" + reverse("session_detail", args=[club.slug, session.pk])
    ]
    root = ET.fromstring(response.content)  # the feed names itself with its key
    assert [x.get("href") for x in root.findall(f"{ATOM}link") if x.get("rel") == "self"] == [
        f"http://testserver{reverse('club_sessions_feed', args=[club.slug])}?key={key}"
    ]
    ics = feed(club, key, name="club_tournaments_ics")
    assert ics.status_code == 200 and f"session-{session.pk}@efuda" in ics.content.decode()
    assert feed(club, key + "x").status_code == 404
    assert feed(club, "").status_code == 404


def test_the_key_reads_as_its_person_whoever_asks(client):
    club, owner, member, wiki, _session = make_club(is_public=True)
    t = factories.tournament(club=club, ruleset=wiki, entrants=5, is_public=True, rounds_planned=1)
    ev.tournament_freeze_set(tournament=t, hidden_rounds=1)
    table = factories.started_round(t).tables.get()
    ev.table_deal_record(table=table, data=napoleon_data(table.seats), staff=True)
    frozen = reverse("session_detail", args=[club.slug, table.session_id])
    key = make_links(member, club)
    client.force_login(owner)  # the owner sees the frozen round on their own ...
    assert any(link.endswith(frozen) for link in entry_links(feed(club, None, client)))
    # ... but with the member's key, the feed is the member's: the freeze holds
    assert not any(link.endswith(frozen) for link in entry_links(feed(club, key, client)))


def test_a_private_tournament_shows_to_a_members_key_not_to_the_plain_link():
    club, _owner, member, wiki, _session = make_club(is_public=True)
    private = ev.tournament_create(club=club, name="部内リーグ", date=DAY, ruleset=wiki,
                                   is_public=False)  # fmt: skip
    uid = f"tournament-{private.pk}@efuda"
    assert uid not in feed(club, None, name="club_tournaments_ics").content.decode()
    key = make_links(member, club)
    assert uid in feed(club, key, name="club_tournaments_ics").content.decode()


def test_new_links_revoke_the_old_and_revoke_ends_them(client):
    club, _owner, member, *_ = make_club()
    old = make_links(member, club)
    new = make_links(member, club)
    assert old != new
    assert feed(club, old).status_code == 404
    assert feed(club, new).status_code == 200
    client.force_login(member)
    page = client.get(reverse("club_feed_keys", args=[club.slug])).content.decode()
    assert new not in page and not KEY.search(page)  # shown once only
    response = client.post(reverse("club_feed_keys", args=[club.slug]), {"action": "revoke"})
    assert response.status_code == 302
    assert feed(club, new).status_code == 404
    assert feed(club, new, name="club_tournaments_ics").status_code == 404
    assert FeedKey.objects.filter(revoked_at__isnull=True).count() == 0


def test_a_removed_members_key_dies_and_stays_dead_if_they_come_back(client):
    club, owner, member, *_ = make_club()
    key = make_links(member, club)
    client.force_login(owner)
    membership = Membership.objects.get(club=club, user=member)
    client.post(reverse("member_remove", args=[club.slug, membership.pk]))
    assert not Membership.objects.filter(club=club, user=member).exists()
    assert feed(club, key).status_code == 404
    client.post(reverse("member_add", args=[club.slug]), {"username": member.username,
                                                           "role": "member"})  # fmt: skip
    assert Membership.objects.filter(club=club, user=member).exists()
    assert feed(club, key).status_code == 404


def test_a_deactivated_accounts_key_dies():
    club, _owner, member, *_ = make_club()
    key = make_links(member, club)
    member.is_active = False
    member.save(update_fields=["is_active"])
    assert feed(club, key).status_code == 404


def test_a_key_never_shows_another_clubs_data():
    club_a, _o, member, *_ = make_club(slug="kura-a")
    club_b, _o2, _m2, _w2, session_b = make_club(slug="kura-b")
    factories.MembershipFactory(club=club_b, user=member, role="member")
    key_a = make_links(member, club_a)
    assert feed(club_b, key_a).status_code == 404  # a member of both, but the key is A's
    assert feed(club_b, key_a, name="club_tournaments_ics").status_code == 404
    session_b_url = reverse("session_detail", args=[club_b.slug, session_b.pk])
    assert not any(link.endswith(session_b_url) for link in entry_links(feed(club_a, key_a)))


def test_outsiders_cannot_reach_the_links_page():
    club, *_ = make_club()
    url = reverse("club_feed_keys", args=[club.slug])
    outsider = Client()
    assert outsider.get(url).status_code == 302  # to the login page
    outsider.force_login(factories.UserFactory(username="passer-by"))
    assert outsider.get(url).status_code == 404
    assert outsider.post(url, {"action": "renew"}).status_code == 404
    assert not FeedKey.objects.exists()


def test_the_club_home_links_members_to_their_secret_links(client):
    club, _owner, member, *_ = make_club(is_public=True)
    url = reverse("club_feed_keys", args=[club.slug])
    assert url not in client.get(reverse("club_home", args=[club.slug])).content.decode()
    client.force_login(member)
    assert url in client.get(reverse("club_home", args=[club.slug])).content.decode()


def test_a_key_read_too_often_waits(settings):
    settings.EFUDA_FEED_RATE_KEY = "2/m"
    club, _owner, member, *_ = make_club()
    key = make_links(member, club)
    assert [feed(club, key).status_code for _ in range(2)] == [200, 200]
    refused = feed(club, key, name="club_tournaments_ics")
    assert refused.status_code == 429 and 1 <= int(refused["Retry-After"]) <= 60
    assert feed(club, None).status_code == 404  # without the key: the club's plain answer
