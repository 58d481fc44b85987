"""The load test: ``python -m loadtest.run`` (or ``loadtest/run.sh``).

1. Creates a fresh PostgreSQL database (default ``efuda_load`` on 127.0.0.1), migrates it,
   collects static files, and fills it: the demo club plus a public "load" club with
   ``--history`` past deals, and one open session per scorekeeper.
2. Starts gunicorn with deploy/gunicorn.conf.py and the production settings on 127.0.0.1 only
   (requests carry ``X-Forwarded-Proto: https`` as the TLS proxy would add).
3. For ``--duration`` seconds (default 120; at most ``--max-requests`` requests), ``--viewers``
   threads (default 50) read standings, session and player pages while ``--scorekeepers``
   threads (default 5) log in and record deals through the real entry forms (CSRF token,
   unique deal id (client_id) per deal; every 10th deal is sent twice, like a double tap).
4. Stops the server and checks in the database that every deal the scorekeepers saw confirmed
   is stored exactly once, numbered 1..N per session without gaps, and that the standings
   aggregates equal the sums of the stored score lines.
5. Prints throughput, p50/p95/max per request kind and errors, and writes them as JSON.

The load generator and the server share the machine, so the figures are a floor.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import subprocess
import threading
import time
import uuid
from collections import defaultdict
from pathlib import Path
from urllib.parse import urlsplit

import psycopg

from loadtest.parts import (
    fresh_world,
    print_latencies,
    verify_line,
    write_json,
)
from loadtest.server import ROOT, Server, server_env

DEFAULT_URL = "postgres://efuda:efuda@127.0.0.1:5432/efuda_load"


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.latency: dict[str, list[float]] = defaultdict(list)
        self.errors: dict[str, list[str]] = defaultdict(list)
        self.requests = 0

    def add(self, kind: str, seconds: float, error: str | None = None) -> int:
        with self.lock:
            self.requests += 1
            self.latency[kind].append(seconds)
            if error:
                self.errors[kind].append(error)
            return self.requests


def kind_of(path: str) -> str:
    if "/standings/" in path:
        return "standings"
    if "/sessions/" in path and path.rstrip("/").split("/")[-1].isdigit():
        return "session"
    if "/players/" in path:
        return "player"
    if path.endswith("/sessions/"):
        return "session list"
    return "club home"


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


# --- the two kinds of user --------------------------------------------------------------------


def viewer(
    server: Server,
    pages: list[str],
    stats: Stats,
    stop: threading.Event,
    seed: int,
    think: float,
    max_requests: int,
) -> None:
    rng = random.Random(seed)
    client = server.client()
    try:
        while not stop.is_set():
            path = rng.choice(pages)
            kind = kind_of(path)
            try:
                response = client.get(path)
                error = None if response.status == 200 else f"{response.status} {path}"
                seconds = response.seconds
            except OSError as exc:
                error, seconds = f"{type(exc).__name__}: {exc} {path}", 0.0
                client.close()
            if stats.add(kind, seconds, error) >= max_requests:
                stop.set()
            if think:
                time.sleep(rng.uniform(0, 2 * think))
    finally:
        client.close()


def deal_fields(rng: random.Random, keeper: dict, players: list[int]) -> dict:
    if keeper["game"] == "napoleon":
        seats = rng.sample(players, 5)
        napoleon = rng.choice(seats)
        bid = rng.choice([13, 13, 14, 15, 16])
        solo = rng.random() < 0.1
        return {
            "seats": seats,
            "napoleon": napoleon,
            "bid": bid,
            "trump": rng.choice("SHDC"),
            "called_suit": "H" if solo else "S",
            "called_rank": "A",
            "adjutant": "solo" if solo else rng.choice([s for s in seats if s != napoleon]),
            "honours": max(0, min(20, bid + rng.randint(-4, 3))),
            "discarded": 0,
        }
    return {"order": rng.sample(players, 5), "forbidden": []}


def scorekeeper(
    server: Server,
    keeper: dict,
    players: list[int],
    stats: Stats,
    stop: threading.Event,
    seed: int,
    think: float,
    confirmed: list,
    max_requests: int,
) -> None:
    rng = random.Random(seed)
    client = server.client()
    try:
        client.login(keeper["username"], keeper["password"])
        n = 0
        while not stop.is_set():
            n += 1
            try:
                page = client.get(keeper["entry"])
                stats.add(
                    "entry form",
                    page.seconds,
                    None if page.status == 200 else f"{page.status} entry form",
                )
                token = client.token(page)
                key = str(uuid.uuid4())
                fields = {
                    "csrfmiddlewaretoken": token,
                    "client_id": key,
                    "action": "save",
                    **deal_fields(rng, keeper, players),
                }
                sends = 2 if n % 10 == 0 else 1  # a double tap now and then
                for _ in range(sends):
                    response = client.post(keeper["entry"], fields)
                    ok = response.status == 302
                    error = None if ok else f"{response.status} save: {response.text[:200]!r}"
                    stats.add("record deal", response.seconds, error)
                if ok:
                    confirmed.append((keeper["session"], key))
            except (OSError, AssertionError) as exc:
                stats.add("record deal", 0.0, f"{type(exc).__name__}: {exc}")
                client.close()
            if stats.requests >= max_requests:
                stop.set()
            if think:
                time.sleep(rng.uniform(0, 2 * think))
    finally:
        client.close()


# --- database ---------------------------------------------------------------------------------


def verify(url: str, confirmed: list[tuple[int, str]], sessions: list[int]) -> dict:
    """Check the database against what the scorekeepers were told was saved."""
    keys = [key for _session, key in confirmed]
    with psycopg.connect(url) as conn:
        rows = conn.execute(
            "SELECT client_id::text, session_id, COUNT(*) FROM tournaments_deal "
            "WHERE client_id = ANY(%s::uuid[]) GROUP BY client_id, session_id",
            (keys,),
        ).fetchall()
        per_session = conn.execute(
            "SELECT session_id, COUNT(*), MIN(seq), MAX(seq), COUNT(DISTINCT seq) "
            "FROM tournaments_deal WHERE session_id = ANY(%s) GROUP BY session_id",
            (sessions,),
        ).fetchall()
        mismatched = conn.execute(
            """
            SELECT COUNT(*) FROM tournaments_standingaggregate a
            LEFT JOIN (SELECT player_id, game, SUM(points) AS s, COUNT(*) AS n
                       FROM tournaments_scoreline GROUP BY player_id, game) l
              ON l.player_id = a.player_id AND l.game = a.game
            WHERE a.period = 'all' AND (a.points <> COALESCE(l.s, 0) OR a.deals <> COALESCE(l.n, 0))
            """
        ).fetchone()[0]
        lines_per_deal = conn.execute(
            "SELECT COUNT(*) FROM tournaments_deal d WHERE d.session_id = ANY(%s) AND "
            "(SELECT COUNT(*) FROM tournaments_scoreline l WHERE l.deal_id = d.id) <> 5",
            (sessions,),
        ).fetchone()[0]
    stored = {key: count for key, _session, count in rows}
    missing = [k for k in keys if k not in stored]
    duplicated = [k for k, c in stored.items() if c != 1]
    wrong_session = [k for k, s, _c in rows if (s, k) not in set(confirmed)]
    gaps = [
        s
        for s, count, low, high, distinct in per_session
        if not (low == 1 and high == count == distinct)
    ]
    stored_total = sum(count for _s, count, *_rest in per_session)
    return {
        "confirmed": len(keys),
        "stored_with_those_keys": sum(stored.values()),
        "stored_in_load_sessions": stored_total,
        "missing": len(missing),
        "duplicated": len(duplicated),
        "wrong_session": len(wrong_session),
        "sessions_with_gaps": len(gaps),
        "deals_without_5_lines": lines_per_deal,
        "aggregate_rows_not_matching_lines": mismatched,
        "ok": not (missing or duplicated or wrong_session or gaps or mismatched or lines_per_deal)
        and stored_total == len(keys),
    }


# --- report -----------------------------------------------------------------------------------


def machine() -> dict:
    cpu = "?"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        mem_kb = int(Path("/proc/meminfo").read_text().split()[1])
    except (OSError, ValueError, IndexError):
        mem_kb = 0
    try:
        pg = subprocess.run(["psql", "--version"], capture_output=True, text=True).stdout.strip()
    except OSError:
        pg = "?"
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "memory_gb": round(mem_kb / 2**20, 1),
        "os": platform.platform(),
        "python": platform.python_version(),
        "psql": pg,
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }


def summary(stats: Stats, elapsed: float) -> dict:
    kinds = {}
    for kind, values in sorted(stats.latency.items()):
        kinds[kind] = {
            "requests": len(values),
            "errors": len(stats.errors.get(kind, [])),
            "p50_ms": round(percentile(values, 0.50) * 1000, 1),
            "p95_ms": round(percentile(values, 0.95) * 1000, 1),
            "max_ms": round(max(values) * 1000, 1) if values else 0,
            "mean_ms": round(statistics.fmean(values) * 1000, 1) if values else 0,
        }
    total = sum(k["requests"] for k in kinds.values())
    errors = sum(k["errors"] for k in kinds.values())
    return {
        "seconds": round(elapsed, 1),
        "requests": total,
        "throughput_rps": round(total / elapsed, 1) if elapsed else 0,
        "errors": errors,
        "kinds": kinds,
        "error_samples": [e for v in stats.errors.values() for e in v[:3]][:10],
    }


def print_report(result: dict) -> None:
    s = result["load"]
    print(
        f"\nefuda load test: {result['config']['viewers']} viewers + "
        f"{result['config']['scorekeepers']} scorekeepers, {s['seconds']} s, "
        f"gunicorn {result['config']['workers']} workers on 127.0.0.1"
    )
    print(f"requests {s['requests']}  throughput {s['throughput_rps']} req/s  errors {s['errors']}")
    print_latencies(s, label="kind", width=14, errors="errors", errors_width=8)
    print(verify_line(result["verify"], aggregates=True))


def _arguments(argv) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--database-url",
        default=os.environ.get("LOAD_DATABASE_URL", DEFAULT_URL),
        help="PostgreSQL database to (re)create for the run",
    )
    parser.add_argument("--duration", type=float, default=120.0, help="seconds of load")
    parser.add_argument("--viewers", type=int, default=50)
    parser.add_argument("--scorekeepers", type=int, default=5)
    parser.add_argument("--workers", type=int, default=4, help="gunicorn workers")
    parser.add_argument("--threads", type=int, default=1, help="threads per gunicorn worker")
    parser.add_argument("--history", type=int, default=2000, help="past deals in the load club")
    parser.add_argument(
        "--viewer-think",
        type=float,
        default=0.0,
        help="mean pause between a viewer's requests (0 = as fast as possible)",
    )
    parser.add_argument("--keeper-think", type=float, default=0.0)
    parser.add_argument(
        "--max-requests", type=int, default=500_000, help="stop early after this many requests"
    )
    parser.add_argument(
        "--reuse-db",
        action="store_true",
        help="keep the database of the previous run (no re-seeding of history)",
    )
    parser.add_argument("--json", type=Path, default=ROOT / "var" / "loadtest.json")
    parser.add_argument("--log", type=Path, default=ROOT / "var" / "loadtest-gunicorn.log")
    args = parser.parse_args(argv)
    if urlsplit(args.database_url).hostname not in ("127.0.0.1", "localhost", "::1"):
        parser.error("the load test only runs against a database on this machine")
    return args


def _seed(args, env: dict) -> dict:
    """A fresh database (unless reused), migrated and filled: the world the threads use."""
    t0 = time.perf_counter()
    print(f"preparing {args.database_url} …", flush=True)
    world = fresh_world(
        env, args.database_url, history=args.history, reuse=args.reuse_db,
        scorekeepers=args.scorekeepers,
    )  # fmt: skip
    if args.reuse_db:
        args.history = 0
    print(f"seeded in {time.perf_counter() - t0:.0f} s: {world['deals']} deals", flush=True)
    return world


def _load(args, env: dict, world: dict) -> tuple[Stats, list, float]:
    """The server started, the viewers and scorekeepers run for the duration, the server
    stopped: what they measured, the deals confirmed, and how long it took."""
    pages = world["pages"] + [k["page"] for k in world["keepers"]]
    stats, stop, confirmed = Stats(), threading.Event(), []
    args.log.unlink(missing_ok=True)
    server = Server(env, workers=args.workers, threads=args.threads, log=args.log)
    server.start()
    try:
        threads = [
            threading.Thread(
                target=viewer,
                args=(server, pages, stats, stop, i, args.viewer_think, args.max_requests),
            )
            for i in range(args.viewers)
        ] + [
            threading.Thread(
                target=scorekeeper,
                args=(
                    server,
                    keeper,
                    world["players"],
                    stats,
                    stop,
                    1000 + i,
                    args.keeper_think,
                    confirmed,
                    args.max_requests,
                ),
            )  # fmt: skip
            for i, keeper in enumerate(world["keepers"])
        ]
        started = time.perf_counter()
        for t in threads:
            t.start()
        stop.wait(args.duration)
        stop.set()
        for t in threads:
            t.join(timeout=60)
        elapsed = time.perf_counter() - started
    finally:
        server.stop()
    return stats, confirmed, elapsed


def main(argv=None) -> int:
    args = _arguments(argv)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    static_root = ROOT / "var" / "loadtest-static"
    env = server_env(args.database_url, static_root, CONN_MAX_AGE="60")
    world = _seed(args, env)
    stats, confirmed, elapsed = _load(args, env, world)
    result = {
        "machine": machine(),
        "config": {
            "viewers": args.viewers,
            "scorekeepers": args.scorekeepers,
            "workers": args.workers,
            "threads": args.threads,
            "duration": args.duration,
            "history": args.history,
            "viewer_think": args.viewer_think,
            "keeper_think": args.keeper_think,
            "deals_before": world["deals"],
        },
        "load": summary(stats, elapsed),
        "verify": verify(args.database_url, confirmed, [k["session"] for k in world["keepers"]]),
    }
    write_json(args.json, result)
    print_report(result)
    print(f"(JSON: {args.json})")
    return 0 if result["verify"]["ok"] and result["load"]["errors"] == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
