"""axe-core on every page state (tests/browser/page_states.py, listed in docs/accessibility.md),
in Japanese and in English, at 360 px (a phone), 1280 px (a laptop) and 180 px (a 360 px phone
at 200 % zoom): no violation of any impact, and no page scrolls sideways.

The vendored static/vendor/axe.min.js is injected by the test into each page (no page serves
it). Each state is reached once per language; the three widths are the same page resized, so
the check costs one page load per state. ``EFUDA_AXE_REPORT=<file>`` writes every finding as
JSON (the figures in docs/accessibility.md).
"""

import json
import os

import pytest

from tests.browser.helpers import signed_in
from tests.browser.page_states import STATES, WHO_ORDER, build_world
from tests.browser.scorekeeper import AXE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = (360, 1280, 180)
HEIGHT = 640

AXE_RUN = (
    "async () => { const r = await axe.run(document, {resultTypes: ['violations']});"
    " return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,"
    " nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))})); }"
)
SIDEWAYS = (
    "(() => { const d = document.documentElement;"
    " return d.scrollWidth > d.clientWidth ? d.scrollWidth - d.clientWidth : 0; })()"
)


def _context(browser, live_server, user, locale):
    context = browser.new_context(
        viewport={"width": WIDTHS[0], "height": HEIGHT}, locale=locale, has_touch=True
    )
    if user is not None:
        signed_in(context, live_server.url, user)
    context.add_init_script(path=str(AXE))
    page = context.new_page()
    page.set_default_timeout(20000)
    return context, page


def sweep(browser, live_server, world, locale, states) -> dict:
    """Every state in ``states`` once: axe at each width, the sideways scroll, the language."""
    found: dict[str, object] = {}
    errors: list[str] = []
    users = {"visitor": None, "player": None, "member": world.member, "owner": world.table.user}
    contexts = {}
    try:
        for who in WHO_ORDER:
            for state in (s for s in states if s.who == who):
                key = "visitor" if who == "player" else who
                if key not in contexts:
                    contexts[key] = _context(browser, live_server, users[key], locale)
                    contexts[key][1].on("pageerror", lambda err: errors.append(str(err)))
                page = contexts[key][1]
                page.set_viewport_size({"width": WIDTHS[0], "height": HEIGHT})
                state.go(world, page, live_server.url)
                lang = page.get_attribute("html", "lang")
                if lang != locale[:2]:
                    found[f"{state.name} lang"] = lang
                if not page.evaluate("typeof window.axe !== 'undefined'"):
                    page.add_script_tag(path=str(AXE))
                for width in WIDTHS:
                    page.set_viewport_size({"width": width, "height": HEIGHT})
                    if violations := page.evaluate(AXE_RUN):
                        found[f"{state.name} {width}"] = violations
                    if sideways := page.evaluate(SIDEWAYS):
                        found[f"{state.name} {width} sideways"] = f"{sideways} px"
    finally:
        for context, _page in contexts.values():
            context.close()
    if errors:
        found["script errors"] = errors
    return found


def _report(locale, found):
    path = os.environ.get("EFUDA_AXE_REPORT")
    if path:
        existing = json.load(open(path)) if os.path.exists(path) else {}
        existing[locale] = found
        with open(path, "w") as out:
            json.dump(existing, out, ensure_ascii=False, indent=1)


@pytest.mark.parametrize("locale", ["ja-JP", "en-GB"])
def test_axe_finds_nothing_on_any_page_state(browser, live_server, settings, locale):
    settings.ROOT_URLCONF = "tests.browser.urls_boom"  # one address fails: the 500 page
    world = build_world()
    found = sweep(browser, live_server, world, locale, STATES)
    _report(locale, found)
    assert found == {}, json.dumps(found, ensure_ascii=False, indent=1)
