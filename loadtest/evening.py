"""A tournament evening: ``loadtest/evening`` (or ``python -m loadtest.evening``).

1. (Re)creates the PostgreSQL database (default ``efuda_load`` on 127.0.0.1), migrates, collects
   static files and fills it as loadtest/run.py does (the demo club, the "load" club with
   ``--history`` past deals), then a public Napoleon tournament of 40 entrants at ``--tables``
   tables of five (default 8), its first round drawn and started, a PIN for every entrant.
2. Starts redis (the shared cache a venue's servers use, ``CACHE_URL``; ``--cache local`` keeps
   each worker's own memory) and gunicorn with deploy/gunicorn.conf.py and the production
   settings (``--workers``, default 2) on 127.0.0.1.
3. For ``--duration`` seconds (default 120): each table's scorer, logged in with the PIN of
   its first seat, records a deal every ``--deal-every`` seconds (default 30; the tables start
   spread over that time) through the table's real entry form (the table page for the CSRF
   token, then the form's POST with its own ``client_id``, answered 302); meanwhile ``--phones``
   phones (default 60) refresh, each every ``--refresh`` seconds on average (default 10), the
   tournament's standings and their table page: a phone of each of the 40 seated players logs
   in with their PIN, the others are spectators without a login, who refresh the standings and
   the tournament's page.
4. Stops, checks in the database that every deal a scorer was told was saved is stored exactly
   once, in its table's session, numbered without gaps, and prints p50/p95/max per page, the
   non-2xx answers and the shared cache's hit rate over the run (redis' own counts: pages,
   parts of pages, and everything else the application keeps there), and writes them as JSON.

The phones' requests are spread at random over their refresh interval, as phones are; the load
generator shares the machine with the server, so the latencies are a ceiling.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import socket
import threading
import time
import uuid
from pathlib import Path
from urllib.parse import urlsplit

from loadtest.parts import (
    fresh_world,
    load_cache,
    print_latencies,
    print_load_average,
    verify_line,
    write_json,
)
from loadtest.run import DEFAULT_URL, Stats, deal_fields, machine, summary, verify
from loadtest.server import ROOT, Server, manage, server_env

ENTRANTS_PER_TABLE = 5

TOURNAMENT_SEED = """
import json
from tournaments.models import Club
from loadtest.evening import tournament_evening
print(json.dumps(tournament_evening(club=Club.objects.get(slug={slug!r}), tables={tables})))
"""


def tournament_evening(*, club, tables: int) -> dict:
    """Built through the services (inside Django, ``manage.py shell``; the test calls it too):
    a public Napoleon tournament at ``club`` with five entrants a table (the club's players,
    then new names), its first round drawn and started, a PIN for every entrant. Returns its
    id and each table's id, session, seats and the seats' PINs."""
    import datetime

    from tournaments.services import events

    ruleset = club.rulesets.filter(preset__startswith="napoleon").first()
    t = events.tournament_create(
        club=club, name="夜の大会", date=datetime.date.today(), ruleset=ruleset,
        rounds_planned=3, table_size=ENTRANTS_PER_TABLE, is_public=True,
    )  # fmt: skip
    entrants = ENTRANTS_PER_TABLE * tables
    names = [p.name for p in club.players.order_by("pk")][:entrants]
    names += [f"参加者{i}" for i in range(1, entrants - len(names) + 1)]
    for name in names:
        events.entry_add(tournament=t, name=name, checked_in=True)
    rnd = events.round_start(rnd=events.round_draw(tournament=t))
    pins = events.pin_issue_all(tournament=t)
    pin_of = {e.player_id: pins[e.pk] for e in t.entries.all()}
    return {
        "tournament": t.pk,
        "tables": [
            {"table": tb.pk, "session": tb.session_id, "seats": list(tb.seats),
             "pins": [pin_of[p] for p in tb.seats]}
            for tb in rnd.tables.order_by("number")
        ],
    }  # fmt: skip


# --- the people in the hall -------------------------------------------------------------------


def pin_login(client, tournament: int, pin: str) -> None:
    path = f"/t/{tournament}/pin/"
    page = client.get(path)
    answer = client.post(path, {"csrfmiddlewaretoken": client.token(page), "pin": pin})
    if answer.status != 302:
        raise AssertionError(f"PIN login answered {answer.status}")


def _timed(client, stats: Stats, kind: str, path: str):
    try:
        response = client.get(path)
    except OSError as exc:
        client.close()
        stats.add(kind, 0.0, f"{type(exc).__name__}: {exc} {path}")
        return None
    ok = 200 <= response.status < 300
    stats.add(kind, response.seconds, None if ok else f"{response.status} {path}")
    return response


def phone(server: Server, plan: dict, stats: Stats, stop: threading.Event, args) -> None:
    """One phone: its table page and the standings (a spectator: the tournament's page and the
    standings), one of them every ``--refresh`` seconds on average."""
    rng = random.Random(plan["seed"])
    t = plan["tournament"]
    client = server.client()
    try:
        if plan.get("pin"):
            pin_login(client, t, plan["pin"])
            pages = [("table page", f"/t/{t}/table/{plan['table']}/")]
        else:
            pages = [("tournament page", f"/t/{t}/")]
        pages.append(("standings", f"/t/{t}/standings/"))
        stop.wait(rng.uniform(0, args.refresh))  # phones do not refresh in step
        while not stop.is_set():
            kind, path = rng.choice(pages)
            _timed(client, stats, kind, path)
            stop.wait(rng.uniform(0, 2 * args.refresh))
    except AssertionError as exc:
        stats.add("PIN login", 0.0, str(exc))
    finally:
        client.close()


def scorer(server: Server, plan: dict, stats: Stats, stop: threading.Event, args, confirmed):
    """A table's scorer: a deal every ``--deal-every`` seconds through the table's entry form."""
    rng = random.Random(plan["seed"])
    t, table = plan["tournament"], plan["table"]
    client = server.client()
    page_path, record = f"/t/{t}/table/{table}/", f"/t/{t}/table/{table}/deals/new/"
    try:
        pin_login(client, t, plan["pin"])
        next_at = time.monotonic() + plan["offset"]
        while not stop.wait(max(0.0, next_at - time.monotonic())):
            next_at += args.deal_every
            page = _timed(client, stats, "table page (scorer)", page_path)
            if page is None or page.status != 200:
                continue
            key = str(uuid.uuid4())
            fields = deal_fields(rng, {"game": "napoleon"}, plan["seats"])
            fields |= {"seats": plan["seats"], "client_id": key, "action": "save"}
            fields["csrfmiddlewaretoken"] = client.token(page)
            try:
                answer = client.post(record, fields)
            except OSError as exc:
                client.close()
                stats.add("record deal", 0.0, f"{type(exc).__name__}: {exc}")
                continue
            ok = answer.status == 302
            stats.add("record deal", answer.seconds, None if ok else f"{answer.status} save")
            if ok:
                confirmed.append((plan["session"], key))
    except AssertionError as exc:
        stats.add("PIN login", 0.0, str(exc))
    finally:
        client.close()


# --- the shared cache's counts ----------------------------------------------------------------


def redis_counts(port: int) -> dict[str, int]:
    """redis' own keyspace hits and misses (``INFO stats``)."""
    with socket.create_connection(("127.0.0.1", port), timeout=2) as s:
        s.sendall(b"INFO stats\r\n")
        data = b""
        while b"keyspace_misses" not in data or not data.endswith(b"\r\n"):
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    counts = {}
    for line in data.decode().splitlines():
        name, _, value = line.partition(":")
        if name in ("keyspace_hits", "keyspace_misses"):
            counts[name] = int(value)
    return counts


def hit_rate(before: dict, after: dict) -> dict:
    hits = after.get("keyspace_hits", 0) - before.get("keyspace_hits", 0)
    misses = after.get("keyspace_misses", 0) - before.get("keyspace_misses", 0)
    rate = round(hits / (hits + misses), 3) if hits + misses else None
    return {"hits": hits, "misses": misses, "hit_rate": rate}


# --- the run ----------------------------------------------------------------------------------


def _arguments(argv) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", default=os.environ.get("LOAD_DATABASE_URL", DEFAULT_URL))
    parser.add_argument("--duration", type=float, default=120.0, help="seconds of evening")
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--deal-every", type=float, default=30.0, help="seconds between deals")
    parser.add_argument("--phones", type=int, default=60)
    parser.add_argument("--refresh", type=float, default=10.0, help="a phone's mean seconds")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    parser.add_argument("--history", type=int, default=1000, help="past deals in the load club")
    parser.add_argument("--cache", choices=("redis", "local"), default="redis")
    parser.add_argument("--json", type=Path, default=ROOT / "var" / "loadtest-evening.json")
    args = parser.parse_args(argv)
    if urlsplit(args.database_url).hostname not in ("127.0.0.1", "localhost", "::1"):
        parser.error("the load test only runs against a database on this machine")
    if args.cache == "redis" and not shutil.which("redis-server"):
        parser.error("redis-server is missing: loadtest/evening installs it (or --cache local)")
    return args


def _world(args, env: dict) -> dict:
    """The database filled: the load club's world and the evening's tournament."""
    t0 = time.perf_counter()
    world = fresh_world(env, args.database_url, history=args.history, skip_admin_static=True)
    code = TOURNAMENT_SEED.format(slug=world["club"], tables=args.tables)
    evening = json.loads(manage(env, "shell", "-c", code).strip().splitlines()[-1])
    print(f"prepared in {time.perf_counter() - t0:.0f} s", flush=True)
    return evening


def _plans(args, evening: dict) -> tuple[list[dict], list[dict]]:
    """Who does what: one scorer per table, and the phones (the seated players', then
    spectators')."""
    t = evening["tournament"]
    scorers = [
        {"tournament": t, "table": tb["table"], "session": tb["session"], "seats": tb["seats"],
         "pin": tb["pins"][0], "seed": 1000 + i, "offset": i * args.deal_every / args.tables}
        for i, tb in enumerate(evening["tables"])
    ]  # fmt: skip
    seated = [(tb["table"], pin) for tb in evening["tables"] for pin in tb["pins"]]
    phones = []
    for i in range(args.phones):
        plan = {"tournament": t, "seed": i}
        if i < len(seated):
            plan["table"], plan["pin"] = seated[i]
        phones.append(plan)
    return scorers, phones


def _evening(args, server: Server, evening: dict) -> tuple[Stats, list, float]:
    stats, stop, confirmed = Stats(), threading.Event(), []
    scorers, phones = _plans(args, evening)
    threads = [threading.Thread(target=scorer, args=(server, p, stats, stop, args, confirmed))
               for p in scorers]  # fmt: skip
    threads += [threading.Thread(target=phone, args=(server, p, stats, stop, args)) for p in phones]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    stop.wait(args.duration)
    stop.set()
    for thread in threads:
        thread.join(timeout=60)
    return stats, confirmed, time.perf_counter() - started


def run(args) -> dict:
    """The evening prepared, run and checked: the result (also what the test reads)."""
    with load_cache(args.cache) as redis:
        extra = {"CONN_MAX_AGE": "60"} | ({"CACHE_URL": redis.url} if redis else {})
        env = server_env(args.database_url, ROOT / "var" / "loadtest-static", **extra)
        evening = _world(args, env)
        with Server(env, workers=args.workers) as server:
            counts = redis_counts(redis.port) if redis else {}
            load_before = machine()
            stats, confirmed, elapsed = _evening(args, server, evening)
        cache = hit_rate(counts, redis_counts(redis.port)) if redis else None
    sessions = [tb["session"] for tb in evening["tables"]]
    return {
        "config": {k: v for k, v in vars(args).items() if k != "json"} | {"json": str(args.json)},
        "machine": {"before": load_before, "after": machine()},
        "load": summary(stats, elapsed),
        "cache": cache,
        "verify": verify(args.database_url, confirmed, sessions),
    }


def report(result: dict) -> None:
    config, load, cache, v = result["config"], result["load"], result["cache"], result["verify"]
    print(
        f"\ntournament evening: {config['tables']} tables, a deal every {config['deal_every']} s"
        f" each; {config['phones']} phones refreshing every {config['refresh']} s on average;"
        f" {load['seconds']} s, gunicorn {config['workers']} workers, cache {config['cache']}"
    )
    print_load_average(result["machine"])
    print_latencies(load, label="page", width=22, errors="non-2xx", errors_width=9)
    if cache:
        print(f"shared cache: {cache['hits']} hits, {cache['misses']} misses, "
              f"hit rate {cache['hit_rate']}")  # fmt: skip
    print(verify_line(v))


def main(argv=None) -> int:
    args = _arguments(argv)
    result = run(args)
    write_json(args.json, result)
    report(result)
    print(f"(JSON: {args.json})")
    return 0 if result["verify"]["ok"] and result["load"]["errors"] == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
