"""Rate limits per address and per token: 429 with Retry-After past the limit, counted by the
site's cache-backed limiter; a cache that is away limits nothing and breaks nothing."""

import pytest
from django.test import Client

from tournaments.services.api import token_create

pytestmark = pytest.mark.django_db


def test_an_address_past_its_limit_waits_for_retry_after(public_club, settings):
    settings.EFUDA_API_RATE_ADDRESS = "3/m"
    url = f"/api/v1/clubs/{public_club.slug}"
    assert [Client().get(url).status_code for _ in range(3)] == [200, 200, 200]
    refused = Client().get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"
    assert 1 <= int(refused["Retry-After"]) <= 60
    # another address has its own count
    assert Client(REMOTE_ADDR="192.0.2.7").get(url).status_code == 200


def test_a_token_past_its_limit_is_refused_from_any_address(public_club, users, settings):
    settings.EFUDA_API_RATE_TOKEN = "2/m"
    _token, raw = token_create(user=users["member"], name="loop")
    headers = {"HTTP_AUTHORIZATION": f"Bearer {raw}"}
    url = f"/api/v1/clubs/{public_club.slug}"
    assert Client(REMOTE_ADDR="192.0.2.1").get(url, **headers).status_code == 200
    assert Client(REMOTE_ADDR="192.0.2.2").get(url, **headers).status_code == 200
    refused = Client(REMOTE_ADDR="192.0.2.3").get(url, **headers)
    assert refused.status_code == 429 and int(refused["Retry-After"]) >= 1
    assert Client(REMOTE_ADDR="192.0.2.3").get(url).status_code == 200  # anonymous: its own


def test_a_cache_that_is_away_limits_nothing_and_answers(public_club, settings):
    from config.cache import cache_back
    from config.settings.base import redis_cache

    cache_back()
    settings.CACHES = {"default": redis_cache("redis://127.0.0.1:9/0")}  # nothing listens
    settings.EFUDA_API_RATE_ADDRESS = "1/m"
    url = f"/api/v1/clubs/{public_club.slug}"
    try:
        assert [Client().get(url).status_code for _ in range(3)] == [200, 200, 200]
    finally:
        cache_back()
