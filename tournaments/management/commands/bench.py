"""``manage.py bench --sizes 10000,100000,1000000 --json``: how page costs grow with history.

For each size the command builds a synthetic club with that many score lines in a throwaway
SQLite file (several years, 45 players, Napoleon and Daifugō), then times the pages through
Django's test client and prints one JSON object per line::

    {"size": N, "step": S, "median_ms": x, "queries": q}

Synthetic deals are scored by the real scoring core: a pool of template deals is scored once
with placeholder player ids and stamped onto real players, so the stored outcomes, score lines
and aggregates are what the services would have written, at bulk-insert speed. The database
configured in settings is never touched.
"""

from __future__ import annotations

import dataclasses
import datetime
import json
import json as json_module
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections import defaultdict
from pathlib import Path

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import OperationalError, connection, connections, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext, override_settings
from django.urls import reverse
from django.utils import timezone

from tournaments.models import (
    BidAggregate,
    Club,
    Deal,
    GameSession,
    Player,
    ScoreLine,
    StandingAggregate,
)  # fmt: skip
from tournaments.selectors.rulesets import session_rules
from tournaments.services.bulk import insert_rows
from tournaments.services.busy import DatabaseBusy, bounded_wait
from tournaments.services.cache import club_version_bump
from tournaments.services.clubs import club_create
from tournaments.services.deals import deal_record
from tournaments.services.members import membership_set
from tournaments.services.players import player_get_or_create
from tournaments.services.ratings import ratings_replay
from tournaments.services.rulesets import ruleset_resolve
from tournaments.services.scoring_bridge import (
    LINE_COLUMNS,
    bid_counters,
    counters,
    line_specs,
    line_tuple,
    outcome_dict,
    periods,
    score,
)
from tournaments.services.sessions import session_create, session_start

STEPS = ("record_deal", "session_page", "standings_month", "standings_all", "player_page",
         "session_pdf", "cached_page", "member_standings", "ratings_page")  # fmt: skip
# Steps read as a visitor who is not logged in (the public club's shared page cache).
ANONYMOUS_STEPS = {"cached_page": "standings_all"}
# Steps read as a logged-in member (the page's shared parts from the cache, the rest for them).
MEMBER_STEPS = {"member_standings": "standings_all"}
PLAYERS = 45
SEATS = 5
DEALS_PER_SESSION = 20
YEARS = 4
NAPOLEON_SHARE = 0.6
CLOSING = "Z"  # table labels Z0, Z1 … of the closing-night sessions
PLACEHOLDERS = [str(900_001 + i) for i in range(SEATS)]  # ids no real player has in a bench DB


def _remap(value, mapping: dict[str, str]):
    """Replace placeholder ids (as strings) anywhere in a JSON-like value."""
    if isinstance(value, str):
        return mapping.get(value, value)
    if isinstance(value, list):
        return [_remap(v, mapping) for v in value]
    if isinstance(value, dict):
        return {mapping.get(k, k): _remap(v, mapping) for k, v in value.items()}
    return value


class Template:
    """One scored deal over placeholder players, ready to be stamped onto real ones."""

    def __init__(self, game: str, data: dict, result):
        self.game = game
        self.data = data
        self.outcome = outcome_dict(game, result)
        self.specs = line_specs(game, data, result)

    def stamp(self, ids: list[int]):
        mapping = {p: str(i) for p, i in zip(PLACEHOLDERS, ids, strict=True)}
        by_placeholder = dict(zip(PLACEHOLDERS, ids, strict=True))
        data = _remap(self.data, mapping)
        for key in ("seats", "order", "forbidden"):
            if key in data:
                data[key] = [int(v) for v in data[key]]
        for key in ("napoleon", "adjutant"):
            if data.get(key):
                data[key] = int(data[key])
        specs = [
            (by_placeholder[str(s.player_id)],
             dataclasses.replace(s, player_id=by_placeholder[str(s.player_id)]))
            for s in self.specs
        ]  # fmt: skip
        return data, _remap(self.outcome, mapping), specs


def napoleon_templates(rules_, rng: random.Random, count: int) -> list[Template]:
    out = []
    while len(out) < count:
        nap = rng.randrange(SEATS)
        solo = rng.random() < 0.1
        adj = nap if solo else rng.choice([i for i in range(SEATS) if i != nap])
        bid = rng.choice([12, 13, 13, 14, 14, 15, 16])
        trump = rng.choice("SHDC")
        honours = max(0, min(20, bid + rng.randint(-4, 3)))
        data = {"seats": list(PLACEHOLDERS), "napoleon": PLACEHOLDERS[nap], "bid": bid,
                "trump": trump, "called": "SA" if trump != "S" else "HA",
                "adjutant": None if solo else PLACEHOLDERS[adj], "solo": solo, "honours": honours,
                "discarded": 0, "last_trick": None, "redeal": False}  # fmt: skip
        out.append(Template("napoleon", data, score("napoleon", data, rules_)))
    return out


def daifugo_templates(rules_, rng: random.Random, count: int) -> list[Template]:
    out = []
    while len(out) < count:
        order = list(PLACEHOLDERS)
        rng.shuffle(order)
        previous = rng.choice([None, *PLACEHOLDERS])
        data = {"order": order, "forbidden": [], "previous_daifugo": previous}
        out.append(Template("daifugo", data, score("daifugo", data, rules_)))
    return out


class Builder:
    """Bulk-writes sessions, deals, score lines and their aggregates for one synthetic club."""

    def __init__(self, size: int, seed: int = 4):
        self.size = size
        self.rng = random.Random(seed)

    def build(self):
        user = _user("bench-scorekeeper")
        club = club_create(slug="bench", name="ベンチ倶楽部", is_public=True)
        membership_set(club=club, user=user, role="scorekeeper")
        membership_set(club=club, user=_user(MEMBER), role="member")
        with transaction.atomic():  # the club's history, written in bulk, and its version
            club_version_bump(club_id=club.pk)
            lines = self._history(club, user)
        return club, user, lines

    def _history(self, club: Club, user) -> int:
        rng = self.rng
        players = Player.objects.bulk_create(
            [
                Player(club=club, name=f"選手{i:02d}", name_key=f"選手{i:02d}")
                for i in range(PLAYERS)
            ]
        )
        ids = [p.id for p in players]
        rulesets = {
            g: ruleset_resolve(club=club, code=c, game=g)
            for g, c in (("napoleon", "napoleon-wiki"), ("daifugo", "daifugo-common"))
        }
        snapshots = {
            g: {"preset": r.preset, "options": r.options or {}, "code": r.code}
            for g, r in rulesets.items()
        }
        templates = {}
        probe = GameSession(rules_snapshot=snapshots["napoleon"])
        templates["napoleon"] = napoleon_templates(session_rules(probe), rng, 200)
        probe = GameSession(rules_snapshot=snapshots["daifugo"])
        templates["daifugo"] = daifugo_templates(session_rules(probe), rng, 200)

        deals_total = self.size // SEATS
        sessions_total = max(2, deals_total // DEALS_PER_SESSION)
        today = timezone.localdate()
        start = today - datetime.timedelta(days=365 * YEARS)
        span = (today - datetime.timedelta(days=1) - start).days
        days = sorted(
            start + datetime.timedelta(days=int(span * i / sessions_total))
            for i in range(sessions_total)
        )
        now = connection.ops.adapt_datetimefield_value(timezone.now())
        session_rows, per_day = [], defaultdict(int)
        for day in days:
            game = "napoleon" if rng.random() < NAPOLEON_SHARE else "daifugo"
            per_day[(game, day)] += 1
            table = f"T{per_day[(game, day)]}"
            session_rows.append(GameSession(
                club=club, game=game, date=day, table=table, ruleset=rulesets[game],
                rules_snapshot=snapshots[game], created_by=user))  # fmt: skip
        # A closing night on the last day: every player sits at one of each game's closing
        # tables, so the month the bench reads has one row per player at every size and only
        # the history behind it grows.
        closing_tables = len(ids) // SEATS
        for game in ("napoleon", "daifugo"):
            for t in range(closing_tables):
                session_rows.append(GameSession(
                    club=club, game=game, date=today - datetime.timedelta(days=1),
                    table=f"{CLOSING}{t}", ruleset=rulesets[game],
                    rules_snapshot=snapshots[game], created_by=user))  # fmt: skip
        sessions = GameSession.objects.bulk_create(session_rows, batch_size=2000)

        deal_id = (Deal.objects.order_by("-id").values_list("id", flat=True).first() or 0) + 1
        deal_rows, line_rows = [], []
        standing: dict[tuple, dict] = defaultdict(lambda: defaultdict(int))
        bids: dict[tuple, dict] = defaultdict(lambda: defaultdict(int))
        closing_deals = max(1, min(5, deals_total // (8 * closing_tables)))
        remaining = deals_total - 2 * closing_tables * closing_deals
        regular = len(sessions) - 2 * closing_tables
        for index, session in enumerate(sessions):
            closing = session.table.startswith(CLOSING)
            if closing:
                count = closing_deals
            else:
                count = remaining // (regular - index)
                remaining -= count
            table_players = rng.sample(ids, SEATS + 1)
            keys = periods(session.date)
            day_db = connection.ops.adapt_datefield_value(session.date)
            for seq in range(1, count + 1):
                if closing:
                    first = int(session.table[len(CLOSING) :]) * SEATS
                    seated = ids[first : first + SEATS]
                else:
                    seated = rng.sample(table_players, SEATS)
                template = rng.choice(templates[session.game])
                data, outcome, specs = template.stamp(seated)
                nap = session.game == "napoleon"
                deal_rows.append((
                    deal_id, session.id, club.id, session.game, seq, False, json.dumps(data),
                    json.dumps(outcome), data.get("napoleon") if nap else None,
                    data.get("adjutant") if nap else None, data.get("bid") if nap else None,
                    data.get("trump") or "" if nap else "", 1, None, False, user.id, user.id,
                    now, now,
                ))  # fmt: skip
                for player_id, s in specs:
                    line_rows.append((deal_id, session.id, club.id, session.game, day_db,
                                      *line_tuple(s)))  # fmt: skip
                    for key, value in counters(s).items():
                        for period in keys:
                            standing[(session.game, period, player_id)][key] += value
                    bid = bid_counters(s)
                    if bid is not None:
                        b = bids[(player_id, s.bid, s.trump)]
                        for counter, value in bid.items():
                            b[counter] += value
                deal_id += 1
        insert_rows(Deal, ["id", "session_id", "club_id", "game", "seq", "redeal", "data",
                           "outcome", "napoleon_id", "adjutant_id", "bid", "trump", "version",
                           "client_id", "is_deleted", "created_by_id", "updated_by_id",
                           "created_at", "updated_at"], deal_rows)  # fmt: skip
        insert_rows(ScoreLine, LINE_COLUMNS, line_rows)
        StandingAggregate.objects.bulk_create(
            [StandingAggregate(club=club, game=g, period=p, player_id=pid, **values)
             for (g, p, pid), values in standing.items()], batch_size=2000)  # fmt: skip
        BidAggregate.objects.bulk_create(
            [BidAggregate(club=club, player_id=pid, bid=bid, trump=trump, **values)
             for (pid, bid, trump), values in bids.items()], batch_size=2000)  # fmt: skip
        return len(line_rows)


MEMBER = "bench-member"


def _user(username: str):
    from django.contrib.auth import get_user_model

    user, _created = get_user_model().objects.get_or_create(username=username)
    return user


def _sqlite(path: Path) -> dict:
    return {
        "ENGINE": "django.db.backends.sqlite3", "NAME": str(path), "USER": "", "PASSWORD": "",
        "HOST": "", "PORT": "",
        "OPTIONS": {"timeout": 20, "transaction_mode": "IMMEDIATE",
                    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"},
    }  # fmt: skip


class _SqliteStore:
    """Synthetic clubs in SQLite files: a migrated template copied once per size."""

    def __init__(self, keep: Path | None):
        self.keep = keep is not None
        self.workdir = keep or Path(tempfile.mkdtemp(prefix="efuda-bench-"))
        self.workdir.mkdir(parents=True, exist_ok=True)

    def template(self) -> Path:
        return self.workdir / "template.sqlite3"

    def copy(self, size: int) -> Path:
        path = self.workdir / f"bench-{size}.sqlite3"
        shutil.copyfile(self.template(), path)
        return path

    def settings(self, path: Path) -> dict:
        return _sqlite(path)

    def cleanup(self) -> None:
        if not self.keep:
            shutil.rmtree(self.workdir, ignore_errors=True)


class _PostgresStore:
    """Synthetic clubs in throwaway databases on the configured PostgreSQL server; the
    configured database itself is never touched."""

    def __init__(self, original: dict, keep: bool):
        self.original = original
        self.keep = keep
        self.prefix = f"efuda_bench_{uuid.uuid4().hex[:8]}"
        self.names: list[str] = []

    def _admin(self, sql: str) -> None:
        import psycopg

        o = self.original
        with psycopg.connect(
            dbname="postgres", user=o["USER"], password=o["PASSWORD"], host=o["HOST"] or None,
            port=o["PORT"] or None, autocommit=True,
        ) as conn:  # fmt: skip
            conn.execute(sql)

    def template(self) -> str:
        name = f"{self.prefix}_template"
        self._admin(f'CREATE DATABASE "{name}"')
        self.names.append(name)
        return name

    def copy(self, size: int) -> str:
        name = f"{self.prefix}_{size}"
        self._admin(f'CREATE DATABASE "{name}" TEMPLATE "{self.prefix}_template"')
        self.names.append(name)
        return name

    def settings(self, name: str) -> dict:
        return {**self.original, "NAME": name, "CONN_MAX_AGE": 0, "OPTIONS": {}}

    def cleanup(self) -> None:
        if self.keep:
            return
        import psycopg

        for name in reversed(self.names):
            for attempt in range(10):
                try:
                    self._admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
                    break
                except psycopg.errors.InsufficientPrivilege:
                    # FORCE may not end the server's own processes (an autovacuum worker on
                    # the freshly written database): wait for them, then try again.
                    if attempt == 9:
                        raise
                    time.sleep(3)


class Command(BaseCommand):
    help = "Build synthetic clubs of the given sizes (score lines) and time the main pages."

    def add_arguments(self, parser):
        parser.add_argument(
            "--sizes", default="10000,100000,1000000", help="comma-separated numbers of score lines"
        )
        parser.add_argument("--json", action="store_true", help="one JSON object per line")
        parser.add_argument("--repeat", type=int, default=15, help="timed requests per step")
        parser.add_argument(
            "--pdf-repeat", type=int, default=7, help="timed requests for session_pdf"
        )
        parser.add_argument(
            "--rounds", type=int, default=3, help="measuring rounds, each over every size in turn"
        )
        parser.add_argument(
            "--database",
            choices=("sqlite", "postgresql"),
            default="sqlite",
            help="sqlite: throwaway files; postgresql: throwaway databases on the server "
            "DATABASE_URL names (what production uses)",
        )
        parser.add_argument(
            "--keep",
            metavar="DIR",
            help="keep the synthetic databases in DIR instead of deleting them",
        )
        parser.add_argument(
            "--import-lines",
            type=int,
            default=0,
            metavar="N",
            help="the import step instead of the pages: import an N-line results file in "
            "another process while deals are recorded here, and report lines a second and "
            "how long those deals waited",
        )

    def handle(
        self,
        *args,
        sizes,
        json,
        repeat,
        pdf_repeat,
        rounds,
        keep=None,
        database="sqlite",
        import_lines=0,
        **options,
    ):
        try:
            numbers = [int(s) for s in sizes.split(",") if s.strip()]
        except ValueError:
            raise CommandError("--sizes takes whole numbers separated by commas") from None
        if not numbers or min(numbers) < 50:
            raise CommandError("each size must be at least 50 score lines")
        if import_lines and import_lines < 100:
            raise CommandError("--import-lines must be at least 100")
        original = dict(connections.settings["default"])
        if database == "postgresql":
            if original["ENGINE"] != "django.db.backends.postgresql":
                raise CommandError(
                    "--database postgresql needs DATABASE_URL pointing at a PostgreSQL server "
                    "(the bench creates and drops its own throwaway databases there)"
                )
            store = _PostgresStore(original, keep=bool(keep))
        else:
            store = _SqliteStore(Path(keep) if keep else None)
        try:
            with override_settings(DEBUG=False):
                self._use(store.settings(store.template()))
                call_command("migrate", verbosity=0, interactive=False)
                self._use(None)
                if import_lines:
                    target = store.settings(store.copy(import_lines))
                    self._use(target)
                    row = ImportBench(import_lines, target, database).run(self.stderr)
                    self._use(None)
                    self.stdout.write(
                        json_module.dumps(row)
                        if json
                        else " ".join(f"{k}={v}" for k, v in row.items())
                    )
                    return
                prepared = []
                for size in numbers:
                    target = store.settings(store.copy(size))
                    self._use(target)
                    prepared.append((size, target, self._build(size)))
                    self._use(None)
                self._measure_all(
                    prepared, json_lines=json, repeat=repeat, pdf_repeat=pdf_repeat, rounds=rounds
                )
        finally:
            self._restore(original)
            store.cleanup()

    # --- database switching -------------------------------------------------------------
    def _use(self, target: dict | None) -> None:
        """Point the default connection at ``target`` settings (None: just close it)."""
        connections["default"].close()
        if target is None:
            return
        settings_dict = connections.settings["default"]
        settings_dict.update(target)
        del connections["default"]

    def _restore(self, original: dict) -> None:
        connections["default"].close()
        settings_dict = connections.settings["default"]
        settings_dict.clear()
        settings_dict.update(original)
        del connections["default"]

    # --- building and measuring --------------------------------------------------------
    def _build(self, size: int) -> dict:
        started = time.perf_counter()
        with transaction.atomic():
            club, user, lines = Builder(size).build()
        with connection.cursor() as cursor:
            if connection.vendor == "postgresql":  # rows were inserted with their ids
                from django.apps import apps
                from django.core.management.color import no_style

                models = apps.get_app_config("tournaments").get_models()
                for sql in connection.ops.sequence_reset_sql(no_style(), list(models)):
                    cursor.execute(sql)
            cursor.execute("ANALYZE")
        self.stderr.write(
            f"size {size}: built {lines} score lines in {time.perf_counter() - started:.1f} s"
        )
        for game in ("napoleon", "daifugo"):  # the ratings a club this size has stored
            started = time.perf_counter()
            with transaction.atomic():
                ratings_replay(club_id=club.pk, game=game)
            self.stderr.write(
                f"size {size}: ratings replay ({game}) {time.perf_counter() - started:.1f} s"
            )
        return {"username": user.get_username(), **self._urls(club)}

    def _measure_all(
        self, prepared, *, json_lines: bool, repeat: int, pdf_repeat: int, rounds: int
    ) -> None:
        """Each round measures one step on every size in turn before the next step, so a busy
        moment on a shared machine falls on all sizes alike and the ratios stay fair."""
        timings: dict[tuple, list[float]] = defaultdict(list)
        queries: dict[tuple, int] = {}
        clients = {}
        anonymous = {size: Client() for size, _target, _urls in prepared}
        members = {}
        for size, target, urls in prepared:
            self._use(target)
            clients[size] = Client()
            clients[size].force_login(_user(urls["username"]))
            members[size] = Client()
            members[size].force_login(_user(MEMBER))
            self._use(None)
        for _round in range(rounds):
            for step in STEPS:
                runs = pdf_repeat if step == "session_pdf" else repeat
                for size, target, urls in prepared:
                    self._use(target)
                    client = (
                        anonymous[size] if step in ANONYMOUS_STEPS
                        else members[size] if step in MEMBER_STEPS
                        else clients[size]
                    )  # fmt: skip
                    # The other steps measure a render (what the first read after a write
                    # costs), not the kept parts: the cache is off for them.
                    kept = step in ANONYMOUS_STEPS or step in MEMBER_STEPS
                    with override_settings(**({} if kept else {"EFUDA_PAGE_CACHE_SECONDS": 0})):
                        times, count = self._measure(client, step, urls, runs)
                    timings[(size, step)] += times
                    queries[(size, step)] = count
                    self._use(None)
        for size, _target, _urls in prepared:
            for step in STEPS:
                median = statistics.median(timings[(size, step)])
                row = {
                    "size": size,
                    "step": step,
                    "median_ms": round(median, 2),
                    "queries": queries[(size, step)],
                }
                if json_lines:
                    self.stdout.write(json.dumps(row))
                else:
                    self.stdout.write(
                        f"{size:>9} {step:<16} {median:9.2f} ms {row['queries']:4d} queries"
                    )

    def _urls(self, club) -> dict:
        month = timezone.localdate() - datetime.timedelta(days=1)  # the closing night
        last = (
            GameSession.objects.filter(club=club, game="napoleon")
            .exclude(table__startswith=CLOSING)
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
        today = session_create(
            club=club, ruleset=last.ruleset, date=timezone.localdate(), table="bench"
        )
        return {
            "record_url": reverse("deal_new", kwargs={"club_slug": club.slug, "pk": today.pk}),
            "seats": seats,
            "session_page": reverse(
                "session_detail", kwargs={"club_slug": club.slug, "pk": last.pk}
            ),
            "standings_month": reverse(
                "standings_month", args=[club.slug, "napoleon", month.year, f"{month.month:02d}"]
            ),
            "standings_all": reverse("standings_all", args=[club.slug, "napoleon"]),
            "player_page": reverse("player_detail", args=[club.slug, busiest]),
            "session_pdf": reverse("session_sheet_pdf", args=[club.slug, last.pk]),
            "ratings_page": reverse("ratings", args=[club.slug, "napoleon"]),
        }

    def _record_post(self, urls: dict, i: int) -> dict:
        seats = urls["seats"]
        return {
            "seats": [str(s) for s in seats], "napoleon": str(seats[i % 5]), "bid": "13",
            "trump": "S", "called_suit": "H", "called_rank": "A",
            "adjutant": str(seats[(i + 1) % 5]), "honours": str(10 + i % 8), "discarded": "0",
            "action": "save", "client_id": str(uuid.uuid4()),
        }  # fmt: skip

    def _measure(self, client: Client, step: str, urls: dict, runs: int):
        timings, queries = [], 0
        for i in range(runs + 1):  # one warm-up request
            with CaptureQueriesContext(connection) as ctx:
                start = time.perf_counter()
                if step == "record_deal":
                    response = client.post(urls["record_url"], self._record_post(urls, i))
                    ok = response.status_code == 302
                else:
                    page = ANONYMOUS_STEPS.get(step) or MEMBER_STEPS.get(step) or step
                    response = client.get(urls[page])
                    ok = response.status_code == 200
                elapsed = (time.perf_counter() - start) * 1000
            if not ok:
                raise CommandError(f"{step}: HTTP {response.status_code}")
            if i >= 1:
                timings.append(elapsed)
                queries = len(ctx.captured_queries)
        return timings, queries


# --- the import step ---------------------------------------------------------------------------

IMPORT_PLAYERS = 60
IMPORT_DEALS_PER_SESSION = 20


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


def _database_url(settings_dict: dict) -> str:
    if settings_dict["ENGINE"] == "django.db.backends.sqlite3":
        return f"sqlite:///{settings_dict['NAME']}"
    from urllib.parse import quote

    auth = quote(settings_dict["USER"])
    if settings_dict.get("PASSWORD"):
        auth += ":" + quote(settings_dict["PASSWORD"])
    host = settings_dict.get("HOST") or "127.0.0.1"
    port = settings_dict.get("PORT") or 5432
    return f"postgres://{auth}@{host}:{port}/{settings_dict['NAME']}"


class ImportBench:
    """``import_results`` of an N-line file in a process of its own (as a worker or another
    gunicorn process would run it) while this process records a deal every half second through
    ``deal_record``, as a scorekeeper at a table would; each deal's wait is timed."""

    def __init__(self, lines: int, target: dict, database: str):
        self.lines = lines
        self.target = target
        self.database = database

    def run(self, log) -> dict:
        club = club_create(slug="bench-import", name="取り込み倶楽部")
        user = _user("bench-import-scorekeeper")
        membership_set(club=club, user=user, role="scorekeeper")
        players = [player_get_or_create(club=club, name=f"卓{i}").id for i in range(5)]
        session = session_start(club=club, rules_code="napoleon-wiki",
                                date=timezone.localdate(), table="今夜", user=user)  # fmt: skip
        data = import_csv(self.lines)
        with tempfile.NamedTemporaryFile(suffix=".csv", delete=False) as fh:
            fh.write(data)
            path = fh.name
        connection.close()  # the import's process opens its own
        env = {**os.environ, "DATABASE_URL": _database_url(self.target)}
        waits: list[float] = []
        try:
            started = time.perf_counter()
            proc = subprocess.Popen(
                [sys.executable, "manage.py", "import_results", path, "--club", "bench-import"],
                cwd=Path(__file__).resolve().parents[3], env=env,
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            )  # fmt: skip
            i = refused = busy = 0
            load_before = os.getloadavg()
            while proc.poll() is None:
                seats = [str(p) for p in players]
                deal = {"seats": seats, "napoleon": seats[i % 5], "bid": 13, "trump": "S",
                        "called": "SA", "adjutant": seats[(i + 1) % 5], "honours": 10 + i % 8,
                        "discarded": 0, "last_trick": None, "redeal": False}  # fmt: skip
                t0 = time.perf_counter()
                try:
                    with bounded_wait():  # as every web request runs (middleware)
                        deal_record(session=session, data=deal, user=user)
                except DatabaseBusy:  # SQLite: the import holds the writer; sent again later
                    busy += 1
                except OperationalError:  # SQLite's busy timeout ran out: "database is locked"
                    refused += 1
                waits.append(time.perf_counter() - t0)
                i += 1
                time.sleep(0.5)
            out, err = proc.communicate()
            elapsed = time.perf_counter() - started
            load_after = os.getloadavg()
            child = resource.getrusage(resource.RUSAGE_CHILDREN)  # the import's process
            cpu = child.ru_utime + child.ru_stime
        finally:
            os.unlink(path)
        if proc.returncode != 0:
            raise CommandError(f"import_results failed: {err or out}")
        imported = Deal.objects.filter(club=club).exclude(session=session).count()
        if imported != self.lines:
            raise CommandError(f"imported {imported} deals, expected {self.lines}")
        log.write(f"import of {self.lines} lines: {elapsed:.1f} s ({cpu:.1f} s CPU); {len(waits)} "
                  f"deals meanwhile, longest wait {max(waits):.2f} s")  # fmt: skip
        return {
            "step": "import", "database": self.database, "lines": self.lines,
            "bytes": len(data), "seconds": round(elapsed, 1),
            "lines_per_s": round(self.lines / elapsed),
            "deals_meanwhile": len(waits),
            "deal_wait_median_ms": round(statistics.median(waits) * 1000, 1),
            "deal_wait_max_ms": round(max(waits) * 1000, 1),
            "deals_refused_locked": refused,
            "deals_busy_resend": busy,
            "import_cpu_s": round(cpu, 1),
            "load_average": [round(load_before[0], 2), round(load_after[0], 2)],
        }  # fmt: skip
