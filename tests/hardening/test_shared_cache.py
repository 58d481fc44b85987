"""The shared cache (a real redis-server) may fail without a 500: pages render uncached and stay
fresh, logins and sign-up work (allauth's rate limits let requests through while the cache is
away; django-axes, in the database, keeps counting failed passwords), and once redis is back the
pages are cached again at once."""

import logging
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


@pytest.fixture
def later(monkeypatch):
    """The cache's clock, stopped: only ``later(seconds)`` moves it on (config/cache.py marks
    the cache away for CACHE_AWAY_SECONDS after a call found it away), so however slowly the
    machine runs the test, the away period ends when the test says."""
    from config import cache as guarded

    now = [guarded._clock()]
    monkeypatch.setattr(guarded, "_clock", lambda: now[0])

    def move(seconds: float) -> None:
        now[0] += seconds

    return move


@pytest.fixture
def sent(monkeypatch):
    """Every command sent to the redis server (config.cache.GuardedRedis sends through
    redis-py's own ``execute_command``)."""
    from redis import Redis

    commands: list[str] = []
    real = Redis.execute_command

    def counting(self, *args, **options):
        commands.append(str(args[0]))
        return real(self, *args, **options)

    monkeypatch.setattr(Redis, "execute_command", counting)
    return commands


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


def test_pages_render_uncached_and_fresh_while_redis_is_down(shared_cache, settings, later):
    club, players, nap, _dai = build_club(public=True)
    client = Client()
    first = _standings(client, club)
    # kept in redis: the page only (the club hides nothing, so its readers' visibility is
    # neither asked nor kept: selectors/visibility)
    assert first.status_code == 200 and shared_cache.keys() == 1
    shared_cache.stop()
    down = _standings(client, club)
    assert down.status_code == 200 and _main(down) == _main(first)
    # A deal recorded meanwhile shows on the next read: nothing stale, nothing lost.
    deal_record(session=nap, data=napoleon_data([p.id for p in players], n=9), user=None)
    after = _standings(client, club)
    assert after.status_code == 200 and _main(after) == _uncached(club, settings)
    assert _main(after) != _main(first)
    shared_cache.start()  # back: asked again once the away period is over
    later(settings.CACHE_AWAY_SECONDS + 0.1)
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


def test_a_members_pages_render_while_redis_is_down(shared_cache, settings, later):
    """A logged-in member's pages keep their shared parts in redis; with redis stopped they are
    rendered for each request (never a 500, never stale), and kept again once it is back."""
    from tournaments.services.claims import claim_confirm, player_claim
    from tournaments.services.members import membership_set

    owner = factories.UserFactory(username="owner-k")
    club, players, nap, _dai = build_club(public=True, owner=owner)
    member = factories.UserFactory(username="member-h")
    membership_set(club=club, user=member, role="member")
    claim_confirm(claim=player_claim(club=club, user=member, player=players[0]), by=owner)
    client = Client()
    client.force_login(member)
    home = reverse("club_home", args=[club.slug])
    first, first_home = _standings(client, club), client.get(home)
    kept = shared_cache.keys()
    assert first.status_code == first_home.status_code == 200 and kept >= 3
    shared_cache.stop()
    down, down_home = _standings(client, club), client.get(home)
    assert down.status_code == down_home.status_code == 200
    assert _main(down) == _main(first) and _main(down_home) == _main(first_home)
    deal_record(session=nap, data=napoleon_data([p.id for p in players], n=9), user=None)
    after = _standings(client, club)
    assert after.status_code == 200 and _main(after) == _uncached(club, settings)
    assert _main(after) != _main(first)
    assert client.get(home).status_code == 200
    shared_cache.start()  # back: the member's next reads are kept again after the away period
    later(settings.CACHE_AWAY_SECONDS + 0.1)
    assert _standings(client, club).status_code == 200 and client.get(home).status_code == 200
    assert shared_cache.keys() >= kept


def test_a_members_tournament_pages_while_redis_is_down(shared_cache, settings, later):
    """The reader's role and place on a tournament's staff are kept in redis per club data
    version (selectors.events.access): with redis stopped each read asks them afresh with the
    tournament (never a 500), a removal from the staff is seen at the next read, and once
    redis is back the answer is kept again."""
    from django.core.cache import cache

    from tournaments.models import Club
    from tournaments.services.events import (
        tournament_create,
        tournament_staff_add,
        tournament_staff_remove,
    )
    from tournaments.services.members import membership_set

    owner = factories.UserFactory(username="owner-t")
    club, _players, nap, _dai = build_club(public=True, owner=owner)
    helper = factories.UserFactory(username="helper-t")
    membership_set(club=club, user=helper, role="member")
    t = tournament_create(club=club, name="秋の大会", date=nap.date, ruleset=nap.ruleset)
    tournament_staff_add(tournament=t, who="helper-t")
    client = Client()
    client.force_login(helper)
    manage = reverse("tournament_manage", args=[t.pk])
    standings = reverse("tournament_standings", args=[t.pk])

    def kept():
        version = Club.objects.get(pk=club.pk).data_version
        return cache.get(f"efuda:treader:{club.pk}:{version}:{t.pk}:{helper.pk}")

    assert client.get(manage).status_code == 200 and kept() == ("member", True)
    shared_cache.stop()
    assert client.get(manage).status_code == 200
    assert client.get(standings).status_code == 200
    tournament_staff_remove(tournament=t, member=helper)
    assert client.get(manage).status_code == 403  # seen at once, with no cache to ask
    assert client.get(standings).status_code == 200  # a member still reads the tournament
    shared_cache.start()
    later(settings.CACHE_AWAY_SECONDS + 0.1)
    assert client.get(manage).status_code == 403 and kept() == ("member", False)


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


def test_a_hung_redis_is_left_alone_for_a_while_then_asked_again(
    shared_cache, settings, threaded_db, later, sent, caplog
):
    """The first call that gets no answer marks the cache away for this process: the pages
    read meanwhile (a visitor's, a member's) send nothing to the hung server and are rendered
    fresh; once CACHE_AWAY_SECONDS have passed the next call asks again, and a server that
    answers again is used at once."""
    from config.cache import cache_away

    # as production logs it: every call turned into a miss, on the efuda.cache logger
    caplog.set_level(logging.INFO, logger="efuda.cache")
    settings.DJANGO_REDIS_LOG_IGNORED_EXCEPTIONS = True
    settings.DJANGO_REDIS_LOGGER = "efuda.cache"
    settings.CACHES = dict(settings.CACHES)  # a new cache object reads them
    owner = factories.UserFactory(username="owner-hung")
    club, players, nap, _dai = build_club(public=True, owner=owner)
    client = Client()
    client.force_login(owner)
    expected = _uncached(club, settings)
    shared_cache.pause()  # SIGSTOP: connections are accepted, nothing is answered
    answers = {}
    thread = threading.Thread(target=lambda: answers.update(r=_standings(Client(), club)))
    thread.start()
    thread.join(timeout=60)
    assert not thread.is_alive() and answers["r"].status_code == 200
    assert sent and cache_away()  # one call waited for its timeout
    sent.clear()
    deal_record(session=nap, data=napoleon_data([p.id for p in players], n=9), user=None)
    fresh = _uncached(club, settings)
    assert fresh != expected
    for reader in (Client(), client):  # a visitor and a logged-in owner
        page = _standings(reader, club)
        assert page.status_code == 200 and _main(page) == fresh
        assert reader.get(reverse("club_home", args=[club.slug])).status_code == 200
    assert sent == []  # nothing was sent to the hung server
    # one warning marked it away; no call is logged one by one, with or without a traceback
    assert _cache_log(caplog) == ["WARNING"]
    shared_cache.resume()
    later(settings.CACHE_AWAY_SECONDS - 1)
    assert _standings(Client(), club).status_code == 200 and sent == []  # still left alone
    later(1.1)
    assert _main(_standings(Client(), club)) == fresh and sent  # asked again: it answers
    assert not cache_away() and shared_cache.keys() >= 1  # and the page is kept again
    assert _cache_log(caplog) == ["WARNING", "INFO"]  # the outage's end


def _cache_log(caplog) -> list[str]:
    records = [r for r in caplog.records if r.name == "efuda.cache"]
    assert all(r.exc_info is None for r in records), "a traceback in the cache's log"
    return [r.levelname for r in records]


def test_an_outage_is_logged_once_when_it_begins_and_once_when_it_ends(
    shared_cache, settings, later, caplog
):
    """However long redis is away and however many calls it turns into misses, each process
    logs one WARNING (why) when the outage begins and one INFO when redis answers again."""
    settings.DJANGO_REDIS_LOG_IGNORED_EXCEPTIONS = True  # as production logs it
    settings.DJANGO_REDIS_LOGGER = "efuda.cache"
    settings.CACHES = dict(settings.CACHES)
    caplog.set_level(logging.INFO, logger="efuda.cache")
    club, _players, _nap, _dai = build_club(public=True)
    member = factories.UserFactory()
    factories.MembershipFactory(club=club, user=member, role="member")
    reader = Client()
    reader.force_login(member)
    assert _standings(Client(), club).status_code == 200 and shared_cache.keys() >= 1
    shared_cache.stop()
    for _period in range(4):  # four away periods, each ending with the cache asked again
        for client in (Client(), reader):
            assert _standings(client, club).status_code == 200
            assert client.get(reverse("club_home", args=[club.slug])).status_code == 200
        later(settings.CACHE_AWAY_SECONDS + 0.1)
    assert _cache_log(caplog) == ["WARNING"]
    (warning,) = [r for r in caplog.records if r.name == "efuda.cache"]
    assert "away" in warning.getMessage() and "Connection refused" in warning.getMessage()
    shared_cache.start()
    for client in (Client(), reader):
        assert _standings(client, club).status_code == 200
    assert _cache_log(caplog) == ["WARNING", "INFO"]
    assert "back after" in caplog.records[-1].getMessage()
    assert shared_cache.keys() >= 1  # pages kept again


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
