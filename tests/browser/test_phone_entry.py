"""The heart of the product at 360×640: record a Napoleon deal and a Daifugō round by taps."""

import datetime
import os
from pathlib import Path

import pytest
from django.urls import reverse

from tests import factories
from tournaments.models import Deal, ScoreLine

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENSHOT = Path(__file__).resolve().parents[2] / "docs" / "img" / "phone-entry.png"


def no_horizontal_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth") <= 360


def tap(page, selector):
    """Tap a control that re-renders the form through htmx, and wait for the new form."""
    with page.expect_response(lambda r: "/preview/" in r.url and r.request.method == "POST"):
        page.locator(selector).first.click()
    page.wait_for_selector("#preview:not([aria-busy='true'])", state="attached")


def test_record_napoleon_deal_and_daifugo_round(live_server, phone):
    club = factories.ClubFactory(slug="phone", name="ナポレオン部")
    user = factories.UserFactory(username="keeper")
    factories.MembershipFactory(club=club, user=user, role="scorekeeper")
    names = ["太郎", "花子", "Ken", "ゆき", "Sam", "次郎"]
    players = [factories.PlayerFactory(club=club, name=n) for n in names]
    day = datetime.date(2026, 11, 20)
    nap = factories.session(
        club=club,
        date=day,
        ruleset=factories.ClubRuleSetFactory(
            club=club, code="napoleon-wiki", preset="napoleon-wiki"
        ),
    )
    dai = factories.session(
        club=club,
        date=day,
        ruleset=factories.ClubRuleSetFactory(
            club=club, code="daifugo-common", preset="daifugo-common"
        ),
    )
    page = phone

    entry = reverse("deal_new", args=[club.slug, nap.pk])
    page.goto(f"{live_server.url}/accounts/login/?next={entry}")
    page.fill("input[name=login]", "keeper")
    page.fill("input[name=password]", "pass-word-123")
    page.click("button[type=submit].primary")
    page.wait_for_url(f"**{entry}")

    seated = players[:5]
    for player in seated:
        tap(page, f'label:has(input[name=seats][value="{player.id}"])')
    napoleon, adjutant = seated[0], seated[1]
    tap(page, f'label:has(input[name=napoleon][value="{napoleon.id}"])')
    tap(page, 'label:has(input[name=bid][value="13"])')
    tap(page, 'label:has(input[name=trump][value="S"])')
    tap(page, 'label:has(input[name=called_suit][value="S"])')
    tap(page, 'label:has(input[name=called_rank][value="A"])')
    tap(page, f'label:has(input[name=adjutant][value="{adjutant.id}"])')
    tap(
        page, '.stepper:has(#id_discarded) button[data-step="-1"]'
    )  # no honours among the discards: 0, tapped
    for _ in range(3):
        tap(page, '#id_honours + button[data-step="1"]')
    page.fill("#id_honours", "")
    with page.expect_response(lambda r: "/preview/" in r.url):
        page.locator("#id_honours").press_sequentially("14")  # typed: previewed after a pause
    preview = page.locator("#preview")
    assert preview.locator(f'[data-player="{napoleon.id}"]').inner_text() == "+2"
    assert preview.locator(f'[data-player="{adjutant.id}"]').inner_text() == "+1"
    assert preview.locator(f'[data-player="{seated[2].id}"]').inner_text() == "-1"
    assert not Deal.objects.exists()  # previewed, not saved
    assert no_horizontal_scroll(page)
    if os.environ.get("EFUDA_UPDATE_SCREENSHOT"):  # refresh the README's picture on request
        SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOT), full_page=True)

    page.click("button[name=action][value=save]")
    page.wait_for_selector(f'[data-total="{napoleon.id}"]')
    assert page.locator(f'[data-total="{napoleon.id}"]').inner_text() == "+2"
    assert page.locator(f'[data-total="{seated[4].id}"]').inner_text() == "-1"
    assert Deal.objects.count() == 1 and ScoreLine.objects.count() == 5
    # The next deal starts with the same table seated.
    assert page.locator("input[name=seats]:checked").count() == 5
    assert no_horizontal_scroll(page)

    rounds = reverse("round_new", args=[club.slug, dai.pk])
    page.goto(f"{live_server.url}{rounds}")
    went_out = [players[2], players[0], players[3], players[1]]
    for player in players[:4]:  # the first round: who is at the table
        tap(page, f'label:has(input[name=players][value="{player.id}"])')
    for player in went_out:
        tap(page, f'[data-tap-player="{player.id}"]')
    for place, player in enumerate(went_out, start=1):
        button = page.locator(f'[data-tap-player="{player.id}"]')
        assert button.get_attribute("aria-pressed") == "true"
        assert button.locator(".n").inner_text() == str(place)
    tap(page, 'button[data-order="undo"]')
    tap(page, f'[data-tap-player="{players[1].id}"]')
    preview = page.locator("#preview")
    assert preview.locator(f'[data-player="{players[2].id}"]').inner_text() == "+2"
    assert "大富豪" in preview.inner_text() and "大貧民" in preview.inner_text()
    assert no_horizontal_scroll(page)
    page.click("button[name=action][value=save]")
    page.wait_for_selector(f'[data-total="{players[2].id}"]')
    assert page.locator(f'[data-total="{players[1].id}"]').inner_text() == "-2"
    assert Deal.objects.filter(session=dai).count() == 1
    assert no_horizontal_scroll(page)

    # The session page and the club management page fit the phone as well.
    page.goto(f"{live_server.url}{reverse('session_detail', args=[club.slug, nap.pk])}")
    assert "太郎" in page.locator(".totals").inner_text()
    assert no_horizontal_scroll(page)
    page.goto(f"{live_server.url}{reverse('session_detail', args=[club.slug, dai.pk])}")
    assert "大富豪" in page.locator(".deals").inner_text()
    assert no_horizontal_scroll(page)
