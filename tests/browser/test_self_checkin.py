"""A player registers and checks in on a 360×640 phone: the desk's code typed on their own
page, their seat after the draw; no page is wider than the phone."""

import os

import pytest
from django.test import Client

from tests import factories
from tournaments.selectors.events.registration import desk_code
from tournaments.services import events as svc

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("EFUDA_SHOTS")  # a folder: screenshots of each step, for a look
WIDER_THAN_PHONE = "() => document.documentElement.scrollWidth > window.innerWidth + 1"


def shot(page, name):
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, f"{name}.png"), full_page=True)


def log_in(page, base, user):
    client = Client()
    client.force_login(user)
    page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": base}]
    )


def test_register_and_check_in_on_a_phone(live_server, club, phone):
    wiki = factories.ClubRuleSetFactory(club=club, code="napoleon-wiki", preset="napoleon-wiki")
    t = factories.tournament(club=club, ruleset=wiki, entrants=4)
    svc.registration_set(tournament=t, open=True)
    user = factories.UserFactory(username="phone-player")
    factories.MembershipFactory(club=club, user=user, role="member")
    page, base = phone, live_server.url
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
    page.get_by_role("button", name="受付").click()
    page.wait_for_selector("text=受付しました。席決めをお待ちください。")
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
