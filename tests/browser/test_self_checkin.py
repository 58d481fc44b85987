"""A player registers and checks in on a 360×640 phone, 300 ms from the server: the desk's code
typed on their own page, first with the network cut (nothing is recorded), then again with it
back (checked in once); their seat after the draw; no page is wider than the phone."""

import pytest

from tests import factories
from tests.browser.helpers import shot, signed_in
from tournaments.selectors.events.registration import desk_code
from tournaments.services import events as svc

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDER_THAN_PHONE = "() => document.documentElement.scrollWidth > window.innerWidth + 1"


def log_in(page, base, user):
    signed_in(page.context, base, user)


def network(page, cdp, *, offline: bool):
    """The connection cut or back, 300 ms each way (the DevTools override would otherwise keep
    the page online)."""
    page.context.set_offline(offline)
    cdp.send("Network.emulateNetworkConditions", {
        "offline": offline, "latency": 300, "downloadThroughput": -1, "uploadThroughput": -1,
    })  # fmt: skip


def test_register_and_check_in_on_a_phone(live_server, club, phone):
    wiki = factories.ClubRuleSetFactory(club=club, code="napoleon-wiki", preset="napoleon-wiki")
    t = factories.tournament(club=club, ruleset=wiki, entrants=4)
    svc.registration_set(tournament=t, open=True)
    user = factories.UserFactory(username="phone-player")
    factories.MembershipFactory(club=club, user=user, role="member")
    page, base = phone, live_server.url
    cdp = page.context.new_cdp_session(page)
    network(page, cdp, offline=False)
    log_in(page, base, user)
    page.goto(f"{base}/t/{t.pk}/")
    page.get_by_role("link", name="参加を申し込む").click()
    assert not page.evaluate(WIDER_THAN_PHONE)
    shot(page, "checkin-1-register")
    page.fill("#id_name", "スマホ 太郎")
    page.get_by_role("button", name="参加を申し込む").click()
    page.wait_for_selector("text=スマホ 太郎 として参加を申し込みました。")
    svc.checkin_set(tournament=t, open=True)
    t.refresh_from_db()
    page.reload()
    shot(page, "checkin-2-code")
    page.fill("#id_code", desk_code(t))
    network(page, cdp, offline=True)  # the code sent while the connection is gone
    with page.expect_event("requestfailed"):  # the phone cannot send it
        page.get_by_role("button", name="受付").click(no_wait_after=True)
    page.wait_for_load_state()
    entry = t.entries.get(player__name="スマホ 太郎")
    assert not entry.checked_in  # nothing reached the server
    network(page, cdp, offline=False)
    page.goto(f"{base}/t/{t.pk}/me/")
    page.fill("#id_code", desk_code(t))
    page.get_by_role("button", name="受付").click()
    page.wait_for_selector("text=受付しました。席決めをお待ちください。")
    entry.refresh_from_db()
    assert entry.checked_in and entry.checked_in_how == "code"
    assert entry.checked_in_by_id == user.pk
    assert page.locator(".ev-me-checked").is_visible()
    assert not page.evaluate(WIDER_THAN_PHONE)
    rnd = svc.round_draw(tournament=t)
    table = rnd.tables.get()
    page.reload()
    seat = page.locator(".ev-me-seat")
    assert f"{table.number} 卓" in seat.inner_text()
    page.get_by_role("button", name="暗証番号を表示").click()
    assert len(page.locator(".ev-pin-value").inner_text()) == 6
    shot(page, "checkin-3-seat-and-pin")
    assert not page.evaluate(WIDER_THAN_PHONE)
