"""Shared fixtures: users with each club role, a club, players and open sessions."""

import datetime

import pytest

from tests import factories

# Every transaction a test runs must move the club's data version if it writes a club's rows.
from tests.club_versions import club_versions_checked, pytest_runtest_call  # noqa: F401


@pytest.fixture(autouse=True)
def _empty_cache():
    """Rolled-back tests can reuse a club's id and data version: start each test cold."""
    from django.core.cache import cache

    cache.clear()
    yield


@pytest.fixture(autouse=True)
def _site_language():
    """Each test starts in the site's language (Japanese): a request with Accept-Language
    leaves Django's LocaleMiddleware's choice active in the thread, and the next test in the
    same process would otherwise read English."""
    from django.conf import settings
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.deactivate()


@pytest.fixture
def club(db):
    return factories.ClubFactory()


@pytest.fixture
def public_club(db):
    return factories.ClubFactory(is_public=True)


@pytest.fixture
def players(club):
    names = ["太郎", "花子", "Ken", "ゆき", "Sam", "次郎"]
    return [factories.PlayerFactory(club=club, name=name) for name in names]


@pytest.fixture
def users(club):
    """One user per role in ``club`` plus an outsider: {"owner": u, ..., "outsider": u}."""
    result = {}
    for role in ("owner", "scorekeeper", "member"):
        user = factories.UserFactory(username=f"{role}-user")
        factories.MembershipFactory(club=club, user=user, role=role)
        result[role] = user
    result["outsider"] = factories.UserFactory(username="outsider-user")
    return result


@pytest.fixture
def napoleon_session(club):
    ruleset = factories.ClubRuleSetFactory(club=club, code="napoleon-wiki", preset="napoleon-wiki")
    return factories.session(club=club, ruleset=ruleset, date=datetime.date(2026, 11, 20))


@pytest.fixture
def daifugo_session(club):
    ruleset = factories.ClubRuleSetFactory(
        club=club, code="daifugo-common", preset="daifugo-common"
    )
    return factories.session(club=club, ruleset=ruleset, date=datetime.date(2026, 11, 20))


@pytest.fixture
def english(settings):
    """Run a test in English: pages (no cookie/header falls back to LANGUAGE_CODE) and direct
    calls. The interface defaults to Japanese; tests that assert English texts ask for this."""
    from django.utils import translation

    settings.LANGUAGE_CODE = "en"
    with translation.override("en"):
        yield


@pytest.fixture(scope="session")
def django_db_modify_db_settings(tmp_path_factory, django_db_modify_db_settings_parallel_suffix):
    """After pytest-django's own change (a test database per xdist worker): SQLite tests use an
    on-disk database with production's OPTIONS (WAL, ``BEGIN IMMEDIATE``, busy timeout), never
    the in-memory one: Django shares a single in-memory connection between the live server's
    request threads, so two phones saving at once in a browser test would interleave on one
    transaction, which no real set-up does."""
    from django.conf import settings

    db = settings.DATABASES["default"]
    if db["ENGINE"] == "django.db.backends.sqlite3":
        db.setdefault("TEST", {})["NAME"] = str(tmp_path_factory.mktemp("db") / "efuda.sqlite3")
