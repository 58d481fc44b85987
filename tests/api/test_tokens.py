"""Tokens on the person's page: made and shown once, stored hashed, revoked; their own only."""

import pytest
from django.test import Client

from tournaments.models import ApiToken
from tournaments.services.accounts import accounts_delete

pytestmark = pytest.mark.django_db


def test_make_use_and_revoke_a_token(public_club, users):
    client = Client()
    client.force_login(users["member"])
    page = client.post("/me/tokens/", {"name": "LINE bot", "scope": "read"})
    assert page.status_code == 200 and "no-store" in page["Cache-Control"]
    raw = page.context["made"]
    token = ApiToken.objects.get(user=users["member"])
    assert raw.startswith("efuda_") and raw not in (token.key_hash, token.prefix)
    assert raw not in client.get("/me/tokens/").content.decode()  # shown once
    api = Client()
    url = f"/api/v1/clubs/{public_club.slug}"
    assert api.get(url, HTTP_AUTHORIZATION=f"Bearer {raw}").status_code == 200
    token.refresh_from_db()
    assert token.last_used_at is not None
    outsider = Client()
    outsider.force_login(users["outsider"])
    assert outsider.post(f"/me/tokens/{token.pk}/revoke/").status_code == 404
    assert api.get(url, HTTP_AUTHORIZATION=f"Bearer {raw}").status_code == 200
    client.post(f"/me/tokens/{token.pk}/revoke/")
    assert api.get(url, HTTP_AUTHORIZATION=f"Bearer {raw}").status_code == 401


def test_tokens_die_with_the_account(public_club, users):
    client = Client()
    client.force_login(users["member"])
    raw = client.post("/me/tokens/", {"name": "x", "scope": "read"}).context["made"]
    accounts_delete(users=[users["member"]])
    assert not ApiToken.objects.exists()
    url = f"/api/v1/clubs/{public_club.slug}"
    assert Client().get(url, HTTP_AUTHORIZATION=f"Bearer {raw}").status_code == 401
