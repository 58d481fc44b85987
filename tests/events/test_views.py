"""Tournament pages: staff vs PIN holder vs outsider; private tournaments are invisible."""

import io
import re

import pytest
from django.urls import reverse
from pypdf import PdfReader

from tests import club_versions
from tests.events.conftest import napoleon_win
from tournaments.models import Deal, Tournament
from tournaments.services import events as svc

pytestmark = pytest.mark.django_db


@pytest.fixture
def running(make_tournament):
    t = make_tournament(10)
    rnd = svc.round_start(rnd=svc.round_draw(tournament=t))
    return t, rnd, list(rnd.tables.order_by("number"))


def login_pin(client, t, entry):
    pin = svc.pin_issue(entry=entry)
    return client.post(reverse("tournament_pin", args=[t.pk]), {"pin": pin})


def record_post(table):
    data = napoleon_win(table.seats)
    return {
        "seats": table.seats,
        "napoleon": data["napoleon"],
        "bid": "13",
        "trump": "S",
        "called_suit": "S",
        "called_rank": "A",
        "adjutant": str(data["adjutant"]),
        "honours": "14",
        "discarded": "0",
        "last_trick": "",
    }


def test_private_tournament_invisible_to_outsiders(client, users, running):
    t, rnd, tables = running
    urls = [
        reverse("tournament_detail", args=[t.pk]),
        reverse("tournament_standings", args=[t.pk]),
        reverse("tournament_table", args=[t.pk, tables[0].pk]),
        reverse("tournament_results_pdf", args=[t.pk]),
    ]
    # a table's page is its QR code's address: without a PIN it is the PIN form (no names)
    for url in urls[:2] + urls[3:]:
        assert client.get(url).status_code == 404
    assert 'name="seat"' in client.get(urls[2]).content.decode()
    client.force_login(users["outsider"])
    for url in urls[:2] + urls[3:]:
        assert client.get(url).status_code == 404
    page = client.get(urls[2]).content.decode()
    assert 'name="seat"' in page and "選手" not in page and t.name not in page
    client.force_login(users["member"])
    assert client.get(urls[0]).status_code == 200
    assert client.get(urls[1]).status_code == 200
    assert 'name="seat"' in client.get(urls[2]).content.decode()  # a member without a PIN


def test_public_tournament_readable_by_anyone(client, running):
    t, rnd, tables = running
    with club_versions.unchecked():  # made public by site staff (the admin moves the version)
        Tournament.objects.filter(pk=t.pk).update(is_public=True)
    response = client.get(reverse("tournament_standings", args=[t.pk]))
    assert response.status_code == 200 and "選手1" in response.content.decode()
    assert client.get(reverse("tournament_timer", args=[t.pk])).status_code == 200
    page = client.get(reverse("tournament_table", args=[t.pk, tables[0].pk])).content.decode()
    assert 'name="seat"' in page  # the PIN form for that table


STAFF_POSTS = [
    ("tournament_draw", lambda t, r, e: [t.pk]),
    ("tournament_round_finish", lambda t, r, e: [t.pk, r.number]),
    ("tournament_round_timer", lambda t, r, e: [t.pk, r.number]),
    ("tournament_round_swap", lambda t, r, e: [t.pk, r.number]),
    ("tournament_round_start", lambda t, r, e: [t.pk, r.number]),
    ("tournament_entry_add", lambda t, r, e: [t.pk]),
    ("tournament_entry_check_in", lambda t, r, e: [t.pk, e.pk]),
    ("tournament_entry_drop", lambda t, r, e: [t.pk, e.pk]),
    ("tournament_entry_remove", lambda t, r, e: [t.pk, e.pk]),
    ("tournament_entry_pin", lambda t, r, e: [t.pk, e.pk]),
    ("tournament_adjustment_add", lambda t, r, e: [t.pk]),
    ("tournament_replace", lambda t, r, e: [t.pk]),
    ("tournament_pin_lockouts_clear", lambda t, r, e: [t.pk]),
]


@pytest.mark.parametrize(("name", "args"), STAFF_POSTS)
@pytest.mark.parametrize(
    ("role", "expected"),
    [
        ("anonymous", 302),
        ("outsider", 404),
        ("member", 403),
        ("scorekeeper", 302),
        ("owner", 302),
    ],
)
def test_staff_write_matrix(client, users, running, name, args, role, expected):
    t, rnd, tables = running
    entry = t.entries.first()
    if role != "anonymous":
        client.force_login(users[role])
    response = client.post(
        reverse(name, args=args(t, rnd, entry)),
        {"name": "新人", "points": "-1", "reason": "late", "entry": entry.pk},
    )
    assert response.status_code == expected
    if role == "anonymous":
        assert "/accounts/login/" in response["Location"]
    elif expected == 302:
        assert reverse("tournament_manage", args=[t.pk]) in response["Location"]


def test_manage_page_and_create(client, users, club, wiki):
    client.force_login(users["member"])
    assert client.get(reverse("tournament_new", args=[club.slug])).status_code == 403
    client.force_login(users["scorekeeper"])
    response = client.post(
        reverse("tournament_new", args=[club.slug]),
        {
            "name": "新人戦",
            "date": "2026-12-05",
            "ruleset": wiki.pk,
            "rounds_planned": "3",
            "draw_method": "mixing",
            "standings_mode": "raw",
        },
    )
    t = Tournament.objects.get(name="新人戦")
    assert response.status_code == 302 and t.created_by == users["scorekeeper"]
    client.post(
        reverse("tournament_entry_add", args=[t.pk]), {"name": "<b>x</b>", "checked_in": "on"}
    )
    page = client.get(reverse("tournament_manage", args=[t.pk])).content.decode()
    assert "&lt;b&gt;x&lt;/b&gt;" in page and "<b>x</b>" not in page
    assert "<title>Run the tournament · " in page  # not "Run · 新人戦"
    error = client.post(
        reverse("tournament_new", args=[club.slug]),
        {
            "name": "x",
            "date": "2026-12-05",
            "ruleset": wiki.pk,
            "rounds_planned": "3",
            "draw_method": "mixing",
            "standings_mode": "raw",
            "table_size": "7",
        },
    )
    assert error.status_code == 200 and "7-player tables are not allowed" in error.content.decode()


def test_pin_shown_once_to_staff(client, users, running):
    t, rnd, tables = running
    entry = t.entries.first()
    client.force_login(users["scorekeeper"])
    client.post(reverse("tournament_entry_pin", args=[t.pk, entry.pk]))
    page = client.get(reverse("tournament_manage", args=[t.pk])).content.decode()
    pin = re.search(r'class="ev-pin-value">(\d{6})<', page).group(1)
    assert svc.pin_check(tournament=t, pin=pin, address="x") == entry
    again = client.get(reverse("tournament_manage", args=[t.pk])).content.decode()
    assert pin not in again


def test_pin_holder_records_at_own_table_only(client, running):
    t, rnd, tables = running
    mine, other = tables
    entry = t.entries.get(player_id=mine.seats[0])
    response = login_pin(client, t, entry)
    assert response.status_code == 302
    assert response["Location"] == reverse("tournament_table", args=[t.pk, mine.pk])
    assert client.get(reverse("tournament_table", args=[t.pk, mine.pk])).status_code == 200
    assert client.get(reverse("tournament_table", args=[t.pk, other.pk])).status_code == 403
    ok = client.post(reverse("tournament_table_record", args=[t.pk, mine.pk]), record_post(mine))
    assert ok.status_code == 302 and Deal.objects.filter(session=mine.session).count() == 1
    denied = client.post(
        reverse("tournament_table_record", args=[t.pk, other.pk]), record_post(other)
    )
    assert denied.status_code == 403 and not Deal.objects.filter(session=other.session).exists()
    bad = record_post(mine) | {"bid": "3"}
    response = client.post(reverse("tournament_table_record", args=[t.pk, mine.pk]), bad)
    assert response.status_code == 400
    assert Deal.objects.filter(session=mine.session).count() == 1
    # Staff tools stay closed to a PIN holder.
    assert client.post(reverse("tournament_draw", args=[t.pk])).status_code == 302
    assert client.get(reverse("tournament_manage", args=[t.pk])).status_code == 302


def test_reissued_pin_logs_old_phone_out(client, running):
    t, rnd, tables = running
    entry = t.entries.get(player_id=tables[0].seats[0])
    login_pin(client, t, entry)
    svc.pin_issue(entry=entry)
    page = client.get(reverse("tournament_table", args=[t.pk, tables[0].pk])).content.decode()
    assert 'name="seat"' in page and 'name="napoleon"' not in page  # back to the PIN form


def test_wrong_pin_is_rejected(client, running):
    t, rnd, tables = running
    response = client.post(reverse("tournament_pin", args=[t.pk]), {"pin": "12"})
    # a private tournament: to a visitor without a PIN it answers as an unknown one (404)
    assert response.status_code == 404
    assert "That PIN is not valid for this tournament." in response.content.decode()
    with club_versions.unchecked():  # made public by site staff (the admin moves the version)
        Tournament.objects.filter(pk=t.pk).update(is_public=True)
    response = client.post(reverse("tournament_pin", args=[t.pk]), {"pin": "12"})
    assert response.status_code == 400


def test_confirm_by_second_player_via_views(client, make_tournament):
    t = make_tournament(5, require_confirmation=True)
    rnd = svc.round_start(rnd=svc.round_draw(tournament=t))
    table = rnd.tables.get()
    a, b = (t.entries.get(player_id=p) for p in table.seats[:2])
    login_pin(client, t, a)
    client.post(reverse("tournament_table_record", args=[t.pk, table.pk]), record_post(table))
    deal = Deal.objects.get()
    client.post(reverse("tournament_deal_confirm", args=[t.pk, deal.pk]))
    assert deal.confirmation.state == "pending"  # own deal
    login_pin(client, t, b)
    client.post(reverse("tournament_deal_confirm", args=[t.pk, deal.pk]))
    deal.confirmation.refresh_from_db()
    assert deal.confirmation.state == "confirmed"


def test_pdfs(client, users, running):
    t, rnd, tables = running
    client.force_login(users["scorekeeper"])
    for name, args in [
        ("tournament_seating_pdf", [t.pk, 1]),
        ("tournament_slips_pdf", [t.pk, 1]),
        ("tournament_results_pdf", [t.pk]),
    ]:
        response = client.get(reverse(name, args=args))
        assert response.status_code == 200 and response.content.startswith(b"%PDF")
    with_pins = client.post(reverse("tournament_seating_pdf", args=[t.pk, 1]), {"pins": "all"})
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(with_pins.content)).pages)
    assert "選手1" in text and f"E{t.pk}" not in text and "R1-T1" in text
    pins = re.findall(r"PIN (\d{6})", text)
    assert len(pins) == 10 and t.entries.exclude(pin_hash="").count() == 10
    assert svc.pin_check(tournament=t, pin=pins[0], address="x")
    # A POST without the button's field issues nothing and prints nothing.
    stray = client.post(reverse("tournament_seating_pdf", args=[t.pk, 1]), {"pins": ""})
    assert stray.status_code == 400
    assert svc.pin_check(tournament=t, pin=pins[0], address="x")  # the printed PINs still work


def test_reissuing_pins_through_the_seating_cards_is_staff_only(client, users, running):
    t, rnd, tables = running
    before = sorted(t.entries.values_list("pin_hash", flat=True))
    client.force_login(users["member"])
    refused = client.post(reverse("tournament_seating_pdf", args=[t.pk, 1]), {"pins": "all"})
    assert refused.status_code in (403, 404)
    assert sorted(t.entries.values_list("pin_hash", flat=True)) == before


def test_table_preview_scores_the_drawn_seats_and_saves_nothing(client, running):
    t, rnd, tables = running
    mine, other = tables
    login_pin(client, t, t.entries.get(player_id=mine.seats[0]))
    page = client.get(reverse("tournament_table", args=[t.pk, mine.pk])).content.decode()
    assert 'id="deal-form"' in page and 'name="new_player"' not in page  # the club's form
    # Seats in the post are ignored: the draw fixes them.
    posted = record_post(mine) | {"seats": mine.seats[:2], "action": "live"}
    preview = client.post(reverse("tournament_table_preview", args=[t.pk, mine.pk]), posted)
    assert preview.status_code == 200
    body = preview.content.decode()
    assert f'data-player="{mine.seats[0]}">+2<' in body
    assert f'data-player="{mine.seats[2]}">-1<' in body
    assert not Deal.objects.filter(session=mine.session).exists()
    refused = client.post(reverse("tournament_table_preview", args=[t.pk, other.pk]), posted)
    assert refused.status_code == 403
