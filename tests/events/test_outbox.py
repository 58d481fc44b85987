"""Tournament tables entered with a PIN talk to the phone's outbox like club sessions do."""

import uuid

import pytest
from django.urls import reverse

from tests.events.test_views import login_pin, record_post
from tournaments.models import Deal
from tournaments.services import events as svc

pytestmark = pytest.mark.django_db


def test_pin_table_recorded_repeat_refused(client, make_tournament):
    t = make_tournament(10)
    rnd = svc.round_start(rnd=svc.round_draw(tournament=t))
    table = rnd.tables.order_by("number").first()
    entry = t.entries.get(player_id=table.seats[0])
    login_pin(client, t, entry)
    url = reverse("tournament_table_record", args=[t.pk, table.pk])
    data = record_post(table) | {"client_id": str(uuid.uuid4()), "action": "save"}
    headers = {"X-Efuda-Outbox": "queued", "X-Efuda-Author": f"pin:{entry.pk}"}
    # Entered on this phone by another seat's PIN holder: never recorded under this one.
    other = t.entries.get(player_id=table.seats[1])
    refused = client.post(url, data, headers=headers | {"X-Efuda-Author": f"pin:{other.pk}"})
    assert refused.status_code == 409 and refused.json()["code"] == "author"
    assert not Deal.objects.exists()
    first = client.post(url, data, headers=headers)
    assert first.status_code == 200 and first.json()["ok"] and not first.json()["repeat"]
    again = client.post(url, data, headers=headers)
    assert again.json()["repeat"] and again.json()["seq"] == first.json()["seq"]
    assert Deal.objects.count() == 1
    bad = client.post(url, data | {"client_id": str(uuid.uuid4()), "bid": "99"}, headers=headers)
    assert bad.status_code == 422 and bad.json()["message"]
    assert Deal.objects.count() == 1
    # A PIN re-issued by the staff logs this phone out: the deal is not recorded, and the reply
    # is not a refusal the outbox would drop.
    svc.pin_issue(entry=entry)
    out = client.post(url, data | {"client_id": str(uuid.uuid4())}, headers=headers)
    assert out.status_code in (403, 404) and Deal.objects.count() == 1
