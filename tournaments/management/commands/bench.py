"""``manage.py bench --sizes 10000,100000,1000000 --json``: how page costs grow with history.

For each size the command builds a synthetic club with that many score lines in a throwaway
SQLite file (several years, 45 players, Napoleon and Daifugō), then times the pages through
Django's test client and prints one JSON object per line::

    {"size": N, "step": S, "median_ms": x, "queries": q}

Synthetic deals are scored by the real scoring core: a pool of template deals is scored once
with placeholder player ids and stamped onto real players, so the stored outcomes, score lines
and aggregates are what the services would have written, at bulk-insert speed. The database
configured in settings is never touched. The parts are in ``tournaments/benchmarks/``.
"""

from __future__ import annotations

import json as json_module
from pathlib import Path

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import connections
from django.test.utils import override_settings

from tournaments.benchmarks.imports import ImportBench
from tournaments.benchmarks.pages import club_build, club_reuse, pages_measure
from tournaments.benchmarks.stores import PostgresStore, SqliteStore, restore, use


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
            "--reuse",
            action="store_true",
            help="with --keep: use a size's database kept in DIR by an earlier run instead of "
            "building it again (migrated first; it holds the deals that run recorded too)",
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
        reuse=False,
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
        if reuse and (not keep or database != "sqlite"):
            raise CommandError("--reuse needs --keep DIR (and SQLite)")
        if import_lines and import_lines < 100:
            raise CommandError("--import-lines must be at least 100")
        original = dict(connections.settings["default"])
        store = self._store(database, original, keep)
        try:
            with override_settings(DEBUG=False):
                use(store.settings(store.template()))
                call_command("migrate", verbosity=0, interactive=False)
                use(None)
                if import_lines:
                    return self._import(store, import_lines, database, json_lines=json)
                prepared = [self._prepare(store, size, reuse) for size in numbers]
                pages_measure(prepared, self.stdout, json_lines=json, repeat=repeat,
                              pdf_repeat=pdf_repeat, rounds=rounds)  # fmt: skip
        finally:
            restore(original)
            store.cleanup()

    def _prepare(self, store, size: int, reuse: bool):
        """(size, its database's settings, the club's addresses): built, or kept and reused."""
        kept = store.kept(size) if reuse else None
        target = store.settings(kept or store.copy(size))
        use(target)
        if kept:
            call_command("migrate", verbosity=0, interactive=False)
            urls = club_reuse(size, self.stderr)
        else:
            urls = club_build(size, self.stderr)
        use(None)
        return size, target, urls

    def _store(self, database: str, original: dict, keep):
        if database != "postgresql":
            return SqliteStore(Path(keep) if keep else None)
        if original["ENGINE"] != "django.db.backends.postgresql":
            raise CommandError(
                "--database postgresql needs DATABASE_URL pointing at a PostgreSQL server "
                "(the bench creates and drops its own throwaway databases there)"
            )
        return PostgresStore(original, keep=bool(keep))

    def _import(self, store, lines: int, database: str, *, json_lines: bool) -> None:
        target = store.settings(store.copy(lines))
        use(target)
        row = ImportBench(lines, target, database).run(self.stderr)
        use(None)
        self.stdout.write(
            json_module.dumps(row) if json_lines else " ".join(f"{k}={v}" for k, v in row.items())
        )
