"""A deal corrected and deleted through the API with its ETag (If-Match): 412 on a stale one,
428 without one, the history kept as on the pages."""

import json

import pytest
from django.test import Client

from tournaments.models import Deal
from tournaments.services.api import token_create

pytestmark = pytest.mark.django_db


def bearer(user, scope="write") -> dict:
    _token, raw = token_create(user=user, name="bot", scope=scope)
    return {"HTTP_AUTHORIZATION": f"Bearer {raw}"}


def send(method, url, body, headers, **extra):
    call = getattr(Client(), method)
    data = json.dumps(body) if body is not None else None
    return call(url, data, content_type="application/json", **headers, **extra)


@pytest.fixture
def recorded(napoleon_session, players, users):
    ids = [p.id for p in players[:5]]
    body = {"seats": ids, "napoleon": ids[0], "bid": 13, "trump": "S", "called_suit": "S",
            "called_rank": "A", "adjutant": ids[1], "honours": 14, "discarded": 0}  # fmt: skip
    headers = bearer(users["scorekeeper"])
    url = f"/api/v1/clubs/{napoleon_session.club.slug}/sessions/{napoleon_session.pk}/deals"
    deal_id = send("post", url, body, headers).json()["id"]
    return f"/api/v1/clubs/{napoleon_session.club.slug}/deals/{deal_id}", headers, body


def test_an_edit_needs_the_current_etag_and_keeps_history(recorded):
    url, headers, body = recorded
    read = Client().get(url, **headers)
    tag = read["ETag"]
    assert read.status_code == 200 and tag == f'"deal-{read.json()["id"]}-1"'
    missing = send("patch", url, {"bid": 14}, headers)
    assert missing.status_code == 428 and missing.json()["field"] == "If-Match"
    changed = send("patch", url, {"bid": 14}, headers, HTTP_IF_MATCH=tag)
    assert changed.status_code == 200, changed.content
    assert changed.json()["bid"] == 14 and changed["ETag"] != tag
    stale = send("put", url, {**body, "bid": 15}, headers, HTTP_IF_MATCH=tag)
    assert stale.status_code == 412 and stale.json()["code"] == "deal_stale"
    deal = Deal.objects.get(pk=read.json()["id"])
    assert deal.data["bid"] == 14 and deal.version == 2
    assert deal.history.count() >= 2  # every version kept, as the page's edits keep them
    gone = send("delete", url, None, headers, HTTP_IF_MATCH=tag)
    assert gone.status_code == 412
    deleted = send("delete", url, None, headers, HTTP_IF_MATCH=changed["ETag"])
    assert deleted.status_code == 200 and deleted.json()["is_deleted"]
    deal.refresh_from_db()
    assert deal.is_deleted and deal.version == 3


def test_a_refused_correction_names_its_field(recorded):
    url, headers, _body = recorded
    tag = Client().get(url, **headers)["ETag"]
    refused = send("patch", url, {"adjutant": None}, headers, HTTP_IF_MATCH=tag,
                   HTTP_ACCEPT_LANGUAGE="en")  # fmt: skip
    assert refused.status_code == 422 and refused.json()["field"] == "adjutant"


def test_members_and_read_tokens_may_not_edit(recorded, users):
    url, headers, _body = recorded
    tag = Client().get(url, **headers)["ETag"]
    member = send("patch", url, {"bid": 14}, bearer(users["member"]), HTTP_IF_MATCH=tag)
    assert member.status_code == 403
    read_only = bearer(users["scorekeeper"], scope="read")
    assert send("delete", url, None, read_only, HTTP_IF_MATCH=tag).status_code == 403
    outsider = send("delete", url, None, bearer(users["outsider"]), HTTP_IF_MATCH=tag)
    assert outsider.status_code == 404  # a private club stays invisible
