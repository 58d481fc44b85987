"""A tired scorekeeper on a slow connection (issue: entry a tired scorekeeper cannot get wrong).

Headless Chromium at 360×640 with touch; the network slowed through the Chrome DevTools
Protocol. Every test ends by reading the database: no deal the scorekeeper did not intend, none
twice, none lost. Taps are counted (docs/entry.md quotes the counts). Set
EFUDA_UPDATE_SCREENSHOT=1 to refresh the pictures in docs/img/.
"""

import os

import pytest
from django.urls import reverse

from tests import club_versions
from tests.browser.scorekeeper import Phone, make_table
from tournaments.services.deals import deal_delete
from tournaments.services.players import player_get_or_create

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = bool(os.environ.get("EFUDA_UPDATE_SCREENSHOT"))
DISCARDS_NONE = '.stepper:has(#id_discarded) button[data-step="-1"]'  # − on empty: 0


def report(flow, phone):
    """The measured count, for docs/entry.md (read it with pytest -s)."""
    print(f"\ntaps: {flow}: {phone.taps} taps, {phone.typed} typed number(s)")


@pytest.fixture
def table(live_server):
    return make_table()


@pytest.fixture
def phone(browser, live_server, table):
    p = Phone(browser, live_server, table.user)
    yield p
    assert p.errors == [], p.errors  # no script error on any page
    p.close()


def deal_url(table):
    return reverse("deal_new", args=[table.club.slug, table.nap.pk])


def session_url(table):
    return reverse("session_detail", args=[table.club.slug, table.nap.pk])


def round_url(table):
    return reverse("round_new", args=[table.club.slug, table.dai.pk])


def saved_points(deal) -> dict[int, int]:
    return {line.player_id: line.points for line in deal.lines.all()}


def checked(phone, name) -> list[str]:
    return phone.page.locator(f"input[name={name}]:checked").evaluate_all(
        "els => els.map(e => e.value)"
    )


def test_typical_napoleon_deal_typed_then_stepped_at_300ms(phone, table):
    """The next deal at a seated table: 8 taps and one typed number, typed while previews
    return; then a deal with no typing at all (the honours stepper starts from the bid)."""
    p1, p2, p3, p4, p5 = table.seated
    phone.goto(deal_url(table))
    phone.latency(300)
    assert checked(phone, "seats") == [str(p.id) for p in table.seated]
    page = phone.page
    page.evaluate("document.querySelector('#preview').efudaMark = 1")  # the same node later

    phone.choose("napoleon", p1.id)
    page.wait_for_selector("input[name=napoleon]:focus", state="attached")
    phone.choose("bid", 14)
    phone.choose("trump", "H")
    phone.choose("called_suit", "H")
    phone.choose("called_rank", "A")
    phone.tap(DISCARDS_NONE)  # none among the discards: 0, one tap (never assumed)
    phone.choose("adjutant", p2.id)
    phone.tap("#id_honours")
    phone.type("#id_honours", "15", delay=450)  # a preview for "1" returns while "5" is typed
    assert page.input_value("#id_honours") == "15"
    phone.settle()
    assert page.input_value("#id_honours") == "15"  # no digit wiped by a reply
    assert page.evaluate("document.activeElement.id") == "id_honours"  # focus stayed
    assert page.evaluate("document.querySelector('#preview').efudaMark") == 1  # updated in place
    shown = phone.preview()
    assert shown[p1.id] > 0 and shown[p2.id] > 0 and shown[p3.id] < 0  # 15 ≥ 14: won
    assert "15" in page.locator("#preview").inner_text()
    if SHOTS:
        page.locator("#preview").scroll_into_view_if_needed()
        phone.shot("entry-napoleon-preview.png")
    phone.save()
    report("Napoleon deal, seated table, honours typed", phone)
    assert (phone.taps, phone.typed) <= (9, 1)

    deals = list(table.deals(table.nap).order_by("seq"))
    assert len(deals) == 2  # the fixture's and this one: none twice
    deal = deals[-1]
    assert (deal.napoleon_id, deal.adjutant_id, deal.bid, deal.trump) == (p1.id, p2.id, 14, "H")
    assert deal.data["honours"] == 15 and deal.data["seats"] == [p.id for p in table.seated]
    assert saved_points(deal) == shown  # what the preview showed is what was saved

    # The next deal, with no typing: + on the empty honours field gives the bid, + once more.
    phone.taps = phone.typed = 0
    assert checked(phone, "seats") == [str(p.id) for p in table.seated]
    phone.choose("napoleon", p3.id)
    phone.choose("bid", 13)
    phone.choose("trump", "S")
    phone.choose("called_suit", "S")
    phone.choose("called_rank", "K")
    phone.tap(DISCARDS_NONE)  # none among the discards: 0, one tap (never assumed)
    phone.choose("adjutant", p4.id)
    phone.tap('.stepper:has(#id_honours) button[data-step="1"]')
    assert page.input_value("#id_honours") == "13"
    phone.tap('.stepper:has(#id_honours) button[data-step="1"]')
    assert page.input_value("#id_honours") == "14"
    phone.settle()
    shown = phone.preview()
    assert shown[p3.id] > 0
    if SHOTS:  # the taps of a deal: Napoleon, bid and trump, called card, adjutant
        page.evaluate("document.querySelector('#field-napoleon').scrollIntoView()")
        phone.shot("entry-napoleon-taps.png")
    phone.save()
    report("Napoleon deal, seated table, no typing", phone)
    assert phone.taps <= 10 and phone.typed == 0
    last = table.deals(table.nap).order_by("-seq").first()
    assert (last.napoleon_id, last.adjutant_id, last.data["honours"]) == (p3.id, p4.id, 14)
    assert saved_points(last) == shown
    assert table.deals(table.nap).count() == 3


@pytest.mark.parametrize("latency", [300, pytest.param(1000, marks=pytest.mark.slow)])
def test_stepper_taps_are_never_lost(phone, table, latency):
    """15 quick taps on + end at 15 whatever the latency (there were 8 of 15), 3 on − at 12;
    the preview catches up and Save records exactly that."""
    p1, p2 = table.seated[:2]
    phone.goto(deal_url(table))
    phone.latency(latency)
    page = phone.page
    plus = '.stepper:has(#id_honours) button[data-step="1"]'
    minus = '.stepper:has(#id_honours) button[data-step="-1"]'
    for _ in range(15):  # no bid chosen yet: + starts from 1
        phone.tap(plus)
    assert page.input_value("#id_honours") == "15"
    for _ in range(3):
        phone.tap(minus)
    assert page.input_value("#id_honours") == "12"
    phone.choose("napoleon", p1.id)
    phone.choose("bid", 13)
    phone.choose("trump", "D")
    phone.choose("called_suit", "D")
    phone.choose("called_rank", "A")
    phone.tap(DISCARDS_NONE)  # none among the discards: 0, one tap (never assumed)
    phone.choose("adjutant", p2.id)
    phone.settle()
    assert page.input_value("#id_honours") == "12"
    shown = phone.preview()
    assert shown[p1.id] < 0  # 12 < 13: the preview shows the loss
    phone.save()
    deal = table.deals(table.nap).order_by("-seq").first()
    assert saved_points(deal) == shown
    assert table.deals(table.nap).count() == 2
    assert (deal.napoleon_id, deal.data["honours"], deal.trump) == (p1.id, 12, "D")


def test_seat_taps_at_600ms_never_move_and_keep_tap_order(phone, table):
    """A new table: five seats tapped quickly in clockwise order at 600 ms. The buttons stay
    where they are, each shows its seat number at once, and the deal has the intended seats."""
    session = table.nap
    with club_versions.unchecked():  # a session's first deal: nobody seated yet
        session.deals.all().delete()
    phone.goto(deal_url(table))
    assert checked(phone, "seats") == []
    phone.latency(600)
    labels = "label:has(> input[name=seats])"
    before = phone.boxes(labels)
    order = [table.players[i] for i in (2, 0, 4, 1, 5)]
    for n, player in enumerate(order, 1):
        phone.choose("seats", player.id)
        badge = f'label:has(> input[name=seats][value="{player.id}"]) .n'
        assert phone.page.locator(badge).inner_text() == str(n)  # at once, before any reply
    assert phone.boxes(labels) == before
    phone.settle()
    assert phone.boxes(labels) == before  # the reply moved nothing either
    for n, player in enumerate(order, 1):
        badge = f'label:has(> input[name=seats][value="{player.id}"]) .n'
        assert phone.page.locator(badge).inner_text() == str(n)
    # unseat the third and seat them again: they become the fifth
    phone.choose("seats", order[2].id)
    phone.choose("seats", order[2].id)
    phone.taps -= 2  # a correction, not part of the count
    order = order[:2] + order[3:] + [order[2]]
    napoleon, adjutant = order[0], order[3]
    phone.choose("napoleon", napoleon.id)
    phone.choose("bid", 15)
    phone.choose("trump", "C")
    phone.choose("called_suit", "C")
    phone.choose("called_rank", "A")
    phone.tap(DISCARDS_NONE)  # none among the discards: 0, one tap (never assumed)
    phone.choose("adjutant", adjutant.id)
    phone.tap("#id_honours")
    phone.type("#id_honours", "16")
    phone.settle()
    assert phone.boxes(labels) == before
    phone.save()
    report("Napoleon deal, a session's first (five seats tapped)", phone)
    deals = list(table.deals(session))
    assert len(deals) == 1
    assert deals[0].data["seats"] == [p.id for p in order]
    assert (deals[0].napoleon_id, deals[0].adjutant_id) == (napoleon.id, adjutant.id)


def test_double_tap_on_save_and_back_after_save(phone, table):
    """Save tapped twice at 300 ms records one deal; Back then shows a fresh form (or the saved
    deal), never the stale one, and Save from there records nothing more."""
    p1, p2, p3 = table.seated[:3]
    phone.goto(session_url(table))  # the way a scorekeeper arrives
    phone.goto(deal_url(table))
    phone.latency(300)
    phone.choose("napoleon", p1.id)
    phone.choose("bid", 13)
    phone.choose("trump", "S")
    phone.choose("called_suit", "S")
    phone.choose("called_rank", "A")
    phone.tap(DISCARDS_NONE)  # none among the discards: 0, one tap (never assumed)
    phone.choose("adjutant", p2.id)
    phone.tap("#id_honours")
    phone.type("#id_honours", "13")
    phone.settle()
    save = phone.page.locator("button[name=action][value=save]")
    with phone.page.expect_navigation():
        save.tap()
        save.tap(no_wait_after=True)
    phone.settle()
    assert table.deals(table.nap).count() == 2

    phone.page.go_back()  # the session page the scorekeeper came from, or a fresh form
    phone.settle()
    if phone.page.locator("#deal-form").count():
        assert checked(phone, "napoleon") == []  # not the stale form
        assert phone.page.input_value("#id_honours") != "13"
        phone.tap("button[name=action][value=save]")
        phone.page.wait_for_selector(".field-error", state="attached")
    else:
        assert phone.page.url.endswith(session_url(table))
    assert table.deals(table.nap).count() == 2  # nothing more recorded


def first_problem(phone):
    """Where the page put the scorekeeper after a refused save: the focused control's area,
    and whether it is on the screen."""
    return phone.page.evaluate(
        """() => {
          const problem = document.querySelector('.field-error');
          const area = problem && problem.closest('fieldset, .field, label');
          const active = document.activeElement;
          const r = (area || problem || active).getBoundingClientRect();
          return {
            inArea: !!(area && area.contains(active)) || active === problem,
            onScreen: r.bottom > 0 && r.top < innerHeight,
            text: problem ? problem.innerText : '',
            summary: !!document.querySelector(
              '[data-error-summary], .error-summary, .form-errors'),
          };
        }"""
    )


def test_refused_saves_name_the_problem_and_record_nothing(phone, table):
    """Save with something missing (the 流れ not tapped, the adjutant, the honours, the
    Napoleon made adjutant, the last finisher of a Daifugō round): refused, the page scrolled
    to the problem with focus on it and a summary at the top; nothing recorded."""
    p1, p2, p3 = table.seated[:3]
    phone.goto(deal_url(table))
    phone.latency(300)

    def refused():
        # Save goes through the phone's outbox: a refusal comes back into the same page
        phone.page.evaluate("document.querySelectorAll('.field-error').forEach(e => e.remove())")
        phone.tap("button[name=action][value=save]")
        phone.page.wait_for_selector(".field-error", state="attached")
        phone.settle()
        where = first_problem(phone)
        assert where["text"] and where["summary"], where
        assert where["inArea"] and where["onScreen"], where
        assert table.deals(table.nap).count() == 1
        return where

    refused()  # only the seats: not a 流れ unless 流れ is tapped
    phone.choose("napoleon", p1.id)
    phone.choose("bid", 13)
    phone.choose("trump", "S")
    phone.choose("called_suit", "S")
    phone.choose("called_rank", "A")
    phone.tap(DISCARDS_NONE)  # none among the discards: 0, one tap (never assumed)
    phone.tap("#id_honours")
    phone.type("#id_honours", "14")
    refused()  # no adjutant: not saved as 独り立ち
    if SHOTS:
        phone.shot("entry-refused.png")
    assert phone.page.evaluate("document.activeElement.name") == "adjutant"
    phone.choose("adjutant", p2.id)
    phone.page.fill("#id_honours", "")
    refused()  # no honours: not 0
    assert phone.page.evaluate("document.activeElement.id") == "id_honours"
    phone.type("#id_honours", "21")  # more honours than there are: no points, a reason
    phone.settle()
    assert phone.page.locator("#preview [data-player]").count() == 0
    assert "20" in phone.page.locator("#preview").inner_text()
    refused()
    assert phone.page.evaluate("document.activeElement.id") == "id_honours"
    phone.page.fill("#id_honours", "")
    phone.type("#id_honours", "14")
    phone.choose("napoleon", p2.id)  # the adjutant made Napoleon
    refused()
    phone.choose("adjutant", "solo")
    phone.settle()
    phone.save()
    assert table.deals(table.nap).count() == 2
    deal = table.deals(table.nap).order_by("-seq").first()
    assert (deal.napoleon_id, deal.adjutant_id, deal.data["honours"]) == (p2.id, None, 14)
    assert deal.data.get("solo") is True

    # Daifugō: three of the five went out, two not tapped: refused, not a three-player round.
    phone.goto(round_url(table))
    for player in table.seated[:3]:
        phone.tap(f'[data-tap-player="{player.id}"]')
    phone.tap("button[name=action][value=save]")
    phone.page.wait_for_selector(".field-error", state="attached")
    phone.settle()
    where = first_problem(phone)
    assert where["text"] and where["inArea"] and where["onScreen"], where
    assert table.deals(table.dai).count() == 1


def test_daifugo_round_at_600ms(phone, table):
    """Five players: four taps and Save (the last one is placed for the scorekeeper); buttons
    stay put and show their place; a second tap takes a player out again."""
    phone.goto(round_url(table))
    phone.latency(600)
    page = phone.page
    buttons = "[data-tap-player]"
    before = phone.boxes(buttons)
    a, b, c, d, e = table.seated
    phone.tap(f'[data-tap-player="{c.id}"]')
    phone.tap(f'[data-tap-player="{a.id}"]')
    phone.tap(f'[data-tap-player="{a.id}"]')  # tapped by mistake: tap again to take out
    assert page.get_attribute(f'[data-tap-player="{a.id}"]', "aria-pressed") == "false"
    phone.tap(f'[data-tap-player="{c.id}"]')
    assert page.locator('[data-tap-player][aria-pressed="true"]').count() == 0
    phone.taps = 0  # the count is for the round as meant
    for player in (c, e, a, d):
        phone.tap(f'[data-tap-player="{player.id}"]')
    for n, player in enumerate((c, e, a, d), 1):
        tapped = page.locator(f'[data-tap-player="{player.id}"]')
        assert tapped.get_attribute("aria-pressed") == "true"
        assert tapped.is_enabled()
        assert tapped.locator(".n").inner_text() == str(n)
    assert phone.boxes(buttons) == before
    phone.settle()
    assert phone.boxes(buttons) == before
    assert phone.no_sideways_scroll()
    if SHOTS:
        page.evaluate("document.querySelector('#field-order').scrollIntoView()")
        phone.shot("entry-daifugo.png")
    phone.save()
    report("Daifugō round, five players", phone)
    assert phone.taps <= 6
    rounds = list(table.deals(table.dai).order_by("seq"))
    assert len(rounds) == 2
    assert rounds[-1].data["order"] == [p.id for p in (c, e, a, d, b)]


def test_sizes_zoom_and_contrast(browser, live_server, table):
    """Touch targets of 44×44 px at least; at 200 % zoom on a 360 px phone (a 180 px wide
    layout) nothing is cut off: no sideways scrolling, every player button within reach."""
    for name in ("Mia", "Leo", "Ann", "Kai"):  # ten players at the club
        table.players.append(player_get_or_create(club=table.club, name=name))
    phone = Phone(browser, live_server, table.user)
    try:
        for path in (deal_url(table), round_url(table)):
            phone.goto(path)
            small = phone.page.evaluate(
                """() => [...document.querySelectorAll(
                    'main button, main label.tap, .topbar a, .topbar button, [data-tap-player]')]
                  .filter(e => e.offsetParent !== null)
                  .map(e => [e.textContent.trim().slice(0, 12), e.getBoundingClientRect()])
                  .filter(([_, r]) => r.width < 44 || r.height < 44)
                  .map(([t, r]) => `${t} ${Math.round(r.width)}×${Math.round(r.height)}`)"""
            )
            assert small == [], small
            assert phone.no_sideways_scroll()
        # The focus ring of a tap button reached by keyboard contrasts with the page (≥ 3:1).
        page = phone.page
        page.locator("[data-tap-player], main .tap input").first.focus()
        page.keyboard.press("Tab")
        ring = page.evaluate(
            """() => {
              const el = document.activeElement;
              const face = el.matches('.tap input') ? el.nextElementSibling : el;
              const s = getComputedStyle(face);
              return [parseFloat(s.outlineWidth),
                      efudaContrast(s.outlineColor, efudaBackground(face.parentElement))];
            }"""
        )
        assert ring[0] >= 2 and ring[1] >= 3, ring
    finally:
        phone.close()
    zoomed = Phone(browser, live_server, table.user, width=180, height=320, scale=2)
    try:
        for path in (deal_url(table), round_url(table)):
            zoomed.goto(path)
            assert zoomed.no_sideways_scroll(), path
            outside = zoomed.page.evaluate(
                """() => [...document.querySelectorAll('main button, main label, main input,"""
                """ main select, [data-tap-player]')]
                  .filter(e => e.offsetParent !== null)
                  .filter(e => { const r = e.getBoundingClientRect();
                                 return r.left < 0 || r.right > innerWidth + 0.5; })
                  .map(e => e.textContent.trim().slice(0, 20) || e.name)"""
            )
            assert outside == [], (path, outside)
        # every one of the ten players can be reached (tap buttons or the table's checkboxes)
        names = zoomed.page.locator("main label.tap, [data-tap-player]").all_inner_texts()
        assert all(any(p.name in n for n in names) for p in table.players), names
    finally:
        zoomed.close()


def test_deleted_deals_stay_readable(browser, live_server, table):
    """A deleted deal is struck through but keeps a contrast of at least 4.5:1."""
    deal_delete(deal=table.deals(table.nap).first())
    phone = Phone(browser, live_server, table.user)
    try:
        phone.goto(reverse("session_detail", args=[table.club.slug, table.nap.pk]))
        ratio = phone.page.evaluate(
            """() => {
              const el = document.querySelector('.deal.deleted .deal-head');
              const style = getComputedStyle(el);
              if (parseFloat(style.opacity) < 1) return 0;
              return efudaContrast(style.color, efudaBackground(el));
            }"""
        )
        assert ratio >= 4.5, ratio
    finally:
        phone.close()


def test_preview_without_connection_says_so_and_catches_up(phone, table):
    """With no connection the preview says the points come later (the taps stay); when the
    connection returns it catches up by itself."""
    p1 = table.seated[0]
    phone.goto(deal_url(table))
    phone.context.set_offline(True)
    phone.choose("napoleon", p1.id)
    phone.choose("bid", 13)
    status = phone.page.locator('#preview [data-status="offline"]')
    status.wait_for(state="visible")
    assert checked(phone, "napoleon") == [str(p1.id)] and checked(phone, "bid") == ["13"]
    phone.context.set_offline(False)
    phone.page.evaluate("window.dispatchEvent(new Event('online'))")
    status.wait_for(state="hidden")
    phone.settle()
    assert checked(phone, "napoleon") == [str(p1.id)] and checked(phone, "bid") == ["13"]
    assert table.deals(table.nap).count() == 1  # a preview never records anything
