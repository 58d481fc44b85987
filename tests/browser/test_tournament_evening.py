"""A tournament evening with its changes of plan, played in a real Chromium: the organiser on
a laptop (1280×800), the players on phones (360×640, touch). A dispute with a note corrected
on the table, a substitute during a round, a late arrival, finishing a round with a deal still
waiting, seating cards opened too early and too late, the finished tournament. The database
is checked after each step."""

import datetime

import pytest

from tests import factories
from tests.browser.helpers import shot, signed_in
from tests.browser.test_tournament import fill_napoleon, phone_context
from tournaments.models import (
    ConfirmationState,
    Deal,
    DealConfirmation,
    Tournament,
    TournamentEntry,
    TournamentRound,
)
from tournaments.selectors import events as sel
from tournaments.services import events as svc

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def laptop(browser, live_server, user):
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-GB")
    signed_in(context, live_server.url, user)
    context.add_cookies([{"name": "django_language", "value": "en", "url": live_server.url}])
    page = context.new_page()
    page.set_default_timeout(15000)
    return context, page


def phone(browser, live_server):
    context, page = phone_context(browser)
    context.add_cookies([{"name": "django_language", "value": "en", "url": live_server.url}])
    return context, page


def pin_in(page, url, seat, pin):
    """Open a table's QR address, tap the seat, type the PIN."""
    page.goto(url)
    label = page.locator(f'label:has(input[name="seat"][value="{seat}"])')
    radio = label.locator("input")
    # the radio sits beside its own label text, on the same line
    box, text = radio.bounding_box(), label.bounding_box()
    assert abs((box["y"] + box["height"] / 2) - (text["y"] + text["height"] / 2)) < 12
    label.tap()
    page.fill("input[name=pin]", pin)
    with page.expect_navigation():
        page.locator("button[type=submit].primary").tap()
    page.wait_for_url(url)
    page.locator("#deal-form").wait_for()


def narrow(page):
    return page.evaluate("document.documentElement.scrollWidth") <= 360


def test_an_evening_with_its_changes_of_plan(browser, live_server):
    club = factories.ClubFactory()
    wiki = factories.ClubRuleSetFactory(club=club, code="napoleon-wiki", preset="napoleon-wiki")
    staff = factories.UserFactory(username="organiser")
    factories.MembershipFactory(club=club, user=staff, role="scorekeeper")
    t = svc.tournament_create(
        club=club, name="Evening Cup", date=datetime.date(2026, 11, 21), ruleset=wiki,
        rounds_planned=2, minutes_per_round=30, require_confirmation=True, is_public=True,
        seed=4, user=staff,
    )  # fmt: skip
    for i in range(1, 11):
        svc.entry_add(tournament=t, name=f"Player{i:02d}", checked_in=True)
    base = live_server.url
    names = lambda: {e.player_id: e.player.name for e in t.entries.select_related("player")}  # noqa: E731

    # The organiser draws and starts round 1 on the laptop.
    desk_ctx, desk = laptop(browser, live_server, staff)
    desk.goto(f"{base}/t/{t.pk}/manage/")
    desk.locator("form.ev-drawform button.primary").click()
    desk.wait_for_url("**/manage/#round")
    desk.get_by_role("button", name="Start the round").click()
    desk.wait_for_url("**/manage/#round")
    rnd1 = TournamentRound.objects.get(tournament=t, number=1)
    assert rnd1.started_at is not None and rnd1.tables.filter(session__isnull=False).count() == 2
    t1, t2 = rnd1.tables.order_by("number")
    shot(desk, "01-round-1-started")

    # Phone A (table 1, seat 1) records a deal; it waits for a second player.
    a_pin = svc.pin_issue(entry=t.entries.get(player_id=t1.seats[0]))
    b_pin = svc.pin_issue(entry=t.entries.get(player_id=t1.seats[1]))
    t1_url = f"{base}/t/{t.pk}/table/{t1.pk}/"
    a_ctx, a = phone(browser, live_server)
    pin_in(a, t1_url, 1, a_pin)
    fill_napoleon(a, t1.seats, names())
    a.locator('#deal-form button[value="save"]').tap()
    a.locator("li.ev-deal.ev-state-pending").first.wait_for(timeout=20000)
    deal = Deal.objects.get(session=t1.session)
    assert deal.confirmation.state == ConfirmationState.PENDING and deal.data["bid"] == 13
    assert narrow(a)

    # Phone B disputes it with a note: the dispute is two taps and says what is wrong.
    b_ctx, b = phone(browser, live_server)
    pin_in(b, t1_url, 2, b_pin)
    b.locator("details.ev-dispute summary").tap()
    b.locator("details.ev-dispute input[name=note]").fill("The bid was 14")
    b.locator(".ev-dispute-send").tap()
    b.locator("li.ev-deal.ev-state-disputed").wait_for()
    assert "The bid was 14" in b.locator("li.ev-deal .ev-note").inner_text()
    assert "Player" in b.locator("li.ev-deal .summary").inner_text()  # the Napoleon, by name
    c = DealConfirmation.objects.get(deal=deal)
    assert c.state == ConfirmationState.DISPUTED and c.note == "The bid was 14"
    shot(b, "02-phone-disputed")
    assert narrow(b)

    # The organiser sees the note on the run page and corrects the deal on its table.
    desk.goto(f"{base}/t/{t.pk}/manage/")
    assert "The bid was 14" in desk.locator("#disputes").inner_text()
    desk.locator("#disputes a.ev-correct").click()
    desk.wait_for_url(f"**/table/{t1.pk}/deals/{deal.pk}/correct/")
    with desk.expect_response(lambda r: "/correct/" in r.url and r.request.method == "POST"):
        desk.locator('label:has(input[name=bid][value="14"])').click()
    desk.wait_for_selector("#preview:not([aria-busy='true'])", state="attached")
    desk.locator('#deal-form button[value="save"]').click()
    desk.wait_for_url(f"**/table/{t1.pk}/#deal-1")
    deal.refresh_from_db()
    c.refresh_from_db()
    assert deal.data["bid"] == 14 and deal.version == 2 and c.state == ConfirmationState.CONFIRMED
    assert deal.history.count() == 2
    counted = {r.player_id: r.points for r in sel.tournament_standings(tournament=t).rows}
    assert counted[t1.seats[0]] == deal.lines.get(player_id=t1.seats[0]).points != 0
    shot(desk, "03-corrected")

    # Table 2 records a deal (phone C) that nobody confirms.
    t2_url = f"{base}/t/{t.pk}/table/{t2.pk}/"
    c_ctx, cphone = phone(browser, live_server)
    pin_in(cphone, t2_url, 1, svc.pin_issue(entry=t.entries.get(player_id=t2.seats[0])))
    fill_napoleon(cphone, t2.seats, names())
    cphone.locator('#deal-form button[value="save"]').tap()
    cphone.locator("li.ev-deal.ev-state-pending").first.wait_for(timeout=20000)
    waiting = Deal.objects.get(session=t2.session)

    # A substitute during the round: 森 takes table 2's third seat from its next deal.
    replaced = TournamentEntry.objects.select_related("player").get(
        tournament=t, player_id=t2.seats[2]
    )
    t1_before = list(t1.seats)
    desk.goto(f"{base}/t/{t.pk}/manage/#changes")
    desk.fill("#changes input[name=substitute_name]", "森")
    desk.locator("#changes select[name=replaced]").select_option(label=replaced.player.name)
    desk.get_by_role("button", name="Hand the seat over").click()
    desk.wait_for_url("**/manage/#changes")
    said = desk.locator(".messages").inner_text()
    assert f"From deal no. 2 on, 森 plays {replaced.player.name}'s seat at table 2" in said
    assert "No other table changes." in said
    t1.refresh_from_db()
    t2.refresh_from_db()
    mori = TournamentEntry.objects.get(tournament=t, player__name="森")
    assert t2.seats[2] == mori.player_id and t1.seats == t1_before
    assert t2.replacements[0]["from_seq"] == 2 and mori.checked_in
    shot(desk, "04-substitute")

    # A late arrival during the round: drawn from round 2, no table changes now.
    desk.fill("#entries input[name=name]", "青木")
    desk.get_by_role("button", name="Arrives now").click()
    desk.wait_for_url("**/manage/#entries")
    assert (
        "Round 1 is being played: 青木 is drawn from round 2 on."
        in desk.locator(".messages").inner_text()
    )
    aoki = TournamentEntry.objects.get(tournament=t, player__name="青木")
    assert aoki.checked_in and not any(aoki.player_id in tb.seats for tb in rnd1.tables.all())

    # Finishing the round lists the deal still waiting and asks.
    desk.goto(f"{base}/t/{t.pk}/manage/")
    desk.get_by_role("link", name="Finish the round…").click()
    desk.wait_for_url("**/rounds/1/finish/")
    assert "1 deal is still waiting for confirmation" in desk.content()
    desk.get_by_role("button", name="Finish round 1").click()  # no decision yet: asked
    assert desk.locator(f'input[name="deal-{waiting.pk}"]:invalid').count() == 3
    rnd1.refresh_from_db()
    assert rnd1.finished_at is None
    desk.locator(f'input[name="deal-{waiting.pk}"][value="confirm"]').check()
    desk.get_by_role("button", name="Finish round 1").click()
    desk.wait_for_url("**/manage/#round")
    rnd1.refresh_from_db()
    assert rnd1.finished_at is not None
    assert DealConfirmation.objects.get(deal=waiting).state == ConfirmationState.CONFIRMED
    shot(desk, "05-round-1-finished")

    # An old card opened between the rounds, then round 2 drawn: 青木 is in it, 森 too.
    v_ctx, visitor = phone(browser, live_server)
    visitor.goto(t1_url)
    assert "This card is for round 1, which is finished" in visitor.content()
    assert "The next round has not started yet." in visitor.content()
    desk.goto(f"{base}/t/{t.pk}/manage/")
    desk.locator("form.ev-drawform button.primary").click()
    desk.wait_for_url("**/manage/#round")
    rnd2 = TournamentRound.objects.get(tournament=t, number=2)
    drawn = {p for tb in rnd2.tables.all() for p in tb.seats} | set(rnd2.sitouts)
    assert aoki.player_id in drawn and mori.player_id in drawn

    # A card of round 2 opened too early says so, and when.
    r2_table = rnd2.tables.order_by("number").first()
    r2_url = f"{base}/t/{t.pk}/table/{r2_table.pk}/"
    response = visitor.goto(r2_url)
    assert response.status == 409
    assert "Round 2 has not started yet" in visitor.content()
    assert "Round 2 starts as soon as the staff start it." in visitor.content()
    assert "Forbidden" not in visitor.content() and narrow(visitor)
    shot(visitor, "06-card-too-early")

    # Round 2 starts; the old card now points on to it; the early card opens the PIN form.
    desk.get_by_role("button", name="Start the round").click()
    desk.wait_for_url("**/manage/#round")
    response = visitor.goto(t1_url)
    assert response.status == 410
    assert "Round 2 is being played now" in visitor.content()
    visitor.goto(r2_url)
    assert visitor.locator('input[name="seat"]').count() == len(r2_table.seats)
    shot(visitor, "07-card-late")

    # The last round finished: the tournament is finished, with its results.
    desk.goto(f"{base}/t/{t.pk}/rounds/2/finish/")
    assert "This is the last round" in desk.content()
    desk.get_by_role("button", name="Finish the round and the tournament").click()
    desk.wait_for_url("**/manage/#round")
    t.refresh_from_db()
    assert t.finished_at is not None
    assert "The tournament is finished" in desk.locator("#finished").inner_text()
    assert desk.locator("form.ev-drawform").count() == 0
    visitor.goto(f"{base}/t/{t.pk}/")
    assert "The tournament is finished" in visitor.content()
    assert visitor.locator("table.ev-standings").count() == 1 and narrow(visitor)
    assert Tournament.objects.get(pk=t.pk).rounds.filter(finished_at__isnull=True).count() == 0
    shot(desk, "08-finished")
    for context in (a_ctx, b_ctx, c_ctx, v_ctx, desk_ctx):
        context.close()
