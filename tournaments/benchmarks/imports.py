"""The import step (``bench --import-lines N``): an N-line results file imported in another
process while this one records, every half second, a deal (as a scorekeeper at a table would)
or a one-deal file (as another import of the same club would), in turn; then the club's
ratings are replayed here, as the task worker does after the import (timed on its own)."""

from __future__ import annotations

import datetime
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from django.core.management.base import CommandError
from django.db import OperationalError, connection
from django.utils import timezone

from tournaments.models import Deal
from tournaments.services.busy import DatabaseBusy, bounded_wait
from tournaments.services.clubs import club_create
from tournaments.services.deals import deal_record
from tournaments.services.imports import results_import
from tournaments.services.members import membership_set
from tournaments.services.players import player_get_or_create
from tournaments.services.ratings import ratings_replay
from tournaments.services.sessions import session_start

from .club import bench_user
from .stores import database_url

IMPORT_PLAYERS = 60
IMPORT_DEALS_PER_SESSION = 20
_MEANWHILE_DAY = datetime.date(2100, 1, 1)  # the one-deal imports' days, after the file's
ROOT = Path(__file__).resolve().parents[2]  # where manage.py is


def import_csv(lines: int, *, seed: int = 7) -> bytes:
    """A Napoleon results file of ``lines`` deals, as a club's ten years of spreadsheets would
    be: four tables a night, twenty deals a table, sixty players, a few redeals."""
    rng = random.Random(seed)
    names = [f"会員{i:03d}" for i in range(IMPORT_PLAYERS)]
    out = ["date,table,rules,players,napoleon,bid,trump,called,adjutant,honours,discarded"]
    day = datetime.date(2014, 1, 1)
    written = 0
    while written < lines:
        for table in "ABCD":
            seats = rng.sample(names, 5)
            for _ in range(IMPORT_DEALS_PER_SESSION):
                if written >= lines:
                    break
                written += 1
                if rng.random() < 0.03:
                    out.append(f"{day},{table},napoleon-wiki,{';'.join(seats)},,,,,,,")
                    continue
                nap = rng.choice(seats)
                adjutant = rng.choice(seats)  # the Napoleon's own name: 独り立ち
                bid = rng.choice((12, 13, 13, 14, 15, 16))
                trump = rng.choice("SHDC")
                called = "HA" if trump == "S" else "SA"
                honours = max(0, min(20, bid + rng.randint(-4, 3)))
                discarded = rng.randint(0, min(2, 20 - honours))
                out.append(f"{day},{table},napoleon-wiki,{';'.join(seats)},{nap},{bid},{trump},"
                           f"{called},{adjutant},{honours},{discarded}")  # fmt: skip
        day += datetime.timedelta(days=1)
    return ("\n".join(out) + "\n").encode("utf-8")


def _children_cpu() -> float:
    child = resource.getrusage(resource.RUSAGE_CHILDREN)  # every finished child process
    return child.ru_utime + child.ru_stime


def _startup(env: dict) -> tuple[float, float]:
    """The wall clock and CPU time the import's process takes to start (Django set up, no
    import): their share of the figures above."""
    started, cpu = time.perf_counter(), _children_cpu()
    subprocess.run([sys.executable, "manage.py", "import_results", "--help"], cwd=ROOT, env=env,
                   check=True, capture_output=True)  # fmt: skip
    return time.perf_counter() - started, _children_cpu() - cpu


class ImportBench:
    """``import_results`` of an N-line file in a process of its own (as a worker or another
    gunicorn process would run it) while this process records a deal every half second through
    ``deal_record``, as a scorekeeper at a table would; each deal's wait is timed."""

    def __init__(self, lines: int, target: dict, database: str):
        self.lines = lines
        self.target = target
        self.database = database
        self.waits: list[float] = []
        self.import_waits: list[float] = []  # the one-deal imports meanwhile
        self.refused = self.busy = 0

    def run(self, log) -> dict:
        club = club_create(slug="bench-import", name="取り込み倶楽部")
        user = bench_user("bench-import-scorekeeper")
        membership_set(club=club, user=user, role="scorekeeper")
        players = [player_get_or_create(club=club, name=f"卓{i}").id for i in range(5)]
        session = session_start(club=club, rules_code="napoleon-wiki",
                                date=timezone.localdate(), table="今夜", user=user)  # fmt: skip
        data = import_csv(self.lines)
        with tempfile.NamedTemporaryFile(suffix=".csv", delete=False) as fh:
            fh.write(data)
            path = fh.name
        connection.close()  # the import's process opens its own
        env = {**os.environ, "DATABASE_URL": database_url(self.target)}
        try:
            started = time.perf_counter()
            proc = subprocess.Popen(
                [sys.executable, "manage.py", "import_results", path, "--club", "bench-import"],
                cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            )  # fmt: skip
            load_before, cpu_before = os.getloadavg(), _children_cpu()
            self._record_meanwhile(proc, session, players, user)
            out, err = proc.communicate()
            elapsed = time.perf_counter() - started
            load_after = os.getloadavg()
            cpu = _children_cpu() - cpu_before  # the import's process
        finally:
            os.unlink(path)
        if proc.returncode != 0:
            raise CommandError(f"import_results failed: {err or out}")
        imported = (
            Deal.objects.filter(club=club, session__date__lt=_MEANWHILE_DAY)
            .exclude(session=session)
            .count()
        )
        if imported != self.lines:
            raise CommandError(f"imported {imported} deals, expected {self.lines}")
        started = time.perf_counter()
        ratings_replay(club_id=club.pk, game="napoleon")  # as the task worker does, after
        replay = time.perf_counter() - started
        waits = self.waits
        log.write(f"import of {self.lines} lines: {elapsed:.1f} s ({cpu:.1f} s CPU); {len(waits)} "
                  f"deals meanwhile, longest wait {max(waits, default=0):.2f} s")  # fmt: skip
        row = self._row(len(data), elapsed, cpu, [load_before, load_after])
        wall, start_cpu = _startup(env)
        return {**row, "startup_s": round(wall, 2), "startup_cpu_s": round(start_cpu, 2),
                "lines_per_cpu_s_after_startup": round(self.lines / max(cpu - start_cpu, 1e-3)),
                "ratings_replay_s": round(replay, 1)}  # fmt: skip

    def _record_meanwhile(self, proc, session, players: list[int], user) -> None:
        """A deal or a one-deal import every half second, in turn, until the import's process
        ends, each one's wait timed."""
        i = 0
        while proc.poll() is None:
            if i % 2:
                self._import_one(session.club, i)
                i += 1
                time.sleep(0.5)
                continue
            seats = [str(p) for p in players]
            deal = {"seats": seats, "napoleon": seats[i % 5], "bid": 13, "trump": "S",
                    "called": "SA", "adjutant": seats[(i + 1) % 5], "honours": 10 + i % 8,
                    "discarded": 0, "last_trick": None, "redeal": False}  # fmt: skip
            t0 = time.perf_counter()
            try:
                with bounded_wait():  # as every web request runs (middleware)
                    deal_record(session=session, data=deal, user=user)
            except DatabaseBusy:  # SQLite: the import holds the writer; sent again later
                self.busy += 1
            except OperationalError:  # SQLite's busy timeout ran out: "database is locked"
                self.refused += 1
            self.waits.append(time.perf_counter() - t0)
            i += 1
            time.sleep(0.5)

    def _import_one(self, club, i: int) -> None:
        """A one-deal file imported into the same club, as another upload would be."""
        day = _MEANWHILE_DAY + datetime.timedelta(days=i)
        one = (f"date,table,rules,players,napoleon,bid,trump,called,adjutant,honours,discarded\n"
               f"{day},今夜,napoleon-wiki,卓0;卓1;卓2;卓3;卓4,卓{i % 5},13,S,SA,卓{(i + 1) % 5},"
               f"{10 + i % 8},0\n").encode()  # fmt: skip
        t0 = time.perf_counter()
        try:
            with bounded_wait():  # as an upload's request runs
                results_import(club=club, file=one, filename="one.csv")
        except DatabaseBusy:  # SQLite: the large import holds the writer; sent again later
            self.busy += 1
        self.import_waits.append(time.perf_counter() - t0)

    def _row(self, size: int, elapsed: float, cpu: float, loads) -> dict:
        waits, imports = self.waits or [0.0], self.import_waits or [0.0]
        return {
            "step": "import", "database": self.database, "lines": self.lines,
            "bytes": size, "seconds": round(elapsed, 1),
            "lines_per_s": round(self.lines / elapsed),
            "lines_per_cpu_s": round(self.lines / cpu) if cpu else None,
            "deals_meanwhile": len(waits),
            "deal_wait_median_ms": round(statistics.median(waits) * 1000, 1),
            "deal_wait_max_ms": round(max(waits) * 1000, 1),
            "deals_refused_locked": self.refused,
            "deals_busy_resend": self.busy,
            "one_deal_imports_meanwhile": len(self.import_waits),
            "one_deal_import_wait_max_ms": round(max(imports) * 1000, 1),
            "import_cpu_s": round(cpu, 1),
            "load_average": [round(loads[0][0], 2), round(loads[1][0], 2)],
        }  # fmt: skip
