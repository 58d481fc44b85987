"""The error pages (404, 403, a form without its security token, 500) are efuda's own: the
site's frame (header, <main>, footer), in the reader's language, never Django's bare English;
the 500 page renders with the database out of reach."""

import pytest
from django.test import Client, RequestFactory, override_settings
from django.urls import path, reverse
from django.utils import translation

from config import urls as site
from tests import factories
from tournaments.views.errors import server_error_view

FRAME = ('class="topbar"', '<main id="main"', 'class="footer"', 'class="skip-link"')


def _framed(html: str, lang: str) -> None:
    assert f'<html lang="{lang}">' in html
    for part in FRAME:
        assert part in html, part


@pytest.mark.django_db
@pytest.mark.parametrize(("lang", "title"), [("ja", "ページが見つかりません"),
                                             ("en", "Page not found")])  # fmt: skip
def test_not_found_is_framed_and_translated(client, lang, title):
    response = client.get("/c/no-such-club/", HTTP_ACCEPT_LANGUAGE=lang)
    html = response.content.decode()
    assert response.status_code == 404
    _framed(html, lang)
    assert f"<h1>{title}</h1>" in html and "Not Found" not in html
    assert "?next=/c/no-such-club/" in html  # a visitor is offered the login


@pytest.mark.django_db
@pytest.mark.parametrize(("lang", "title"), [("ja", "このページは開けません"),
                                             ("en", "Not open to you")])  # fmt: skip
def test_forbidden_is_framed_and_translated(client, lang, title):
    club = factories.ClubFactory()
    member = factories.UserFactory()
    factories.MembershipFactory(club=club, user=member, role="member")
    client.force_login(member)
    response = client.get(reverse("club_manage", args=[club.slug]), HTTP_ACCEPT_LANGUAGE=lang)
    html = response.content.decode()
    assert response.status_code == 403
    _framed(html, lang)
    assert f"<h1>{title}</h1>" in html and "403 Forbidden" not in html


@pytest.mark.django_db
@pytest.mark.parametrize(("lang", "title"), [("ja", "フォームの有効期限が切れました"),
                                             ("en", "The form has expired")])  # fmt: skip
def test_csrf_failure_is_framed_and_translated(lang, title):
    browser = Client(enforce_csrf_checks=True)
    response = browser.post(reverse("login"), {"login": "x", "password": "y"},
                            HTTP_ACCEPT_LANGUAGE=lang)  # fmt: skip
    html = response.content.decode()
    assert response.status_code == 403
    _framed(html, lang)
    assert f"<h1>{title}</h1>" in html
    assert "DEBUG" not in html and "CSRF verification failed" not in html


def test_server_error_renders_without_the_database():
    """No database access is allowed in this test (no django_db mark): any query fails."""
    request = RequestFactory().get("/anything/")
    for lang, title in (("ja", "問題が発生しました"), ("en", "Something went wrong")):
        with translation.override(lang):
            response = server_error_view(request)
        html = response.content.decode()
        assert response.status_code == 500
        assert f'<html lang="{lang}">' in html and '<main id="main"' in html
        assert f"<h1>{title}</h1>" in html


def boom_view(request):
    raise RuntimeError("a deliberate failure")


urlpatterns = [path("boom/", boom_view), *site.urlpatterns]
handler500 = site.handler500


@pytest.mark.django_db
@override_settings(ROOT_URLCONF=__name__)
def test_server_error_is_the_page_a_visitor_gets():
    browser = Client(raise_request_exception=False)
    response = browser.get("/boom/", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 500
    assert "<h1>Something went wrong</h1>" in response.content.decode()
