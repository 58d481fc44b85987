"""A real streaming standby as the read replica: public pages read from it once it caught up, and
when it is stopped, hung (its postmaster SIGSTOPped) or dies in the middle of a page, the primary
answers — no 500, no request waiting on it, nothing stale, nothing lost — and it is used again
once it is back."""

import signal

import pytest
from django.db import connections
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from config import routers
from tournaments.models import Club, Deal
from tournaments.services.deals import deal_record

from .helpers import build_club, napoleon_data
from .realparts import wait_for

MAIN = b'<main id="main" tabindex="-1">'  # base.html's main, the skip link's target

pytestmark = [pytest.mark.shared_parts]


def _standings(club):
    return Client().get(reverse("standings_all", args=[club.slug, "napoleon"]))


def _main(response) -> bytes:
    return response.content.split(MAIN)[1].split(b"</main>")[0]


def _caught_up(club) -> bool:
    primary = Club.objects.using("default").values_list("data_version", flat=True).get(pk=club.pk)
    try:
        seen = list(
            Club.objects.using("replica").filter(pk=club.pk).values_list("data_version", flat=True)
        )
    finally:
        connections["replica"].close()
    return bool(seen) and seen[0] >= primary


def _fresh(club, settings) -> bytes:
    """The page as the primary renders it now (the page cache, and so the replica, unused)."""
    settings.EFUDA_PAGE_CACHE_SECONDS = 0
    try:
        return _main(_standings(club))
    finally:
        settings.EFUDA_PAGE_CACHE_SECONDS = 3600


def _record(club, players, nap, n):
    deal_record(session=nap, data=napoleon_data([p.id for p in players], n=n), user=None)


def test_pages_come_from_the_caught_up_replica_and_from_the_primary_while_it_is_down(
    replica, settings
):
    from django.core.cache import cache

    club, players, nap, _dai = build_club(public=True)
    wait_for(lambda: _caught_up(club), what="the standby to replay the club")
    with CaptureQueriesContext(connections["replica"]) as on_replica:
        first = _standings(club)
    assert first.status_code == 200 and len(on_replica.captured_queries) > 1  # rendered there
    assert _main(first) == _fresh(club, settings)

    replica.stop()
    _record(club, players, nap, 7)  # a scorekeeper goes on recording on the primary
    down = _standings(club)
    assert down.status_code == 200 and _main(down) == _fresh(club, settings) != _main(first)
    assert not routers.replica_usable()  # left alone for REPLICA_RETRY_SECONDS

    replica.start()
    routers.replica_reset()  # as REPLICA_RETRY_SECONDS passing would
    wait_for(lambda: _caught_up(club), what="the standby to catch up after its restart")
    cache.clear()
    with CaptureQueriesContext(connections["replica"]) as on_replica:
        back = _standings(club)
    assert back.status_code == 200 and len(on_replica.captured_queries) > 1
    assert _main(back) == _fresh(club, settings)
    assert Deal.objects.filter(session=nap).count() == 7  # 6 + the one recorded meanwhile


def test_a_hung_replica_is_given_up_after_the_connect_timeout(replica, settings):
    club, players, nap, _dai = build_club(public=True)
    wait_for(lambda: _caught_up(club), what="the standby to replay the club")
    expected = _fresh(club, settings)
    replica.pause()  # SIGSTOP the postmaster: a new connection is accepted, never answered

    def hung(signum, frame):
        raise AssertionError("a request hung on the stopped replica")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(60)  # bounds a hang (gunicorn's own timeout); the connect timeout ends it first
    try:
        page = _standings(club)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
        replica.resume()
    assert page.status_code == 200 and _main(page) == expected
    assert not routers.replica_usable()


def test_a_replica_dying_in_the_middle_of_a_page_leaves_the_primary_to_render_it(replica, settings):
    club, players, nap, _dai = build_club(public=True)
    wait_for(lambda: _caught_up(club), what="the standby to replay the club")
    expected = _fresh(club, settings)
    seen = []

    def die_after_the_check(execute, sql, params, many, context):
        seen.append(sql)
        if len(seen) == 2:  # the caught-up check went through; the render's first query
            replica.stop("immediate")
        return execute(sql, params, many, context)

    replica_connection = connections["replica"]
    replica_connection.ensure_connection()
    with replica_connection.execute_wrapper(die_after_the_check):
        page = _standings(club)
    assert len(seen) == 2
    assert page.status_code == 200 and _main(page) == expected
    assert not routers.replica_usable()
