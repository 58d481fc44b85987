"""Check-in at the venue: the desk code of the minute (time given to the service, never slept
on), the staff's own check-in, closing at the draw, the draw taking the checked-in players; the
player's private page with their seat and PIN, and no PIN on a public page."""

import datetime
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from core.errors import EfudaError
from tests import club_versions, factories
from tournaments.models import CheckInHow, Tournament
from tournaments.selectors.events.registration import desk_code
from tournaments.services import events as svc

pytestmark = pytest.mark.django_db

NOON = datetime.datetime(2026, 11, 21, 12, 0, 30, tzinfo=datetime.UTC)


@pytest.fixture
def field(client, club, users, make_tournament):
    """A tournament with registration open and six members registered (選手1 … 選手6)."""
    t = make_tournament(0)
    svc.registration_set(tournament=t, open=True)
    people = []
    for i in range(1, 7):
        user = factories.UserFactory(username=f"p{i}")
        factories.MembershipFactory(club=club, user=user, role="member")
        client.force_login(user)
        client.post(reverse("tournament_register", args=[t.pk]), {"name": f"選手{i}"})
        people.append(user)
    assert t.entries.count() == 6
    return t, people


def entry_of(t, user):
    return t.entries.get(user=user)


def open_checkin(client, staff, t):
    client.force_login(staff)
    response = client.post(reverse("tournament_checkin_open", args=[t.pk]), {"open": "1"})
    assert response.status_code == 302
    t.refresh_from_db()
    return t


def test_desk_code_right_wrong_and_expired(client, users, field):
    t, people = field
    t = open_checkin(client, users["scorekeeper"], t)
    entry = entry_of(t, people[0])
    code = desk_code(t, NOON)
    assert re.fullmatch(r"\d{6}", code)
    assert desk_code(t, NOON + datetime.timedelta(minutes=1)) != code  # a new code each minute
    wrong = f"{(int(code) + 1) % 10**6:06d}"
    with pytest.raises(EfudaError) as err:
        svc.checkin_with_code(entry=entry, code=wrong, user=people[0], now=NOON)
    assert err.value.code == "checkin_code_wrong"
    # two minutes later the code has expired
    with pytest.raises(EfudaError) as err:
        svc.checkin_with_code(
            entry=entry, code=code, user=people[0], now=NOON + datetime.timedelta(minutes=2)
        )
    assert err.value.code == "checkin_code_wrong"
    entry.refresh_from_db()
    assert not entry.checked_in
    # read at :59 and typed at :00 of the next minute: still fine
    later = NOON + datetime.timedelta(seconds=45)
    done = svc.checkin_with_code(entry=entry, code=code, user=people[0], now=later)
    done.refresh_from_db()
    assert done.checked_in and done.checked_in_how == CheckInHow.CODE
    assert done.checked_in_at == later and done.checked_in_by == people[0]


def test_wrong_codes_are_throttled(users, field, client):
    t, people = field
    t = open_checkin(client, users["scorekeeper"], t)
    entry = entry_of(t, people[1])
    code = desk_code(t, NOON)
    wrong = f"{(int(code) + 1) % 10**6:06d}"
    for _ in range(svc.PIN_FAILURES_PER_ENTRY):
        with pytest.raises(EfudaError):
            svc.checkin_with_code(entry=entry, code=wrong, user=people[1], now=NOON)
    with pytest.raises(EfudaError) as err:  # now even the right code is refused
        svc.checkin_with_code(entry=entry, code=code, user=people[1], now=NOON)
    assert err.value.code == "checkin_throttled"


def test_check_in_through_the_phone_and_the_desk_page(client, users, field):
    t, people = field
    staff = users["scorekeeper"]
    me = reverse("tournament_me", args=[t.pk])
    client.force_login(people[0])
    page = client.get(me).content.decode()
    assert 'name="code"' not in page  # check-in not open yet
    t = open_checkin(client, staff, t)
    desk = client.get(reverse("tournament_desk", args=[t.pk])).content.decode()
    code = desk_code(t)
    shown = re.search(r'class="ev-desk-code"[^>]*>(\d{6})<', desk).group(1)
    assert shown in (code, desk_code(t, timezone.now() - datetime.timedelta(minutes=1)))
    assert "<svg" in desk and 'http-equiv="refresh"' in desk
    client.force_login(people[0])
    page = client.get(me + f"?code={shown}").content.decode()
    assert f'value="{shown}"' in page
    assert "ev-me-qr" in page  # … or the staff scan the player's own code
    client.post(reverse("tournament_my_check_in", args=[t.pk]), {"code": shown})
    page = client.get(me).content.decode()
    assert "Checked in with the desk code at" in page and "ev-me-qr" not in page
    # a wrong code says so, on the phone
    client.force_login(people[1])
    client.post(reverse("tournament_my_check_in", args=[t.pk]), {"code": "x"})
    assert "That is not the desk&#x27;s code" in client.get(me).content.decode()
    # the staff check a player in by hand: recorded as the staff's, with who
    client.force_login(staff)
    other = entry_of(t, people[2])
    client.post(reverse("tournament_entry_check_in", args=[t.pk, other.pk]), {"checked_in": "1"})
    other.refresh_from_db()
    assert other.checked_in_how == CheckInHow.STAFF and other.checked_in_by == staff
    listing = client.get(reverse("tournament_registration", args=[t.pk])).content.decode()
    assert "checked in with the desk code" in listing and "checked in by the staff" in listing
    # … and out again
    client.post(reverse("tournament_entry_check_in", args=[t.pk, other.pk]), {"checked_in": "0"})
    other.refresh_from_db()
    assert not other.checked_in and other.checked_in_how == ""


def test_draw_closes_check_in_and_takes_the_checked_in(client, users, field):
    t, people = field
    t = open_checkin(client, users["scorekeeper"], t)
    for user in people[:5]:  # five of six check in; the sixth never comes
        svc.checkin_with_code(entry=entry_of(t, user), code=desk_code(t), user=user)
    client.force_login(users["scorekeeper"])
    client.post(reverse("tournament_draw", args=[t.pk]))
    t.refresh_from_db()
    assert not t.checkin_open
    rnd = t.rounds.get()
    seated = {p for table in rnd.tables.all() for p in table.seats} | set(rnd.sitouts)
    assert seated == {entry_of(t, u).player_id for u in people[:5]}
    with pytest.raises(EfudaError) as err:
        svc.checkin_with_code(entry=entry_of(t, people[5]), code=desk_code(t), user=people[5])
    assert err.value.code == "checkin_closed"
    client.force_login(people[5])
    client.post(reverse("tournament_my_check_in", args=[t.pk]), {"code": desk_code(t)})
    page = client.get(reverse("tournament_me", args=[t.pk])).content.decode()
    assert "Check-in is not open" in page


def test_waiting_list_cannot_check_in(client, users, field):
    t, people = field
    svc.registration_set(tournament=t, open=True, cap=5)  # the sixth is still placed (no move)
    with club_versions.unchecked():  # stage a sixth on the waiting list
        t.entries.filter(user=people[5]).update(waiting=True)
    t = open_checkin(client, users["scorekeeper"], t)
    with pytest.raises(EfudaError) as err:
        svc.checkin_with_code(entry=entry_of(t, people[5]), code=desk_code(t), user=people[5])
    assert err.value.code == "checkin_waiting"


def test_without_check_in_opened_the_draw_is_as_before(make_tournament):
    t = make_tournament(10)
    rnd = svc.round_draw(tournament=t)
    assert not Tournament.objects.get(pk=t.pk).checkin_secret
    assert sum(len(table.seats) for table in rnd.tables.all()) + len(rnd.sitouts) == 10


def test_private_page_shows_seat_and_pin_only_to_the_player(client, users, field):
    t, people = field
    t = open_checkin(client, users["scorekeeper"], t)
    for user in people[:5]:
        svc.checkin_with_code(entry=entry_of(t, user), code=desk_code(t), user=user)
    rnd = svc.round_draw(tournament=t)
    table = rnd.tables.get()
    mine = entry_of(t, people[0])
    seat = table.seats.index(mine.player_id) + 1
    me = reverse("tournament_me", args=[t.pk])
    client.force_login(people[0])
    page = client.get(me).content.decode()
    assert f"Table {table.number}, seat {seat}" in page
    client.post(reverse("tournament_my_pin", args=[t.pk]))
    page = client.get(me).content.decode()
    pin = re.search(r'class="ev-pin-value">(\d{6})<', page).group(1)
    mine.refresh_from_db()
    assert svc.pin_digest(t, pin) == mine.pin_hash  # the player's own PIN …
    assert svc.pin_check(tournament=t, pin=pin, address="1.2.3.4") == mine
    assert pin not in client.get(me).content.decode()  # … shown once
    # another player sees their own seat, never this PIN
    client.force_login(people[1])
    page = client.get(me).content.decode()
    assert pin not in page and "ev-pin-value" not in page
    # the sixth, not checked in, has no seat
    client.force_login(people[5])
    page = client.get(me).content.decode()
    assert "Table " not in page and "ev-pin-value" not in page
    # public pages never show it
    with club_versions.unchecked():
        Tournament.objects.filter(pk=t.pk).update(is_public=True)
    client.logout()
    for name in ("tournament_detail", "tournament_standings"):
        assert pin not in client.get(reverse(name, args=[t.pk])).content.decode()
    # a player not seated asking for a PIN gets none
    client.force_login(people[5])
    client.post(reverse("tournament_my_pin", args=[t.pk]))
    assert not entry_of(t, people[5]).pin_hash
