"""What the phone's outbox is told: recorded, already recorded (記録済み), or refused with the
server's message (as codes the phone renders later in its reader's language, and for a live
save the form itself); refused when it was entered by someone else than who is logged in; asked
about a deal with the same content recorded since; a fresh CSRF token; an expired login is a
redirect, never a recorded deal."""

import datetime
import json
import uuid

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests import factories
from tests.views.helpers import napoleon_post
from tournaments.models import Deal, GameSession
from tournaments.services.deals import deal_record

pytestmark = pytest.mark.django_db


def deal_post(players, client_id, **changes):
    return napoleon_post(players, client_id=client_id, **changes)


def author_of(client) -> str:
    """The author key of the user ``client`` is logged in as (the phone's data-author)."""
    from django.contrib.auth import get_user_model

    pk = client.session.get("_auth_user_id")
    return f"u:{get_user_model().objects.get(pk=pk).pk}" if pk else ""


def send(client, url, data, kind="queued", author=None, **headers):
    headers = {"X-Efuda-Outbox": kind, "X-Efuda-Author": author_of(client) if author is None
               else author, **headers}  # fmt: skip
    return client.post(url, data, headers=headers)


def test_recorded_then_repeat_is_said_already_recorded(keeper, napoleon_session, players):
    url = reverse("deal_new", args=[napoleon_session.club.slug, napoleon_session.pk])
    phone_id = uuid.uuid4()
    first = send(keeper, url, deal_post(players, phone_id))
    assert first.status_code == 200 and first["Content-Type"] == "application/json"
    # The deal's points as efuda scored them: the phone holds its own against them.
    points = Deal.objects.get().outcome["points"]
    assert len(points) == 5 and sum(points.values()) == 0 and max(points.values()) > 0
    assert first.json() | {"message": "", "next": ""} == {
        "ok": True,
        "seq": 1,
        "repeat": False,
        "message": "",
        "next": "",
        "points": points,
    }
    assert "1番" in first.json()["message"]
    again = send(keeper, url, deal_post(players, phone_id))
    assert again.json()["ok"] and again.json()["repeat"] and again.json()["seq"] == 1
    assert again.json()["points"] == points
    assert "記録済み" in again.json()["message"]
    assert Deal.objects.get().client_id == phone_id
    # Sent in the background: no pile of "recorded" messages waits for the next page.
    page = keeper.get(url).content.decode()
    assert 'class="messages"' not in page and "記録しました" not in page


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
    author = f"u:{users['scorekeeper'].pk}"
    expired = client.post(url, data, headers={"X-Efuda-Outbox": "queued", "X-Efuda-Author": author,
                                              "X-CSRFToken": token.json()["csrf"]})  # fmt: skip
    assert expired.status_code == 302 and "/accounts/login/" in expired["Location"]
    token = token.json()["csrf"]
    login = client.post(
        reverse("login"),
        {"login": "scorekeeper-user", "password": "pass-word-123"},
        headers={"X-CSRFToken": token},
    )
    assert login.status_code == 302
    # The login changed the CSRF secret: the token from before it is refused, a fresh one works.
    stale = client.post(url, data, headers={"X-Efuda-Outbox": "queued", "X-Efuda-Author": author,
                                            "X-CSRFToken": token})  # fmt: skip
    assert stale.status_code == 403 and not Deal.objects.exists()
    fresh = client.get(reverse("outbox_token")).json()
    assert fresh["authenticated"] is True and fresh["who"] == author
    sent = client.post(url, data, headers={"X-Efuda-Outbox": "queued", "X-Efuda-Author": author,
                                           "X-CSRFToken": fresh["csrf"]})  # fmt: skip
    assert sent.json()["ok"] and Deal.objects.count() == 1


def test_an_entry_by_someone_else_is_refused_and_nothing_recorded(
    client, users, napoleon_session, players
):
    """The scorekeeper's deal waited on the phone; the owner is logged in now: refused with a
    code the phone understands, never recorded under the owner (nor in the history)."""
    client.force_login(users["owner"])
    url = reverse("deal_new", args=[napoleon_session.club.slug, napoleon_session.pk])
    data = deal_post(players, uuid.uuid4())
    for author in (f"u:{users['scorekeeper'].pk}", "", "pin:1"):
        response = send(client, url, data, author=author)
        assert response.status_code == 409 and response.json()["code"] == "author"
    assert not Deal.objects.exists() and not Deal.history.exists()
    # Sent by its own author, it is recorded under them, history included.
    client.force_login(users["scorekeeper"])
    assert send(client, url, data).json()["ok"]
    deal = Deal.objects.get()
    assert deal.created_by == users["scorekeeper"]
    assert deal.history.get().history_user == users["scorekeeper"]


def test_a_refusal_carries_codes_rendered_in_the_readers_language(
    keeper, napoleon_session, players
):
    url = reverse("deal_new", args=[napoleon_session.club.slug, napoleon_session.pk])
    body = send(keeper, url, deal_post(players, uuid.uuid4(), honours=20, discarded=1)).json()
    assert "20枚" in body["message"]  # the request's language (Japanese)
    problem = next(p for p in body["problems"] if p["field"] == "honours")
    assert problem["code"] == "too_many_honours" and problem["params"]["discarded"] == 1
    assert problem["message"]["msgid"].startswith("The army's %(honours)s honours")
    assert "form" not in body  # sent in the background: no form to fill
    texts = reverse("outbox_texts")
    ja = keeper.post(texts, json.dumps({"problems": body["problems"]}),
                     content_type="application/json").json()  # fmt: skip
    keeper.cookies["django_language"] = "en"
    en = keeper.post(texts, json.dumps({"problems": body["problems"]}),
                     content_type="application/json").json()  # fmt: skip
    assert ja["lang"] == "ja" and en["lang"] == "en"
    assert any("20枚" in t for t in ja["texts"])
    assert any("The army's 20 honours and 1 discarded" in t for t in en["texts"])
    assert not any("枚" in t for t in en["texts"])


def test_a_refused_live_save_comes_back_as_its_form(keeper, napoleon_session, players):
    """An online Save that is refused goes back into its form: the reply carries the form with
    the message beside the field and the summary on top."""
    url = reverse("deal_new", args=[napoleon_session.club.slug, napoleon_session.pk])
    phone_id = uuid.uuid4()
    body = send(keeper, url, deal_post(players, phone_id, adjutant=None), kind="live").json()
    assert body["ok"] is False and body["code"] == "refused"
    form = body["form"]
    assert 'id="deal-form"' in form and "error-summary" in form and "field-error" in form
    assert str(phone_id) in form
    assert not Deal.objects.exists()


def test_a_resent_entry_with_a_deal_like_it_recorded_since_asks_first(
    keeper, napoleon_session, players
):
    """Refused offline entry, the deal entered again by hand meanwhile: sending the corrected
    entry again (X-Efuda-Since) is answered with both, and records nothing until the phone says
    it is another deal."""
    url = reverse("deal_new", args=[napoleon_session.club.slug, napoleon_session.pk])
    made = int((timezone.now() - datetime.timedelta(minutes=5)).timestamp() * 1000)
    again = deal_post(players, uuid.uuid4())
    assert keeper.post(url, again).status_code == 302  # entered again by hand: no. 1
    item = deal_post(players, uuid.uuid4())
    asked = send(keeper, url, item, **{"X-Efuda-Since": str(made)})
    body = asked.json()
    assert asked.status_code == 409 and body["code"] == "similar"
    assert [s["seq"] for s in body["similar"]] == [1] and body["similar"][0]["by"]
    assert "太郎 +" in body["mine"] and body["mine"] == body["similar"][0]["points"]
    assert Deal.objects.count() == 1
    # A deal recorded before the entry was made is not "since": recorded as usual.
    later = int((timezone.now() + datetime.timedelta(minutes=1)).timestamp() * 1000)
    assert send(keeper, url, deal_post(players, uuid.uuid4(), honours=15),
                **{"X-Efuda-Since": str(later)}).json()["ok"]  # fmt: skip
    # "Send anyway": recorded.
    sent = send(keeper, url, item, **{"X-Efuda-Since": str(made), "X-Efuda-Duplicate-Ok": "1"})
    assert sent.json()["ok"] and Deal.objects.count() == 3
    # Its repeat is "already recorded", never a question.
    repeat = send(keeper, url, item, **{"X-Efuda-Since": str(made)})
    assert repeat.json()["repeat"] and Deal.objects.count() == 3


def test_who_header_says_who_the_browser_is(client, users, napoleon_session):
    session_url = reverse("session_detail", args=[napoleon_session.club.slug, napoleon_session.pk])
    assert client.get(session_url)["X-Efuda-Who"] == ""
    client.force_login(users["scorekeeper"])
    assert client.get(session_url)["X-Efuda-Who"] == f"u:{users['scorekeeper'].pk}"
    entry = reverse("deal_new", args=[napoleon_session.club.slug, napoleon_session.pk])
    page = client.get(entry)
    assert page["X-Efuda-Who"] == f"u:{users['scorekeeper'].pk}"
    assert f'data-author="u:{users["scorekeeper"].pk}"' in page.content.decode()


def test_session_page_is_never_kept_for_a_scorekeeper(client, users, napoleon_session, players):
    """Back to the session page after a save shows the deals as they are now."""
    url = reverse("session_detail", args=[napoleon_session.club.slug, napoleon_session.pk])
    client.force_login(users["scorekeeper"])
    response = client.get(url)
    assert "no-store" in response["Cache-Control"]
    assert "js/fresh.js" in response.content.decode()


def test_a_session_in_progress_is_not_final(client, users, club, players):
    from tests import factories

    client.force_login(users["member"])
    ruleset = factories.ClubRuleSetFactory(club=club, code="napoleon-wiki", preset="napoleon-wiki")
    today = factories.session(club=club, ruleset=ruleset, date=timezone.localdate())
    past = factories.session(club=club, ruleset=ruleset, date=datetime.date(2020, 5, 1), table="B")
    ids = [p.id for p in players[:5]]
    data = {"seats": ids, "napoleon": ids[0], "bid": 13, "trump": "S", "called": "SA",
            "adjutant": ids[1], "solo": False, "honours": 14, "discarded": 0,
            "last_trick": None, "redeal": False}  # fmt: skip
    for session in (today, past):
        deal_record(session=session, data=data, user=users["scorekeeper"])
    live = client.get(reverse("session_detail", args=[club.slug, today.pk])).content.decode()
    done = client.get(reverse("session_detail", args=[club.slug, past.pk])).content.decode()
    assert "途中経過" in live and "現在の首位" in live
    assert "最終成績" not in live and "勝者" not in live
    assert "最終成績" in done and "勝者" in done
    assert GameSession.objects.count() >= 2
