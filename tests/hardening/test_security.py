"""Security: login rate limiting, CSRF on every URL, no stored XSS, private clubs invisible."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import NoReverseMatch, reverse

from tests import factories
from tests.hardening.helpers import standings_snapshot
from tests.hardening.urls import (
    RAW_MARKERS,
    all_routes,
    build_world,
    club_routes,
    urls_for,
)
from tournaments.models import Club

pytestmark = pytest.mark.django_db


# --- login rate limiting ----------------------------------------------------------------------


def test_sixth_login_attempt_is_refused_even_with_the_right_password():
    factories.UserFactory(username="victim")
    client = Client()
    url = reverse("login")
    for attempt in range(1, 6):
        response = client.post(url, {"login": "victim", "password": "wrong"})
        # The form again with an error; the fifth failure (AXES_FAILURE_LIMIT) locks.
        assert response.status_code == (200 if attempt < 5 else 429), attempt
    response = client.post(url, {"login": "victim", "password": "pass-word-123"})
    assert response.status_code in (403, 429)
    assert "_auth_user_id" not in client.session
    # Another address is not locked out (the lock is per user name and address).
    other = Client(REMOTE_ADDR="10.9.8.7")
    response = other.post(url, {"login": "victim", "password": "pass-word-123"})
    assert response.status_code == 302 and "_auth_user_id" in other.session


def test_a_good_login_resets_the_failure_count():
    factories.UserFactory(username="forgetful")
    client = Client()
    url = reverse("login")
    for _ in range(4):
        client.post(url, {"login": "forgetful", "password": "wrong"})
    good = {"login": "forgetful", "password": "pass-word-123"}
    assert client.post(url, good).status_code == 302
    client.logout()
    for _ in range(4):
        client.post(url, {"login": "forgetful", "password": "wrong"})
    assert client.post(url, good).status_code == 302


# --- CSRF -------------------------------------------------------------------------------------


_ADMIN_KWARGS = {"app_label": "tournaments", "object_id": "1", "content_type_id": "1"}


def test_every_url_refuses_a_post_without_csrf_token():
    world = build_world(payload="csrf club")
    admin = get_user_model().objects.create_superuser("root", "root@example.org", "pw-root-123")
    client = Client(enforce_csrf_checks=True)
    client.force_login(admin)
    objects = {**world.objects, **_ADMIN_KWARGS}
    before = standings_snapshot()
    checked = []
    for route in all_routes():
        try:
            urls = urls_for(route, objects)
        except NoReverseMatch:
            urls = []
        assert urls or route.name.startswith("admin:"), f"cannot fill {route.route}"
        for url in urls:
            response = client.post(url, {"name": "x", "action": "save"})
            if route.name.startswith("api-v1:"):
                # The API reads no cookie: a browser's logged-in session is nobody there, so a
                # forged cross-site POST is refused before any CSRF question (docs/api.md). The
                # PIN exchange asks for no token (its PIN is the credential, in a JSON body):
                # a form's body is refused as unreadable.
                refused = (400,) if route.name == "api-v1:table_token" else (401, 403, 405)
                assert response.status_code in refused, f"{route.name}: {response.status_code}"
            else:
                assert response.status_code == 403, f"{route.name} {url}: {response.status_code}"
                assert b"CSRF" in response.content, url
            checked.append(route.name)
    assert standings_snapshot() == before
    app_routes = {r.name for r in club_routes()}
    assert app_routes <= set(checked)
    assert {"login", "logout", "set_language", "deal_new", "manage_import"} <= set(checked)


# --- stored XSS -------------------------------------------------------------------------------


def _pages(client, world):
    """(url, response) for every GET page of the club that answers 200."""
    for route in club_routes() + [r for r in all_routes() if r.name in ("home",)]:
        if route.route.endswith(".pdf"):
            continue  # PDFs hold text, not markup (their templates escape like every other)
        for url in urls_for(route, world.objects):
            response = client.get(url)
            yield route.name, url, response


def test_no_stored_xss_on_any_page():
    world = build_world()
    client = Client()
    client.force_login(world.owner)
    shown = set()
    for name, url, response in _pages(client, world):
        if response.status_code != 200:
            continue
        if not response.get("Content-Type", "").startswith("text/html"):
            continue
        body = response.content.decode("utf-8")
        for marker in RAW_MARKERS:
            assert marker not in body, f"raw payload on {url}"
        if "&lt;script&gt;alert(1)" in body:
            shown.add(name)
    # The payload really was on these pages (escaped), so the check above meant something.
    assert {
        "club_home",
        "session_detail",
        "session_list",
        "player_detail",
        "standings_all",
        "deal_new",
        "tournament_detail",
        "club_manage",
    } <= shown, shown


def test_payload_in_a_name_is_escaped_in_html_attributes_too():
    world = build_world(payload='"><svg onload=alert(1)>')
    client = Client()
    client.force_login(world.owner)
    for _name, url, response in _pages(client, world):
        if response.status_code == 200 and response["Content-Type"].startswith("text/html"):
            assert "<svg onload" not in response.content.decode(), url


# --- private clubs and tournaments ------------------------------------------------------------


def _outsider_client():
    outsider = factories.UserFactory(username="nosy")
    client = Client()
    client.force_login(outsider)
    return client


def test_private_club_is_404_on_every_club_url_for_outsiders():
    world = build_world(payload="Secret club")
    before = standings_snapshot()
    anonymous, outsider = Client(), _outsider_client()
    nowhere = {**world.objects, "club_slug": "no-such-club"}
    checked = 0
    for route in club_routes():
        for url, ghost in zip(
            urls_for(route, world.objects), urls_for(route, nowhere), strict=True
        ):
            if route.name in ("tournament_pin", "tournament_table", "api-v1:table_token"):
                # PIN holders are outsiders until they log in, so the PIN form (also at a table's
                # QR address while its round runs, and the API's PIN exchange) must answer; it
                # must not show which private tournament it belongs to.
                for client in (anonymous, outsider):
                    for response in (client.get(url), client.post(url, {"pin": "0000"})):
                        assert response.status_code in (200, 400, 404, 405)  # the API: POST only
                        assert "Secret club" not in response.content.decode()
                continue
            response = outsider.get(url)
            assert response.status_code in (404, 405), f"{route.name} {url}: {response.status_code}"
            response = outsider.post(url, {"name": "x", "action": "save", "pin": "0000"})
            if route.name == "tournament_pin_logout":  # forgets this browser's own PIN only
                assert response.status_code == 302 and response["Location"].endswith("/pin/")
            elif route.name.startswith("api-v1:"):  # the API reads no cookie: no token, 401
                assert response.status_code in (401, 404, 405), (
                    f"POST {url}: {response.status_code}"
                )
                assert "Secret club" not in response.content.decode()
            else:
                assert response.status_code in (404, 405), f"POST {url}: {response.status_code}"
            # Anonymous visitors learn nothing either: same answer as for a club that does not
            # exist (a 404, or the login page for scorekeeper URLs).
            response = anonymous.get(url)
            assert response.status_code in (302, 404, 405), url
            if response.status_code == 302:
                assert response["Location"].startswith(reverse("login"))
                if "club_slug" in route.kwargs:
                    assert anonymous.get(ghost).status_code == 302
            else:
                assert "Secret club" not in response.content.decode()
            checked += 1
    assert checked >= 30
    assert standings_snapshot() == before
    assert b"Secret club" not in anonymous.get(reverse("home")).content
    assert b"Secret club" not in outsider.get(reverse("home")).content


def test_members_still_see_their_private_club():
    world = build_world(payload="Members only")
    member = factories.UserFactory(username="member-m")
    factories.MembershipFactory(club=world.club, user=member, role="member")
    client = Client()
    client.force_login(member)
    home = reverse("club_home", kwargs={"club_slug": world.club.slug})
    assert client.get(home).status_code == 200
    tournament = reverse("tournament_detail", args=[world.objects["tournament_id"]])
    assert client.get(tournament).status_code == 200
    # …but a member is no scorekeeper: entry is refused (403, the club is not secret to them).
    url = reverse(
        "deal_new", kwargs={"club_slug": world.club.slug, "pk": world.objects["pk:session"]}
    )
    assert client.get(url).status_code == 403
    assert Club.objects.filter(pk=world.club.pk, is_public=False).exists()
