"""Read-only load: how fast the public read pages are served next to the login page.

``loadtest/ratio`` (installs ApacheBench and starts the local PostgreSQL first, as the other
scripts do: scripts/lib.sh) or ``python -m loadtest.ratio``:

1. (Re)creates the PostgreSQL database (default ``efuda_load`` on 127.0.0.1), migrates, collects
   static files and fills it: the demo club plus a public "load" club with ``--history`` past deals
   (loadtest/seed.py) and one tournament with a finished round (its standings page).
2. Starts gunicorn with deploy/gunicorn.conf.py and the production settings (``--workers``,
   default 2) on 127.0.0.1.
3. Runs ApacheBench (``ab``, Debian's apache2-utils) at ``--concurrency`` (default 20) against
   the login page (a plain Django page: the ceiling of this stack on this machine) and each
   read page in turn, ``--rounds`` times, with the login page measured again between every
   two pages: each page's ratio is taken against the two login runs around it (their mean),
   so a change in the machine's speed during the run (other work, a virtual machine's
   neighbours) falls on the page and its ceiling alike, and the median of those ratios over
   the rounds is reported. Each page is read by a visitor who is not logged in, as the public
   is, and by a logged-in member of the club who is one of its players (their club home shows "my
   standing"); the club home, standings, player and session pages also by a scorekeeper (the
   session page with its edit buttons). The logged-in readers send the session cookie of a
   real login through the login form.
4. Prints requests a second per page and reader (median over the rounds), its ratio to the
   login page (median of the bracketed ratios), failed requests, and writes everything as
   JSON, with the machine's load average before and after.

Both the load generator and the server share the machine, so absolute figures are a floor; the
ratios are what compare.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import time
from pathlib import Path
from urllib.parse import urlsplit

from loadtest.parts import fresh_world, print_load_average, write_json
from loadtest.run import DEFAULT_URL, machine
from loadtest.server import ROOT, Server, manage, server_env

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


def ab(url: str, *, requests: int, concurrency: int, cookie: str = "") -> dict:
    """``cookie``: the Cookie header's value, or a whole header ("Authorization: Bearer ...")."""
    header = cookie if cookie.startswith("Authorization:") else f"Cookie: {cookie}"
    result = subprocess.run(
        [
            "ab",
            *(["-H", header] if cookie else []),
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


LOGIN = "login (ceiling)"

# The pages a scorekeeper is measured on (the member reads them all).
SCOREKEEPER_PAGES = ("club home", "standings", "player", "session")
# The API's standings, beside the page's (README "Stack": why django-ninja): a visitor's call
# and a member's with their own token (manage.py api_token), both answered afresh (no
# If-None-Match), under the site's rate limits lifted high enough never to refuse
API_STANDINGS = "api standings"


def login_cookie(server: Server, username: str, password: str) -> str:
    """The Cookie header of a browser logged in through the real login form."""
    client = server.client()
    try:
        client.login(username, password)
        client.get("/")  # the CSRF cookie a browser holds after its first page
    finally:
        client.close()
    return "; ".join(f"{k}={v}" for k, v in client.cookies.items())


def _arguments(argv) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", default=os.environ.get("LOAD_DATABASE_URL", DEFAULT_URL))
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
        raise SystemExit("ApacheBench is missing: loadtest/ratio installs it (apache2-utils)")
    return args


def _world(args, env: dict) -> tuple[dict, dict[str, str]]:
    """The database filled (a tournament with a running round too): the seed's world and the
    read pages measured."""
    t0 = time.perf_counter()
    world = fresh_world(
        env, args.database_url, history=args.history, reuse=args.reuse_db, scorekeepers=1
    )
    pages = {
        "club home": world["pages"][0],
        "standings": world["pages"][1],
        "standings month": world["pages"][4],
        "player": world["pages"][6],
        "session": world["pages"][7],  # a past session of 20 deals
    }
    game = world["pages"][1].rstrip("/").rsplit("/", 1)[-1]
    pages[API_STANDINGS] = f"/api/v1/clubs/{world['club']}/standings/{game}"
    try:
        made = manage(env, "shell", "-c", TOURNAMENT_SEED.format(slug=world["club"]))
        tournament = json.loads(made.strip().splitlines()[-1])["tournament"]
        pages["tournament standings"] = f"/t/{tournament}/standings/"
    except (RuntimeError, ValueError, KeyError) as exc:
        print(f"no tournament page measured: {exc}")
    print(f"prepared in {time.perf_counter() - t0:.0f} s", flush=True)
    return world, pages


def _targets(server: Server, world: dict, pages: dict[str, str]) -> dict[str, tuple[str, str]]:
    """Each page as each reader reads it (path, Cookie header), the login page first."""
    keeper = world["keepers"][0]
    readers = {
        "visitor": "",
        "member": login_cookie(server, world["member"]["username"], world["member"]["password"]),
        "scorekeeper": login_cookie(server, keeper["username"], keeper["password"]),
    }
    token = manage(server.env, "api_token", world["member"]["username"]).strip()
    targets: dict[str, tuple[str, str]] = {LOGIN: ("/accounts/login/", "")}
    for reader, cookie in readers.items():
        for name, path in pages.items():
            if reader == "scorekeeper" and name not in SCOREKEEPER_PAGES:
                continue
            header = cookie
            if name == API_STANDINGS and cookie:  # a logged-in reader calls with a token
                header = f"Authorization: Bearer {token}"
            targets[name if reader == "visitor" else f"{name} · {reader}"] = (path, header)
    return targets


def _measure(args, server: Server, targets: dict) -> tuple[dict, dict, dict]:
    """Every page ``args.rounds`` times, each bracketed by two runs of the login page: the
    requests a second of each run, each page's ratios to its two login runs, failures."""
    rates: dict[str, list[float]] = {name: [] for name in targets}
    ratios: dict[str, list[float]] = {name: [] for name in targets}
    failed: dict[str, int] = dict.fromkeys(targets, 0)
    base = f"http://127.0.0.1:{server.port}"

    def run(name: str) -> float:
        path, cookie = targets[name]
        got = ab(base + path, requests=args.requests, concurrency=args.concurrency, cookie=cookie)
        rates[name].append(got["rps"])
        failed[name] += got["failed"] + (args.requests - got["complete"])
        return got["rps"]

    for path, cookie in targets.values():  # warm every worker's caches and the page cache
        ab(base + path, requests=50, concurrency=4, cookie=cookie)
    for _ in range(args.rounds):
        before = run(LOGIN)
        for name in targets:
            if name == LOGIN:
                continue
            page = run(name)
            after = run(LOGIN)
            ceiling = (before + after) / 2
            ratios[name].append(page / ceiling if ceiling else 0.0)
            before = after
    ratios[LOGIN] = [1.0]
    return rates, ratios, failed


def _report(args, result: dict) -> None:
    write_json(args.json, result)
    print(f"\nread-only load: ab -c {args.concurrency}, {args.requests} requests × {args.rounds}")
    print_load_average(result["machine"])
    print(f"{'page':<36}{'req/s':>9}{'ratio':>8}{'failed':>8}")
    for name, page in result["pages"].items():
        print(f"{name:<36}{page['rps_median']:>9}{page['ratio_to_login']:>8}{page['failed']:>8}")


def main(argv=None) -> int:
    args = _arguments(argv)
    # the API's rate limits counted as on a site, never reached by this load
    limits = {"EFUDA_API_RATE_ADDRESS": "10000000/m", "EFUDA_API_RATE_TOKEN": "10000000/m"}
    env = server_env(args.database_url, ROOT / "var" / "loadtest-static", **limits)
    world, pages = _world(args, env)
    with Server(env, workers=args.workers) as server:
        targets = _targets(server, world, pages)
        load_before = machine()
        rates, ratios, failed = _measure(args, server, targets)
    result = {
        "config": {k: v for k, v in vars(args).items() if k != "json"} | {"json": str(args.json)},
        "machine": {"before": load_before, "after": machine()},
        "pages": {
            name: {
                "path": targets[name][0],
                "logged_in": bool(targets[name][1]),
                "rps_median": round(statistics.median(values), 1),
                "rps_runs": values,
                "ratio_to_login": round(statistics.median(ratios[name]), 2),
                "ratio_runs": [round(r, 3) for r in ratios[name]],
                "failed": failed[name],
            }
            for name, values in rates.items()
        },
    }
    _report(args, result)
    return 0 if all(p["failed"] == 0 for p in result["pages"].values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
