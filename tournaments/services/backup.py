"""Full backups of efuda's data and their restore into an empty database.

Format (version 2): a gzip-compressed JSON-lines file. Line 1 is the manifest::

    {"format": "efuda-backup", "version": 2, "created": ISO time, "database": vendor,
     "migrations": {app: [applied migration names]}, "counts": {"app.model": rows}}

Then every table in turn: a line naming the table and its columns, and one JSON array per row
(``backup_tables``: how values are written, and why it is fast). Rows keep their primary keys,
so restored rows keep their ids (links, bookmarks and history stay valid); content types and
permissions are named by natural key. Version 1 (one serialized object per line) is still
read (``backup_v1``).

What is in it: users and groups, their e-mail addresses and LINE links, the admin log, and every
model of the project's own apps —
clubs, memberships, players, rule sets, sessions, deals, score lines, aggregates, tournaments —
including the django-simple-history tables, and the many-to-many tables between them (a user's
groups and permissions, a tournament's staff). Not in it: sessions (people log in again), login
attempts (django-axes), content types and permissions (``migrate`` creates them).

The backup is read in one transaction (a consistent snapshot on PostgreSQL), a chunk of rows at
a time (memory stays flat whatever the size); the restore writes in one transaction, a chunk at
a time: it succeeds completely or changes nothing.
"""

from __future__ import annotations

import binascii
import gzip
import json
import zlib
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO

from django.apps import apps
from django.conf import settings
from django.core import serializers
from django.core.management.color import no_style
from django.db import DEFAULT_DB_ALIAS, DataError, IntegrityError, connections, transaction
from django.db.migrations.recorder import MigrationRecorder
from django.utils import timezone
from django.utils.translation import gettext as _

from ..models import Club
from . import backup_v1
from .backup_errors import BackupError, damaged
from .backup_tables import ColumnsError, TableWriter, model_for, table_lines, through_models
from .cache import club_hiding_refresh, club_version_bump
from .ratings import ratings_history_prune

__all__ = ["BackupError", "backup_models", "backup_restore", "backup_write", "database_is_empty"]

FORMAT = "efuda-backup"
VERSION = 2
READABLE = (1, 2)
# gzip level 3: a quarter larger than the default 6 (8.0 against 6.4 MB for a 20,000-deal
# club) for a third of its time (0.4 against 1.1 s of the backup's 3 s of CPU).
COMPRESSION = 3

# Framework models that hold club data; everything else outside the project is either created
# by ``migrate`` (content types, permissions) or transient (sessions, login attempts).
_FRAMEWORK_MODELS = (
    "auth.Group",
    "auth.User",
    "admin.LogEntry",
    # allauth: verified addresses (password reset, login by e-mail) and LINE links.
    "account.EmailAddress",
    "socialaccount.SocialAccount",
)


# The task worker's sign of life (/healthz): a restored database has seen no worker. Webhook
# deliveries: what was posted, or waited to be, before the backup (a restore sends nothing).
_NOT_BACKED_UP = frozenset({"tournaments.workerbeat", "tournaments.webhookdelivery"})


def _project_app_configs():
    base = Path(settings.BASE_DIR).resolve()
    for config in apps.get_app_configs():
        path = Path(config.path).resolve()
        if base in path.parents and ".venv" not in path.parts:
            yield config


def backup_models() -> list:
    """The models a backup holds, in an order where every row comes after what it points to."""
    chosen = [apps.get_model(label) for label in _FRAMEWORK_MODELS]
    for config in _project_app_configs():
        chosen.extend(config.get_models())
    chosen = [
        m
        for m in chosen
        if m._meta.managed and not m._meta.proxy and _label(m) not in _NOT_BACKED_UP
    ]
    by_app: dict = {}
    for model in chosen:
        by_app.setdefault(model._meta.app_config, []).append(model)
    return serializers.sort_dependencies(list(by_app.items()), allow_cycles=True)


def backup_tables() -> list:
    """The tables of a version-2 backup: every model of ``backup_models`` and, right after
    it, the automatic tables of its many-to-many fields."""
    return [t for model in backup_models() for t in (model, *through_models(model))]


def _label(model) -> str:
    return model._meta.label_lower


def _applied_migrations(using: str) -> dict[str, list[str]]:
    applied: dict[str, list[str]] = {}
    for app, name in MigrationRecorder(connections[using]).applied_migrations():
        applied.setdefault(app, []).append(name)
    return {app: sorted(names) for app, names in sorted(applied.items())}


def backup_write(*, out: IO[bytes], using: str = DEFAULT_DB_ALIAS) -> dict:
    """Write a full backup (gzip JSON lines) to the binary stream ``out``; return the manifest."""
    tables = backup_tables()
    connection = connections[using]
    with transaction.atomic(using=using):
        if connection.vendor == "postgresql":
            # Must be the transaction's first statement: every later read sees one snapshot.
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        counts = {_label(m): m._default_manager.using(using).count() for m in tables}
        manifest = {
            "format": FORMAT,
            "version": VERSION,
            "created": timezone.now().isoformat(),
            "database": connection.vendor,
            "migrations": _applied_migrations(using),
            "counts": counts,
        }
        with gzip.GzipFile(fileobj=out, mode="wb", mtime=0, compresslevel=COMPRESSION) as gz:
            gz.write((json.dumps(manifest, ensure_ascii=False) + "\n").encode("utf-8"))
            for model in tables:
                for chunk in table_lines(model, using):
                    gz.write(chunk)
    return manifest


def _open_lines(src: IO[bytes]) -> Iterator[tuple[int, object]]:
    """(line number, decoded line) of every line that is not blank."""
    try:
        with gzip.GzipFile(fileobj=src, mode="rb") as gz:
            batch: list[tuple[int, bytes]] = []
            for number, raw in enumerate(gz, start=1):
                if raw.strip():
                    batch.append((number, raw))
                if len(batch) >= _BATCH:
                    yield from _decoded(batch)
                    batch = []
            yield from _decoded(batch)
    except (OSError, EOFError, zlib.error) as exc:  # not gzip, truncated
        raise BackupError(
            _("The file is not a readable efuda backup (%(error)s).") % {"error": exc}
        ) from None


_BATCH = 1000  # lines decoded at once: one call of the JSON reader instead of a thousand


def _decoded(batch: list[tuple[int, bytes]]) -> Iterator[tuple[int, object]]:
    try:
        items = json.loads(b"[" + b",".join(raw for _n, raw in batch) + b"]")
    except ValueError:
        items = None  # which line: read them one by one
    if items is None or len(items) != len(batch):  # a line holding two values, say
        items = []
        for number, raw in batch:
            try:
                items.append(json.loads(raw))
            except ValueError as exc:  # not JSON, or not UTF-8
                raise BackupError(
                    _("Line %(line)s of the backup is not valid JSON: %(error)s")
                    % {"line": number, "error": exc}
                ) from None
    return zip((n for n, _raw in batch), items, strict=True)


def _check_manifest(manifest: object, using: str) -> dict:
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise BackupError(_("The file is not an efuda backup (no manifest on its first line)."))
    if manifest.get("version") not in READABLE:
        raise BackupError(
            _("Backup format version %(found)s is not supported (this efuda reads %(ours)s).")
            % {"found": manifest.get("version"), "ours": ", ".join(map(str, READABLE))}
        )
    here = _applied_migrations(using)
    missing = [
        f"{app}.{name}"
        for app, names in (manifest.get("migrations") or {}).items()
        for name in names
        if name not in here.get(app, [])
    ]
    if missing:
        raise BackupError(
            _(
                "The backup was made by a newer database schema; run “manage.py migrate” with "
                "the matching efuda version first. Missing here: %(missing)s"
            )
            % {"missing": ", ".join(missing[:10])}
        )
    return manifest


def database_is_empty(*, using: str = DEFAULT_DB_ALIAS) -> dict[str, int]:
    """Row counts of the backed-up tables that already hold data ({} if the database is empty)."""
    counts = {}
    for model in backup_tables():
        n = model._default_manager.using(using).count()
        if n:
            counts[_label(model)] = n
    return counts


def backup_restore(*, src: IO[bytes], using: str = DEFAULT_DB_ALIAS) -> dict:
    """Restore a backup into an empty, migrated database, all or nothing; return the manifest.

    Raises ``BackupError`` (nothing written) if the database already holds data, the file is not
    a backup, or what was loaded does not match the manifest's counts.
    """
    occupied = database_is_empty(using=using)
    if occupied:
        listing = ", ".join(f"{label} ({n})" for label, n in sorted(occupied.items()))
        raise BackupError(
            _(
                "The database is not empty (%(tables)s). Restore only into a new database: create "
                "it, run “manage.py migrate”, then restore, before creating any user."
            )
            % {"tables": listing}
        )
    lines = _open_lines(src)
    try:
        manifest = _check_manifest(next(lines)[1], using)
    except StopIteration:
        raise BackupError(_("The backup file is empty.")) from None
    connection = connections[using]
    loaded: dict[str, int] = {}
    try:
        with transaction.atomic(using=using):
            with connection.constraint_checks_disabled():
                if manifest["version"] == 1:
                    wanted = {_label(m) for m in backup_models()}
                    touched = backup_v1.restore_objects(
                        lines, using=using, wanted=wanted, loaded=loaded
                    )
                else:
                    touched = _restore_tables(lines, using=using, loaded=loaded)
            _check_loaded(connection, manifest, loaded, touched)
            _reset_sequences(connection, list(touched))
            # A backup may hold a ratings replay's history rows not yet switched to, or an
            # old generation not yet deleted: only each club's current generation is kept.
            ratings_history_prune(using=using)
            # Keys the database does not check (score lines, rating history), after the prune:
            # an unfinished replay's rows may name a player merged away meanwhile.
            _check_soft_keys(connection, touched)
            # Rows were written raw, by no service: every club's data version moves once, at
            # the end, so no page kept under the version it was saved at is served again.
            # The hiding flags are rewritten from the tournaments restored (a backup written
            # before they existed has none).
            for club_id in Club.objects.using(using).values_list("pk", flat=True):
                club_version_bump(club_id=club_id, using=using)
                club_hiding_refresh(club_id=club_id, using=using)
    except IntegrityError as exc:  # a deferred constraint checked at commit (PostgreSQL)
        raise damaged(exc, None) from None
    return manifest


def _check_loaded(connection, manifest: dict, loaded: dict, touched: set) -> None:
    """Every key names a row, and the file held the rows its manifest counts."""
    # Foreign keys were not checked row by row; check them all now.
    try:
        connection.check_constraints(table_names=[m._meta.db_table for m in touched])
    except IntegrityError as exc:
        raise damaged(exc, None) from None
    expected = {k: v for k, v in (manifest.get("counts") or {}).items() if v}
    if {k: v for k, v in loaded.items() if v} != expected:
        raise BackupError(
            _(
                "The backup is incomplete: rows in its manifest: %(expected)s; rows in "
                "the file: %(loaded)s."
            )
            % {"expected": sum(expected.values()), "loaded": sum(loaded.values())}
        )


# What a row the database or the column's type refuses raises (SQLite: OverflowError for a
# number past 64 bits; a bad date: ValueError; base64: binascii.Error, a ValueError).
_ROW_REFUSED = (IntegrityError, DataError, ColumnsError, ValueError, TypeError, OverflowError,
                KeyError, binascii.Error)  # fmt: skip


def _restore_tables(lines: Iterable, *, using: str, loaded: dict[str, int]) -> set:
    """Write the tables of a version-2 file, a chunk of rows at a time; count the rows of each
    in ``loaded``; return the models written."""
    wanted = {_label(m) for m in backup_tables()}
    writer: TableWriter | None = None
    touched: set = set()
    for _number, item in lines:
        if isinstance(item, list) and writer is not None:
            try:
                writer.add(item)
            except _ROW_REFUSED as exc:
                raise damaged(exc, writer.model._meta.db_table) from None
            continue
        if not (isinstance(item, dict) and isinstance(item.get("columns"), list)):
            raise BackupError(_("The backup contains a line that is not a stored object."))
        _finish(writer, loaded)
        label = str(item.get("model")).lower()
        if label not in wanted:
            raise BackupError(
                _("The backup holds %(model)s rows, which are not part of a backup.")
                % {"model": label}
            )
        model = model_for(label)
        if label in loaded:
            raise damaged(ColumnsError("the table comes twice"), model._meta.db_table)
        try:
            writer = TableWriter(model, item["columns"], using)
        except (ColumnsError, TypeError) as exc:
            raise damaged(exc, model._meta.db_table) from None
        touched.add(model)
    _finish(writer, loaded)
    return touched


def _finish(writer: TableWriter | None, loaded: dict[str, int]) -> None:
    if writer is None:
        return
    try:
        writer.flush()
    except _ROW_REFUSED as exc:
        raise damaged(exc, writer.model._meta.db_table) from None
    loaded[_label(writer.model)] = writer.count


def _soft_keys(model) -> list:
    """The foreign keys of ``model`` that the database does not check (``db_constraint=False``:
    score lines, see ``models.play.ScoreLine``). History tables are left out: their rows keep
    the ids of deleted rows on purpose."""
    if getattr(model, "instance_type", None) is not None:  # django-simple-history
        return []
    return [
        f
        for f in model._meta.concrete_fields
        if f.is_relation and f.many_to_one and not f.db_constraint
    ]


def _check_soft_keys(connection, models: Iterable) -> None:
    """What ``check_constraints`` does for keys without a constraint: each must name a row."""
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        for model in sorted(models, key=lambda m: m._meta.db_table):
            table = model._meta.db_table
            for f in _soft_keys(model):
                parent = f.related_model._meta
                target = f.target_field.column
                cursor.execute(
                    f"SELECT c.{quote(model._meta.pk.column)}, c.{quote(f.column)} "  # noqa: S608
                    f"FROM {quote(table)} c WHERE c.{quote(f.column)} IS NOT NULL AND NOT EXISTS "
                    f"(SELECT 1 FROM {quote(parent.db_table)} p "
                    f"WHERE p.{quote(target)} = c.{quote(f.column)}) LIMIT 1"
                )
                row = cursor.fetchone()
                if row is not None:
                    detail = f"row {row[0]}: {f.column} {row[1]} is not in {parent.db_table}"
                    raise damaged(IntegrityError(detail), table)


def _reset_sequences(connection, models: list) -> None:
    """After inserting explicit ids, move PostgreSQL's id sequences past them (no-op on SQLite)."""
    statements = connection.ops.sequence_reset_sql(no_style(), models)
    if statements:
        with connection.cursor() as cursor:
            for sql in statements:
                cursor.execute(sql)
