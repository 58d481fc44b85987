"""Member pages on a 360×640 phone: chart text at least 11 px as displayed, the name column of a
wide table kept in view while it is swiped, and every column of the ratings table reachable."""

import pytest

from tests.selectors.data import club_with_history

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SMALLEST_TEXT = """() => {
  const sizes = [];
  for (const svg of document.querySelectorAll('.chart svg')) {
    if (!svg.getBoundingClientRect().width) continue;  // the drawing for other widths
    for (const t of svg.querySelectorAll('text')) {
      const box = t.getBoundingClientRect();
      if (box.height) sizes.push(parseFloat(getComputedStyle(t).fontSize) *
                                 svg.getBoundingClientRect().width / svg.viewBox.baseVal.width);
    }
  }
  return sizes.length ? Math.min(...sizes) : null;
}"""


def test_charts_read_at_360_and_wide_tables_keep_the_name(live_server, public_club, phone):
    history = club_with_history(public_club)
    slug = public_club.slug
    page = phone
    page.goto(f"{live_server.url}/c/{slug}/players/{history['players'][0].id}/")
    smallest = page.evaluate(SMALLEST_TEXT)
    assert smallest is not None and smallest >= 11, smallest

    # Standings swiped sideways: the name stays in view.
    page.goto(f"{live_server.url}/c/{slug}/standings/napoleon/2026/11/")
    wrap = page.locator(".table-wrap").first
    assert wrap.evaluate("w => w.scrollWidth > w.clientWidth")  # wider than the phone
    wrap.evaluate("w => { w.scrollLeft = w.scrollWidth; }")
    name = page.locator("table.standings td.player").first.bounding_box()
    assert 0 <= name["x"] < 40 and name["width"] > 20

    # Ratings: the last column (last played) can be swiped into view, the name still beside it.
    page.goto(f"{live_server.url}/c/{slug}/ratings/napoleon/?all=1")
    wrap = page.locator(".table-wrap").first
    wrap.evaluate("w => { w.scrollLeft = w.scrollWidth; }")
    last = page.locator("table.standings thead th").last.bounding_box()
    assert last["x"] + last["width"] <= 360 + 1
    name = page.locator("table.standings td.player").first.bounding_box()
    assert 0 <= name["x"] < 40
