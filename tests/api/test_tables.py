"""A player's PIN exchanged for a token bound to their table and round (under the PIN form's
own lock-out), and deals recorded at that table with it, exactly once."""

import json

import pytest
from django.test import Client

from tests import factories
from tests.events.conftest import napoleon_win
from tournaments.models import Deal
from tournaments.services import events as svc
from tournaments.services.deals import deal_update
from tournaments.services.events.common import PIN_FAILURES_PER_ENTRY

pytestmark = pytest.mark.django_db


def post(url, body, headers=None, **extra):
    return Client().post(url, json.dumps(body), content_type="application/json",
                         **(headers or {}), **extra)  # fmt: skip


@pytest.fixture
def table(club):
    wiki = factories.ClubRuleSetFactory(club=club, code="napoleon-wiki", preset="napoleon-wiki")
    t = factories.tournament(club=club, ruleset=wiki, entrants=10, rounds_planned=2)
    rnd = svc.round_start(rnd=svc.round_draw(tournament=t))
    table = rnd.tables.order_by("number").first()
    entry = t.entries.get(player_id=table.seats[0])
    return t, table, entry, svc.pin_issue(entry=entry)


def table_deal_body(table) -> dict:
    """A won Napoleon deal of the table's drawn seats, as the API takes it."""
    deal = napoleon_win(table.seats)
    return {"seats": deal["seats"], "napoleon": deal["napoleon"], "bid": 13, "trump": "S",
            "called_suit": "S", "called_rank": "A", "adjutant": deal["adjutant"],
            "honours": 14, "discarded": 0}  # fmt: skip


def token_url(t, table):
    return f"/api/v1/tournaments/{t.pk}/tables/{table.pk}/token"


def test_a_pin_gives_a_token_that_records_at_its_table_only(table):
    t, tbl, entry, pin = table
    given = post(token_url(t, tbl), {"pin": pin, "seat": 1})
    assert given.status_code == 201, given.content
    body = given.json()
    assert body["table"] == tbl.pk and body["player_id"] == entry.player_id
    headers = {"HTTP_AUTHORIZATION": f"Bearer {body['token']}"}
    url = f"/api/v1/tournaments/{t.pk}/tables/{tbl.pk}/deals"
    payload = table_deal_body(tbl)
    first = post(url, payload, headers, HTTP_IDEMPOTENCY_KEY="t1-d1")
    assert first.status_code == 201, first.content
    again = post(url, payload, headers, HTTP_IDEMPOTENCY_KEY="t1-d1")
    assert again.status_code == 200 and again.json()["id"] == first.json()["id"]
    assert Deal.objects.filter(session=tbl.session).count() == 1
    other = tbl.round.tables.exclude(pk=tbl.pk).first()
    elsewhere = post(f"/api/v1/tournaments/{t.pk}/tables/{other.pk}/deals", payload, headers)
    assert elsewhere.status_code == 403
    # a private tournament opens to its PIN holder, as on its pages; not to anyone else
    assert Client().get(f"/api/v1/tournaments/{t.pk}", **headers).status_code == 200
    assert Client().get(f"/api/v1/tournaments/{t.pk}").status_code == 404
    # a new PIN ends the token, as it logs out the phone that held the old one
    svc.pin_issue(entry=entry)
    assert post(url, payload, headers).status_code == 401


def test_wrong_pins_meet_the_pin_forms_lock_out(table):
    t, tbl, _entry, pin = table
    wrong = "0000" if pin != "0000" else "1111"
    wrong = wrong.ljust(len(pin), "0")
    for _ in range(PIN_FAILURES_PER_ENTRY):
        refused = post(token_url(t, tbl), {"pin": wrong, "seat": 1})
        assert refused.status_code == 422 and refused.json()["code"] == "pin_wrong"
    locked = post(token_url(t, tbl), {"pin": pin, "seat": 1})
    assert locked.status_code == 422 and locked.json()["code"] == "pin_throttled"
    # the same lock-out as the page's: its counts are the PIN form's own
    svc.pin_lockouts_clear(tournament=t)
    assert post(token_url(t, tbl), {"pin": pin, "seat": 1}).status_code == 201


def test_an_unknown_tournament_answers_as_a_wrong_pin(table):
    t, tbl, _entry, pin = table
    unknown = post(f"/api/v1/tournaments/{t.pk + 99}/tables/{tbl.pk}/token", {"pin": pin})
    assert unknown.status_code == 422 and unknown.json()["code"] == "pin_wrong"


def test_a_finished_round_ends_its_tokens(table):
    t, tbl, _entry, pin = table
    raw = post(token_url(t, tbl), {"pin": pin}).json()["token"]
    svc.round_finish(rnd=tbl.round)
    url = f"/api/v1/tournaments/{t.pk}/tables/{tbl.pk}/deals"
    answer = post(
        url, {"seats": tbl.seats, "redeal": True}, {"HTTP_AUTHORIZATION": f"Bearer {raw}"}
    )
    assert answer.status_code == 401


def test_a_table_tokens_key_with_another_body_is_refused_and_stores_nothing(table):
    t, tbl, entry, pin = table
    token = post(token_url(t, tbl), {"pin": pin, "seat": 1}).json()["token"]
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}", "HTTP_ACCEPT_LANGUAGE": "en"}
    url = f"/api/v1/tournaments/{t.pk}/tables/{tbl.pk}/deals"
    payload = table_deal_body(tbl)
    first = post(url, payload, headers, HTTP_IDEMPOTENCY_KEY="k-1")
    assert first.status_code == 201, first.content
    changed = post(url, payload | {"honours": 16}, headers, HTTP_IDEMPOTENCY_KEY="k-1")
    assert changed.status_code == 422, changed.content
    assert changed.json()["field"] == "Idempotency-Key"
    assert changed.json()["code"] == "idempotency_key_reused"
    stored = Deal.objects.get(session=tbl.session)
    assert stored.data["honours"] == 14 and stored.pk == first.json()["id"]
    # the staff correct the deal: a retry of the phone's first body is still that deal
    deal_update(deal=stored, data=stored.data | {"honours": 15}, version=stored.version,
                user=None, reason="typo")  # fmt: skip
    again = post(url, payload, headers, HTTP_IDEMPOTENCY_KEY="k-1")
    assert again.status_code == 200 and again.json()["id"] == stored.pk
    assert Deal.objects.filter(session=tbl.session).count() == 1
