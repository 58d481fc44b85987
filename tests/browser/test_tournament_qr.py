"""A phone opens a table's QR address (the page on its seating card), picks its seat, types
the PIN in full-width digits as a Japanese keyboard may, and records a deal there."""

import datetime

import pytest

from tests import factories
from tests.browser.test_tournament import fill_napoleon, phone_context
from tournaments.models import Deal
from tournaments.services import events as svc

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_phone_from_table_qr_address_records_a_deal(browser, live_server):
    # a public tournament of a public club: the QR page names the seats (a private one shows
    # the bare PIN form, which says nothing of the table: tests/events/test_pins.py)
    club = factories.ClubFactory(is_public=True)
    wiki = factories.ClubRuleSetFactory(club=club, code="napoleon-wiki", preset="napoleon-wiki")
    t = svc.tournament_create(
        club=club,
        name="QR Cup",
        date=datetime.date(2026, 11, 21),
        ruleset=wiki,
        seed=5,
        is_public=True,
    )
    for i in range(1, 11):
        svc.entry_add(tournament=t, name=f"Player{i:02d}", checked_in=True)
    rnd = svc.round_start(rnd=svc.round_draw(tournament=t))
    table = rnd.tables.order_by("number")[1]
    names = {e.player_id: e.player.name for e in t.entries.select_related("player")}
    pin = svc.pin_issue(entry=t.entries.get(player_id=table.seats[2]))
    full_width = pin.translate(str.maketrans("0123456789", "０１２３４５６７８９"))

    ctx, page = phone_context(browser)
    cdp = ctx.new_cdp_session(page)
    cdp.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": 300, "downloadThroughput": -1, "uploadThroughput": -1},
    )
    qr_address = f"{live_server.url}/t/{t.pk}/table/{table.pk}/"
    page.goto(qr_address)
    assert page.locator('input[name="seat"]').count() == len(table.seats)
    page.locator('label:has(input[name="seat"][value="3"])').click()
    page.fill("input[name=pin]", full_width)
    page.click("button[type=submit].primary")
    page.wait_for_url(qr_address)
    fill_napoleon(page, table.seats, names)
    page.click('#deal-form button[value="save"]')
    # the deal appears in the table's list (through the page or the phone's outbox)
    page.locator("li.ev-deal.ev-state-confirmed").first.wait_for(timeout=20000)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert Deal.objects.filter(session=table.session).count() == 1
    ctx.close()
