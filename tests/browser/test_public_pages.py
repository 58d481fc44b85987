"""The read pages on a 360×640 phone in Debian's Chromium: no horizontal page scrolling."""

import os

import pytest

from tests.selectors.data import club_with_history

SHOTS = os.environ.get("EFUDA_SCREENSHOTS")  # a directory, to look at the pages by eye


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_public_pages_fit_a_phone(live_server, public_club, phone):

    history = club_with_history(public_club)
    slug = public_club.slug
    pages = {
        "home": f"/c/{slug}/",
        "standings": f"/c/{slug}/standings/napoleon/2026/11/",
        "daifugo": f"/c/{slug}/standings/daifugo/",
        "player": f"/c/{slug}/players/{history['players'][0].id}/",
    }
    page = phone
    for name, path in pages.items():
        page.goto(live_server.url + path)
        width = page.evaluate("document.scrollingElement.scrollWidth")
        assert width <= 360, (name, width)
        if SHOTS:
            page.screenshot(path=os.path.join(SHOTS, f"{name}.png"), full_page=True)
    page.goto(live_server.url + pages["standings"])
    page.get_by_role("link", name="渡邊").first.click()
    assert page.locator("h1").inner_text() == "渡邊"
