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
