"""The pages the benchmark times through Django's test client, on each size's club."""

from __future__ import annotations

import datetime
import json
import statistics
import time
import uuid
from collections import defaultdict
from urllib.parse import urlencode

from django.apps import apps
from django.core.cache import cache
from django.core.management.base import CommandError
from django.core.management.color import no_style
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from tournaments.models import Club, Deal, GameSession, ScoreLine, StandingAggregate
from tournaments.services.deals import deal_record
from tournaments.services.ratings import ratings_replay
from tournaments.services.sessions import session_create

from .club import CLOSING, MEMBER, SCOREKEEPER, Builder, bench_user
from .stores import use

STEPS = ("record_deal", "session_page", "standings_month", "standings_all", "player_page",
         "session_pdf", "cached_page", "member_standings", "ratings_page")  # fmt: skip
# Steps read as a visitor who is not logged in (the public club's shared page cache).
ANONYMOUS_STEPS = {"cached_page": "standings_all"}
# Steps read as a logged-in member (the page's shared parts from the cache, the rest for them).
MEMBER_STEPS = {"member_standings": "standings_all"}
# The steps that measure what is kept (nothing written before them); every other read step is
# timed right after a deal is recorded (untimed), so the club's data version has moved and no
# kept page or part can serve it: what the first reader after each deal waits for.
KEPT_STEPS = {*ANONYMOUS_STEPS, *MEMBER_STEPS}


def club_build(size: int, log) -> dict:
    """A club of ``size`` score lines in the current database, its ratings replayed: who
    records and the addresses of the pages timed."""
    started = time.perf_counter()
    with transaction.atomic():
        club, user, lines = Builder(size).build()
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":  # rows were inserted with their ids
            models = apps.get_app_config("tournaments").get_models()
            for sql in connection.ops.sequence_reset_sql(no_style(), list(models)):
                cursor.execute(sql)
        cursor.execute("ANALYZE")
    log.write(f"size {size}: built {lines} score lines in {time.perf_counter() - started:.1f} s")
    for game in ("napoleon", "daifugo"):  # the ratings a club this size has stored
        started = time.perf_counter()
        with transaction.atomic():
            ratings_replay(club_id=club.pk, game=game)
        log.write(f"size {size}: ratings replay ({game}) {time.perf_counter() - started:.1f} s")
    return {"username": user.get_username(), **_urls(club)}


def _urls(club) -> dict:
    month = timezone.localdate() - datetime.timedelta(days=1)  # the closing night
    last = (
        GameSession.objects.filter(club=club, game="napoleon")
        .exclude(table__startswith=CLOSING)
        .exclude(table__startswith="bench")
        .order_by("-date", "-id")
        .first()
    )
    busiest = (
        StandingAggregate.objects.filter(club=club, game="napoleon", period="all")
        .order_by("-deals")
        .values_list("player_id", flat=True)
        .first()
    )
    seats = [
        int(s)
        for s in Deal.objects.filter(session=last)
        .order_by("seq")
        .values_list("data", flat=True)
        .first()["seats"]
    ]
    today, writes = (_bench_session(club, last.ruleset, table) for table in ("bench", "bench-w"))
    return {
        "record_url": reverse("deal_new", kwargs={"club_slug": club.slug, "pk": today.pk}),
        "write_session": writes.pk,
        "seats": seats,
        "session_page": reverse("session_detail", kwargs={"club_slug": club.slug, "pk": last.pk}),
        "standings_month": reverse(
            "standings_month", args=[club.slug, "napoleon", month.year, f"{month.month:02d}"]
        ),
        "standings_all": reverse("standings_all", args=[club.slug, "napoleon"]),
        "player_page": reverse("player_detail", args=[club.slug, busiest]),
        "session_pdf": reverse("session_sheet_pdf", args=[club.slug, last.pk]),
        "ratings_page": reverse("ratings", args=[club.slug, "napoleon"]),
    }


def _bench_session(club, ruleset, table: str) -> GameSession:
    """Today's session the bench records in (``bench``: the timed deals; ``bench-w``: the
    untimed ones before each read): made once, found again in a reused database."""
    today = timezone.localdate()
    found = GameSession.objects.filter(club=club, table=table, date=today).first()
    return found or session_create(club=club, ruleset=ruleset, date=today, table=table)


def club_reuse(size: int, log) -> dict:
    """The club a previous run built and kept in the current database (``--reuse``): its
    history as that run left it (with the deals that run recorded)."""
    club = Club.objects.get()
    lines = ScoreLine.objects.count()
    log.write(f"size {size}: reused a kept club of {lines} score lines")
    return {"username": SCOREKEEPER, **_urls(club)}


def _clients(prepared) -> dict:
    """Per size: a visitor, the scorekeeper and a member, each with a client of their own."""
    clients: dict = {"anonymous": {}, "scorekeeper": {}, "member": {}}
    for size, target, urls in prepared:
        clients["anonymous"][size] = Client()
        use(target)
        clients["scorekeeper"][size] = Client()
        clients["scorekeeper"][size].force_login(bench_user(urls["username"]))
        clients["member"][size] = Client()
        clients["member"][size].force_login(bench_user(MEMBER))
        use(None)
    return clients


def pages_measure(prepared, out, *, json_lines: bool, repeat: int, pdf_repeat: int, rounds: int):
    """Each round measures one step on every size in turn before the next step, so a busy
    moment on a shared machine falls on all sizes alike and the ratios stay fair."""
    timings: dict[tuple, list[tuple[float, float]]] = defaultdict(list)  # (wall, CPU) ms
    queries: dict[tuple, int] = {}
    clients = _clients(prepared)
    for _round in range(rounds):
        for step in STEPS:
            runs = pdf_repeat if step == "session_pdf" else repeat
            who = (
                "anonymous" if step in ANONYMOUS_STEPS
                else "member" if step in MEMBER_STEPS
                else "scorekeeper"
            )  # fmt: skip
            for size, target, urls in prepared:
                use(target)
                cache.clear()  # the sizes' clubs share ids and versions: never each other's
                times, count = _measure(clients[who][size], step, urls, runs)
                timings[(size, step)] += times
                queries[(size, step)] = count
                use(None)
    for row in summary(prepared, timings, queries):
        if json_lines:
            out.write(json.dumps(row))
        else:
            out.write(
                f"{row['size']:>9} {row['step']:<16} {row['median_ms']:9.2f} ms "
                f"{row['queries']:4d} queries  x{row['x_cached']:<7} growth x{row['growth']:<5} "
                f"CPU {row['cpu_ms']:8.2f} ms x{row['x_cached_cpu']:<7} growth x{row['growth_cpu']}"
            )


def summary(prepared, timings: dict, queries: dict) -> list[dict]:
    """One row per size and step: the median, its queries, its multiple of the same size's
    ``cached_page`` (a visitor's cache hit, the floor) and its growth over the smallest size;
    the same for the process's CPU time (``cpu_ms``: steadier than the wall clock on a machine
    that other work shares; the database is SQLite, in the process, so its work counts)."""
    rows = []
    smallest = prepared[0][0]

    def median(size, step, which):
        return statistics.median(t[which] for t in timings[(size, step)])

    for size, _target, _urls in prepared:
        for step in STEPS:
            row = {"size": size, "step": step, "queries": queries[(size, step)]}
            for which, name, suffix in ((0, "median_ms", ""), (1, "cpu_ms", "_cpu")):
                value = median(size, step, which)
                row[name] = round(value, 2)
                row["x_cached" + suffix] = round(value / median(size, "cached_page", which), 2)
                row["growth" + suffix] = round(value / median(smallest, step, which), 2)
            rows.append(row)
    return rows


FORM = "application/x-www-form-urlencoded"


def _record_post(urls: dict, i: int) -> dict:
    seats = urls["seats"]
    return {
        "seats": [str(s) for s in seats], "napoleon": str(seats[i % 5]), "bid": "13",
        "trump": "S", "called_suit": "H", "called_rank": "A",
        "adjutant": str(seats[(i + 1) % 5]), "honours": str(10 + i % 8), "discarded": "0",
        "action": "save", "client_id": str(uuid.uuid4()),
    }  # fmt: skip


def _write(urls: dict, i: int) -> None:
    """An untimed deal recorded through the service: the club's data version moves, as after
    any deal at the club's tables."""
    seats = urls["seats"]
    session = GameSession.objects.select_related("club", "ruleset").get(pk=urls["write_session"])
    deal_record(session=session, data={
        "seats": seats, "napoleon": seats[i % 5], "bid": 13, "trump": "S", "called": "HA",
        "adjutant": seats[(i + 1) % 5], "solo": False, "honours": 10 + i % 8, "discarded": 0,
    })  # fmt: skip


def _measure(client: Client, step: str, urls: dict, runs: int):
    timings, queries = [], 0
    for i in range(runs + 1):  # one warm-up request
        if step != "record_deal" and step not in KEPT_STEPS:
            _write(urls, i)
        with CaptureQueriesContext(connection) as ctx:
            start, cpu = time.perf_counter(), time.process_time()
            if step == "record_deal":
                # Urlencoded, as a phone posts it (the form itself, or the outbox's
                # URLSearchParams), not the test client's default multipart body.
                body = urlencode(_record_post(urls, i), doseq=True)
                response = client.post(urls["record_url"], body, content_type=FORM)
                ok = response.status_code == 302
            else:
                page = ANONYMOUS_STEPS.get(step) or MEMBER_STEPS.get(step) or step
                response = client.get(urls[page])
                ok = response.status_code == 200
            elapsed = (time.perf_counter() - start) * 1000, (time.process_time() - cpu) * 1000
        if not ok:
            raise CommandError(f"{step}: HTTP {response.status_code}")
        if i >= 1:
            timings.append(elapsed)
            queries = len(ctx.captured_queries)
    return timings, queries
