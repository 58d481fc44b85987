"""Two servers, one redis, one worker, a streaming replica — and each shared part failing once.

``python -m loadtest.multi`` (run as root, beside a local PostgreSQL 13+ with the ``efuda`` role):

1. (Re)creates the database (default ``efuda_multi`` on 127.0.0.1:5432), migrates, collects static
   files **once per server** (each its own STATIC_ROOT), seeds the demo club and a load club.
2. Starts ``redis-server``, a streaming standby (``pg_basebackup -R``), two gunicorn servers with
   the production settings (``CACHE_URL``, ``DATABASE_REPLICA_URL``, their own control sockets)
   and one ``manage.py worker``.
3. A scorekeeper records a deal every ``--keeper-think`` seconds on server A all through the run
   (so read pages keep missing the cache and render from the replica or the primary), while
   ApacheBench (``ab``) reads a public page on both servers and the login page, in phases:
   before; redis stopped; redis back; the standby stopped; back; the standby's postmaster
   SIGSTOPped; resumed; the worker SIGKILLed right after an import's commit; a new worker.
4. Prints per phase: requests a second for the read page (both servers) and the login page, the
   ratio read/login, non-2xx answers (500s above all), and the scorekeeper's errors; then checks
   that every deal the scorekeeper was told was saved is stored exactly once, and that the
   interrupted import says "imported" with its counts. Writes it all as JSON.

``--serve`` only starts the parts and waits (Ctrl-C stops everything): deploy/try-multi-server.
The load generator shares the machine with everything it measures: the figures are a floor.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from loadtest.parts import RedisServer, Standby, pg_bindir, wait_for
from loadtest.ratio import ab
from loadtest.run import Stats, machine, recreate_database, scorekeeper, verify
from loadtest.server import PYTHON, ROOT, Server, manage, server_env

DEFAULT_URL = "postgres://efuda:efuda@127.0.0.1:5432/efuda_multi"
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

    def __init__(self, database_url: str, workdir: Path, workers: int):
        self.database_url, self.workdir, self.workers = database_url, workdir, workers
        self.redis: RedisServer | None = None
        self.standby: Standby | None = None
        self.servers: list[Server] = []
        self.worker: Worker | None = None
        self.world: dict = {}

    def up(self, *, history: int) -> Parts:
        import psycopg

        if os.geteuid() != 0:
            raise SystemExit("run as root: the standby cluster is started as the postgres user")
        binary = shutil.which("redis-server")
        if binary is None:
            raise SystemExit("redis-server is missing: apt-get install redis-server")
        recreate_database(self.database_url)
        with psycopg.connect(self.database_url) as conn:
            version = conn.info.server_version
        bindir = pg_bindir(version)
        if bindir is None:
            raise SystemExit("no PostgreSQL server binaries for the primary's version")
        self.redis = RedisServer(binary, self.workdir)
        self.redis.start()
        statics = [self.workdir / "static-a", self.workdir / "static-b"]
        base = server_env(self.database_url, statics[0], CACHE_URL=self.redis.url,
                          LOG_LEVEL="WARNING", REPLICA_RETRY_SECONDS="10")  # fmt: skip
        manage(base, "migrate", "--noinput", "-v", "0")
        for static in statics:  # per server: whitenoise serves each server's own STATIC_ROOT
            manage({**base, "STATIC_ROOT": str(static)}, "collectstatic", "--noinput", "-v", "0")
        seeded = subprocess.run(
            [PYTHON, "-m", "loadtest.seed", "--demo", "--history", str(history),
             "--scorekeepers", "1"],
            cwd=ROOT, env=base, capture_output=True, text=True, timeout=1800,
        )  # fmt: skip
        if seeded.returncode != 0:
            raise SystemExit(seeded.stderr[-3000:])
        self.world = json.loads(seeded.stdout.strip().splitlines()[-1])
        self.workdir.chmod(0o755)
        pgdir = self.workdir / "pg"
        pgdir.mkdir()
        shutil.chown(pgdir, "postgres", "postgres")
        datadir = pgdir / "standby"
        primary = urlsplit(self.database_url)
        self.standby = Standby(bindir, datadir, primary.port or 5432)
        self.standby.create()
        self.standby.start()
        replica_url = urlunsplit(primary._replace(netloc=f"{primary.username}:"
                                                  f"{primary.password}@127.0.0.1:"
                                                  f"{self.standby.port}"))  # fmt: skip
        env = {**base, "DATABASE_REPLICA_URL": replica_url}
        for static in statics:
            server = Server({**env, "STATIC_ROOT": str(static)}, workers=self.workers,
                            log=self.workdir / "gunicorn.log")  # fmt: skip
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
        if self.redis:
            self.redis.stop()


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


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", default=os.environ.get("MULTI_DATABASE_URL", DEFAULT_URL))
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers per server")
    parser.add_argument("--history", type=int, default=2000)
    parser.add_argument("--requests", type=int, default=1000, help="per page per phase")
    parser.add_argument("--concurrency", type=int, default=10)
    parser.add_argument("--keeper-think", type=float, default=0.5)
    parser.add_argument("--serve", action="store_true", help="start everything and wait")
    parser.add_argument("--json", type=Path, default=ROOT / "var" / "loadtest-multi.json")
    args = parser.parse_args(argv)
    if urlsplit(args.database_url).hostname not in ("127.0.0.1", "localhost", "::1"):
        parser.error("only against a database on this machine")
    if not args.serve and not shutil.which("ab"):
        raise SystemExit("ApacheBench is missing: apt-get install apache2-utils")
    workdir = Path(tempfile.mkdtemp(prefix="efuda-multi-"))
    parts = Parts(args.database_url, workdir, args.workers)
    try:
        parts.up(history=args.history)
        print(f"servers: {', '.join(f'http://127.0.0.1:{s.port}/' for s in parts.servers)}; "
              f"redis {parts.redis.url}; standby port {parts.standby.port}; logs in {workdir}",
              flush=True)  # fmt: skip
        if args.serve:
            signal.sigwait({signal.SIGINT, signal.SIGTERM})
            return 0
        return _faults(parts, args)
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
    checked = verify(args.database_url, confirmed, [keeper["session"]])
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
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(result, indent=2, ensure_ascii=False))
    print(f"scorekeeper: {stats.requests} requests, {keeper_errors} errors; deals confirmed "
          f"{checked['confirmed']}, missing {checked['missing']}, duplicated "
          f"{checked['duplicated']} -> {'OK' if checked['ok'] else 'FAILED'}")  # fmt: skip
    print(f"interrupted import: {job_state}")
    print(f"(JSON: {args.json})")
    ok = checked["ok"] and not keeper_errors and all(r["non_2xx"] == 0 for r in rows)
    ok = ok and job_state.get("status") == "done" and job_state.get("deals") == IMPORT_LINES
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
