"""The shared cache (a real redis-server) may fail without a 500: pages render uncached and stay
fresh, logins and sign-up work (allauth's rate limits let requests through while the cache is
away; django-axes, in the database, keeps counting failed passwords), and once redis is back the
pages are cached again at once."""

import threading

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from tests import factories
from tournaments.services.deals import deal_record

from .helpers import build_club, napoleon_data

MAIN = b'<main id="main" tabindex="-1">'  # base.html's main, the skip link's target

pytestmark = [pytest.mark.shared_parts, pytest.mark.django_db]


def _standings(client, club):
    return client.get(reverse("standings_all", args=[club.slug, "napoleon"]))


def _main(response) -> bytes:
    return response.content.split(MAIN)[1].split(b"</main>")[0]


def _uncached(club, settings) -> bytes:
    """The page as a fresh render shows it (the cache out of the way)."""
    settings.EFUDA_PAGE_CACHE_SECONDS = 0
    try:
        return _main(_standings(Client(), club))
    finally:
        settings.EFUDA_PAGE_CACHE_SECONDS = 3600


def test_pages_render_uncached_and_fresh_while_redis_is_down(shared_cache, settings):
    club, players, nap, _dai = build_club(public=True)
    client = Client()
    first = _standings(client, club)
    assert first.status_code == 200 and shared_cache.keys() == 1  # kept in redis
    shared_cache.stop()
    down = _standings(client, club)
    assert down.status_code == 200 and _main(down) == _main(first)
    # A deal recorded meanwhile shows on the next read: nothing stale, nothing lost.
    deal_record(session=nap, data=napoleon_data([p.id for p in players], n=9), user=None)
    after = _standings(client, club)
    assert after.status_code == 200 and _main(after) == _uncached(club, settings)
    assert _main(after) != _main(first)
    shared_cache.start()  # back: the very next read is kept again (no dead time)
    assert _standings(client, club).status_code == 200 and shared_cache.keys() == 1


def test_redis_stopped_in_the_middle_of_a_request(shared_cache, settings):
    """redis answers the page's cache lookup, then dies while the page renders: the page is
    answered all the same (its store into the cache is dropped)."""
    club, _players, _nap, _dai = build_club(public=True)
    queries = []

    def kill_redis_during_render(execute, sql, params, many, context):
        queries.append(sql)
        if len(queries) == 2:  # the 1st is the club's data version, before the cache lookup
            shared_cache.stop()
        return execute(sql, params, many, context)

    with connection.execute_wrapper(kill_redis_during_render):
        response = _standings(Client(), club)
    assert len(queries) > 2 and not shared_cache.answers()
    assert response.status_code == 200 and _main(response) == _uncached(club, settings)


def test_a_hung_redis_costs_a_timeout_not_the_request(shared_cache, settings, threaded_db):
    club, _players, _nap, _dai = build_club(public=True)
    expected = _uncached(club, settings)
    shared_cache.pause()  # SIGSTOP: connections are accepted, nothing is answered
    answers = {}
    thread = threading.Thread(target=lambda: answers.update(r=_standings(Client(), club)))
    thread.start()
    thread.join(timeout=60)  # bounds a hang; the socket timeout (0.5 s) ends it long before
    shared_cache.resume()
    assert not thread.is_alive(), "a request hung on a stopped redis"
    assert answers["r"].status_code == 200 and _main(answers["r"]) == expected


def test_logins_and_sign_up_work_while_redis_is_down_and_axes_still_counts(shared_cache):
    from axes.models import AccessAttempt

    user = factories.UserFactory(username="hanako")
    user.set_password("correct-horse-battery")
    user.save()
    shared_cache.stop()
    client = Client()
    assert client.get(reverse("login")).status_code == 200
    assert client.get(reverse("account_signup")).status_code == 200
    # A wrong password is still refused and counted (django-axes keeps its counts in the
    # database, not in the cache).
    wrong = client.post(reverse("login"), {"login": "hanako", "password": "wrong-guess"})
    assert wrong.status_code == 200 and "_auth_user_id" not in client.session
    assert AccessAttempt.objects.filter(username="hanako").get().failures_since_start == 1
    # allauth's rate limiter cannot take its lock in the cache: it lets the login through.
    ok = client.post(reverse("login"), {"login": "hanako", "password": "correct-horse-battery"})
    assert ok.status_code == 302 and client.session["_auth_user_id"] == str(user.pk)
    # Sign-up goes through too (its rate limit is in the cache as well).
    signup = Client().post(
        reverse("account_signup"),
        {"email": "yuki@example.org", "username": "yuki", "password1": "a-long-pass-phrase-9",
         "password2": "a-long-pass-phrase-9"},
    )  # fmt: skip
    assert signup.status_code == 302
