"""Read-only load: how fast the public read pages are served next to the login page.

``python -m loadtest.ratio`` (or ``loadtest/run.sh --read-only``):

1. (Re)creates the PostgreSQL database (default ``efuda_load`` on 127.0.0.1), migrates, collects
   static files and fills it: the demo club plus a public "load" club with ``--history`` past deals
   (loadtest/seed.py) and one tournament with a finished round (its standings page).
2. Starts gunicorn with deploy/gunicorn.conf.py and the production settings (``--workers``,
   default 2) on 127.0.0.1.
3. Runs ApacheBench (``ab``, Debian's apache2-utils) at ``--concurrency`` (default 20) against
   the login page (a plain Django page: the ceiling of this stack on this machine) and each
   public page in turn, ``--rounds`` times, interleaved so a burst of load elsewhere falls on
   every page alike. Visitors are not logged in, as the public is.
4. Prints requests a second per page (median over the rounds), its ratio to the login page,
   failed requests, and writes everything as JSON.

Both the load generator and the server share the machine, so absolute figures are a floor; the
ratios are what compare.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import statistics
import subprocess
import time
from pathlib import Path
from urllib.parse import urlsplit

from loadtest.run import DEFAULT_URL, machine, recreate_database
from loadtest.server import PYTHON, ROOT, Server, manage, prepare, server_env

TOURNAMENT_SEED = """
import datetime, json
from tournaments.models import Club
from tournaments.services.events import tournament_create, entry_add, round_draw, round_start
club = Club.objects.get(slug={slug!r})
ruleset = club.rulesets.filter(preset__startswith="napoleon").first()
t = tournament_create(club=club, name="秋の大会", date=datetime.date.today(), ruleset=ruleset,
                      rounds_planned=3, is_public=True)
for player in club.players.order_by("pk")[:15]:
    entry_add(tournament=t, name=player.name, checked_in=True)
round_start(rnd=round_draw(tournament=t))
print(json.dumps({{"tournament": t.pk}}))
"""


def ab(url: str, *, requests: int, concurrency: int) -> dict:
    result = subprocess.run(
        [
            "ab",
            "-q",
            "-n",
            str(requests),
            "-c",
            str(concurrency),
            "-H",
            "X-Forwarded-Proto: https",
            "-H",
            "Accept-Language: ja",
            url,
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    out = result.stdout

    def number(label: str) -> float:
        match = re.search(rf"^{label}:\s+([\d.]+)", out, re.M)
        return float(match.group(1)) if match else 0.0

    non_2xx = re.search(r"^Non-2xx responses:\s+(\d+)", out, re.M)
    # ab counts an answer whose length differs from the first as failed: a page that changed
    # meanwhile (a deal recorded) is not an error; connection failures and non-2xx are.
    kinds = re.search(r"\(Connect: (\d+), Receive: (\d+), Length: (\d+), Exceptions: (\d+)\)", out)
    broken = (
        sum(int(kinds.group(i)) for i in (1, 2, 4)) if kinds else int(number("Failed requests"))
    )
    return {
        "rps": number("Requests per second"),
        "failed": broken + (int(non_2xx.group(1)) if non_2xx else 0),
        "non_2xx": int(non_2xx.group(1)) if non_2xx else 0,
        "complete": int(number("Complete requests")),
        "mean_ms": number("Time per request"),
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", default=DEFAULT_URL)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    parser.add_argument("--concurrency", type=int, default=20)
    parser.add_argument("--requests", type=int, default=2000, help="per page per round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--history", type=int, default=2000, help="past deals in the load club")
    parser.add_argument("--reuse-db", action="store_true")
    parser.add_argument("--json", type=Path, default=ROOT / "var" / "loadtest-ratio.json")
    args = parser.parse_args(argv)
    if urlsplit(args.database_url).hostname not in ("127.0.0.1", "localhost", "::1"):
        parser.error("the load test only runs against a database on this machine")
    if not shutil.which("ab"):
        raise SystemExit("ApacheBench is missing: apt-get install apache2-utils")

    env = server_env(args.database_url, ROOT / "var" / "loadtest-static")
    t0 = time.perf_counter()
    if not args.reuse_db:
        recreate_database(args.database_url)
    prepare(env)
    history = str(0 if args.reuse_db else args.history)
    seeded = subprocess.run(
        [PYTHON, "-m", "loadtest.seed", "--demo", "--history", history, "--scorekeepers", "1"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=1800,
    )  # fmt: skip
    if seeded.returncode != 0:
        raise SystemExit(seeded.stderr[-3000:])
    world = json.loads(seeded.stdout.strip().splitlines()[-1])
    pages = {
        "club home": world["pages"][0],
        "standings": world["pages"][1],
        "standings month": world["pages"][4],
        "player": world["pages"][6],
        "session": world["keepers"][0]["page"],
    }
    try:
        made = manage(env, "shell", "-c", TOURNAMENT_SEED.format(slug=world["club"]))
        tournament = json.loads(made.strip().splitlines()[-1])["tournament"]
        pages["tournament standings"] = f"/t/{tournament}/standings/"
    except (RuntimeError, ValueError, KeyError) as exc:
        print(f"no tournament page measured: {exc}")
    print(f"prepared in {time.perf_counter() - t0:.0f} s", flush=True)

    targets = {"login (ceiling)": "/accounts/login/", **pages}
    server = Server(env, workers=args.workers)
    server.start()
    rates: dict[str, list[float]] = {name: [] for name in targets}
    failed: dict[str, int] = dict.fromkeys(targets, 0)
    try:
        base = f"http://127.0.0.1:{server.port}"
        for path in targets.values():  # warm every worker's caches and the page cache
            ab(base + path, requests=50, concurrency=4)
        for _ in range(args.rounds):
            for name, path in targets.items():
                got = ab(base + path, requests=args.requests, concurrency=args.concurrency)
                rates[name].append(got["rps"])
                failed[name] += got["failed"] + (args.requests - got["complete"])
    finally:
        server.stop()
    ceiling = statistics.median(rates["login (ceiling)"])
    result = {
        "config": {k: v for k, v in vars(args).items() if k != "json"} | {"json": str(args.json)},
        "machine": machine(),
        "pages": {
            name: {
                "path": targets[name],
                "rps_median": round(statistics.median(values), 1),
                "rps_runs": values,
                "ratio_to_login": round(statistics.median(values) / ceiling, 2) if ceiling else 0,
                "failed": failed[name],
            }
            for name, values in rates.items()
        },
    }
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(result, indent=2, ensure_ascii=False))
    print(f"\nread-only load: ab -c {args.concurrency}, {args.requests} requests × {args.rounds}")
    print(f"{'page':<22}{'req/s':>9}{'ratio':>8}{'failed':>8}")
    for name, page in result["pages"].items():
        print(f"{name:<22}{page['rps_median']:>9}{page['ratio_to_login']:>8}{page['failed']:>8}")
    return 0 if all(p["failed"] == 0 for p in result["pages"].values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
