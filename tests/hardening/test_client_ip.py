"""Client addresses come only from proxies the operator names (TRUSTED_PROXIES): a forwarding
header from anyone else is ignored, so rotating it neither escapes the PIN throttle nor the
login lock-out; check --deploy warns when every sender is trusted."""

import datetime

import pytest
from django.core.checks import run_checks
from django.test import Client, RequestFactory, override_settings
from django.urls import reverse

from tests import factories
from tournaments.checks import trusted_proxies_named
from tournaments.client_ip import client_address
from tournaments.models import PinAttempt
from tournaments.services import events as ev

NGINX = ["127.0.0.1", "::1"]  # production's default: nginx on the same machine


def _address(remote, **headers):
    request = RequestFactory().get("/", REMOTE_ADDR=remote, **headers)
    return client_address(request)


@pytest.mark.parametrize(
    ("trusted", "remote", "headers", "expected"),
    [
        # nobody trusted (runserver, tests): the sender is the client
        ([], "203.0.113.5", {"HTTP_X_FORWARDED_FOR": "1.2.3.4"}, "203.0.113.5"),
        # gunicorn reached directly, not through the proxy: headers ignored
        (NGINX, "203.0.113.5", {"HTTP_X_FORWARDED_FOR": "1.2.3.4"}, "203.0.113.5"),
        (NGINX, "203.0.113.5", {"HTTP_X_REAL_IP": "1.2.3.4"}, "203.0.113.5"),
        # through nginx: what nginx appended, not what the client wrote before it
        (NGINX, "127.0.0.1", {"HTTP_X_FORWARDED_FOR": "6.6.6.6, 198.51.100.4"}, "198.51.100.4"),
        (NGINX, "::1", {"HTTP_X_FORWARDED_FOR": "2001:db8::7"}, "2001:db8::7"),
        (NGINX, "127.0.0.1", {"HTTP_X_REAL_IP": "198.51.100.4"}, "198.51.100.4"),
        (NGINX, "::ffff:127.0.0.1", {"HTTP_X_FORWARDED_FOR": "198.51.100.4"}, "198.51.100.4"),
        # a load balancer, then nginx on each server: both named
        (
            ["127.0.0.1", "10.0.0.0/24"],
            "127.0.0.1",
            {"HTTP_X_FORWARDED_FOR": "6.6.6.6, 198.51.100.4, 10.0.0.2"},
            "198.51.100.4",
        ),
        # the balancer straight to gunicorn on a private address
        (["10.0.0.2"], "10.0.0.2", {"HTTP_X_FORWARDED_FOR": "198.51.100.4"}, "198.51.100.4"),
        (["10.0.0.2"], "10.0.0.9", {"HTTP_X_FORWARDED_FOR": "198.51.100.4"}, "10.0.0.9"),
        # garbage in the header is skipped, never believed
        (NGINX, "127.0.0.1", {"HTTP_X_FORWARDED_FOR": "nonsense, 198.51.100.4"}, "198.51.100.4"),
        (NGINX, "127.0.0.1", {"HTTP_X_FORWARDED_FOR": "nonsense"}, "127.0.0.1"),
    ],
)
def test_the_client_address(trusted, remote, headers, expected):
    with override_settings(TRUSTED_PROXIES=trusted):
        assert _address(remote, **headers) == expected


@pytest.fixture
def running(db):
    club = factories.ClubFactory(is_public=True)
    wiki = factories.ClubRuleSetFactory(club=club, code="napoleon-wiki", preset="napoleon-wiki")
    t = ev.tournament_create(
        club=club, name="大会", date=datetime.date(2026, 11, 21), ruleset=wiki, is_public=True
    )
    for i in range(5):
        ev.entry_add(tournament=t, name=f"選手{i}", checked_in=True)
    rnd = ev.round_start(rnd=ev.round_draw(tournament=t))
    return t, rnd.tables.get()


@override_settings(TRUSTED_PROXIES=NGINX)
def test_a_rotating_header_sent_around_the_proxy_does_not_escape_the_pin_throttle(running, english):
    t, table = running
    pin = ev.pin_issue(entry=t.entries.get(player_id=table.seats[0]))
    wrong = "000000" if pin != "000000" else "111111"
    client = Client()
    url = reverse("tournament_pin", args=[t.pk])
    for n in range(25):
        client.post(
            url, {"pin": wrong}, REMOTE_ADDR="203.0.113.9",
            HTTP_X_REAL_IP=f"198.51.100.{n}", HTTP_X_FORWARDED_FOR=f"192.0.2.{n}",
        )  # fmt: skip
    response = client.post(
        url, {"pin": pin}, REMOTE_ADDR="203.0.113.9", HTTP_X_REAL_IP="198.51.100.200"
    )
    assert response.status_code == 400 and "Too many wrong PINs" in response.content.decode()
    assert set(PinAttempt.objects.values_list("address", flat=True)) == {"203.0.113.9"}


@override_settings(TRUSTED_PROXIES=NGINX)
def test_a_rotating_header_sent_around_the_proxy_does_not_escape_the_login_lock(db):
    factories.UserFactory(username="race12")
    client = Client()
    for n in range(5):
        client.post(
            reverse("login"), {"login": "race12", "password": "wrong"},
            REMOTE_ADDR="203.0.113.9", HTTP_X_FORWARDED_FOR=f"192.0.2.{n}",
            HTTP_X_REAL_IP=f"198.51.100.{n}",
        )  # fmt: skip
    response = client.post(
        reverse("login"), {"login": "race12", "password": "pass-word-123"},
        REMOTE_ADDR="203.0.113.9", HTTP_X_FORWARDED_FOR="192.0.2.77",
    )  # fmt: skip
    assert response.status_code in (403, 429) and "_auth_user_id" not in client.session
    # the same person through nginx is a different client address: not locked
    other = Client()
    response = other.post(
        reverse("login"), {"login": "race12", "password": "pass-word-123"},
        REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="198.51.100.4",
    )  # fmt: skip
    assert response.status_code == 302 and "_auth_user_id" in other.session


@pytest.mark.parametrize(
    ("trusted", "ids"),
    [
        (NGINX, []),
        ([], []),
        (["10.0.0.0/24", "192.0.2.1"], []),
        (["*"], ["efuda.W023"]),
        (["127.0.0.1", "0.0.0.0/0"], ["efuda.W023"]),
        (["::/0"], ["efuda.W023"]),
        (["nginx.local"], ["efuda.E023"]),
    ],
)
def test_check_deploy_warns_when_every_sender_is_trusted(trusted, ids):
    with override_settings(TRUSTED_PROXIES=trusted):
        assert [m.id for m in trusted_proxies_named()] == ids
        found = [m.id for m in run_checks(include_deployment_checks=True) if "023" in m.id]
        assert found == ids


@override_settings(TRUSTED_PROXIES=NGINX)
def test_a_rotating_address_written_before_the_proxys_own_does_not_escape_either_limit(running):
    """Through nginx, as production runs: the client writes any addresses into the headers it
    sends and nginx appends the one it saw. Rotating what the client wrote moves neither the
    login lock-out nor the PIN throttle."""
    factories.UserFactory(username="race13")
    client = Client()
    for n in range(5):
        client.post(
            reverse("login"), {"login": "race13", "password": "wrong"}, REMOTE_ADDR="127.0.0.1",
            HTTP_X_FORWARDED_FOR=f"192.0.2.{n}, 198.51.100.4", HTTP_X_REAL_IP=f"192.0.2.{n}",
        )  # fmt: skip
    response = client.post(
        reverse("login"), {"login": "race13", "password": "pass-word-123"},
        REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="192.0.2.99, 198.51.100.4",
    )  # fmt: skip
    assert response.status_code in (403, 429) and "_auth_user_id" not in client.session
    t, table = running
    pin = ev.pin_issue(entry=t.entries.get(player_id=table.seats[0]))
    wrong = "000000" if pin != "000000" else "111111"
    url = reverse("tournament_pin", args=[t.pk])
    for n in range(25):
        client.post(
            url, {"pin": wrong}, REMOTE_ADDR="127.0.0.1",
            HTTP_X_FORWARDED_FOR=f"192.0.2.{n}, 198.51.100.4",
        )  # fmt: skip
    response = client.post(
        url, {"pin": pin}, REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="192.0.2.99, 198.51.100.4"
    )
    assert response.status_code == 400
    assert set(PinAttempt.objects.values_list("address", flat=True)) == {"198.51.100.4"}
