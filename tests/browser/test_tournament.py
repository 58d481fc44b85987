"""Two tables record at once with two PINs (two phones) while the standings page updates."""

import datetime

import pytest

from tests import factories
from tests.browser.helpers import signed_in
from tournaments.services import events as svc

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def phone_context(browser):
    context = browser.new_context(viewport={"width": 360, "height": 640}, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(15000)
    return context, page


def tap(page, selector):
    """Tap a control of the club's entry form; it re-renders through the table's preview."""
    with page.expect_response(lambda r: "/preview/" in r.url and r.request.method == "POST"):
        page.locator(selector).first.click()
    page.wait_for_selector("#preview:not([aria-busy='true'])", state="attached")


def fill_napoleon(page, seats, names):
    """The same taps as at a club table; the seats come from the draw and cannot change."""
    assert page.locator("input[name=new_player]").count() == 0
    assert page.locator("input[name=seats]").count() == len(seats)
    tap(page, f'label:has(input[name=napoleon][value="{seats[0]}"])')
    tap(page, 'label:has(input[name=bid][value="13"])')
    tap(page, 'label:has(input[name=trump][value="S"])')
    tap(page, 'label:has(input[name=called_suit][value="S"])')
    tap(page, 'label:has(input[name=called_rank][value="A"])')
    tap(page, f'label:has(input[name=adjutant][value="{seats[1]}"])')
    tap(
        page, '.stepper:has(#id_discarded) button[data-step="-1"]'
    )  # no honours among the discards: 0, tapped
    page.fill("#id_honours", "")
    with page.expect_response(lambda r: "/preview/" in r.url):
        page.locator("#id_honours").press_sequentially("14")
    page.wait_for_selector("#preview:not([aria-busy='true'])", state="attached")
    preview = page.locator("#preview")
    assert preview.locator(f'[data-player="{seats[0]}"]').inner_text() == "+2"


def test_two_tables_record_at_once_and_standings_update(browser, live_server):
    club = factories.ClubFactory()
    wiki = factories.ClubRuleSetFactory(club=club, code="napoleon-wiki", preset="napoleon-wiki")
    t = svc.tournament_create(
        club=club,
        name="Browser Cup",
        date=datetime.date(2026, 11, 21),
        ruleset=wiki,
        is_public=True,
        seed=3,
        minutes_per_round=30,
    )
    for i in range(1, 11):
        svc.entry_add(tournament=t, name=f"Player{i:02d}", checked_in=True)
    rnd = svc.round_start(rnd=svc.round_draw(tournament=t))
    tables = list(rnd.tables.order_by("number"))
    names = {e.player_id: e.player.name for e in t.entries.select_related("player")}
    pins = [svc.pin_issue(entry=t.entries.get(player_id=tb.seats[0])) for tb in tables]

    viewer_ctx, viewer = phone_context(browser)
    viewer.goto(f"{live_server.url}/t/{t.pk}/standings/")
    assert viewer.locator("table.ev-standings").count() == 1

    phones = []
    for table, pin in zip(tables, pins, strict=True):
        ctx, page = phone_context(browser)
        page.goto(f"{live_server.url}/t/{t.pk}/pin/")
        page.fill("input[name=pin]", pin)
        page.click("button[type=submit].primary")
        page.wait_for_url(f"**/t/{t.pk}/table/{table.pk}/")
        assert page.locator(".ev-clock").count() == 1
        fill_napoleon(page, table.seats, names)
        phones.append((ctx, page, table))
    # Both phones have their form filled; now both save, one right after the other.
    for _ctx, page, _table in phones:
        page.click('#deal-form button[value="save"]')
    for _ctx, page, table in phones:
        page.wait_for_url(f"**/t/{t.pk}/table/{table.pk}/")
        page.locator("li.ev-deal").first.wait_for(timeout=20000)
        assert page.locator("li.ev-deal").count() == 1
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 360

    # The open standings page polls and shows both Napoleons on +2 without a reload.
    winners = [names[tb.seats[0]] for tb in tables]
    for name in winners:
        row = viewer.locator("table.ev-standings tr", has_text=name)
        row.locator("td.num >> nth=1").wait_for()
        viewer.wait_for_function(
            """name => [...document.querySelectorAll('table.ev-standings tr')]
                 .some(tr => tr.textContent.includes(name)
                      && tr.querySelectorAll('td')[2].textContent.trim() === '2')""",
            arg=name,
            timeout=30000,  # polled every few seconds: room for a slow CI machine
        )
    first_rows = viewer.locator("table.ev-standings tbody tr >> nth=0").inner_text()
    assert any(name in first_rows for name in winners)
    for ctx, _page, _table in phones:
        ctx.close()
    viewer_ctx.close()

    # The staff page fits a phone too (logged in through a test client's session cookie).
    staff = factories.UserFactory(username="ev-staff")
    factories.MembershipFactory(club=club, user=staff, role="scorekeeper")
    ctx, page = phone_context(browser)
    signed_in(ctx, live_server.url, staff)
    for path in (f"/t/{t.pk}/manage/", f"/t/{t.pk}/", f"/t/{t.pk}/table/{tables[1].pk}/"):
        page.goto(live_server.url + path)
        assert page.evaluate("document.documentElement.scrollWidth") <= 360, path
    assert page.locator("li.ev-deal").count() == 1
    ctx.close()
