"""Deals posted through the API: the entry form's fields, deal_record's refusals, exactly once."""

import json

import pytest
from django.test import Client

from tournaments.models import Deal, Membership
from tournaments.services.api import token_create
from tournaments.services.members import membership_role_change

pytestmark = pytest.mark.django_db


def bearer(user, scope="write") -> dict:
    _token, raw = token_create(user=user, name="bot", scope=scope)
    return {"HTTP_AUTHORIZATION": f"Bearer {raw}"}


def post(url, body, headers, **extra):
    return Client().post(url, json.dumps(body), content_type="application/json",
                         **headers, **extra)  # fmt: skip


def deal_body(players, **changes):
    ids = [p.id for p in players[:5]]
    body = {"seats": ids, "napoleon": ids[0], "bid": 13, "trump": "S", "called_suit": "S",
            "called_rank": "A", "adjutant": ids[1], "honours": 14, "discarded": 0}  # fmt: skip
    return {**body, **changes}


def url_of(session, kind="deals"):
    return f"/api/v1/clubs/{session.club.slug}/sessions/{session.pk}/{kind}"


def test_a_deal_posted_twice_with_one_key_is_stored_once(napoleon_session, players, users):
    headers = bearer(users["scorekeeper"])
    body = deal_body(players)
    first = post(url_of(napoleon_session), body, headers, HTTP_IDEMPOTENCY_KEY="evening-1")
    assert first.status_code == 201, first.content
    again = post(url_of(napoleon_session), body, headers, HTTP_IDEMPOTENCY_KEY="evening-1")
    assert again.status_code == 200
    assert again.json()["id"] == first.json()["id"]
    assert Deal.objects.filter(session=napoleon_session).count() == 1
    points = {s["player_id"]: s["points"] for s in first.json()["seats"]}
    assert sum(points.values()) == 0 and points[players[0].id] > 0  # the Napoleon won
    other = post(url_of(napoleon_session), deal_body(players, bid=14), headers,
                 HTTP_IDEMPOTENCY_KEY="evening-1")  # fmt: skip
    assert other.status_code == 422 and other.json()["field"] == "Idempotency-Key"
    assert Deal.objects.filter(session=napoleon_session).count() == 1
    # without a key, each post is a new deal
    post(url_of(napoleon_session), body, headers)
    assert Deal.objects.filter(session=napoleon_session).count() == 2


def test_keys_are_per_person(napoleon_session, players, users):
    body = deal_body(players)
    post(url_of(napoleon_session), body, bearer(users["scorekeeper"]), HTTP_IDEMPOTENCY_KEY="k")
    post(url_of(napoleon_session), body, bearer(users["owner"]), HTTP_IDEMPOTENCY_KEY="k")
    assert Deal.objects.filter(session=napoleon_session).count() == 2


def test_a_deal_without_an_adjutant_is_refused_naming_adjutant(napoleon_session, players, users):
    answer = post(url_of(napoleon_session), deal_body(players, adjutant=None),
                  bearer(users["scorekeeper"]), HTTP_ACCEPT_LANGUAGE="en")  # fmt: skip
    assert answer.status_code == 422
    assert answer.json()["field"] == "adjutant"
    assert answer.json()["message"]
    assert not Deal.objects.exists()
    solo = post(url_of(napoleon_session), deal_body(players, adjutant="solo"),
                bearer(users["scorekeeper"]))  # fmt: skip
    assert solo.status_code == 201 and solo.json()["solo"] is True


def test_a_daifugo_round(daifugo_session, players, users):
    ids = [p.id for p in players[:4]]
    answer = post(url_of(daifugo_session, "rounds"), {"players": ids, "order": ids[:3]},
                  bearer(users["scorekeeper"]))  # fmt: skip
    assert answer.status_code == 201, answer.content
    assert [s["player_id"] for s in answer.json()["seats"]] == ids  # the last one placed
    wrong_game = post(url_of(daifugo_session), deal_body(players), bearer(users["owner"]))
    assert wrong_game.status_code == 404


@pytest.mark.parametrize(
    ("who", "scope", "status"),
    [(None, None, 401), ("outsider", "write", 404), ("member", "write", 403),
     ("scorekeeper", "read", 403), ("scorekeeper", "write", 201), ("owner", "write", 201)],
)  # fmt: skip
def test_who_may_post(napoleon_session, players, users, who, scope, status):
    headers = bearer(users[who], scope) if who else {}
    answer = post(url_of(napoleon_session), deal_body(players), headers)
    assert answer.status_code == status, answer.content
    assert Deal.objects.count() == (1 if status == 201 else 0)


def test_rights_end_with_the_membership_and_tokens_with_the_account(
    napoleon_session, players, users
):
    headers = bearer(users["scorekeeper"])
    membership_role_change(
        membership=Membership.objects.get(user=users["scorekeeper"]), role="member"
    )
    assert post(url_of(napoleon_session), deal_body(players), headers).status_code == 403
    users["owner"].is_active = False
    users["owner"].save()
    owner = bearer(users["owner"])
    assert post(url_of(napoleon_session), deal_body(players), owner).status_code == 401
    assert not Deal.objects.exists()


def test_the_command_prints_a_read_write_token(napoleon_session, players, users):
    import io

    from django.core.management import call_command

    out = io.StringIO()
    call_command("api_token", users["scorekeeper"].username, stdout=out)
    headers = {"HTTP_AUTHORIZATION": f"Bearer {out.getvalue().strip()}"}
    assert post(url_of(napoleon_session), deal_body(players), headers).status_code == 201
