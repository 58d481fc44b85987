"""Offline as sure as paper: the phone scores what it keeps.

Headless Chromium at 360×640 with touch (tests/browser/scorekeeper.py), the network cut with
``context.set_offline``. Deals saved without a connection are listed with their points as the
phone computes them (static/js/scoring-core.js, under the session's own rule set), marked
未送信, and the running totals include them, marked; the points panel shows the deal being
entered. Once the connection returns they are sent once, efuda's numbers agree and the marks
go; where efuda scores a deal otherwise (a round recorded meanwhile on another phone changed
whom it follows), efuda's numbers count and the phone shows the difference.
"""

import pytest
from django.db.models import Sum
from django.urls import reverse

from tests import factories
from tests.browser.scorekeeper import Phone, make_table
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
from tournaments.models import Deal, ScoreLine
from tournaments.services import events as svc
from tournaments.services.deals import deal_record

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WAITING = "#outbox [data-outbox=waiting]"
LOCAL = "() => document.querySelectorAll('#preview [data-local-player]').length === 5"
NO_MARKS = "() => !document.querySelector('#running-totals .pending-mark, [data-pending-note]')"
DIFFER = "#outbox [data-outbox=differ]"
TOTALS = "#running-totals"


@pytest.fixture
def table(db):
    return make_table()  # one deal and one round already recorded, five players seated


@pytest.fixture
def keeper(browser, live_server, table):
    phone = Phone(browser, live_server, table.user, axe=True)
    yield phone
    assert not phone.errors, phone.errors
    phone.close()


def total(phone, player) -> str:
    return phone.page.locator(f'{TOTALS} [data-total="{player.id}"]').inner_text()


def server_totals(session) -> dict[int, int]:
    rows = ScoreLine.objects.filter(session=session).values("player_id").annotate(p=Sum("points"))
    return {r["player_id"]: r["p"] for r in rows}


def local_points(phone) -> dict[int, str]:
    pairs = phone.page.locator("#preview [data-local-player]").evaluate_all(
        "els => els.map(e => [e.dataset.localPlayer, e.textContent.trim()])"
    )
    return {int(pid): text for pid, text in pairs}


def test_two_deals_offline_are_scored_listed_and_totalled_then_sent_once(keeper, table):
    taro, hanako, ken, yuki, sam = table.seated
    keeper.goto(entry_path(table))
    assert total(keeper, taro) == "+2"  # the deal recorded before: 太郎 Napoleon, won
    keeper.context.set_offline(True)
    # 太郎 bids 13 with 花子, the army takes 12: lost. The panel scores it on the phone.
    enter_deal(keeper, seat_ids(table), 0)
    keeper.page.locator("#preview.has-local [data-status=offline-local]").wait_for()
    until(keeper.page, LOCAL)
    assert local_points(keeper) == {taro.id: "-2", hanako.id: "-1", ken.id: "+1", yuki.id: "+1",
                                    sam.id: "+1"}  # fmt: skip
    status = keeper.page.locator("#preview [data-status=offline-local]")
    assert "この端末で計算" in status.inner_text()
    save_offline(keeper, 1)
    # 花子 bids 13 with Ken and makes it.
    enter_deal(keeper, seat_ids(table), 1)
    save_offline(keeper, 2)
    assert keeper.page.locator(BADGE).inner_text() == "未送信 2件"

    # Each waiting deal: 未送信, when, what, and its points.
    items = keeper.page.locator(f"{WAITING} li")
    assert items.count() == 2
    first, second = items.nth(0), items.nth(1)
    assert first.locator(".outbox-mark").inner_text() == "未送信"
    assert "太郎" in first.locator(".outbox-what").inner_text()
    lost, won = (
        "太郎 -2 · 花子 -1 · Ken +1 · ゆき +1 · Sam +1",
        "太郎 -1 · 花子 +2 · Ken +1 · ゆき -1 · Sam -1",
    )
    assert first.locator(".outbox-points").inner_text() == lost
    assert second.locator(".outbox-points").inner_text() == won
    assert "未送信：この端末で計算した得点" in keeper.page.locator(WAITING).inner_text()

    # The running totals include them, marked, ranked again.
    expected = {taro: "-1", hanako: "+2", ken: "+1", yuki: "-1", sam: "-1"}
    assert {p: total(keeper, p) for p in expected} == expected
    rows = keeper.page.locator(f"{TOTALS} ol.totals-list li")
    assert rows.nth(0).inner_text().startswith("1. 花子")
    assert rows.nth(1).inner_text().startswith("2. Ken")
    assert keeper.page.locator(f"{TOTALS} li.has-pending .pending-mark").count() == 5
    assert "未送信 -3" in keeper.page.locator(f"{TOTALS} li", has_text="太郎").inner_text()
    note = keeper.page.locator(f"{TOTALS} [data-pending-note]")
    assert "未送信の2件を含みます" in note.inner_text()
    assert Deal.objects.filter(session=table.nap).count() == 1
    assert keeper.axe() == []  # the list and the marks read well (contrast, names, structure)

    # Back online: sent once, in order; efuda's numbers agree, the marks go.
    keeper.context.set_offline(False)
    wait_outbox(keeper, 0)
    assert len(arrived(keeper, table.nap, 3)) == 3
    keeper.page.locator(f"{TOTALS} h2", has_text="3").wait_for()
    until(keeper.page, NO_MARKS)
    assert keeper.page.locator(WAITING).is_hidden()
    assert keeper.page.locator(DIFFER).is_hidden()
    stored = server_totals(table.nap)
    assert {p: total(keeper, p) for p in expected} == {p: f"{stored[p.id]:+d}" for p in expected}
    assert {p: total(keeper, p) for p in expected} == expected
    keeper.page.wait_for_timeout(300)
    assert Deal.objects.filter(session=table.nap).count() == 3
    assert len(set(Deal.objects.filter(session=table.nap).values_list("client_id", flat=True))) == 3


def test_efudas_numbers_win_and_the_phone_shows_the_difference(keeper, table):
    """A Daifugō round entered offline follows 太郎, the last 大富豪 the phone knew; meanwhile
    another phone records a round that Ken wins, so efuda scores this one after Ken."""
    taro, hanako, ken, yuki, sam = table.seated
    keeper.goto(reverse("round_new", args=[table.club.slug, table.dai.pk]))
    keeper.context.set_offline(True)
    for player in (hanako, taro, ken, yuki):  # Sam, the last one left, is placed by the form
        keeper.tap(f'[data-tap-player="{player.id}"]')
    # 都落ち: 太郎, last round's 大富豪, did not go out first and falls to 大貧民.
    until(keeper.page, LOCAL)
    assert local_points(keeper) == {hanako.id: "+2", ken.id: "+1", yuki.id: "+0", sam.id: "-1",
                                    taro.id: "-2"}  # fmt: skip
    keeper.tap("button[name=action][value=save]")
    wait_outbox(keeper, 1)
    points = keeper.page.locator(f"{WAITING} .outbox-points").inner_text()
    assert points == "花子 +2 · Ken +1 · ゆき +0 · Sam -1 · 太郎 -2"
    ids = [p.id for p in (ken, taro, hanako, yuki, sam)]
    deal_record(session=table.dai, user=table.user,
                data={"players": ids, "order": ids, "forbidden": []})  # fmt: skip

    keeper.context.set_offline(False)
    wait_outbox(keeper, 0)
    differ = keeper.page.locator(DIFFER)
    differ.wait_for()
    text = differ.inner_text()
    assert "No. 3" in text and "efudaの得点は 花子 +2 · Ken -2 · ゆき +0 · Sam -1 · 太郎 +1" in text
    assert "この端末の計算は 花子 +2 · Ken +1 · ゆき +0 · Sam -1 · 太郎 -2" in text
    assert keeper.axe() == []
    # efuda's numbers are the ones kept and totalled.
    third = Deal.objects.get(session=table.dai, seq=3)
    assert third.outcome["points"][str(ken.id)] == -2
    assert third.outcome["miyako_ochi"] == str(ken.id)
    stored = server_totals(table.dai)
    until(keeper.page, NO_MARKS)
    keeper.page.locator(f"{TOTALS} h2", has_text="3").wait_for()
    assert {p.id: total(keeper, p) for p in table.seated} == {
        p.id: f"{stored[p.id]:+d}" for p in table.seated
    }
    keeper.tap(f"{DIFFER} [data-outbox-action=differ-seen]")
    differ.wait_for(state="hidden")
    assert Deal.objects.filter(session=table.dai).count() == 3


def test_a_tournament_table_totals_the_waiting_deal_by_seat(browser, live_server):
    club = factories.ClubFactory()
    wiki = factories.ClubRuleSetFactory(club=club, code="napoleon-wiki", preset="napoleon-wiki")
    t = factories.tournament(club=club, ruleset=wiki, entrants=5)
    table = factories.started_round(t).tables.get()
    seats = list(table.seats)
    path = reverse("tournament_table", args=[t.pk, table.pk])
    phone = Phone(browser, live_server, None)
    phone.page.goto(f"{live_server.url}/t/{t.pk}/pin/")
    phone.page.fill("input[name=pin]", svc.pin_issue(entry=t.entries.get(player_id=seats[0])))
    phone.page.click("button[type=submit].primary")
    phone.page.wait_for_url(f"**{path}")
    phone.settle()
    cells = phone.page.locator("table.ev-totals tbody td")
    phone.context.set_offline(True)
    enter_deal(phone, seats, 0)  # seat 1 bids 13 with seat 2, the army takes 12: lost
    save_offline(phone, 1)
    assert cells.nth(0).locator(".pending-mark").inner_text() == "未送信 -2"
    assert cells.nth(1).locator(".pending-mark").inner_text() == "未送信 -1"
    assert [cells.nth(i).inner_text().split()[0] for i in range(5)] == [
        "-2",
        "-1",
        "+1",
        "+1",
        "+1",
    ]
    assert (
        "未送信の1件を含みます"
        in phone.page.locator("#table-deals [data-pending-note]").inner_text()
    )
    phone.context.set_offline(False)
    wait_outbox(phone, 0)
    phone.page.locator("#table-deals li.ev-deal").first.wait_for()
    until(phone.page, NO_MARKS.replace("#running-totals", "#table-deals"))
    assert [cells.nth(i).inner_text() for i in range(5)] == ["-2", "-1", "+1", "+1", "+1"]
    assert Deal.objects.filter(session=table.session).count() == 1
    assert not phone.errors, phone.errors
    phone.close()
