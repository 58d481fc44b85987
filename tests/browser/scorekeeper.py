"""A tired scorekeeper's phone: taps counted, the network slowed, the database checked.

Shared by the browser tests of the entry form (tests/browser/test_tired_scorekeeper.py) and the
accessibility check (tests/browser/test_accessibility.py).
"""

import datetime
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings
from django.test import Client

from tests import factories
from tournaments.models import Deal
from tournaments.services.deals import deal_record

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "static" / "vendor" / "axe.min.js"
DOCS_IMG = ROOT / "docs" / "img"
PASSWORD = "pass-word-123"  # tests.factories.UserFactory

NAMES = ["太郎", "花子", "Ken", "ゆき", "Sam", "次郎"]

# The preview has caught up with the form: no request on its way, nothing changed since. A
# selector, not a page function: under the Content-Security-Policy (no eval) Playwright cannot
# poll a function in the page.
SETTLED = "#preview:not([aria-busy='true'])"


# Contrast ratio (WCAG 2) of two computed CSS colours, as a page function.
CONTRAST_JS = """
window.efudaContrast = (fg, bg) => {
  const lum = c => { const [r, g, b] = c.match(/[\\d.]+/g).slice(0, 3).map(v => {
      v = v / 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
};
window.efudaBackground = el => {
  for (let n = el; n; n = n.parentElement) {
    const c = getComputedStyle(n).backgroundColor;
    if (c !== 'rgba(0, 0, 0, 0)' && c !== 'transparent') return c;
  }
  return 'rgb(255, 255, 255)';
};
"""


@dataclass
class Table:
    """A club with six players, a Napoleon and a Daifugō session, each with one deal already
    recorded at a five-player table (so the next deal starts with the table seated)."""

    club: object
    user: object
    players: list
    nap: object
    dai: object
    seated: list = field(default_factory=list)

    def deals(self, session=None):
        qs = Deal.objects.filter(club=self.club, is_deleted=False)
        return qs.filter(session=session) if session is not None else qs


def make_table(*, first_deals=True) -> Table:
    club = factories.ClubFactory(slug="tired", name="夜更かし会")
    user = factories.UserFactory(username="keeper")
    factories.MembershipFactory(club=club, user=user, role="scorekeeper")
    players = [factories.PlayerFactory(club=club, name=n) for n in NAMES]
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
    seated = players[:5]
    table = Table(club=club, user=user, players=players, nap=nap, dai=dai, seated=seated)
    if first_deals:
        ids = [p.id for p in seated]
        deal_record(
            session=nap,
            user=user,
            data={"seats": ids, "napoleon": ids[0], "bid": 13, "trump": "S", "called": "SA",
                  "adjutant": ids[1], "solo": False, "honours": 13, "discarded": 0,
                  "last_trick": None, "redeal": False},
        )  # fmt: skip
        deal_record(session=dai, user=user, data={"players": ids, "order": ids, "forbidden": []})
    return table


class Phone:
    """One scorekeeper's phone (a browser context at 360×640 with touch), logged in."""

    def __init__(self, browser, live_server, user, *, locale="ja-JP", width=360, height=640,
                 scale=1, axe=False):  # fmt: skip
        self.base = live_server.url
        self.context = browser.new_context(
            viewport={"width": width, "height": height},
            device_scale_factor=scale,
            locale=locale,
            has_touch=True,
            is_mobile=True,
        )
        if user is not None:
            client = Client()
            client.force_login(user)
            host = self.base.split("://", 1)[1].split(":")[0]
            self.context.add_cookies([{
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "domain": host, "path": "/",
            }])  # fmt: skip
        if axe:  # the test injects axe-core into every page it opens (no page serves it)
            self.context.add_init_script(path=str(AXE))
        self.page = self.context.new_page()
        self.page.set_default_timeout(20000)
        self.errors = []
        self.page.on("pageerror", lambda err: self.errors.append(str(err)))
        self.page.on("console", self._console)
        self.taps = 0
        self.typed = 0
        self._cdp = None
        self._latency = 0

    def _console(self, message):
        """A script error or anything the Content-Security-Policy refused is a failure."""
        if message.type == "error" and "Content Security Policy" in message.text:
            self.errors.append(message.text)

    def close(self):
        self.context.close()

    def goto(self, path):
        self.page.goto(self.base + path)
        self.settle()
        self.page.evaluate(CONTRAST_JS)

    def latency(self, ms: int, *, offline: bool = False):
        """Every request and reply takes ``ms`` longer (Chrome DevTools Protocol)."""
        if self._cdp is None:
            self._cdp = self.context.new_cdp_session(self.page)
        self._latency = ms
        self._cdp.send("Network.emulateNetworkConditions", {
            "offline": offline, "latency": ms, "downloadThroughput": -1, "uploadThroughput": -1,
        })  # fmt: skip

    def offline(self, value: bool):
        """No connection (``True``) or the connection back, for the pages and the service
        worker; a latency set with ``latency`` stays (its DevTools override would otherwise
        keep the page online)."""
        self.context.set_offline(value)
        if self._cdp is not None:
            self.latency(self._latency, offline=value)

    def tap(self, selector):
        """One finger tap, counted; never waits for the preview."""
        self.page.locator(selector).first.tap()
        self.taps += 1

    def choose(self, name, value):
        """Tap the button of a choice (a radio or checkbox drawn as a large button)."""
        self.tap(f'label:has(> input[name="{name}"][value="{value}"])')

    def type(self, selector, text, delay=120):
        """Type a number on the keypad at a human pace (counted as one typed number)."""
        self.page.locator(selector).first.press_sequentially(text, delay=delay)
        self.typed += 1

    def settle(self):
        if self.page.locator("#preview").count():
            self.page.wait_for_selector(SETTLED, state="attached")

    def save(self):
        """Tap Save and wait for the page it leads to."""
        with self.page.expect_navigation():
            self.tap("button[name=action][value=save]")
        self.settle()

    def points(self, player) -> str:
        return self.page.locator(f'#preview [data-player="{player.id}"]').inner_text()

    def preview(self) -> dict[int, int]:
        """The points the preview shows, by player id."""
        pairs = self.page.locator("#preview [data-player]").evaluate_all(
            "els => els.map(e => [e.dataset.player, e.textContent.trim()])"
        )
        return {int(pid): int(points) for pid, points in pairs}

    def boxes(self, selector) -> dict:
        """Where each player's control is on the page (x, y, width, height), by player id (a
        seat checkbox's value or a tap button's data-tap-player): a button that moves, or
        whose player changes place, shows up as a difference."""
        return dict(
            self.page.locator(selector).evaluate_all(
                "els => els.map(e => { const r = e.getBoundingClientRect();"
                " const input = e.querySelector('input');"
                " return [e.dataset.tapPlayer || (input && input.value),"
                " [Math.round(r.left + scrollX), Math.round(r.top + scrollY),"
                " Math.round(r.width), Math.round(r.height)]]; })"
            )
        )

    def no_sideways_scroll(self) -> bool:
        return self.page.evaluate(
            "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
        )

    def shot(self, name):
        DOCS_IMG.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(DOCS_IMG / name))

    def axe(self) -> list:
        """axe-core's serious and critical violations on the page as it is now (the script is
        injected by the test, never served by a page)."""
        if not self.page.evaluate("typeof window.axe !== 'undefined'"):
            self.page.add_script_tag(path=str(AXE))
        result = self.page.evaluate(
            "async () => { const r = await axe.run(document, {resultTypes: ['violations']});"
            " return r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')"
            ".map(v => ({id: v.id, impact: v.impact, help: v.help,"
            " nodes: v.nodes.slice(0, 3).map(n => n.target.join(' ') + ' ' + n.failureSummary)"
            "})); }"
        )
        return result
