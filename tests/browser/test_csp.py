"""Under the Content-Security-Policy the entry page's live preview works and the browser
reports no violation (an inline script, style or handler would be blocked and logged)."""

import datetime

import pytest
from django.urls import reverse

from tests import factories

from .test_phone_entry import tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WATCH = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__cspViolations.push(e.violatedDirective + " " + (e.blockedURI || "inline"));
});
"""


def test_entry_preview_works_under_the_policy(live_server, phone):
    club = factories.ClubFactory(slug="csp", name="CSP部")
    user = factories.UserFactory(username="keeper")
    factories.MembershipFactory(club=club, user=user, role="scorekeeper")
    players = [factories.PlayerFactory(club=club, name=n) for n in ["太郎", "花子", "Ken", "ゆき",
                                                                   "Sam"]]  # fmt: skip
    ruleset = factories.ClubRuleSetFactory(club=club, code="napoleon-wiki", preset="napoleon-wiki")
    session = factories.session(club=club, date=datetime.date(2026, 11, 20), ruleset=ruleset)
    page = phone
    console = []
    page.on("console", lambda msg: console.append(msg.text))
    page.add_init_script(WATCH)
    entry = reverse("deal_new", args=[club.slug, session.pk])
    page.goto(f"{live_server.url}/accounts/login/?next={entry}")
    page.fill("input[name=login]", "keeper")
    page.fill("input[name=password]", "pass-word-123")
    with page.expect_response(lambda r: r.url.endswith(entry)) as first:
        page.click("button[type=submit].primary")
    policy = first.value.header_value("content-security-policy") or ""
    assert "script-src 'self'" in policy and "'unsafe-inline'" not in policy
    page.wait_for_url(f"**{entry}")
    for player in players:
        tap(page, f'label:has(input[name=seats][value="{player.id}"])')
    tap(page, f'label:has(input[name=napoleon][value="{players[0].id}"])')
    tap(page, 'label:has(input[name=bid][value="13"])')
    tap(page, 'label:has(input[name=trump][value="S"])')
    tap(page, 'label:has(input[name=called_suit][value="S"])')
    tap(page, 'label:has(input[name=called_rank][value="A"])')
    tap(page, f'label:has(input[name=adjutant][value="{players[1].id}"])')
    tap(
        page, '.stepper:has(#id_discarded) button[data-step="-1"]'
    )  # no honours among the discards: 0, tapped
    page.fill("#id_honours", "")
    with page.expect_response(lambda r: "/preview/" in r.url):
        page.locator("#id_honours").press_sequentially("14")
    preview = page.locator("#preview")
    assert preview.locator(f'[data-player="{players[0].id}"]').inner_text() == "+2"
    assert page.evaluate("window.__cspViolations") == []
    assert not [m for m in console if "Content Security Policy" in m], console
    # The public standings page (htmx) and the club home: no violation either.
    for url in (reverse("club_home", args=[club.slug]),
                reverse("standings_all", args=[club.slug, "napoleon"])):  # fmt: skip
        page.goto(f"{live_server.url}{url}")
        assert page.evaluate("window.__cspViolations") == []
    assert not [m for m in console if "Content Security Policy" in m], console


def test_round_timer_counts_down_under_the_policy(live_server, phone):
    from tournaments.services import events as svc

    club = factories.ClubFactory(slug="csp-cup", name="CSP杯")
    wiki = factories.ClubRuleSetFactory(club=club, code="napoleon-wiki", preset="napoleon-wiki")
    cup = svc.tournament_create(club=club, name="CSP杯", date=datetime.date(2026, 11, 21),
                                ruleset=wiki, is_public=True, seed=3,
                                minutes_per_round=30)  # fmt: skip
    for i in range(1, 11):
        svc.entry_add(tournament=cup, name=f"選手{i:02d}", checked_in=True)
    svc.round_start(rnd=svc.round_draw(tournament=cup))
    page = phone
    console = []
    page.on("console", lambda msg: console.append(msg.text))
    page.add_init_script(WATCH)
    with page.expect_response(lambda r: r.url.rstrip("/").endswith(f"/t/{cup.pk}")) as reply:
        page.goto(f"{live_server.url}{reverse('tournament_detail', args=[cup.pk])}")
    policy = reply.value.header_value("content-security-policy") or ""
    assert "script-src 'self'" in policy and "'unsafe-inline'" not in policy
    clock = page.locator("#ev-timer .ev-clock")
    # timer.js turns the server's seconds into m:ss at once, then counts down each second.
    page.wait_for_function(
        "() => /^\\d+:\\d\\d$/.test(document.querySelector('#ev-timer .ev-clock').textContent)"
    )
    first = int(page.locator("#ev-timer").get_attribute("data-seconds"))
    assert 29 * 60 - 30 < first <= 30 * 60
    page.wait_for_function(
        f"() => Number(document.getElementById('ev-timer').dataset.seconds) <= {first - 2}",
        timeout=10000,
    )
    left = int(page.locator("#ev-timer").get_attribute("data-seconds"))
    shown = {"{}:{:02d}".format(*divmod(n, 60)) for n in (left, left + 1)}  # a tick between
    assert clock.inner_text() in shown
    assert page.evaluate("window.__cspViolations") == []
    assert not [m for m in console if "Content Security Policy" in m], console
