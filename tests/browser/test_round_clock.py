"""The round clock in Chromium: it counts down every second on screen, but a screen reader is
told only its milestones (5 minutes left, 1 minute left, time), each once: the clock is no
live region, and the one live region beside it changes only at a milestone."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from tests import club_versions, factories
from tournaments.models import TournamentRound
from tournaments.services import events as svc

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Every text the live region is given, in order (a MutationObserver set up before the page's
# scripts run).
LISTEN = """
window.__said = [];
new MutationObserver((records) => {
  const box = document.getElementById("ev-timer-say");
  if (box && records.some((r) => box.contains(r.target))) window.__said.push(box.textContent);
}).observe(document, {subtree: true, childList: true, characterData: true});
"""


def _tournament():
    club = factories.ClubFactory(is_public=True)
    wiki = factories.ClubRuleSetFactory(club=club, code="napoleon-wiki", preset="napoleon-wiki")
    t = svc.tournament_create(club=club, name="時計杯", date=datetime.date(2026, 11, 21),
                              ruleset=wiki, is_public=True, seed=1)  # fmt: skip
    for i in range(1, 6):
        svc.entry_add(tournament=t, name=f"選手{i}", checked_in=True)
    rnd = svc.round_start(rnd=svc.round_draw(tournament=t))
    return t, rnd


def _ends_in(rnd, seconds):
    with club_versions.unchecked():  # the clock moved on: no page is cached in these tests
        TournamentRound.objects.filter(pk=rnd.pk).update(
            timer_ends_at=timezone.now() + datetime.timedelta(seconds=seconds), timer_left=None
        )


def test_the_clock_says_its_milestones_once_and_nothing_else(live_server, phone):
    t, rnd = _tournament()
    _ends_in(rnd, 66)
    phone.add_init_script(LISTEN)
    phone.goto(live_server.url + reverse("tournament_detail", args=[t.pk]))
    clock = phone.locator("#ev-timer .ev-clock")
    assert clock.get_attribute("aria-live") is None and clock.get_attribute("role") == "timer"
    assert phone.locator("#ev-timer[aria-live], #ev-timer [aria-live]").count() == 0
    say = phone.locator("#ev-timer-say")
    assert say.get_attribute("role") == "status" and say.inner_text() == ""  # nothing at load
    phone.wait_for_function("() => window.__said.length > 0", timeout=10000)
    assert phone.evaluate("window.__said") == ["この回戦の残り時間は1分です。"]
    # The clock goes on ticking; the live region stays as it was until the next milestone.
    start = int(phone.locator("#ev-timer").get_attribute("data-seconds"))
    phone.wait_for_function(
        f"() => Number(document.getElementById('ev-timer').dataset.seconds) <= {start - 3}",
        timeout=10000,
    )
    assert phone.evaluate("window.__said") == ["この回戦の残り時間は1分です。"]

    _ends_in(rnd, 4)  # the next poll (or a reload) brings the server's time
    phone.reload()
    phone.wait_for_function("() => window.__said.length > 0", timeout=10000)
    assert phone.evaluate("window.__said") == ["時間です。この回戦の時間が終わりました。"]
    assert clock.inner_text() == "0:00"


def test_the_clock_opened_on_its_own_is_a_page(client):
    t, rnd = _tournament()
    _ends_in(rnd, 718)
    html = client.get(reverse("tournament_timer", args=[t.pk])).content.decode()
    assert '<html lang="ja">' in html and "<title>回戦の時計 · " in html and "<main" in html
    assert "11:5" in html and ">718<" not in html  # m:ss, never raw seconds
    fragment = client.get(reverse("tournament_timer", args=[t.pk]), HTTP_HX_REQUEST="true")
    body = fragment.content.decode()
    assert body.lstrip().startswith('<div class="ev-timer" id="ev-timer"') and "<html" not in body
    assert "HX-Request" in fragment["Vary"]
