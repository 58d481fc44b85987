"""Webhooks: what the services recording a change queue (in their transaction), coalescing, and
which addresses a hook may have (docs/api.md, "Webhooks")."""

import datetime

import pytest
from django.db import transaction

from core.errors import EfudaError
from tests import factories
from tournaments.models import DeliveryStatus, Webhook, WebhookDelivery
from tournaments.services import events
from tournaments.services.deals import deal_delete, deal_record
from tournaments.services.webhook_send import webhook_delivery_attempt
from tournaments.services.webhooks import webhook_create, webhook_delete

pytestmark = pytest.mark.django_db
HOOK_URL = "http://127.0.0.1:9/hook/"  # never posted to here: nothing runs the worker


def _redeal(session, players):
    return deal_record(session=session, data={"seats": [p.id for p in players[:5]],
                                              "redeal": True})  # fmt: skip


def _waiting(event=None):
    rows = WebhookDelivery.objects.filter(status=DeliveryStatus.PENDING)
    return list(rows.filter(event=event) if event else rows)


def test_a_deal_queues_its_session_and_its_months_standings(club, players, napoleon_session):
    hook, _secret = webhook_create(club=club, url=HOOK_URL, language="ja")
    _redeal(napoleon_session, players)
    (session_changed,) = _waiting("session.changed")
    (standings_changed,) = _waiting("standings.changed")
    assert session_changed.webhook == hook
    assert session_changed.payload == {
        "event": "session.changed", "club": club.slug, "language": "ja",
        "subject": {"session": napoleon_session.pk, "date": "2026-11-20", "game": "napoleon"},
        "url": f"http://127.0.0.1:8000/c/{club.slug}/sessions/{napoleon_session.pk}/",
    }  # fmt: skip
    assert standings_changed.payload["subject"] == {"game": "napoleon", "month": "2026-11"}
    assert standings_changed.payload["url"].endswith(f"/c/{club.slug}/standings/napoleon/2026/11/")


def test_a_club_without_hooks_queues_nothing(club, players, napoleon_session):
    other = factories.ClubFactory()
    webhook_create(club=other, url=HOOK_URL, language="ja")
    _redeal(napoleon_session, players)
    assert WebhookDelivery.objects.count() == 0


def test_a_rolled_back_deal_queues_nothing(club, players, napoleon_session):
    webhook_create(club=club, url=HOOK_URL, language="en")
    with pytest.raises(RuntimeError), transaction.atomic():
        _redeal(napoleon_session, players)
        assert len(_waiting()) == 2  # queued inside the deal's transaction …
        raise RuntimeError("the change is rolled back")
    assert WebhookDelivery.objects.count() == 0  # … and gone with it
    with pytest.raises(EfudaError):  # a refused deal: nothing written, nothing queued
        deal_record(session=napoleon_session, data={"seats": [players[0].id], "redeal": True})
    assert WebhookDelivery.objects.count() == 0


def test_many_changes_of_one_session_coalesce_into_one_delivery(club, players, napoleon_session):
    webhook_create(club=club, url=HOOK_URL, language="ja")
    deals = [_redeal(napoleon_session, players) for _ in range(30)]
    deal_delete(deal=deals[0])
    (session_changed,) = _waiting("session.changed")
    assert session_changed.changes == 31
    assert len(_waiting("standings.changed")) == 1
    # Another session of the same month: its own session delivery, the same standings one.
    other = factories.session(club=club, ruleset=napoleon_session.ruleset,
                              date=datetime.date(2026, 11, 27))  # fmt: skip
    _redeal(other, players)
    assert len(_waiting("session.changed")) == 2
    (standings,) = _waiting("standings.changed")
    assert standings.changes == 33  # 31 deals, a session started, its deal


def test_a_change_after_the_delivery_was_sent_queues_a_new_one(club, players, napoleon_session):
    from tests.webhook_server import webhook_receiver

    with webhook_receiver(200) as receiver:
        webhook_create(club=club, url=receiver.url, language="ja")
        _redeal(napoleon_session, players)
        (first,) = _waiting("session.changed")
        assert webhook_delivery_attempt(delivery_id=first.pk) == "delivered"
        _redeal(napoleon_session, players)
    (second,) = _waiting("session.changed")
    assert second.pk != first.pk and second.changes == 1


def test_a_round_drawn_and_finished_are_queued(club):
    ruleset = factories.ClubRuleSetFactory(club=club, code="napoleon-wiki", preset="napoleon-wiki")
    tournament = factories.tournament(club=club, ruleset=ruleset, entrants=5)
    webhook_create(club=club, url=HOOK_URL, language="ja")
    rnd = factories.started_round(tournament)
    (drawn,) = _waiting("round.drawn")
    assert drawn.payload["subject"] == {"tournament": tournament.pk, "round": 1}
    assert drawn.payload["url"].endswith(f"/t/{tournament.pk}/")
    events.round_finish(rnd=rnd, last=True)
    (finished,) = _waiting("round.finished")
    assert finished.subject == drawn.subject == f"round:{tournament.pk}:1"


def test_removing_a_hook_removes_its_deliveries(club, players, napoleon_session):
    hook, _ = webhook_create(club=club, url=HOOK_URL, language="ja")
    _redeal(napoleon_session, players)
    webhook_delete(webhook=hook)
    assert not Webhook.objects.exists() and not WebhookDelivery.objects.exists()


def test_a_club_has_at_most_so_many_hooks(club, settings):
    settings.WEBHOOKS_PER_CLUB = 2
    for _ in range(2):
        webhook_create(club=club, url=HOOK_URL, language="ja")
    with pytest.raises(EfudaError) as caught:
        webhook_create(club=club, url=HOOK_URL, language="ja")
    assert caught.value.code == "webhooks_too_many"
    assert Webhook.objects.count() == 2


def test_the_secret_is_returned_once_and_kept_for_signing(club):
    hook, secret = webhook_create(club=club, url=HOOK_URL, language="ja")
    assert secret.startswith("whsec_") and len(secret) > 40
    assert Webhook.objects.get(pk=hook.pk).secret == secret
    _other, second = webhook_create(club=club, url=HOOK_URL, language="ja")
    assert second != secret


# Addresses refused in production (WEBHOOK_LOCAL_ADDRESSES off): SSRF.
REFUSED = [
    ("http://127.0.0.1/hook", "webhook_url_scheme"),
    ("http://localhost:8000/", "webhook_url_scheme"),
    ("http://example.com/hook", "webhook_url_scheme"),
    ("ftp://example.com/hook", "webhook_url_scheme"),
    ("https://127.0.0.1/hook", "webhook_url_private"),
    ("https://localhost/hook", "webhook_url_private"),
    ("https://10.1.2.3/hook", "webhook_url_private"),
    ("https://192.168.0.10/", "webhook_url_private"),
    ("https://172.16.5.4/", "webhook_url_private"),
    ("https://169.254.169.254/latest/meta-data/", "webhook_url_private"),
    ("https://100.64.0.1/", "webhook_url_private"),
    ("https://0.0.0.0/", "webhook_url_private"),
    ("https://[::1]/hook", "webhook_url_private"),
    ("https://[fd00::1]/hook", "webhook_url_private"),
    ("https://[::ffff:127.0.0.1]/hook", "webhook_url_private"),
    ("https://user:password@93.184.216.34/hook", "webhook_url_credentials"),
    ("https:///nohost", "webhook_url_invalid"),
    ("https://93.184.216.34:99999/", "webhook_url_invalid"),
]


@pytest.mark.parametrize(("url", "code"), REFUSED)
def test_local_and_private_addresses_are_refused_in_production(club, settings, url, code):
    settings.WEBHOOK_LOCAL_ADDRESSES = False
    with pytest.raises(EfudaError) as caught:
        webhook_create(club=club, url=url, language="ja")
    assert (caught.value.field, caught.value.code) == ("url", code)
    assert not Webhook.objects.exists()


def test_a_public_https_address_is_accepted_in_production(club, settings):
    settings.WEBHOOK_LOCAL_ADDRESSES = False
    hook, _ = webhook_create(club=club, url=" https://93.184.216.34/bot?x=1 ", language="en")
    assert hook.url == "https://93.184.216.34/bot?x=1"
