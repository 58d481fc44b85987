"""PIN access behind the production proxy: failures are counted per client address (the one
login rate limiting uses, X-Real-IP from nginx) and per entry guessed; nobody can lock the
tournament; full-width digits work; a table's QR address leads to its PIN form."""

import pathlib
import re

import pytest
from django.test import override_settings
from django.urls import reverse

from tournaments.models import PinAttempt
from tournaments.services import events as svc

pytestmark = pytest.mark.django_db


def production_trusted_proxies() -> list[str]:
    """``TRUSTED_PROXIES`` as config/settings/production.py defaults it (nginx on this
    machine); the module itself refuses to load with the test settings' key."""
    path = pathlib.Path(__file__).resolve().parents[2] / "config" / "settings" / "production.py"
    found = re.search(r'env_list\("TRUSTED_PROXIES", "([^"]*)"\)', path.read_text())
    return found.group(1).split(",")


@pytest.fixture
def behind_proxy():
    """The production settings' trusted proxies, as nginx in deploy/ drives them."""
    with override_settings(TRUSTED_PROXIES=production_trusted_proxies()):
        yield


@pytest.fixture
def running(make_tournament):
    t = make_tournament(10, is_public=True)
    rnd = svc.round_start(rnd=svc.round_draw(tournament=t))
    return t, rnd, list(rnd.tables.order_by("number"))


def post_pin(client, t, address, **data):
    """A PIN posted through nginx (deploy/nginx-efuda.conf: X-Forwarded-For and X-Real-IP)."""
    return client.post(
        reverse("tournament_pin", args=[t.pk]),
        data,
        REMOTE_ADDR="127.0.0.1",  # always nginx
        HTTP_X_FORWARDED_FOR=address,
        HTTP_X_REAL_IP=address,
    )


def entry_at(t, table, seat):
    return t.entries.get(player_id=table.seats[seat - 1])


def test_a_visitor_guessing_bare_pins_locks_only_their_own_address(client, behind_proxy, running):
    t, rnd, tables = running
    entry = entry_at(t, tables[0], 1)
    pin = svc.pin_issue(entry=entry)
    for _ in range(svc.PIN_FAILURES_ALLOWED + 2):
        response = post_pin(client, t, "203.0.113.9", pin="000000" if pin != "000000" else "1")
        assert response.status_code == 400
    assert "Too many wrong PINs" in post_pin(client, t, "203.0.113.9", pin=pin).content.decode()
    assert set(PinAttempt.objects.values_list("address", flat=True)) == {"203.0.113.9"}
    # every other phone, all arriving from nginx's 127.0.0.1, still gets in
    player = client.__class__()
    response = post_pin(player, t, "198.51.100.4", pin=pin)
    assert response.status_code == 302
    assert response.url == reverse("tournament_table", args=[t.pk, tables[0].pk])


def test_guessing_one_player_blocks_that_player_from_that_address_only(
    client, behind_proxy, running
):
    t, rnd, tables = running
    table = tables[0]
    target, other = entry_at(t, table, 2), entry_at(t, table, 3)
    pin = svc.pin_issue(entry=target)
    other_pin = svc.pin_issue(entry=other)
    wrong = "111111" if pin != "111111" else "222222"
    for _ in range(svc.PIN_FAILURES_PER_ENTRY):
        post_pin(client, t, "203.0.113.9", table=table.number, seat=2, pin=wrong)
    refused = post_pin(client, t, "203.0.113.9", table=table.number, seat=2, pin=pin)
    assert refused.status_code == 400 and "Too many wrong PINs" in refused.content.decode()
    # the same address may still open another seat; the player themself, elsewhere, too
    assert (
        post_pin(client, t, "203.0.113.9", table=table.number, seat=3, pin=other_pin).status_code
        == 302
    )
    phone = client.__class__()
    assert (
        post_pin(phone, t, "198.51.100.4", table=table.number, seat=2, pin=pin).status_code == 302
    )
    # a new PIN from the staff starts the count again for that player
    new = svc.pin_issue(entry=target)
    third = client.__class__()
    assert post_pin(third, t, "203.0.113.9", table=table.number, seat=2, pin=new).status_code == 302


def test_a_right_pin_for_the_wrong_seat_is_refused(client, behind_proxy, running):
    t, rnd, tables = running
    table = tables[0]
    pin = svc.pin_issue(entry=entry_at(t, table, 1))
    response = post_pin(client, t, "198.51.100.4", table=table.number, seat=2, pin=pin)
    assert response.status_code == 400
    assert PinAttempt.objects.get().entry == entry_at(t, table, 2)


@pytest.mark.parametrize("typed", ["{pin_fw}", " {pin_fw} ", "{a}-{b}", "{a}\u3000{b}"])
def test_full_width_digits_and_spacing_are_accepted(client, behind_proxy, running, typed):
    t, rnd, tables = running
    entry = entry_at(t, tables[1], 1)
    pin = svc.pin_issue(entry=entry)
    full_width = pin.translate(str.maketrans("0123456789", "０１２３４５６７８９"))
    text = typed.format(pin_fw=full_width, a=full_width[:3], b=pin[3:])
    response = post_pin(client, t, "198.51.100.4", pin=text)
    assert response.status_code == 302
    assert not PinAttempt.objects.exists()


@pytest.mark.parametrize(
    "typed", ["１２３４５６７", "²２３４５６", "١٢٣٤٥٦", "12345x", "", "9" * 40]
)
def test_other_characters_never_match_and_never_500(client, behind_proxy, running, typed):
    t, rnd, tables = running
    response = post_pin(client, t, "198.51.100.4", pin=typed)
    assert response.status_code == 400


def test_odd_table_and_seat_numbers_answer_beside_the_field(client, behind_proxy, running):
    t, rnd, tables = running
    for data in (
        {"table": "99", "seat": "1", "pin": "123456"},
        {"table": "1", "seat": "8", "pin": "123456"},
        {"table": "1e20", "pin": "123456"},
        {"seat": "2", "pin": "123456"},
        {"table": "１", "seat": "Infinity", "pin": "123456"},
    ):
        response = post_pin(client, t, "198.51.100.4", **data)
        assert response.status_code == 400, data
        assert 'class="field-error"' in response.content.decode()
    assert not PinAttempt.objects.exists()  # no PIN was tried


def test_table_qr_address_shows_the_pin_form_for_that_table(client, running):
    t, rnd, tables = running
    table = tables[1]
    page = client.get(reverse("tournament_table", args=[t.pk, table.pk])).content.decode()
    assert f'name="table" value="{table.number}"' in page
    assert page.count('name="seat"') == len(table.seats)
    assert "選手" in page  # a public tournament: the seating is public
    entry = entry_at(t, table, 2)
    pin = svc.pin_issue(entry=entry)
    response = client.post(
        reverse("tournament_pin", args=[t.pk]), {"table": table.number, "seat": 2, "pin": pin}
    )
    assert response.status_code == 302
    assert client.get(response.url).status_code == 200


def test_on_a_tables_page_the_pin_alone_opens_the_players_own_table(client, running):
    """From the table's QR code: no seat chosen, the PIN finds its player (the seat choice is
    optional, and no radio is required)."""
    t, rnd, tables = running
    table = tables[1]
    page = client.get(reverse("tournament_table", args=[t.pk, table.pk])).content.decode()
    assert 'type="radio" name="seat"' in page and " required>" not in page.split("ev-seat")[1]
    pin = svc.pin_issue(entry=entry_at(t, table, 3))
    response = client.post(reverse("tournament_pin", args=[t.pk]),
                           {"table": table.number, "fixed": "1", "pin": pin})  # fmt: skip
    assert response.status_code == 302
    assert response.url == reverse("tournament_table", args=[t.pk, table.pk])


def test_a_pin_refused_for_a_seat_names_the_seat(client, behind_proxy, running):
    t, rnd, tables = running
    table = tables[0]
    pin = svc.pin_issue(entry=entry_at(t, table, 1))
    response = post_pin(client, t, "198.51.100.4", table=table.number, seat=2, fixed=1, pin=pin)
    html = response.content.decode()
    assert response.status_code == 400
    assert f"That PIN is not the PIN of seat 2 at table {table.number}." in html
    assert 'name="fixed" value="1"' in html  # still the table's own form, seats and all


def _normalised(response, url: str, tid: int) -> str:
    """The page without what differs between any two requests (CSRF token) and the address
    asked for (in the log-in and language links)."""
    page = response.content.decode()
    page = page.replace(f"next={url}", "next=URL").replace(f'name="next" value="{url}"', "NEXT")
    page = page.replace(f"/t/{tid}/", "/t/ID/")
    page = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", page)
    return re.sub(r'"X-CSRFToken": "[^"]*"', "", page)


def test_a_private_tournaments_pin_and_table_pages_answer_like_an_unknown_one(
    client, make_tournament
):
    """404 with the same bare form as for a tournament that does not exist: no name, round,
    table number or seat count; a table or seat that does not fit is a wrong PIN."""
    t = make_tournament(10)  # private, in a private club
    rnd = svc.round_start(rnd=svc.round_draw(tournament=t))
    table = rnd.tables.order_by("number").first()
    unknown = t.pk + 1000
    pages = set()
    for tid, table_id in ((t.pk, table.pk), (unknown, table.pk), (unknown, table.pk + 99)):
        for url in (
            reverse("tournament_pin", args=[tid]),
            reverse("tournament_table", args=[tid, table_id]),
        ):
            response = client.get(url)
            assert response.status_code == 404, url
            body = _normalised(response, url, tid)
            assert "選手" not in body and t.name not in body and 'value="1"' not in body
            pages.add(body)
    assert len(pages) == 1  # one page for them all
    answers = set()
    for tid in (t.pk, unknown):
        for data in ({"pin": "123456"}, {"table": "99", "seat": "1", "pin": "123456"},
                     {"table": str(table.number), "seat": "8", "pin": "123456"}):  # fmt: skip
            url = reverse("tournament_pin", args=[tid])
            response = client.post(url, data)
            assert response.status_code == 404, (tid, data)
            answers.add(re.sub(r'value="[^"]*"', "", _normalised(response, url, tid)))
    assert len(answers) == 1
    # the player with a PIN still gets in, from the table's QR page as from the PIN page
    pin = svc.pin_issue(entry=t.entries.get(player_id=table.seats[1]))
    response = client.post(
        reverse("tournament_pin", args=[t.pk]), {"table": table.number, "seat": 2, "pin": pin}
    )
    assert response.status_code == 302
    assert client.get(response.url).status_code == 200
