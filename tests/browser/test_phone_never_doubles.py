"""The phone never doubles, misattributes or leaks a deal: one test per case of the issue.

Headless Chromium at 360×640 with touch (tests/browser/scorekeeper.py), each case at 300 ms
and 1 s of latency; offline through ``context.set_offline``. Each test ends in the database:
the deals, who recorded them (``created_by``) and their history. No deal twice, none under the
wrong person, none lost.
"""

import datetime

import pytest
from django.urls import reverse

from tests import factories
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.browser.scorekeeper import PASSWORD, Phone, make_table
from tests.browser.test_offline import (
    BADGE,
    arrived,
    enter_deal,
    entry_path,
    save_offline,
    seat_ids,
    until,
    wait_outbox,
)
from tournaments.models import Deal, GameSession

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
LATENCY = [300, pytest.param(1000, marks=pytest.mark.slow)]
ITEMS = (
    "() => new Promise(done => { const open = indexedDB.open('efuda-outbox');"
    " open.onsuccess = () => { const r = open.result.transaction('deals')"
    ".objectStore('deals').getAll(); r.onsuccess = () => { open.result.close();"
    " done(r.result.map(x => [x.author, x.state])); }; }; })"
)
SAVE = "button[name=action][value=save]"


@pytest.fixture
def table(db):
    return make_table()


@pytest.fixture
def keeper(browser, live_server, table):
    phone = Phone(browser, live_server, table.user)
    yield phone
    assert not phone.errors, phone.errors
    phone.close()


def session_deals(table):
    return list(Deal.objects.filter(session=table.nap).order_by("seq"))


def recorded_by(deal):
    return deal.created_by.username, deal.history.earliest().history_user.username


def items(phone):
    return phone.page.evaluate(ITEMS)


def log_in(phone, username):
    page = phone.page
    page.goto(phone.base + reverse("login"))
    page.fill("input[name=login]", username)
    page.fill("input[name=password]", PASSWORD)
    with page.expect_navigation():
        page.click("button[type=submit].primary")


@pytest.mark.parametrize("latency", LATENCY)
def test_1_a_refused_save_is_never_recorded_twice(keeper, table, latency):
    """An online Save without an adjutant is refused in its form (shown once, nothing in the
    outbox); a reload keeps the taps; corrected, it is recorded once. A deal refused after it
    waited offline and entered again by hand: correcting the kept one asks first, and "the
    same deal" records nothing more."""
    seats = seat_ids(table)
    keeper.goto(entry_path(table))
    keeper.latency(latency)
    page = keeper.page
    for name, value in (("napoleon", seats[0]), ("bid", 13), ("trump", "S"),
                        ("called_suit", "H"), ("called_rank", "A")):  # fmt: skip
        keeper.choose(name, value)
    page.fill("input[name=honours]", "14")
    page.fill("input[name=discarded]", "0")
    keeper.settle()
    keeper.tap(SAVE)
    page.locator("#deal-form .field-error").first.wait_for()
    assert page.locator("#error-summary").count() == 1  # the refusal, once, in its form
    assert page.locator("#outbox [data-outbox=attention]").is_hidden()
    assert page.locator("#outbox [data-outbox=reopened]").is_hidden()
    assert items(keeper) == []  # never in the outbox
    client_id = page.input_value("input[name=client_id]")
    page.wait_for_timeout(600)  # the draft is written after a pause
    page.reload()
    keeper.settle()
    until(page, "() => document.querySelector('input[name=trump][value=S]').checked")
    assert page.input_value("input[name=client_id]") == client_id  # the same form, kept
    assert page.locator(f"input[name=napoleon][value='{seats[0]}']").is_checked()
    assert page.input_value("input[name=honours]") == "14"
    keeper.choose("adjutant", seats[1])
    keeper.save()
    assert [d.seq for d in session_deals(table)] == [1, 2]
    assert recorded_by(session_deals(table)[-1]) == ("keeper", "keeper")
    assert items(keeper) == [] and page.locator("#outbox [data-outbox=attention]").is_hidden()

    # Offline: a deal with too many honours waits, and is refused when it is sent.
    keeper.offline(True)
    enter_deal(keeper, seats, 3, honours=20, discarded=1)
    save_offline(keeper, 1)
    keeper.offline(False)
    wait_outbox(keeper, 1, state="attention")
    # Entered again by hand, correctly: recorded (no. 3).
    keeper.settle()
    enter_deal(keeper, seats, 3, honours=20, discarded=0)
    keeper.settle()
    keeper.save()
    assert len(session_deals(table)) == 3
    # The kept one corrected: efuda shows both and asks; "the same deal" discards it.
    keeper.tap("#outbox [data-outbox-action=correct]")
    page.locator("#outbox [data-outbox=reopened]").wait_for()
    assert page.locator("#outbox [data-outbox=attention] li").count() == 0  # not twice
    page.fill("input[name=discarded]", "0")
    keeper.settle()
    keeper.tap(SAVE)
    question = page.locator("#outbox .outbox-theirs")
    question.wait_for()
    assert "3" in question.inner_text() and page.locator("#outbox .outbox-mine").is_visible()
    keeper.tap("#outbox [data-outbox-action=already]")
    wait_outbox(keeper, 0, state="attention")
    assert items(keeper) == []
    deals = session_deals(table)
    assert [d.seq for d in deals] == [1, 2, 3]
    assert len({(d.data["napoleon"], d.data["honours"]) for d in deals[1:]}) == 2


@pytest.mark.parametrize("latency", LATENCY)
def test_2_logout_keeps_the_waiting_deal_for_its_author(browser, live_server, keeper, table,
                                                         latency):  # fmt: skip
    """A deal waits; the scorekeeper logs out: warned with the count, "keep for keeper". Then
    the phone shows no entry page offline, the owner who logs in sees nothing of it and sends
    nothing; when the scorekeeper logs in again it is recorded under the scorekeeper."""
    owner = factories.UserFactory(username="owner")
    factories.MembershipFactory(club=table.club, user=owner, role="owner")
    seats = seat_ids(table)
    path = entry_path(table)
    keeper.goto(path)
    keeper.latency(latency)
    page = keeper.page
    until(page, "p => navigator.serviceWorker.ready.then(() => caches.open('efuda-pages-v2'))"
          ".then(c => c.match(p)).then(r => Boolean(r))", path)  # fmt: skip
    # The server does not answer the deal's post: it waits on the phone.
    page.route("**/deals/new/", lambda route: route.abort() if route.request.method == "POST"
               else route.continue_())  # fmt: skip
    expected = enter_deal(keeper, seats, 1)
    save_offline(keeper, 1)
    assert keeper.page.locator(BADGE).inner_text() == "未送信 1件"
    with page.expect_navigation():
        keeper.tap(".topbar a[href$='/accounts/logout/']")
    panel = page.locator("#logout-outbox")
    keeper.tap("#logout-form button[type=submit]")
    panel.wait_for()
    assert "1件" in panel.inner_text()
    assert {"いま送る", "破棄する"} <= set(panel.locator("button").all_inner_texts())
    with page.expect_navigation():
        keeper.tap("#logout-outbox [data-logout-choice=keep]")
    page.unroute("**/deals/new/")
    assert items(keeper) == [[f"u:{table.user.pk}", "waiting"]]
    # Offline, the entry page is not opened from the phone for whoever holds it now.
    keeper.offline(True)
    with pytest.raises(Exception):  # noqa: B017 (the browser's own offline error)
        page.goto(keeper.base + path)
    keeper.offline(False)
    page.goto(keeper.base + path)
    assert "/accounts/login/" in page.url
    # The owner on the same phone: nothing of the scorekeeper shown, nothing sent.
    log_in(keeper, "owner")
    keeper.goto(path)
    page.wait_for_timeout(1500)
    assert page.locator(BADGE).is_hidden()
    assert page.locator("#outbox [data-outbox=attention]").is_hidden()
    assert len(session_deals(table)) == 1
    # The scorekeeper again: the kept deal is sent, under the scorekeeper.
    with page.expect_navigation():
        keeper.tap(".topbar a[href$='/accounts/logout/']")
    with page.expect_navigation():
        keeper.tap("#logout-form button[type=submit]")
    log_in(keeper, "keeper")
    keeper.goto(path)
    wait_outbox(keeper, 0)
    assert arrived(keeper, table.nap, 2)[1:] == [expected]
    assert recorded_by(session_deals(table)[-1]) == ("keeper", "keeper")
    assert not Deal.objects.filter(created_by=owner).exists()


@pytest.fixture
def bfcache_keeper(browser, live_server, table):
    """The scorekeeper's phone with the back-forward cache on, as on a real phone (Playwright
    starts Chromium with it off)."""
    own = browser.browser_type.launch(
        executable_path=CHROMIUM, args=CHROMIUM_ARGS,
        ignore_default_args=["--disable-back-forward-cache"],
    )  # fmt: skip
    phone = Phone(own, live_server, table.user)
    yield phone
    assert not phone.errors, phone.errors
    phone.close()
    own.close()


@pytest.mark.parametrize("latency", LATENCY)
def test_3_back_after_saving_shows_the_session_as_it_is(bfcache_keeper, table, latency):
    """Session page → record a deal → Back: the session page shows the deal just recorded."""
    keeper = bfcache_keeper
    seats = seat_ids(table)
    session = reverse("session_detail", args=[table.club.slug, table.nap.pk])
    keeper.goto(session)
    keeper.latency(latency)
    page = keeper.page
    assert "1ディール" in page.locator("main").inner_text()
    with page.expect_navigation():
        keeper.tap("main a.button.primary")
    keeper.settle()
    enter_deal(keeper, seats, 2)
    keeper.settle()
    keeper.save()
    assert len(session_deals(table)) == 2
    page.go_back()
    page.wait_for_load_state()
    until(page, f"() => location.pathname.endsWith('/sessions/{table.nap.pk}/')")
    page.locator("main", has_text="2ディール").wait_for()
    assert page.locator("ol.deals > li.deal, ol.deals > li:not(.after)").count() >= 2
    assert len(session_deals(table)) == 2


@pytest.mark.parametrize("latency", LATENCY)
def test_4_a_double_tap_offline_keeps_one_deal(keeper, table, latency):
    seats = seat_ids(table)
    keeper.goto(entry_path(table))
    keeper.latency(latency)
    keeper.offline(True)
    expected = enter_deal(keeper, seats, 4)
    save = keeper.page.locator(SAVE)
    save.tap()
    save.tap(no_wait_after=True)
    wait_outbox(keeper, 1)
    keeper.page.wait_for_timeout(800)  # a second tap landing on the cleared form
    save.tap()
    keeper.page.wait_for_timeout(800)
    assert keeper.page.locator(BADGE).inner_text() == "未送信 1件"
    assert items(keeper) == [[f"u:{table.user.pk}", "waiting"]]
    keeper.offline(False)
    wait_outbox(keeper, 0)
    assert arrived(keeper, table.nap, 2)[1:] == [expected]
    keeper.page.wait_for_timeout(500)
    assert items(keeper) == [] and len(session_deals(table)) == 2
    assert "1件を送信しました" in keeper.page.locator("#outbox").inner_text()
    assert recorded_by(session_deals(table)[-1]) == ("keeper", "keeper")


@pytest.mark.parametrize("latency", LATENCY)
def test_5_starting_a_session_that_exists_opens_it(keeper, table, latency):
    keeper.goto(reverse("session_new", args=[table.club.slug]))
    keeper.latency(latency)
    page = keeper.page
    page.fill("input[name=date]", table.nap.date.isoformat())
    page.fill("input[name=table]", table.nap.table)
    page.select_option("select[name=rules]", "napoleon-wiki")
    with page.expect_navigation():
        keeper.tap("main button[type=submit]")
    assert page.url.endswith(entry_path(table))
    assert "すでにあります" in page.locator(".messages").inner_text()
    assert "napoleon" not in page.locator(".messages").inner_text()
    assert GameSession.objects.filter(club=table.club, game="napoleon").count() == 1
    # The deal recorded from there goes to that session, once.
    enter_deal(keeper, seat_ids(table), 0)
    keeper.settle()
    keeper.save()
    assert len(session_deals(table)) == 2


@pytest.mark.parametrize("latency", LATENCY)
def test_6_the_small_faults(browser, live_server, keeper, table, latency):
    """Discards start empty; the edit page shows the deal's points; a session of today says
    "so far"; a refused queued entry is explained in the reader's language, its summary
    without the words only a screen reader hears."""
    seats = seat_ids(table)
    keeper.goto(entry_path(table))
    keeper.latency(latency)
    page = keeper.page
    assert page.input_value("input[name=discarded]") == ""
    keeper.offline(True)
    enter_deal(keeper, seats, 0, honours=20, discarded=1)
    save_offline(keeper, 1)
    keeper.offline(False)
    wait_outbox(keeper, 1, state="attention")
    item = page.locator("#outbox [data-outbox=attention] li").first
    item.locator(".outbox-why").first.wait_for()
    assert "20枚" in item.inner_text()
    assert "スペード" not in item.inner_text() and "♠" in item.inner_text()
    with page.expect_navigation():
        page.locator(".topbar button[value=en]").click()
    item = page.locator("#outbox [data-outbox=attention] li").first
    until(page, "() => /20 honours|more than/.test((document.querySelector("
          "'#outbox [data-outbox=attention] li .outbox-why') || {}).textContent)")  # fmt: skip
    assert "枚" not in item.locator(".outbox-why").inner_text()
    page.on("dialog", lambda dialog: dialog.accept())
    page.locator("#outbox [data-outbox-action=discard]").first.tap()
    wait_outbox(keeper, 0, state="attention")
    assert len(session_deals(table)) == 1
    # The edit page starts from the deal's points as recorded.
    deal = session_deals(table)[0]
    keeper.goto(reverse("deal_edit", args=[table.club.slug, deal.pk]))
    shown = keeper.preview()
    assert shown == {line.player_id: line.points for line in deal.lines.all()}
    # A session of today is in progress: no final table, no winner yet.
    today = factories.session(club=table.club, ruleset=table.nap.ruleset,
                              date=datetime.date.today(), table="今日")  # fmt: skip
    keeper.goto(reverse("session_detail", args=[table.club.slug, today.pk]))
    text = page.locator("main").inner_text()
    assert "Standings so far" in text and "Final table" not in text
