"""The owner's webhook pages: made with the secret shown once, the last deliveries with their
status codes, a test ping, removed; owners of the club only (docs/api.md, "Webhooks")."""

import pytest
from django.urls import reverse

from tests import factories
from tests.webhook_server import webhook_receiver
from tournaments.models import Membership, Webhook, WebhookDelivery
from tournaments.services.members import member_remove, membership_role_change
from tournaments.services.webhook_send import webhook_delivery_attempt
from tournaments.services.webhooks import webhook_create

pytestmark = pytest.mark.django_db
HOOK_URL = "http://127.0.0.1:9/hook/"


@pytest.fixture
def owner(client, users):
    client.force_login(users["owner"])
    return client


def test_an_owner_adds_a_hook_and_sees_its_secret_once(owner, club, english):
    url = reverse("webhooks", args=[club.slug])
    response = owner.post(url, {"url": HOOK_URL, "language": "ja"})
    assert response.status_code == 200
    hook = Webhook.objects.get(club=club)
    page = response.content.decode()
    assert hook.secret in page and "shown only once" in page
    assert "no-store" in response["Cache-Control"]
    again = owner.get(url).content.decode()
    assert hook.secret not in again and HOOK_URL in again
    assert hook.language == "ja"


def test_a_refused_address_is_shown_beside_its_field(owner, club, settings, english):
    settings.WEBHOOK_LOCAL_ADDRESSES = False
    response = owner.post(
        reverse("webhooks", args=[club.slug]), {"url": "https://10.0.0.8/", "language": "en"}
    )
    assert response.status_code == 400
    assert "local or private address" in response.content.decode()
    assert not Webhook.objects.exists()


def test_the_hooks_page_shows_the_last_deliveries_with_status_codes(owner, club):
    with webhook_receiver(500, 200) as receiver:
        hook, _ = webhook_create(club=club, url=receiver.url, language="ja")
        response = owner.post(reverse("webhook_ping", args=[club.slug, hook.pk]))
        assert response.status_code == 302
        ping = WebhookDelivery.objects.get(webhook=hook, event="ping")
        assert receiver.received == []  # never sent in the request: the worker sends it
        webhook_delivery_attempt(delivery_id=ping.pk)
        page = owner.get(reverse("webhook", args=[club.slug, hook.pk])).content.decode()
        assert "500" in page and "HTTP 500" in page
        ping.refresh_from_db()
        webhook_delivery_attempt(delivery_id=ping.pk, now=ping.next_attempt_at)
    page = owner.get(reverse("webhook", args=[club.slug, hook.pk])).content.decode()
    assert "<td>200" in page


@pytest.mark.parametrize("role", ["scorekeeper", "member"])
def test_other_roles_may_not_see_or_change_hooks(client, club, users, role):
    hook, _ = webhook_create(club=club, url=HOOK_URL, language="ja")
    client.force_login(users[role])
    assert client.get(reverse("webhooks", args=[club.slug])).status_code == 403
    assert client.get(reverse("webhook", args=[club.slug, hook.pk])).status_code == 403
    assert client.post(reverse("webhook_delete", args=[club.slug, hook.pk])).status_code == 403
    assert client.post(reverse("webhook_ping", args=[club.slug, hook.pk])).status_code == 403
    assert Webhook.objects.filter(pk=hook.pk).exists()
    assert not WebhookDelivery.objects.exists()


def test_an_outsider_gets_404_and_another_clubs_hook_is_404(client, owner, club, users):
    hook, _ = webhook_create(club=club, url=HOOK_URL, language="ja")
    other = factories.ClubFactory()
    theirs, _ = webhook_create(club=other, url=HOOK_URL, language="ja")
    client.force_login(users["outsider"])
    assert client.get(reverse("webhooks", args=[club.slug])).status_code == 404
    client.force_login(users["owner"])
    assert client.get(reverse("webhook", args=[club.slug, theirs.pk])).status_code == 404
    assert client.post(reverse("webhook_delete", args=[club.slug, theirs.pk])).status_code == 404
    assert Webhook.objects.filter(pk=theirs.pk).exists() and hook.pk != theirs.pk


def test_a_removed_owner_loses_the_hooks_at_once(client, club, users):
    hook, _ = webhook_create(club=club, url=HOOK_URL, language="ja")
    second = factories.UserFactory(username="second-owner")
    factories.MembershipFactory(club=club, user=second, role="owner")
    client.force_login(second)
    assert client.get(reverse("webhook", args=[club.slug, hook.pk])).status_code == 200
    mine = Membership.objects.get(club=club, user=second)
    membership_role_change(membership=mine, role="member", by=users["owner"])
    assert client.get(reverse("webhook", args=[club.slug, hook.pk])).status_code == 403
    member_remove(membership=Membership.objects.get(club=club, user=second), by=users["owner"])
    assert client.get(reverse("webhooks", args=[club.slug])).status_code == 404
    assert client.post(reverse("webhook_delete", args=[club.slug, hook.pk])).status_code == 404
    assert Webhook.objects.filter(pk=hook.pk).exists()


def test_an_owner_removes_a_hook(owner, club):
    hook, _ = webhook_create(club=club, url=HOOK_URL, language="ja")
    response = owner.post(reverse("webhook_delete", args=[club.slug, hook.pk]))
    assert response.status_code == 302 and response["Location"].endswith("/manage/webhooks/")
    assert not Webhook.objects.exists()
