"""Full backups of efuda's data and their restore into an empty database.

Format (version 1): a gzip-compressed JSON-lines file. Line 1 is the manifest::

    {"format": "efuda-backup", "version": 1, "created": ISO time, "database": vendor,
     "migrations": {app: [applied migration names]}, "counts": {"app.model": rows}}

Every further line is one object as Django's ``python`` serializer writes it (``model``, ``pk``,
``fields``), foreign keys to content types and permissions by natural key, everything else by
primary key, so restored rows keep their ids (links, bookmarks and history stay valid).

What is in it: users and groups, their e-mail addresses and LINE links, the admin log, and every
model of the project's own apps —
clubs, memberships, players, rule sets, sessions, deals, score lines, aggregates, tournaments —
including the django-simple-history tables. Not in it: sessions (people log in again), login
attempts (django-axes), content types and permissions (``migrate`` creates them).

The backup is read in one transaction (a consistent snapshot on PostgreSQL); the restore writes in
one transaction: it succeeds completely or changes nothing.
"""

from __future__ import annotations

import gzip
import io
import json
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO

from django.apps import apps
from django.conf import settings
from django.core import serializers
from django.core.exceptions import ValidationError
from django.core.management.color import no_style
from django.core.serializers.json import DjangoJSONEncoder
from django.db import DEFAULT_DB_ALIAS, DataError, IntegrityError, connections, transaction
from django.db.migrations.recorder import MigrationRecorder
from django.utils import timezone
from django.utils.translation import gettext as _

from ..models import Club
from .cache import club_version_bump
from .ratings import ratings_history_prune

FORMAT = "efuda-backup"
VERSION = 1
CHUNK = 1000

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


class BackupError(Exception):
    """A backup file that cannot be restored here; the message says why (shown as is)."""


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
    chosen = [m for m in chosen if m._meta.managed and not m._meta.proxy]
    by_app: dict = {}
    for model in chosen:
        by_app.setdefault(model._meta.app_config, []).append(model)
    return serializers.sort_dependencies(list(by_app.items()), allow_cycles=True)


def _label(model) -> str:
    return model._meta.label_lower


def _applied_migrations(using: str) -> dict[str, list[str]]:
    applied: dict[str, list[str]] = {}
    for app, name in MigrationRecorder(connections[using]).applied_migrations():
        applied.setdefault(app, []).append(name)
    return {app: sorted(names) for app, names in sorted(applied.items())}


def _rows(model, using: str) -> Iterator[dict]:
    queryset = model._default_manager.using(using).order_by("pk")
    batch: list = []
    for obj in queryset.iterator(chunk_size=CHUNK):
        batch.append(obj)
        if len(batch) >= CHUNK:
            yield from serializers.serialize("python", batch, use_natural_foreign_keys=True)
            batch = []
    if batch:
        yield from serializers.serialize("python", batch, use_natural_foreign_keys=True)


def _line(obj: dict) -> bytes:
    return (json.dumps(obj, cls=DjangoJSONEncoder, ensure_ascii=False) + "\n").encode("utf-8")


def backup_write(*, out: IO[bytes], using: str = DEFAULT_DB_ALIAS) -> dict:
    """Write a full backup (gzip JSON lines) to the binary stream ``out``; return the manifest."""
    models = backup_models()
    connection = connections[using]
    with transaction.atomic(using=using):
        if connection.vendor == "postgresql":
            # Must be the transaction's first statement: every later read sees one snapshot.
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        counts = {_label(m): m._default_manager.using(using).count() for m in models}
        manifest = {
            "format": FORMAT,
            "version": VERSION,
            "created": timezone.now().isoformat(),
            "database": connection.vendor,
            "migrations": _applied_migrations(using),
            "counts": counts,
        }
        with gzip.GzipFile(fileobj=out, mode="wb", mtime=0) as gz:
            gz.write(_line(manifest))
            for model in models:
                for obj in _rows(model, using):
                    gz.write(_line(obj))
    return manifest


def _open_lines(src: IO[bytes]) -> Iterator[dict]:
    try:
        with gzip.GzipFile(fileobj=src, mode="rb") as gz:
            for number, raw in enumerate(io.TextIOWrapper(gz, encoding="utf-8"), start=1):
                if not raw.strip():
                    continue
                try:
                    yield json.loads(raw)
                except json.JSONDecodeError as exc:
                    raise BackupError(
                        _("Line %(line)s of the backup is not valid JSON: %(error)s")
                        % {"line": number, "error": exc}
                    ) from None
    except (OSError, EOFError) as exc:  # not gzip, truncated
        raise BackupError(
            _("The file is not a readable efuda backup (%(error)s).") % {"error": exc}
        ) from None


def _check_manifest(manifest: object, using: str) -> dict:
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise BackupError(_("The file is not an efuda backup (no manifest on its first line)."))
    if manifest.get("version") != VERSION:
        raise BackupError(
            _("Backup format version %(found)s is not supported (this efuda reads %(ours)s).")
            % {"found": manifest.get("version"), "ours": VERSION}
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
    """Row counts of the backed-up models that already hold data ({} if the database is empty)."""
    counts = {}
    for model in backup_models():
        n = model._default_manager.using(using).count()
        if n:
            counts[_label(model)] = n
    return counts


def _objects(lines: Iterable[dict], counts: dict[str, int]) -> Iterator[dict]:
    for obj in lines:
        if not isinstance(obj, dict) or "model" not in obj:
            raise BackupError(_("The backup contains a line that is not a stored object."))
        label = str(obj["model"]).lower()
        counts[label] = counts.get(label, 0) + 1
        yield obj


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
        manifest = _check_manifest(next(lines), using)
    except StopIteration:
        raise BackupError(_("The backup file is empty.")) from None
    wanted = {_label(m) for m in backup_models()}
    loaded: dict[str, int] = {}
    touched = set()
    connection = connections[using]
    try:
        with transaction.atomic(using=using):
            with connection.constraint_checks_disabled():
                for item in serializers.deserialize(
                    "python",
                    _objects(lines, loaded),
                    using=using,
                    handle_forward_references=True,
                ):
                    label = _label(item.object)
                    if label not in wanted:
                        raise BackupError(
                            _("The backup holds %(model)s rows, which are not part of a backup.")
                            % {"model": label}
                        )
                    try:
                        item.save(using=using)
                    except (IntegrityError, DataError, ValueError, TypeError, OverflowError,
                            ValidationError) as exc:  # fmt: skip
                        raise _damaged(exc, type(item.object)._meta.db_table) from None
                    touched.add(type(item.object))
            # Foreign keys were not checked row by row; check them all now.
            try:
                connection.check_constraints(table_names=[m._meta.db_table for m in touched])
            except IntegrityError as exc:
                raise _damaged(exc, None) from None
            expected = {k: v for k, v in (manifest.get("counts") or {}).items() if v}
            if loaded != expected:
                raise BackupError(
                    _(
                        "The backup is incomplete: rows in its manifest: %(expected)s; rows in "
                        "the file: %(loaded)s."
                    )
                    % {"expected": sum(expected.values()), "loaded": sum(loaded.values())}
                )
            _reset_sequences(connection, list(touched))
            # A backup may hold a ratings replay's history rows not yet switched to, or an
            # old generation not yet deleted: only each club's current generation is kept.
            ratings_history_prune(using=using)
            # Keys the database does not check (score lines, rating history), after the prune:
            # an unfinished replay's rows may name a player merged away meanwhile.
            _check_soft_keys(connection, touched)
            # Rows were saved raw, as loaddata does, by no service: every club's data version
            # moves once, at the end (a page cached under the number a club had when the
            # backup was made is not served again).
            for club_id in Club.objects.using(using).values_list("pk", flat=True):
                club_version_bump(club_id=club_id, using=using)
    except serializers.base.DeserializationError as exc:
        raise BackupError(_("The backup could not be read: %(error)s") % {"error": exc}) from None
    except IntegrityError as exc:  # a deferred constraint checked at commit (PostgreSQL)
        raise _damaged(exc, None) from None
    return manifest


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
                    raise _damaged(IntegrityError(detail), table)


def _damaged(exc: Exception, table: str | None) -> BackupError:
    """A damaged backup is refused naming the table, never with a raw database error."""
    diag = getattr(getattr(exc, "__cause__", None), "diag", None)
    table = table or getattr(diag, "table_name", None)
    if table is None:
        found = re.search(r"table '([^']+)'", str(exc))
        table = found.group(1) if found else "?"
    detail = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return BackupError(
        _(
            "The backup is damaged: a row for table %(table)s cannot be restored (%(detail)s). "
            "Nothing was restored."
        )
        % {"table": table, "detail": detail}
    )


def _reset_sequences(connection, models: list) -> None:
    """After inserting explicit ids, move PostgreSQL's id sequences past them (no-op on SQLite)."""
    statements = connection.ops.sequence_reset_sql(no_style(), models)
    if statements:
        with connection.cursor() as cursor:
            for sql in statements:
                cursor.execute(sql)
