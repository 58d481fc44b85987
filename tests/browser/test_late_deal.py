"""A deal saved on a player's phone without a connection reaches efuda after the staff finished
its round: the phone keeps it and says to show it to the staff; the staff log in on that phone
and count it, once, marked late. Headless Chromium at 360×640 with touch, the network cut with
``context.set_offline``."""

import datetime

import pytest

from tests import factories
from tests.browser.test_offline import wait_outbox
from tests.browser.test_tournament import fill_napoleon
from tests.browser.test_tournament_evening import narrow, phone, pin_in
from tournaments.models import Deal, DealConfirmation
from tournaments.services import events as svc

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

ATTENTION = "#outbox [data-outbox=attention]"


def test_a_late_deal_is_refused_on_the_phone_then_counted_by_the_staff(browser, live_server):
    club = factories.ClubFactory()
    wiki = factories.ClubRuleSetFactory(club=club, code="napoleon-wiki", preset="napoleon-wiki")
    staff = factories.UserFactory(username="desk")
    factories.MembershipFactory(club=club, user=staff, role="scorekeeper")
    t = svc.tournament_create(
        club=club, name="Late Cup", date=datetime.date(2026, 11, 21), ruleset=wiki,
        rounds_planned=2, is_public=True, seed=4, user=staff,
    )  # fmt: skip
    for i in range(1, 6):
        svc.entry_add(tournament=t, name=f"Player{i}", checked_in=True)
    rnd = svc.round_start(rnd=svc.round_draw(tournament=t))
    table = rnd.tables.get()
    entry = t.entries.get(player_id=table.seats[0])
    names = {e.player_id: e.player.name for e in t.entries.select_related("player")}
    url = f"{live_server.url}/t/{t.pk}/table/{table.pk}/"

    ctx, page = phone(browser, live_server)
    pin_in(page, url, 1, svc.pin_issue(entry=entry))
    fill_napoleon(page, table.seats, names)
    ctx.set_offline(True)  # the connection goes; the deal is kept on the phone
    page.locator('#deal-form button[value="save"]').tap()
    wait_outbox(page_of(page), 1)
    svc.round_finish(rnd=rnd, user=staff)  # meanwhile the staff finish the round
    ctx.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    page.locator(ATTENTION).wait_for(state="visible", timeout=30000)
    said = page.locator(ATTENTION).inner_text()
    assert "show this to the staff" in said, said
    assert not Deal.objects.exists()
    wait_outbox(page_of(page), 1, "attention")
    assert narrow(page)

    # The staff log in on this phone from the refusal itself; the player's deal is theirs to count.
    page.locator(f"{ATTENTION} a", has_text="Staff: log in on this phone").tap()
    page.fill("input[name=login]", "desk")
    page.fill("input[name=password]", "pass-word-123")
    page.locator("button[type=submit].primary").tap()
    page.wait_for_url(url)
    count = page.locator(f"{ATTENTION} button[data-outbox-action=late]")
    count.wait_for()
    assert "Count a late deal" in page.content()
    with page.expect_navigation():
        count.tap()
    page.locator("li.ev-deal").first.wait_for()
    deal = Deal.objects.get()
    c = DealConfirmation.objects.get(deal=deal)
    assert c.late and c.state == "confirmed"
    assert c.late_allowed_by == staff and c.recorded_by == entry
    rnd.refresh_from_db()
    assert c.made_at is not None and c.made_at < rnd.finished_at  # made before the finish
    wait_outbox(page_of(page), 0, "attention")  # sent once: nothing left on the phone
    assert page.locator(f"{ATTENTION} button[data-outbox-action=late]").count() == 0
    assert narrow(page)
    ctx.close()


class page_of:  # noqa: N801 (the shape wait_outbox reads: an object with .page)
    def __init__(self, page):
        self.page = page
