"""What the phone's outbox is told: recorded, already recorded (記録済み), or refused with the
server's message; a fresh CSRF token; an expired login is a redirect, never a recorded deal."""

import uuid

import pytest
from django.test import Client
from django.urls import reverse

from tests import factories
from tests.views.helpers import napoleon_post
from tournaments.models import Deal

pytestmark = pytest.mark.django_db


def deal_post(players, client_id, **changes):
    return napoleon_post(players, client_id=client_id, **changes)


def send(client, url, data, kind="queued"):
    return client.post(url, data, headers={"X-Efuda-Outbox": kind})


def test_recorded_then_repeat_is_said_already_recorded(keeper, napoleon_session, players):
    url = reverse("deal_new", args=[napoleon_session.club.slug, napoleon_session.pk])
    phone_id = uuid.uuid4()
    first = send(keeper, url, deal_post(players, phone_id))
    assert first.status_code == 200 and first["Content-Type"] == "application/json"
    assert first.json() | {"message": "", "next": ""} == {
        "ok": True,
        "seq": 1,
        "repeat": False,
        "message": "",
        "next": "",
    }
    assert "1番" in first.json()["message"]
    again = send(keeper, url, deal_post(players, phone_id))
    assert again.json()["ok"] and again.json()["repeat"] and again.json()["seq"] == 1
    assert "記録済み" in again.json()["message"]
    assert Deal.objects.get().client_id == phone_id
    # Sent in the background: no pile of "recorded" messages waits for the next page.
    page = keeper.get(url).content.decode()
    assert "記録済み" not in page and "記録しました" not in page


def test_a_live_save_leaves_its_message_for_the_page(keeper, napoleon_session, players):
    url = reverse("deal_new", args=[napoleon_session.club.slug, napoleon_session.pk])
    assert send(keeper, url, deal_post(players, uuid.uuid4()), kind="live").json()["ok"]
    assert "ディール1を記録しました" in keeper.get(url).content.decode()


def test_a_refusal_carries_the_servers_message(keeper, napoleon_session, players, english):
    url = reverse("deal_new", args=[napoleon_session.club.slug, napoleon_session.pk])
    response = send(keeper, url, deal_post(players, uuid.uuid4(), bid=99))
    assert response.status_code == 422
    body = response.json()
    assert body["ok"] is False and "bid" in body["errors"]
    assert body["message"].startswith("Bid: ")
    assert not Deal.objects.exists()


def test_a_form_posted_to_another_session_is_refused(keeper, club, napoleon_session, players):
    other = factories.session(
        club=club, ruleset=napoleon_session.ruleset, date=napoleon_session.date, table="B"
    )
    phone_id = uuid.uuid4()
    url = reverse("deal_new", args=[club.slug, napoleon_session.pk])
    assert send(keeper, url, deal_post(players, phone_id)).json()["ok"]
    elsewhere = send(
        keeper, reverse("deal_new", args=[club.slug, other.pk]), deal_post(players, phone_id)
    )
    assert elsewhere.status_code == 422
    assert "別のセッション" in elsewhere.json()["message"]
    assert not Deal.objects.filter(session=other).exists()
    # Without the outbox the same refusal is shown on top of the form.
    page = keeper.post(
        reverse("deal_new", args=[club.slug, other.pk]), deal_post(players, phone_id)
    )
    assert page.status_code == 200 and "別のセッション" in page.content.decode()


def test_a_damaged_id_is_said_on_top_of_the_form(keeper, napoleon_session, players):
    url = reverse("deal_new", args=[napoleon_session.club.slug, napoleon_session.pk])
    response = keeper.post(url, deal_post(players, "not-a-uuid"))
    assert response.status_code == 200
    assert "壊れています" in response.content.decode()
    assert send(keeper, url, deal_post(players, "not-a-uuid")).status_code == 422
    assert not Deal.objects.exists()


def test_a_plain_double_submit_says_already_recorded(keeper, napoleon_session, players):
    url = reverse("deal_new", args=[napoleon_session.club.slug, napoleon_session.pk])
    data = deal_post(players, uuid.uuid4())
    assert keeper.post(url, data).status_code == 302
    follow = keeper.post(url, data, follow=True).content.decode()
    assert "1番は記録済みです" in follow and Deal.objects.count() == 1


def test_token_and_expired_login(users, napoleon_session, players):
    client = Client(enforce_csrf_checks=True)
    token = client.get(reverse("outbox_token"))
    assert token.json()["authenticated"] is False and token["Cache-Control"].startswith("max-age=0")
    url = reverse("deal_new", args=[napoleon_session.club.slug, napoleon_session.pk])
    data = deal_post(players, uuid.uuid4())
    expired = client.post(
        url, data, headers={"X-Efuda-Outbox": "queued", "X-CSRFToken": token.json()["csrf"]}
    )
    assert expired.status_code == 302 and "/accounts/login/" in expired["Location"]
    token = token.json()["csrf"]
    login = client.post(
        reverse("login"),
        {"login": "scorekeeper-user", "password": "pass-word-123"},
        headers={"X-CSRFToken": token},
    )
    assert login.status_code == 302
    # The login changed the CSRF secret: the token from before it is refused, a fresh one works.
    stale = client.post(url, data, headers={"X-Efuda-Outbox": "queued", "X-CSRFToken": token})
    assert stale.status_code == 403 and not Deal.objects.exists()
    fresh = client.get(reverse("outbox_token")).json()
    assert fresh["authenticated"] is True
    sent = client.post(
        url, data, headers={"X-Efuda-Outbox": "queued", "X-CSRFToken": fresh["csrf"]}
    )
    assert sent.json()["ok"] and Deal.objects.count() == 1
