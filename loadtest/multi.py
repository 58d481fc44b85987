"""Two servers, one redis, one worker, a streaming replica — and each shared part failing once.

``python -m loadtest.multi`` (run as root, with PostgreSQL 13+'s server binaries and redis-server
installed; every port and the database name are options, with fixed defaults):

1. Makes a PostgreSQL primary of its own (``initdb``, ``--pg-port``, default 5441: nobody
   else's database is restarted) prepared for a standby as docs/deploy.md §5b says — a
   replication role with a password, a ``host replication`` line in pg_hba.conf, the primary
   listening on 127.0.0.1 — and efuda's role and database (``--database``, default
   ``efuda_multi``); migrates, collects static files **once per server** (each its own
   STATIC_ROOT), seeds the demo club and a load club.
2. Starts ``redis-server`` (``--redis-port``, 6390), the streaming standby made over TCP with the
   replication role (``pg_basebackup -R``, ``--standby-port``, 5442), two gunicorn servers
   (``--ports``, 8101,8102) with the production settings (``CACHE_URL``, ``DATABASE_REPLICA_URL``,
   their own control sockets) and one ``manage.py worker``.
3. A scorekeeper records a deal every ``--keeper-think`` seconds on server A all through the run
   (so read pages keep missing the cache and render from the replica or the primary), while
   ApacheBench (``ab``) reads a public page on both servers and the login page, in phases:
   before; redis stopped; redis back; the standby stopped; back; the standby's postmaster
   SIGSTOPped; resumed; the primary restarted (``pg_ctl restart -m fast``, while readers also
   count every answer's status: 200s, 503s with Retry-After, other 5xx); the worker — the one
   that lived through the restart — SIGKILLed right after an import's commit; a new worker.
4. Prints per phase: requests a second for the read page (both servers) and the login page, the
   ratio read/login, non-2xx answers (500s above all), and the scorekeeper's errors; then checks
   that every deal the scorekeeper was told was saved is stored exactly once, and that the
   interrupted import says "imported" with its counts. Writes it all as JSON.

``--serve`` only starts the parts and waits: deploy/try-multi-server. Ctrl-C or a SIGTERM (a plain
``kill``, ``timeout``, a supervisor) stops every part and removes both clusters and the scratch
files, at any moment, also in the middle of setting up or of a load run.
The load generator shares the machine with everything it measures: the figures are a floor.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
from pathlib import Path

from loadtest.cluster import OwnPrimary, ReplicaOf
from loadtest.parts import RedisServer, seed_world, wait_for, write_json
from loadtest.ratio import ab
from loadtest.run import Stats, machine, scorekeeper, verify
from loadtest.server import PYTHON, ROOT, Server, manage, server_env
from loadtest.webclient import WebClient

IMPORT_LINES = 3000


def _import_file() -> str:
    rows = ["date,table,rules,order,forbidden"]
    for i in range(IMPORT_LINES):
        rows.append(f"2024-{1 + i // 300 % 12:02d}-{1 + i // 30 % 10:02d},I{i // 3000},"
                    "daifugo-common,a;b;c;d,")  # fmt: skip
    return "\n".join(rows) + "\n"


ENQUEUE = """
import json
from tournaments.models import Club
from tournaments.services.import_jobs import import_job_create
club = Club.objects.get(slug={slug!r})
job = import_job_create(club=club, data=open({path!r}, "rb").read(), filename="big.csv",
                        language="en")
print(json.dumps({{"job": job.pk, "club": club.pk}}))
"""
JOB = """
import json
from tournaments.models import Deal, ImportJob
job = ImportJob.objects.get(pk={job})
print(json.dumps({{"status": job.status, "report": job.report, "attempt": job.attempt,
                   "deals": Deal.objects.filter(session__table__startswith="I").count()}}))
"""


class Worker:
    def __init__(self, env: dict, log: Path):
        self.env, self.log = env, log
        self.process: subprocess.Popen | None = None

    def start(self) -> Worker:
        out = open(self.log, "ab")  # noqa: SIM115
        self.process = subprocess.Popen(
            [PYTHON, "manage.py", "worker", "--no-reload", "--interval", "0.5"],
            cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
        return self

    def kill(self) -> None:
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill()


class Parts:
    """Everything the multi-server set-up runs, started and stopped together."""

    def __init__(self, args, workdir: Path):
        self.args, self.workdir = args, workdir
        self.primary: OwnPrimary | None = None
        self.redis: RedisServer | None = None
        self.standby: ReplicaOf | None = None
        self.servers: list[Server] = []
        self.worker: Worker | None = None
        self.world: dict = {}
        self.lock = threading.Lock()

    def up(self) -> Parts:
        args = self.args
        binary = shutil.which("redis-server")
        if binary is None:
            raise SystemExit("redis-server is missing: apt-get install redis-server")
        bindir = _server_binaries()
        self.workdir.chmod(0o755)
        pgdir = self.workdir / "pg"
        pgdir.mkdir()
        shutil.chown(pgdir, "postgres", "postgres")
        self.primary = OwnPrimary(bindir, pgdir / "primary", port=args.pg_port,
                                  database=args.database)  # fmt: skip
        self.primary.create()
        self.redis = RedisServer(binary, self.workdir)
        self.redis.port = args.redis_port
        self.redis.start()
        statics = [self.workdir / "static-a", self.workdir / "static-b"]
        base = server_env(self.primary.url(), statics[0], CACHE_URL=self.redis.url,
                          LOG_LEVEL="WARNING", REPLICA_RETRY_SECONDS="10")  # fmt: skip
        manage(base, "migrate", "--noinput", "-v", "0")
        for static in statics:  # per server: whitenoise serves each server's own STATIC_ROOT
            manage({**base, "STATIC_ROOT": str(static)}, "collectstatic", "--noinput", "-v", "0")
        self.world = _seed(base, args.history)
        self.standby = ReplicaOf(self.primary, pgdir / "standby", port=args.standby_port)
        self.standby.create()
        self.standby.start()
        env = {**base, "DATABASE_REPLICA_URL": self.standby.url()}
        for static, port in zip(statics, args.ports, strict=True):
            server = Server({**env, "STATIC_ROOT": str(static)}, port=port,
                            workers=args.workers, log=self.workdir / "gunicorn.log")  # fmt: skip
            self.servers.append(server.start())
        self.env = env
        self.worker = Worker(env, self.workdir / "worker.log").start()
        return self

    def down(self) -> None:
        for server in self.servers:
            server.stop()
        if self.worker:
            self.worker.stop()
        if self.standby:
            self.standby.stop("immediate")
        if self.primary:
            self.primary.stop("immediate")
        if self.redis:
            self.redis.stop()


def _server_binaries() -> Path:
    for candidate in sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True):
        if (candidate / "initdb").exists() and (candidate / "pg_basebackup").exists():
            return candidate
    raise SystemExit("no PostgreSQL server binaries: apt-get install postgresql")


def _seed(env: dict, history: int) -> dict:
    return seed_world(env, history=history, scorekeepers=1)


def measure(
    parts: Parts, label: str, *, requests: int, concurrency: int, keeper: Stats, during=None
) -> dict:
    """ab on the read page of both servers at once, then on the login page of server A; and what
    the scorekeeper saw meanwhile (its saves: count, errors, slowest)."""
    page = parts.world["pages"][1]  # the load club's standings
    with keeper.lock:
        seen = {kind: len(values) for kind, values in keeper.latency.items()}
        errors_before = sum(len(v) for v in keeper.errors.values())
    results: dict[str, dict] = {}

    def read(name, server):
        results[name] = ab(f"http://127.0.0.1:{server.port}{page}", requests=requests,
                           concurrency=concurrency)  # fmt: skip

    threads = [threading.Thread(target=read, args=(n, s))
               for n, s in zip(("read A", "read B"), parts.servers, strict=True)]  # fmt: skip
    for t in threads:
        t.start()
    extra = during() if during else None
    for t in threads:
        t.join()
    results["login"] = ab(f"http://127.0.0.1:{parts.servers[0].port}/accounts/login/",
                          requests=requests // 2, concurrency=concurrency)  # fmt: skip
    read_rps = results["read A"]["rps"] + results["read B"]["rps"]
    with keeper.lock:
        saves = keeper.latency.get("record deal", [])[seen.get("record deal", 0) :]
        keeper_errors = sum(len(v) for v in keeper.errors.values()) - errors_before
    row = {
        "phase": label,
        "read_rps_a": results["read A"]["rps"],
        "read_rps_b": results["read B"]["rps"],
        "login_rps": results["login"]["rps"],
        "ratio_read_to_login": round(read_rps / 2 / results["login"]["rps"], 2)
        if results["login"]["rps"]
        else 0,
        "non_2xx": sum(r["failed"] for r in results.values()),
        "keeper_saves": len(saves),
        "keeper_errors": keeper_errors,
        "keeper_slowest_ms": round(max(saves, default=0) * 1000),
        "load_1min": round(os.getloadavg()[0], 2),
    }
    if extra is not None:
        row["extra"] = extra
    print(f"{label[:38]:<39}{row['read_rps_a']:>7}{row['read_rps_b']:>7}{row['login_rps']:>7}"
          f"{row['ratio_read_to_login']:>6}{row['non_2xx']:>5}{row['keeper_saves']:>6}"
          f"{row['keeper_errors']:>5}{row['keeper_slowest_ms']:>6}{row['load_1min']:>6}",
          flush=True)  # fmt: skip
    return row


class Stopped(SystemExit):
    """Ctrl-C or SIGTERM: every part is stopped and removed on the way out."""


def _stop_on_signals() -> None:
    """SIGTERM ends the run as Ctrl-C does: by an exception in the main thread, so every
    ``finally`` runs; a second signal during the clean-up is ignored (it finishes)."""

    def stop(signum, _frame):
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        raise Stopped(128 + signum)

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)


def _ports(text: str) -> list[int]:
    ports = [int(p) for p in text.split(",")]
    if len(ports) != 2:
        raise argparse.ArgumentTypeError("two ports, comma-separated: 8101,8102")
    return ports


def _taken(ports: list[int]) -> list[int]:
    taken = []
    for port in ports:
        with socket.socket() as s:
            # as the servers bind: a port a stopped run left in TIME_WAIT is free to them
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                taken.append(port)
    return taken


def _arguments(argv) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", default="efuda_multi", help="the database's name")
    parser.add_argument("--ports", type=_ports, default=[8101, 8102], help="the two servers'")
    parser.add_argument("--pg-port", type=int, default=5441, help="the run's own primary")
    parser.add_argument("--standby-port", type=int, default=5442)
    parser.add_argument("--redis-port", type=int, default=6390)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers per server")
    parser.add_argument("--history", type=int, default=2000)
    parser.add_argument("--requests", type=int, default=1000, help="per page per phase")
    parser.add_argument("--concurrency", type=int, default=10)
    parser.add_argument("--keeper-think", type=float, default=0.5)
    parser.add_argument("--serve", action="store_true", help="start everything and wait")
    parser.add_argument("--json", type=Path, default=ROOT / "var" / "loadtest-multi.json")
    args = parser.parse_args(argv)
    taken = _taken([*args.ports, args.pg_port, args.standby_port, args.redis_port])
    if taken:
        parser.error(f"port(s) {', '.join(map(str, taken))} in use on 127.0.0.1: choose others "
                     "(--ports, --pg-port, --standby-port, --redis-port)")  # fmt: skip
    if os.geteuid() != 0:
        parser.error("run as root: the clusters run as the postgres user")
    if not args.serve and not shutil.which("ab"):
        parser.error("ApacheBench is missing: apt-get install apache2-utils")
    return args


def main(argv=None) -> int:
    args = _arguments(argv)
    _stop_on_signals()
    workdir = Path(tempfile.mkdtemp(prefix="efuda-multi-"))
    parts = Parts(args, workdir)
    try:
        parts.up()
        print(f"servers: {', '.join(f'http://127.0.0.1:{s.port}/' for s in parts.servers)}; "
              f"redis {parts.redis.url}; primary {parts.primary.url()}; standby port "
              f"{parts.standby.port}; logs in {workdir}", flush=True)  # fmt: skip
        if args.serve:
            while True:
                signal.pause()  # until Ctrl-C or SIGTERM (Stopped)
        return _faults(parts, args)
    except Stopped as stopped:
        print("stopped: every part is being stopped and removed", flush=True)
        return stopped.code
    finally:
        parts.down()
        shutil.rmtree(workdir, ignore_errors=True)


def _kill_worker_after_commit(parts: Parts, job_state: dict) -> dict:
    """A large import queued; the worker killed once its rows are committed: the job's state
    seen right after."""
    path = parts.workdir / "big.csv"
    path.write_text(_import_file())
    made = json.loads(manage(parts.env, "shell", "-c", ENQUEUE.format(
        slug=parts.world["club"], path=str(path))).strip().splitlines()[-1])  # fmt: skip
    wait_for(lambda: json.loads(manage(parts.env, "shell", "-c", JOB.format(
        job=made["job"])).strip().splitlines()[-1])["deals"] > 0, timeout=300,
        what="the import's commit")  # fmt: skip
    parts.worker.kill()
    job_state.update(json.loads(manage(parts.env, "shell", "-c", JOB.format(
        job=made["job"])).strip().splitlines()[-1]))  # fmt: skip
    return job_state


def _read_through_restart(parts: Parts, restarted: threading.Event, done: threading.Event,
                          tally: dict, client: WebClient, path: str) -> None:  # fmt: skip
    """One reader: the page again and again until ``done``, each answer's status counted (and,
    once the restart is over, every answer that was not 200)."""
    while not done.is_set():
        after = restarted.is_set()
        try:
            answer = client.get(path)
            retry = answer.status == 503 and answer.headers.get("retry-after")
            kind = "503 Retry-After" if retry else str(answer.status)
        except OSError:
            client.close()
            kind = "no answer"
        with parts.lock:
            tally[kind] = tally.get(kind, 0) + 1
            if after and kind != "200":
                tally["not 200 after the restart"] = tally.get("not 200 after the restart", 0) + 1


def _restart_primary(parts: Parts) -> dict:
    """``pg_ctl restart -m fast`` of the primary while readers (public page, login page, the
    health answer, on both servers) count every answer; the worker must live through it."""
    tally: dict = {}
    restarted, done = threading.Event(), threading.Event()
    paths = [parts.world["pages"][1], "/accounts/login/", parts.world["pages"][1]]
    readers = [
        threading.Thread(target=_read_through_restart, args=(
            parts, restarted, done, tally,
            WebClient("127.0.0.1", server.port, forwarded_https=True, timeout=30), path))
        for server in parts.servers for path in paths
    ]  # fmt: skip
    for reader in readers:
        reader.start()
    time.sleep(2)
    began = time.monotonic()
    parts.primary.restart("fast")
    took = time.monotonic() - began
    restarted.set()
    time.sleep(5)  # readers after the restart: every answer 200
    done.set()
    for reader in readers:
        reader.join(timeout=60)
    server_errors = sum(n for k, n in tally.items() if k[0] == "5" and not k.startswith("503 "))
    return {"answers": tally, "5xx_not_503": server_errors, "restart_seconds": round(took, 1),
            "worker_alive": parts.worker.process.poll() is None}  # fmt: skip


def _phases(parts: Parts, run: dict, job_state: dict) -> list[dict]:
    """Each fault in turn, measured while it lasts and after the part is back."""
    rows = [measure(parts, "before", **run)]
    parts.redis.stop()
    rows.append(measure(parts, "redis stopped", **run))
    parts.redis.start()
    rows.append(measure(parts, "redis back", **run))
    parts.standby.stop("fast")
    rows.append(measure(parts, "standby stopped", **run))
    parts.standby.start()
    time.sleep(11)  # REPLICA_RETRY_SECONDS=10: the servers try it again
    rows.append(measure(parts, "standby back", **run))
    parts.standby.pause()
    rows.append(measure(parts, "standby postmaster SIGSTOPped", **run))
    parts.standby.resume()
    time.sleep(11)
    rows.append(measure(parts, "standby resumed", **run))
    rows.append(measure(parts, "primary restarted (pg_ctl restart -m fast)", **run,
                        during=lambda: _restart_primary(parts)))  # fmt: skip
    rows.append(measure(parts, "worker killed after an import's commit", **run,
                        during=lambda: _kill_worker_after_commit(parts, job_state)))  # fmt: skip
    parts.worker = Worker(parts.env, parts.workdir / "worker.log").start()
    rows.append(measure(parts, "new worker", **run))
    return rows


def _faults(parts: Parts, args) -> int:
    keeper = parts.world["keepers"][0]
    stats, stop, confirmed = Stats(), threading.Event(), []
    writer = threading.Thread(target=scorekeeper, args=(
        parts.servers[0], keeper, parts.world["players"], stats, stop, 7, args.keeper_think,
        confirmed, 10**9))  # fmt: skip
    writer.start()
    rows: list[dict] = []
    run = {"requests": args.requests, "concurrency": args.concurrency, "keeper": stats}
    print(f"{'phase':<39}{'read A':>7}{'read B':>7}{'login':>7}{'ratio':>6}{'!2xx':>5}"
          f"{'saves':>6}{'err':>5}{'max ms':>6}{'load':>6}")  # fmt: skip
    job_state: dict = {}
    try:
        rows = _phases(parts, run, job_state)
    finally:
        stop.set()
        writer.join(timeout=60)
    checked = verify(parts.primary.url(), confirmed, [keeper["session"]])
    keeper_errors = sum(len(v) for v in stats.errors.values())
    result = {
        "machine": machine(),
        "config": {k: str(v) for k, v in vars(args).items()},
        "phases": rows,
        "scorekeeper": {"requests": stats.requests, "errors": keeper_errors,
                        "error_samples": [e for v in stats.errors.values() for e in v[:3]]},
        "deals": checked,
        "interrupted_import": job_state,
    }  # fmt: skip
    write_json(args.json, result)
    print(f"scorekeeper: {stats.requests} requests, {keeper_errors} errors; deals confirmed "
          f"{checked['confirmed']}, missing {checked['missing']}, duplicated "
          f"{checked['duplicated']} -> {'OK' if checked['ok'] else 'FAILED'}")  # fmt: skip
    print(f"interrupted import: {job_state}")
    print(f"(JSON: {args.json})")
    return 0 if _held(rows, stats, checked, job_state) else 1


def _held(rows: list[dict], stats: Stats, checked: dict, job_state: dict) -> bool:
    """Every deal once, the import done once, no non-2xx — but during the primary's restart,
    where a 503 with Retry-After is the promise (a phone sends again) and any other 5xx, any
    answer but 200 after the restart, or a dead worker is a failure."""
    restart = next(r["extra"] for r in rows if r["phase"].startswith("primary restarted"))
    other = [r for r in rows if not r["phase"].startswith("primary restarted")]
    keeper_bad = [e for v in stats.errors.values() for e in v if not e.startswith("503 ")]
    print(f"primary restart: {restart}")
    return (
        checked["ok"]
        and not keeper_bad
        and all(r["non_2xx"] == 0 for r in other)
        and restart["5xx_not_503"] == 0
        and not restart["answers"].get("not 200 after the restart")
        and restart["worker_alive"]
        and job_state.get("status") == "done"
        and job_state.get("deals") == IMPORT_LINES
    )


if __name__ == "__main__":
    raise SystemExit(main())
