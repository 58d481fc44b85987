"""Players register themselves (open, deadline, cap, waiting list, withdrawing, who may), all
through the pages a person uses on a phone; the staff's overrides stay."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from tests import club_versions, factories
from tournaments.models import Player, Tournament, TournamentEntry
from tournaments.services import events as svc
from tournaments.services.claims import claim_confirm, player_claim

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament(make_tournament):
    return make_tournament(0)


def member(club, name):
    user = factories.UserFactory(username=name)
    factories.MembershipFactory(club=club, user=user, role="member")
    return user


def open_registration(client, staff, t, **fields):
    client.force_login(staff)
    data = {"registration_open": "on", **fields}
    response = client.post(reverse("tournament_registration", args=[t.pk]), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    t.refresh_from_db()
    return t


def register(client, user, t, name=""):
    client.force_login(user)
    response = client.post(reverse("tournament_register", args=[t.pk]), {"name": name})
    assert response.status_code == 302
    return client.get(reverse("tournament_me", args=[t.pk])).content.decode()


def test_registration_closed_until_the_staff_open_it(client, club, users, tournament):
    page = register(client, users["member"], tournament, "新人")
    assert "Registration for this tournament is closed." in page
    assert not tournament.entries.exists()
    # the member's own page says so before any try, and offers no form
    assert 'name="name"' not in page


def test_register_new_name_and_linked_player(client, club, users, tournament):
    open_registration(client, users["scorekeeper"], tournament)
    page = register(client, users["member"], tournament, "新人 花子")
    assert "You are registered as <bdi>新人 花子</bdi>." in page
    entry = tournament.entries.get()
    assert entry.user == users["member"] and not entry.waiting and not entry.checked_in
    assert Player.objects.get(club=club, name="新人 花子").user is None  # no link without the owner
    # a person linked to a club player registers as that player, whatever name they type
    linked = member(club, "linked")
    regular = factories.PlayerFactory(club=club, name="常連")
    claim = player_claim(club=club, user=linked, player=regular)  # "this is me" …
    claim_confirm(claim=claim, by=users["owner"])  # … which the owner confirms
    page = register(client, linked, tournament, "別名")
    assert "You are registered as <bdi>常連</bdi>." in page
    # registering twice is refused, saying as whom
    page = register(client, linked, tournament, "")
    assert "You are already registered as 常連." in page
    assert tournament.entries.count() == 2


def test_existing_player_name_goes_through_the_claim(client, club, users, tournament):
    factories.PlayerFactory(club=club, name="太郎")
    open_registration(client, users["scorekeeper"], tournament)
    page = register(client, users["member"], tournament, "太郎")
    assert "太郎 is already a player of the club." in page and "This is me" in page
    assert not tournament.entries.exists()


def test_deadline(client, club, users, tournament):
    past = timezone.localtime(timezone.now() - datetime.timedelta(minutes=5))
    closes = past.strftime("%Y-%m-%dT%H:%M")
    open_registration(client, users["scorekeeper"], tournament, registration_closes=closes)
    page = register(client, users["member"], tournament, "遅刻")
    assert "Registration for this tournament closed at" in page
    assert not tournament.entries.exists()
    # before the deadline (the service told the time) it is accepted
    before = tournament.registration_closes - datetime.timedelta(minutes=1)
    entry = svc.entry_register(tournament=tournament, user=users["member"], name="間に合う",
                               now=before)  # fmt: skip
    assert entry.player.name == "間に合う"


def test_cap_waiting_list_and_moving_up(client, club, users, tournament):
    open_registration(client, users["scorekeeper"], tournament, registration_cap="2")
    a, b, c, d = (member(club, n) for n in ("a", "b", "c", "d"))
    register(client, a, tournament, "A")
    register(client, b, tournament, "B")
    page = register(client, c, tournament, "C")
    assert "Waiting list: number 1." in page
    page = register(client, d, tournament, "D")
    assert "Waiting list: number 2." in page
    assert list(tournament.entries.filter(waiting=True).values_list("player__name", flat=True)) \
        == ["C", "D"]  # fmt: skip
    # A withdraws: C (first in line) moves up, D is now first
    client.force_login(a)
    client.post(reverse("tournament_withdraw", args=[tournament.pk]))
    assert not tournament.entries.filter(player__name="A").exists()
    assert not TournamentEntry.objects.get(player__name="C").waiting
    page = client.get(reverse("tournament_me", args=[tournament.pk])).content.decode()
    assert 'name="name"' in page  # A may register again
    client.force_login(d)
    page = client.get(reverse("tournament_me", args=[tournament.pk])).content.decode()
    assert "Waiting list: number 1." in page
    # the staff's own add ignores the cap; their remove moves the list up too
    client.force_login(users["scorekeeper"])
    client.post(reverse("tournament_entry_add", args=[tournament.pk]), {"name": "E"})
    assert not TournamentEntry.objects.get(player__name="E").waiting
    b_entry = TournamentEntry.objects.get(player__name="B")
    client.post(reverse("tournament_entry_remove", args=[tournament.pk, b_entry.pk]))
    assert TournamentEntry.objects.get(player__name="D").waiting  # C and E fill the 2 places
    client.post(reverse("tournament_registration", args=[tournament.pk]),
                {"registration_open": "on", "registration_cap": "3"})  # fmt: skip
    assert not TournamentEntry.objects.get(player__name="D").waiting  # a higher cap moves up


def test_withdraw_refused_after_round_one_is_drawn(client, club, users, make_tournament):
    t = make_tournament(5)
    open_registration(client, users["scorekeeper"], t)
    register(client, users["member"], t, "六人目")
    svc.round_draw(tournament=t)
    client.force_login(users["member"])
    client.post(reverse("tournament_withdraw", args=[t.pk]))
    page = client.get(reverse("tournament_me", args=[t.pk])).content.decode()
    assert "Round 1 has been drawn, so you can no longer withdraw yourself" in page
    assert t.entries.filter(player__name="六人目").exists()


def test_members_only_unless_public_and_open_to_anyone(client, club, users, tournament):
    outsider = users["outsider"]
    open_registration(client, users["scorekeeper"], tournament)
    # a private tournament is not there at all for an outsider
    client.force_login(outsider)
    assert client.get(reverse("tournament_me", args=[tournament.pk])).status_code == 404
    assert client.post(reverse("tournament_register", args=[tournament.pk]),
                       {"name": "外部"}).status_code == 404  # fmt: skip
    with club_versions.unchecked():
        Tournament.objects.filter(pk=tournament.pk).update(is_public=True)
    page = register(client, outsider, tournament, "外部")
    assert f"Only members of {club.name} can register for this tournament." in page
    assert not tournament.entries.exists()
    open_registration(client, users["scorekeeper"], tournament, registration_anyone="on")
    page = register(client, outsider, tournament, "外部")
    assert "You are registered as <bdi>外部</bdi>." in page
    # the tournament page leads there
    detail = client.get(reverse("tournament_detail", args=[tournament.pk])).content.decode()
    assert reverse("tournament_me", args=[tournament.pk]) in detail


def test_anyone_is_ignored_on_a_private_tournament(client, users, tournament):
    open_registration(client, users["scorekeeper"], tournament, registration_anyone="on")
    assert tournament.registration_anyone is False


def test_own_page_needs_a_login(client, tournament):
    response = client.get(reverse("tournament_me", args=[tournament.pk]))
    assert response.status_code == 302 and "login" in response["Location"]


def test_registration_page_is_staff_only(client, users, tournament):
    client.force_login(users["member"])
    url = reverse("tournament_registration", args=[tournament.pk])
    assert client.get(url).status_code == 403
    assert client.post(url, {"registration_open": "on"}).status_code == 403
    tournament.refresh_from_db()
    assert not tournament.registration_open


def test_refusals_in_japanese(client, club, users, tournament):
    client.force_login(users["member"])
    me = reverse("tournament_me", args=[tournament.pk])
    page = client.get(me, HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "この大会の参加申込は受け付けていません。" in page
    svc.registration_set(tournament=tournament, open=True, cap=1)
    page = client.get(me, HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "参加を申し込む" in page and "定員は 1 人です。" in page
