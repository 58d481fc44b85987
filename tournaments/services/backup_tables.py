"""The tables of a version-2 backup, written and read at the speed of the data.

Each table is one header line ``{"model": "app.model", "columns": [...]}`` (the field names as
stored: ``session_id`` for a foreign key) and then one JSON array per row, values in the order
of the columns. Rows are read with ``values_list`` in primary-key order, in chunks (a
server-side cursor on PostgreSQL: memory stays constant whatever the size), and written back
with ``COPY`` on PostgreSQL and ``executemany`` on SQLite, a chunk at a time, so both ways run
at tens of thousands of rows a second instead of the few hundred that Django's serializers
manage object by object.

Values: JSON's own types as they are, a JSON column's value as its JSON text (a string: it is
neither decoded nor encoded on the way, and the database checks it), a date, time or moment as
ISO 8601 (moments with their offset and microseconds), decimals and UUIDs as text,
binary data as base64. Foreign keys to content types and permissions, whose ids differ between
two databases that ran ``migrate``, are written as their natural keys (``["auth", "user"]``,
``["view_deal", "tournaments", "deal"]``), mapped once per table each way; every other key is the
row's id, kept on restore.
"""

from __future__ import annotations

import base64
import datetime
import decimal
import json
import uuid
from collections.abc import Callable, Iterator, Sequence

from django.apps import apps
from django.contrib.auth.models import Permission
from django.contrib.contenttypes.models import ContentType
from django.db import connections, models
from django.db.models.functions import Cast

CHUNK = 2000

_encode = json.JSONEncoder(
    ensure_ascii=False, separators=(",", ":"), check_circular=False,
    default=lambda value: _plain(value),
).encode  # fmt: skip


def _plain(value):
    """A value JSON has no type for, as the file keeps it."""
    if isinstance(value, datetime.date | datetime.time):  # datetime is a date
        return value.isoformat()
    if isinstance(value, decimal.Decimal | uuid.UUID):
        return str(value)
    if isinstance(value, bytes | memoryview):
        return base64.b64encode(bytes(value)).decode("ascii")
    raise TypeError(f"{type(value).__name__} is not kept in a backup")


def through_models(model) -> list:
    """The automatic tables of ``model``'s many-to-many fields (a user's groups, a group's
    permissions, a tournament's staff): tables of their own in a version-2 backup."""
    return [
        f.remote_field.through
        for f in model._meta.local_many_to_many
        if f.remote_field.through._meta.auto_created
    ]


def _natural_targets() -> dict:
    return {ContentType: _content_type_keys, Permission: _permission_keys}


def _content_type_keys(using: str) -> dict[int, tuple]:
    rows = ContentType.objects.using(using).values_list("id", "app_label", "model")
    return {pk: (app, model) for pk, app, model in rows}


def _permission_keys(using: str) -> dict[int, tuple]:
    rows = Permission.objects.using(using).values_list(
        "id", "codename", "content_type__app_label", "content_type__model"
    )
    return {pk: (code, app, model) for pk, code, app, model in rows}


def _natural_fields(model) -> list[tuple[int, type]]:
    targets = _natural_targets()
    return [
        (i, f.related_model)
        for i, f in enumerate(model._meta.concrete_fields)
        if f.is_relation and f.related_model in targets
    ]


# --- writing -----------------------------------------------------------------------------------


def table_lines(model, using: str) -> Iterator[bytes]:
    """The header line and the rows of ``model``'s table, a chunk of lines at a time."""
    fields = model._meta.concrete_fields
    columns = [f.attname for f in fields]
    yield (_encode({"model": model._meta.label_lower, "columns": columns}) + "\n").encode()
    natural = [(i, _natural_targets()[target](using)) for i, target in _natural_fields(model)]
    # JSON columns as their text, as the database holds it: not decoded here to be encoded
    # again, nor on restore (the database checks it is JSON).
    texts = {
        f"_text_{f.attname}": Cast(f.attname, output_field=models.TextField())
        for f in fields
        if f.get_internal_type() == "JSONField"
    }
    names = [f"_text_{c}" if f"_text_{c}" in texts else c for c in columns]
    rows = model._default_manager.using(using).order_by("pk").annotate(**texts).values_list(*names)
    chunk: list[str] = []
    for row in rows.iterator(chunk_size=CHUNK):
        if natural:
            row = list(row)
            for i, keys in natural:
                if row[i] is not None:
                    row[i] = keys[row[i]]
        chunk.append(_encode(row))
        if len(chunk) >= CHUNK:
            yield ("\n".join(chunk) + "\n").encode()
            chunk = []
    if chunk:
        yield ("\n".join(chunk) + "\n").encode()


# --- reading -----------------------------------------------------------------------------------


class ColumnsError(ValueError):
    """A table's header that does not fit the table here (the message says why)."""


def _decoder(field: models.Field, conn) -> Callable | None:
    """How a value from the file becomes a database parameter (None: as it is)."""
    kind = field.get_internal_type()
    ops = conn.ops
    if kind == "DateTimeField":
        return lambda v: ops.adapt_datetimefield_value(datetime.datetime.fromisoformat(v))
    if kind == "DateField":
        return lambda v: ops.adapt_datefield_value(datetime.date.fromisoformat(v))
    if kind == "TimeField":
        return lambda v: ops.adapt_timefield_value(datetime.time.fromisoformat(v))
    if kind == "DecimalField":
        return lambda v: field.get_db_prep_save(decimal.Decimal(v), conn)
    if kind == "UUIDField":
        return lambda v: field.get_db_prep_save(uuid.UUID(v), conn)
    if kind == "BinaryField":
        return lambda v: field.get_db_prep_save(base64.b64decode(v, validate=True), conn)
    if kind == "JSONField":  # its JSON text
        return _json_text
    if kind == "DurationField":
        return lambda v: field.get_db_prep_save(field.to_python(v), conn)
    return None


class TableWriter:
    """Rows of one table from the file into the database, a chunk at a time (inside the
    caller's transaction)."""

    def __init__(self, model, columns: Sequence[str], using: str):
        self.model, self.conn = model, connections[using]
        by_name = {f.attname: f for f in model._meta.concrete_fields}
        unknown = [c for c in columns if c not in by_name]
        if unknown or len(set(columns)) != len(columns):
            raise ColumnsError(f"columns not in this table: {', '.join(unknown) or 'repeated'}")
        fields = [by_name[c] for c in columns]
        self.tail = []  # columns added here after the backup was made: their defaults
        for f in model._meta.concrete_fields:
            if f.attname not in columns:
                if not (f.has_default() or f.null):
                    raise ColumnsError(f"column {f.attname} is missing and has no default")
                fields.append(f)
                self.tail.append(f.get_db_prep_save(f.get_default(), self.conn))
        self.width = len(columns)
        self.columns = [f.column for f in fields]
        self.steps = [(i, d) for i, f in enumerate(fields[: self.width])
                      if (d := _decoder(f, self.conn))]  # fmt: skip
        natural = {ContentType: _content_type_ids, Permission: _permission_ids}
        self.natural = [(i, natural[f.related_model](using))
                        for i, f in enumerate(fields[: self.width])
                        if f.is_relation and f.related_model in natural]  # fmt: skip
        self.rows: list[list] = []
        self.count = 0

    def add(self, row: list) -> None:
        if len(row) != self.width:
            raise ColumnsError(f"a row of {len(row)} values for {self.width} columns")
        for i, keys in self.natural:
            if row[i] is not None:
                key = tuple(row[i])
                if key not in keys:
                    raise ColumnsError(f"{'.'.join(key)} is not known here (run migrate)")
                row[i] = keys[key]
        for i, decode in self.steps:
            if row[i] is not None:
                row[i] = decode(row[i])
        if self.tail:
            row.extend(self.tail)
        self.rows.append(row)
        if len(self.rows) >= CHUNK:
            self.flush()

    def flush(self) -> None:
        if not self.rows:
            return
        conn = self.conn
        quote = conn.ops.quote_name
        table = quote(self.model._meta.db_table)
        names = ", ".join(quote(c) for c in self.columns)
        with conn.cursor() as cursor, conn.wrap_database_errors:
            if conn.vendor == "postgresql":
                with cursor.cursor.copy(f"COPY {table} ({names}) FROM STDIN") as copy:
                    for row in self.rows:
                        copy.write_row(row)
            else:
                marks = ", ".join(["%s"] * len(self.columns))
                sql = f"INSERT INTO {table} ({names}) VALUES ({marks})"  # noqa: S608
                cursor.executemany(sql, self.rows)
        self.count += len(self.rows)
        self.rows = []


def _json_text(value):
    if not isinstance(value, str):
        raise TypeError("a JSON column's value must be its JSON text")
    return value


def _content_type_ids(using: str) -> dict[tuple, int]:
    return {key: pk for pk, key in _content_type_keys(using).items()}


def _permission_ids(using: str) -> dict[tuple, int]:
    return {key: pk for pk, key in _permission_keys(using).items()}


def model_for(label: str):
    """The model of a table's label (``LookupError`` if there is none here)."""
    app, _dot, name = label.partition(".")
    return apps.get_model(app, name)
