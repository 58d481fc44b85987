"""A dead connection at the table: the phone's outbox and service worker.

Headless Chromium at 360×640 with touch (tests/browser/scorekeeper.py). ``context.set_offline``
cuts the network; ``page.route`` loses a reply after the server has committed the deal. Each
test checks the database: every deal the scorekeeper saved arrives, in order, exactly once, and
nothing the server refused is recorded.
"""

import datetime

import pytest
from django.db import OperationalError
from django.urls import reverse

from tests import factories
from tests.browser.scorekeeper import Phone, make_table
from tournaments.models import Deal
from tournaments.services import events as svc

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BADGE = "#outbox [data-outbox=badge]"
# How many deals wait in the phone's outbox (IndexedDB), as the page itself stores them.
WAITING = (
    "([state, n]) => new Promise(done => { const open = indexedDB.open('efuda-outbox');"
    " open.onsuccess = () => { const r = open.result.transaction('deals')"
    ".objectStore('deals').getAll(); r.onsuccess = () => { open.result.close();"
    " done(r.result.filter(x => x.state === state).length === n); }; }; })"
)
CACHED = (
    "page => navigator.serviceWorker.ready.then(() => caches.open('efuda-pages-v2'))"
    ".then(c => c.match(page)).then(r => Boolean(r))"
)


def entry_path(table):
    return reverse("deal_new", args=[table.club.slug, table.nap.pk])


def enter_deal(phone, seats, n, *, honours=None, discarded=None):
    """Tap in a Napoleon deal told apart by ``n`` (its Napoleon and honours); returns what
    the server should store for it."""
    napoleon, adjutant = seats[n % len(seats)], seats[(n + 1) % len(seats)]
    honours = 12 + n % 5 if honours is None else honours
    phone.choose("napoleon", napoleon)
    phone.choose("bid", 13)
    phone.choose("trump", "S")
    phone.choose("called_suit", "H")
    phone.choose("called_rank", "A")
    phone.choose("adjutant", adjutant)
    phone.page.fill("input[name=honours]", str(honours))
    phone.page.fill("input[name=discarded]", str(0 if discarded is None else discarded))
    return napoleon, honours


def until(page, expression, arg=None, timeout=30000):
    """Poll ``expression`` (a function) until it is true. Not wait_for_function: its predicate
    is evaluated from a string, which the pages' Content-Security-Policy rightly forbids."""
    for _ in range(timeout // 100):
        if page.evaluate(expression, arg):
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"never true: {expression[:80]}")


def wait_outbox(phone, n, state="waiting", timeout=30000):
    until(phone.page, WAITING, [state, n], timeout)


def save_offline(phone, waiting):
    """Save without a connection: kept on the phone, and the form is cleared for the next."""
    phone.tap("button[name=action][value=save]")
    wait_outbox(phone, waiting)
    until(phone.page, "() => !document.querySelector('input[name=napoleon]:checked')")


def arrived(phone, session, count):
    """(Napoleon, honours) of the session's deals in number order, once ``count`` are there."""
    deals = []
    for _ in range(150):
        try:
            deals = [
                (d.data["napoleon"], d.data["honours"])
                for d in Deal.objects.filter(session=session).order_by("seq")
            ]
        except OperationalError:  # SQLite's in-memory test database while the server writes
            deals = []
        if len(deals) >= count:
            return deals
        phone.page.wait_for_timeout(100)
    return deals


def seat_ids(table):
    return [p.id for p in table.seated]


@pytest.fixture
def table(db):
    return make_table()  # one deal already recorded at the Napoleon table


@pytest.fixture
def keeper(browser, live_server, table):
    phone = Phone(browser, live_server, table.user)
    yield phone
    assert not phone.errors, phone.errors
    phone.close()


def test_offline_save_waits_then_arrives_once(keeper, table):
    keeper.goto(entry_path(table))
    keeper.context.set_offline(True)
    expected = enter_deal(keeper, seat_ids(table), 0)
    save_offline(keeper, 1)
    assert keeper.page.locator(BADGE).inner_text() == "未送信 1件"
    # The preview says the points come when the deal reaches efuda.
    assert keeper.page.locator("#preview [data-status=offline]").is_visible()
    keeper.page.wait_for_timeout(300)
    assert Deal.objects.filter(session=table.nap).count() == 1  # only the deal made before
    keeper.context.set_offline(False)  # the "online" event sends it
    wait_outbox(keeper, 0)
    assert arrived(keeper, table.nap, 2)[1:] == [expected]
    keeper.page.locator(BADGE).wait_for(state="hidden")
    assert "1件を送信しました" in keeper.page.locator("#outbox").inner_text()
    # The running totals catch up without a reload: two deals now.
    keeper.page.locator("#running-totals h2", has_text="2").wait_for()


def test_reply_lost_after_commit_is_sent_again_and_counted_once(keeper, table):
    lost = []

    def lose_the_first_reply(route):
        if route.request.method == "POST" and not lost:
            lost.append(route.fetch().status)  # the server records the deal...
            route.abort("connectionreset")  # ...and the phone never hears back
        else:
            route.continue_()

    keeper.page.route("**/deals/new/", lose_the_first_reply)
    keeper.goto(entry_path(table))
    expected = enter_deal(keeper, seat_ids(table), 1)
    save_offline(keeper, 1)  # as far as the phone knows, it was not sent
    assert lost == [200]
    assert arrived(keeper, table.nap, 2)[1:] == [expected]
    keeper.page.reload()  # page load: the outbox sends it again; efuda says 記録済み
    wait_outbox(keeper, 0)
    keeper.page.wait_for_timeout(300)
    assert arrived(keeper, table.nap, 2)[1:] == [expected]
    assert Deal.objects.filter(session=table.nap).count() == 2


def test_twenty_deals_offline_arrive_in_order_once(keeper, table):
    keeper.goto(entry_path(table))
    keeper.context.set_offline(True)
    expected = []
    for n in range(20):
        expected.append(enter_deal(keeper, seat_ids(table), n))
        save_offline(keeper, n + 1)
    assert keeper.page.locator(BADGE).inner_text() == "未送信 20件"
    assert Deal.objects.filter(session=table.nap).count() == 1
    keeper.context.set_offline(False)
    wait_outbox(keeper, 0, timeout=60000)
    assert arrived(keeper, table.nap, 21)[1:] == expected
    seqs = list(Deal.objects.filter(session=table.nap).values_list("seq", flat=True))
    assert sorted(seqs) == list(range(1, 22))


def test_page_reopens_offline_with_its_outbox(keeper, table, live_server):
    path = entry_path(table)
    keeper.goto(path)
    until(keeper.page, CACHED, path)  # the service worker keeps the page
    keeper.context.set_offline(True)
    expected = enter_deal(keeper, seat_ids(table), 2)
    save_offline(keeper, 1)
    response = keeper.page.reload()
    assert response.from_service_worker and keeper.page.evaluate("!navigator.onLine")
    keeper.page.locator(BADGE).wait_for()
    assert keeper.page.locator(BADGE).inner_text() == "未送信 1件"
    # A new tab (the scorekeeper closed the old one) opens the page from the phone too.
    keeper.page.close()
    tab = keeper.context.new_page()
    tab.goto(live_server.url + path)
    tab.locator(BADGE).wait_for()
    assert tab.locator(BADGE).inner_text() == "未送信 1件"
    assert tab.locator("#deal-form button[value=save]").is_visible()
    # Still usable: another deal, then the connection returns and both arrive in order.
    keeper.page = tab
    second = enter_deal(keeper, seat_ids(table), 3)
    save_offline(keeper, 2)
    keeper.context.set_offline(False)
    wait_outbox(keeper, 0)
    assert arrived(keeper, table.nap, 3)[1:] == [expected, second]


def test_refused_deal_is_shown_for_correction_and_nothing_recorded(keeper, table):
    keeper.goto(entry_path(table))
    keeper.context.set_offline(True)
    enter_deal(keeper, seat_ids(table), 0, honours=20, discarded=1)  # 21 honours of 20
    save_offline(keeper, 1)
    keeper.context.set_offline(False)
    wait_outbox(keeper, 1, state="attention")
    attention = keeper.page.locator("#outbox [data-outbox=attention]")
    attention.locator("li").wait_for()
    assert "要確認" in attention.inner_text()
    assert "20枚" in attention.locator(".outbox-why").inner_text()  # efuda's own message
    assert Deal.objects.filter(session=table.nap).count() == 1
    keeper.page.locator(BADGE).wait_for(state="hidden")
    # 直す: the deal comes back into the form with efuda's message; corrected, it is saved.
    keeper.tap("#outbox [data-outbox-action=correct]")
    keeper.page.locator("#outbox [data-outbox=reopened]").wait_for()
    assert keeper.page.locator("input[name=honours]").input_value() == "20"
    assert "20枚" in keeper.page.locator("#deal-form .field-error").first.inner_text()
    keeper.page.fill("input[name=discarded]", "0")
    with keeper.page.expect_navigation():
        keeper.tap("button[name=action][value=save]")
    assert arrived(keeper, table.nap, 2)[1:] == [(seat_ids(table)[0], 20)]
    wait_outbox(keeper, 0, state="attention")


def test_two_phones_at_one_pin_table_one_offline(browser, live_server):
    club = factories.ClubFactory()
    wiki = factories.ClubRuleSetFactory(club=club, code="napoleon-wiki", preset="napoleon-wiki")
    t = svc.tournament_create(
        club=club, name="Cup", date=datetime.date(2026, 11, 21), ruleset=wiki, seed=3
    )
    for i in range(1, 6):
        svc.entry_add(tournament=t, name=f"Player{i}", checked_in=True)
    table = svc.round_start(rnd=svc.round_draw(tournament=t)).tables.get()
    seats = list(table.seats)
    path = reverse("tournament_table", args=[t.pk, table.pk])
    phones = []
    for seat in seats[:2]:
        pin = svc.pin_issue(entry=t.entries.get(player_id=seat))
        phone = Phone(browser, live_server, None)
        phone.page.goto(f"{live_server.url}/t/{t.pk}/pin/")
        phone.page.fill("input[name=pin]", pin)
        phone.page.click("button[type=submit].primary")
        phone.page.wait_for_url(f"**{path}")
        phones.append(phone)
    a, b = phones
    a.context.set_offline(True)
    first = enter_deal(a, seats, 0)
    save_offline(a, 1)
    b.settle()
    second = enter_deal(b, seats, 1)
    b.save()  # online: recorded at once, the table page opens again
    assert arrived(b, table.session, 1) == [second]
    a.context.set_offline(False)
    wait_outbox(a, 0)
    assert arrived(a, table.session, 2) == [second, first]  # numbered as they arrived
    # The offline phone's list of the table's deals shows both without a reload.
    a.page.locator("#table-deals li.ev-deal").nth(1).wait_for()
    for phone in phones:
        assert not phone.errors, phone.errors
        phone.close()


def test_expired_login_keeps_the_deal_until_logged_in_again(keeper, table):
    keeper.goto(entry_path(table))
    keeper.context.clear_cookies()  # the login (and the CSRF cookie) expired at the table
    expected = enter_deal(keeper, seat_ids(table), 4)
    save_offline(keeper, 1)
    prompt = keeper.page.locator("#outbox [data-outbox=login]")
    prompt.wait_for()
    assert "もう一度ログイン" in prompt.inner_text()
    assert Deal.objects.filter(session=table.nap).count() == 1
    with keeper.page.expect_navigation():
        keeper.tap("#outbox [data-outbox=login] a")
    keeper.page.fill("input[name=login]", table.user.username)
    keeper.page.fill("input[name=password]", "pass-word-123")
    with keeper.page.expect_navigation():
        keeper.page.click("button[type=submit].primary")
    assert keeper.page.url.endswith(entry_path(table))  # back at the table, with a new token
    wait_outbox(keeper, 0)
    assert arrived(keeper, table.nap, 2)[1:] == [expected]


def test_the_import_progress_says_when_the_connection_is_lost_and_resumes(live_server, phone):
    from tournaments.models import ImportJob

    club = factories.ClubFactory(slug="imp", name="取込会")
    owner = factories.UserFactory(username="owner-imp")
    factories.MembershipFactory(club=club, user=owner, role="owner")
    job = ImportJob.objects.create(club=club, data=b"x", lines=30000, filename="十年分.csv",
                                   status="running", done=12000, total=30000)  # fmt: skip
    url = reverse("manage_import_job", args=[club.slug, job.pk])
    page = phone
    page.goto(f"{live_server.url}/accounts/login/?next={url}")
    page.fill("input[name=login]", "owner-imp")
    page.fill("input[name=password]", "pass-word-123")
    page.click("button[type=submit].primary")
    page.wait_for_url(f"**{url}")
    note = page.locator("#import-job [data-import-offline]")
    assert page.locator("#import-progress").get_attribute("value") == "40"
    assert note.is_hidden()
    page.context.set_offline(True)
    note.wait_for(state="visible", timeout=5000)  # the next poll failed: said, in Japanese
    assert "接続" in note.inner_text()
    ImportJob.objects.filter(pk=job.pk).update(done=27000)  # the worker goes on meanwhile
    page.context.set_offline(False)
    until(page, "() => document.querySelector('#import-progress').value === 90", timeout=5000)
    assert note.is_hidden()  # the poll that got through replaced the section
