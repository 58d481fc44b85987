"""A deal made at a table before its round was finished is never lost: the staff count it
late (from the table's own entry address, or on the player's phone), until the tournament is
finished; a player cannot."""

import datetime
import uuid

import pytest
from django.urls import reverse

from tests.events.test_views import login_pin, record_post
from tournaments.models import Deal, DealConfirmation
from tournaments.selectors.events import tournament_standings
from tournaments.selectors.history import deal_history
from tournaments.services import events as svc

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished(make_tournament):
    """Round 1 of 3 played and finished with nothing recorded at table 1."""
    t = make_tournament(10, rounds_planned=3)
    rnd = svc.round_start(rnd=svc.round_draw(tournament=t))
    svc.round_finish(rnd=rnd)
    rnd.refresh_from_db()
    return t, rnd, rnd.tables.order_by("number").first()


def _post(client, t, table, **headers):
    url = reverse("tournament_table_record", args=[t.pk, table.pk])
    data = record_post(table) | {"client_id": str(uuid.uuid4()), "action": "save"}
    return client.post(url, data, headers=headers)


def test_staff_count_a_late_deal_through_the_tables_entry_url(client, users, finished):
    t, rnd, table = finished
    entry = t.entries.get(player_id=table.seats[0])
    login_pin(client, t, entry)
    refused = _post(client, t, table)  # the seated player, after the finish: refused
    assert refused.status_code == 400 and not Deal.objects.exists()
    assert "show this to the staff" in refused.content.decode()
    client.logout()
    client.force_login(users["member"])  # a club member who is not staff: refused
    assert _post(client, t, table).status_code in (403, 404, 410)
    assert not Deal.objects.exists()
    client.force_login(users["scorekeeper"])
    page = client.get(reverse("tournament_table", args=[t.pk, table.pk]))
    assert "Count a late deal" in page.content.decode()
    counted = _post(client, t, table)
    assert counted.status_code == 302
    deal = Deal.objects.get()
    c = DealConfirmation.objects.get(deal=deal)
    assert c.late and c.late_allowed_by == users["scorekeeper"] and c.state == "confirmed"
    history = deal_history(deal)
    assert "Late deal" in history[-1].reason and history[-1].who == "scorekeeper-user"
    totals = {r.player_id: r.total for r in tournament_standings(tournament=t).rows}
    assert totals[table.seats[0]] > 0  # the late deal counts in the standings


def test_staff_unlock_on_the_players_phone_sends_it_once(client, users, finished):
    t, rnd, table = finished
    entry = t.entries.get(player_id=table.seats[0])
    login_pin(client, t, entry)
    author = f"pin:{entry.pk}"
    made = int((rnd.finished_at - datetime.timedelta(minutes=3)).timestamp() * 1000)
    outbox = {"X-Efuda-Outbox": "queued", "X-Efuda-Author": author, "X-Efuda-Made": str(made)}
    url = reverse("tournament_table_record", args=[t.pk, table.pk])
    data = record_post(table) | {"client_id": str(uuid.uuid4()), "action": "save"}
    refused = client.post(url, data, headers=outbox)
    assert refused.status_code == 422
    assert [p["code"] for p in refused.json()["problems"]] == ["round_finished_late"]
    # The player cannot unlock it themselves.
    assert client.post(url, data, headers=outbox | {"X-Efuda-Late": "1"}).status_code == 422
    client.force_login(users["scorekeeper"])  # the staff log in on this phone: the PIN stays
    # Without saying "late" the item is the player's, not the staff's: not recorded.
    assert client.post(url, data, headers=outbox).status_code == 409
    sent = client.post(url, data, headers=outbox | {"X-Efuda-Late": "1"})
    assert sent.status_code == 200 and not sent.json()["repeat"]
    again = client.post(url, data, headers=outbox | {"X-Efuda-Late": "1"})
    assert again.json()["repeat"] and Deal.objects.count() == 1
    c = DealConfirmation.objects.get()
    assert c.late and c.recorded_by == entry and c.late_allowed_by == users["scorekeeper"]
    assert abs((c.made_at - rnd.finished_at).total_seconds() - (-180)) < 1


def test_late_deals_end_with_the_tournament_and_never_redraw(users, finished):
    t, rnd, table = finished
    second = svc.round_draw(tournament=t)
    seats = [list(x.seats) for x in second.tables.order_by("number")]
    svc.table_deal_record(table=table, data=_data(table), user=users["scorekeeper"], staff=True)
    assert [list(x.seats) for x in second.tables.order_by("number")] == seats
    with pytest.raises(Exception) as err:
        svc.table_deal_record(table=table, data=_data(table), entry=_entry(t, table))
    assert err.value.code == "round_finished_late"
    svc.tournament_finish(tournament=t)
    with pytest.raises(Exception) as err:
        svc.table_deal_record(table=table, data=_data(table), user=users["scorekeeper"], staff=True)
    assert err.value.code == "late_tournament_finished"
    assert Deal.objects.count() == 1


def _entry(t, table):
    return t.entries.get(player_id=table.seats[0])


def _data(table):
    from tests.events.conftest import napoleon_win

    return napoleon_win(table.seats)


def _finish_page(client, t, number=1):
    return client.get(reverse("tournament_round_finish", args=[t.pk, number])).content.decode()


def _section(html):
    start = html.index('class="ev-incomplete"')
    return html[start : html.index("</section>", start)]


def test_finishing_lists_tables_short_of_the_deals_asked(client, users, make_tournament):
    t = make_tournament(10, deals_per_round=1)
    rnd = svc.round_start(rnd=svc.round_draw(tournament=t))
    first, second = rnd.tables.order_by("number")
    svc.table_deal_record(table=first, data=_data(first), user=users["scorekeeper"], staff=True)
    client.force_login(users["scorekeeper"])
    section = _section(_finish_page(client, t))
    assert "R1-T2: 0 of 1 deal" in section and "R1-T1" not in section


def test_finishing_a_timed_round_lists_the_tables_seen_lately(client, users, make_tournament):
    import time

    from django.core.cache import cache

    from tournaments.selectors.events.seen import seen_key

    t = make_tournament(15, minutes_per_round=40)
    rnd = svc.round_start(rnd=svc.round_draw(tournament=t))
    first, second, third = rnd.tables.order_by("number")
    login_pin(client, t, t.entries.get(player_id=second.seats[2]))
    client.get(reverse("tournament_table", args=[t.pk, second.pk]))  # a phone at R1-T2
    cache.set(seen_key(third.pk), time.time() - 3600)  # seen an hour ago: not listed
    client.force_login(users["scorekeeper"])
    section = _section(_finish_page(client, t))
    assert ">R1-T2<" in section and "R1-T1" not in section and "R1-T3" not in section


def test_finishing_an_untimed_round_never_says_nothing_is_missing(client, users, running10):
    t, rnd = running10
    client.force_login(users["scorekeeper"])
    html = _finish_page(client, t)
    section = _section(html)
    assert "cannot tell which tables are still playing" in section
    assert "R1-T" not in section  # never every table
    assert "No deal of this round is waiting" not in html
    svc.round_finish(rnd=rnd)
    after = _finish_page(client, t)  # once finished: where each table's late deal is counted
    assert "Count a late deal" in after
    for table in rnd.tables.all():
        assert reverse("tournament_table", args=[t.pk, table.pk]) in after


@pytest.fixture
def running10(make_tournament):
    t = make_tournament(10)
    return t, svc.round_start(rnd=svc.round_draw(tournament=t))


def test_freeze_hides_the_hidden_rounds_counts_and_takes_late_deals_of_shown_ones(
    client, users, make_tournament
):
    from django.test import Client

    t = make_tournament(10, rounds_planned=3, is_public=True)
    for _ in range(2):
        svc.round_finish(rnd=svc.round_start(rnd=svc.round_draw(tournament=t)))
    svc.tournament_freeze_set(tournament=t, hidden_rounds=1)
    third = svc.round_start(rnd=svc.round_draw(tournament=t))
    for table in third.tables.all():
        svc.table_deal_record(table=table, data=_data(table), staff=True)
    visitor = Client().get(reverse("tournament_detail", args=[t.pk])).content.decode()
    assert "R3-T1" in visitor and "1 deal" not in visitor
    client.force_login(users["scorekeeper"])
    staff = client.get(reverse("tournament_detail", args=[t.pk])).content.decode()
    assert "1 deal" in staff
    # A late deal of round 2 (shown) counts in the public standings; round 3 stays hidden.
    from tournaments.selectors.events import visible_standings

    before = {r.player_id: r.total for r in visible_standings(tournament=t, staff=False).rows}
    late_table = t.rounds.get(number=2).tables.order_by("number").first()
    svc.table_deal_record(
        table=late_table, data=_data(late_table), user=users["scorekeeper"], staff=True
    )
    after = {r.player_id: r.total for r in visible_standings(tournament=t, staff=False).rows}
    moved = {p for p in after if after[p] != before[p]}
    assert moved == set(late_table.seats)
