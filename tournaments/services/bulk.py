"""Bulk writes for large imports: ids reserved ahead, rows prepared outside the transaction.

An import of 100,000 lines must not hold the database for long, so everything that costs time
(scoring, building rows, converting values for the database) happens before the write
transaction opens; inside it only ``executemany`` runs. To build score lines and history rows
before the deals exist, the deal, session and player ids are reserved first:

- PostgreSQL: ``nextval`` of the table's identity sequence (outside any lock; a failed import
  leaves a gap, as a failed ``INSERT`` does);
- SQLite: the tables use ``AUTOINCREMENT``, so a short transaction moves ``sqlite_sequence``
  past the reserved range; later inserts by anyone continue after it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from django.db import DEFAULT_DB_ALIAS, connection, connections, models, transaction
from django.utils import timezone

from ..models import Player

BATCH = 5_000


def reserve_ids(model: type[models.Model], count: int) -> list[int]:
    """``count`` primary keys for ``model`` that no other insert will take."""
    if count <= 0:
        return []
    table = model._meta.db_table
    column = model._meta.pk.column
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                "SELECT nextval(pg_get_serial_sequence(%s, %s)) FROM generate_series(1, %s)",
                [connection.ops.quote_name(table), column, count],
            )
            return sorted(row[0] for row in cursor.fetchall())
        if connection.vendor != "sqlite":  # pragma: no cover - efuda runs on the two only
            raise NotImplementedError(connection.vendor)
        with transaction.atomic():
            cursor.execute("SELECT seq FROM sqlite_sequence WHERE name = %s", [table])
            row = cursor.fetchone()
            cursor.execute(
                f"SELECT MAX({connection.ops.quote_name(column)}) "  # noqa: S608 - our names
                f"FROM {connection.ops.quote_name(table)}"
            )
            highest = max(row[0] if row else 0, cursor.fetchone()[0] or 0)
            if row is None:
                cursor.execute(
                    "INSERT INTO sqlite_sequence (name, seq) VALUES (%s, %s)",
                    [table, highest + count],
                )
            else:
                cursor.execute(
                    "UPDATE sqlite_sequence SET seq = %s WHERE name = %s",
                    [highest + count, table],
                )
    return list(range(highest + 1, highest + count + 1))


def players_locked(ids: Iterable[int], *, club_id: int | None = None) -> set[int]:
    """Lock the rows of the players ``ids`` against deletion until COMMIT and return those that
    exist (with ``club_id``: those that are players of that club).

    Score lines carry no foreign-key constraint (``models.play.ScoreLine``), so their writers
    take what the constraint's check took: PostgreSQL's ``FOR KEY SHARE`` on each player named,
    one query for all. A merge, which locks both players ``FOR UPDATE`` before it moves their
    lines and deletes one, then waits for this write and moves its lines too. On SQLite the
    write transaction already holds the one writer's lock.
    """
    wanted = sorted(set(ids))
    if not wanted:
        return set()
    table = connection.ops.quote_name(Player._meta.db_table)
    lock = " FOR KEY SHARE" if connection.vendor == "postgresql" else ""
    club = "" if club_id is None else " AND club_id = %s"
    found: set[int] = set()
    with connection.cursor() as cursor:
        for start in range(0, len(wanted), BATCH):
            chunk = wanted[start : start + BATCH]
            marks = ", ".join(["%s"] * len(chunk))
            cursor.execute(
                f"SELECT id FROM {table} WHERE id IN ({marks}){club} ORDER BY id{lock}",  # noqa: S608
                chunk if club_id is None else [*chunk, club_id],
            )
            found.update(row[0] for row in cursor.fetchall())
    return found


def _converter(field: models.Field, conn) -> Callable | None:
    """How a plain Python value becomes a database parameter (None: as it is)."""
    kind = field.get_internal_type()
    if kind in ("DateField", "DateTimeField"):
        adapt = (
            conn.ops.adapt_datefield_value
            if kind == "DateField"
            else conn.ops.adapt_datetimefield_value
        )
        memo: dict = {}

        def convert(value):  # the same few days and one timestamp repeat on every row
            if value not in memo:
                memo[value] = adapt(value)
            return memo[value]

        return convert
    if kind == "JSONField":
        return lambda value, field=field: conn.ops.adapt_json_value(value, field.encoder)
    if kind in ("UUIDField", "DecimalField", "TimeField", "DurationField"):
        return lambda value, field=field: field.get_db_prep_save(value, conn)
    return None


class Table:
    """Rows of one model as database parameters, prepared before the write transaction.

    ``columns`` names the fields each ``add(*values)`` gives, in order (``attname`` for
    foreign keys); every other field takes its default (``auto_now``/``auto_now_add``: one
    timestamp for the whole import). A field with neither is an error at once, so a new
    required column can never be skipped silently.
    """

    def __init__(self, model: type[models.Model], columns: Sequence[str]):
        conn = connections[DEFAULT_DB_ALIAS]
        self.model = model
        by_name = {f.attname: f for f in model._meta.concrete_fields}
        given = [by_name[name] for name in columns]
        now = timezone.now()
        rest, tail = [], []
        for f in model._meta.concrete_fields:
            if f.attname in columns or (f.primary_key and f.attname not in columns):
                continue
            if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False):
                default = now
            elif f.has_default():
                default = f.get_default()
            elif f.null:
                default = None
            else:
                raise KeyError(f"{model.__name__}.{f.attname} needs a value")
            convert = _converter(f, conn)
            rest.append(f)
            tail.append(default if convert is None or default is None else convert(default))
        self.fields = given + rest
        self.tail = tuple(tail)
        self.convert = [(i, c) for i, f in enumerate(given) if (c := _converter(f, conn))]
        self.rows: list[tuple] = []
        self.staged: str | None = None  # SQLite: the TEMP table holding the rows (``stage``)

    def add(self, *values) -> None:
        if self.convert:
            values = list(values)
            for i, convert in self.convert:
                if values[i] is not None:
                    values[i] = convert(values[i])
        self.rows.append((*values, *self.tail))

    def adapt(self, column: str, value):
        """``value`` as a database parameter for ``column`` (to convert a value shared by many
        rows once, then give it to ``add_adapted``)."""
        index = [f.attname for f in self.fields].index(column)
        for i, convert in self.convert:
            if i == index and value is not None:
                return convert(value)
        return value

    def add_adapted(self, values: tuple) -> None:
        """A row whose values are already database parameters (see ``adapt``); JSON columns
        take their text, encoded once by the caller."""
        self.rows.append(values + self.tail)

    def stage(self) -> None:
        """SQLite, before the write transaction: copy the rows into a temporary table now
        (``stage``), so that ``insert`` moves them with one ``INSERT … SELECT``."""
        self.staged = stage(self.model, [f.column for f in self.fields], self.rows)
        if self.staged is not None:
            self.rows = []  # in the temporary table now

    def unstage(self) -> None:
        if self.staged is not None:
            drop_staged(self.staged)
            self.staged = None

    def insert(self) -> None:
        """Write the rows (inside the caller's transaction): COPY on PostgreSQL; on SQLite one
        ``INSERT … SELECT`` from the staged rows, or one ``executemany``."""
        columns = [f.column for f in self.fields]
        if self.staged is not None:  # the staged copy is dropped after COMMIT (``unstage``)
            insert_staged(self.model, columns, self.staged)
            return
        insert_rows(self.model, columns, self.rows)

    def insert_copy(self, source: Table, pick: Sequence[int], own: tuple) -> None:
        """Inside the write transaction, after ``source.insert()``: a row for each of
        ``source``'s rows, in their order — its values at ``pick`` (this table's first
        columns), then ``own`` (the next ones, the same on every row) and this table's
        defaults — copied by the database from the rows it has just been given (the staged copy
        on SQLite, the table itself by id on PostgreSQL) instead of built and sent again.
        ``source``'s first column is its id."""
        columns = [f.column for f in self.fields]
        values = (*own, *self.tail)
        if source.staged is None and (connection.vendor != "postgresql" or not source.rows):
            self.rows = [(*(row[i] for i in pick), *values) for row in source.rows]
            self.insert()
            return
        quote = connection.ops.quote_name
        names = ", ".join(quote(c) for c in columns)
        picked = ", ".join("s." + quote(source.fields[i].column) for i in pick)
        marks = ", ".join(_typed_mark(f) for f in self.fields[len(pick) :])
        if source.staged is not None:  # SQLite
            origin, params = f"temp.{quote(source.staged)} AS s ORDER BY s.rowid", list(values)
        else:  # PostgreSQL: the rows just copied in, by id, in their order
            origin = (
                f"unnest(%s::bigint[]) WITH ORDINALITY AS u(id, n) JOIN "
                f"{quote(source.model._meta.db_table)} AS s ON s.id = u.id ORDER BY u.n"
            )
            params = [*values, [row[0] for row in source.rows]]  # fmt: skip
        with connection.cursor() as cursor:
            cursor.execute(
                f"INSERT INTO {quote(self.model._meta.db_table)} ({names}) "  # noqa: S608
                f"SELECT {picked}, {marks} FROM {origin}",
                params,
            )


def _typed_mark(field: models.Field) -> str:
    """A parameter in a ``SELECT`` list, typed for PostgreSQL (an untyped one is text)."""
    if connection.vendor == "postgresql":
        return f"CAST(%s AS {field.db_type(connection)})"
    return "%s"


def insert_rows(model: type[models.Model], columns: Sequence[str], rows: Sequence[tuple]) -> None:
    """Insert plain tuples of ``columns`` into ``model``'s table, in the caller's transaction:
    COPY on PostgreSQL, ``executemany`` in batches elsewhere. Values must already be database
    parameters (no field conversion, no signals)."""
    if not rows:
        return
    quote = connection.ops.quote_name
    table = quote(model._meta.db_table)
    names = ", ".join(quote(c) for c in columns)
    marks = ", ".join(["%s"] * len(columns))
    _executemany(
        f"INSERT INTO {table} ({names}) VALUES ({marks})",  # noqa: S608 - our own names
        rows,
        copy_sql=f"COPY {table} ({names}) FROM STDIN",
    )


# --- SQLite: rows staged before the write transaction -------------------------------------------
#
# SQLite has one writer, and a deal saved during a large write waits for it (services/busy.py).
# Inserting 485,280 score lines with ``executemany`` inside the write transaction held the
# writer for 5.5 s; copying them first into a temporary table — outside the transaction: a
# connection's TEMP tables are a database of their own, so writing them takes no lock on the
# club's database — and then moving them with one ``INSERT … SELECT`` inside it holds the writer
# for about a third of that (docs/performance.md). PostgreSQL's COPY needs no such step.


def stage(model: type[models.Model], columns: Sequence[str], rows: Sequence[tuple]) -> str | None:
    """Copy ``rows`` (``columns`` of ``model``) into a new TEMP table; its name, or None where
    rows are not staged (PostgreSQL, no rows, or inside a transaction already, where the rows
    are inserted as they are)."""
    if connection.vendor != "sqlite" or not rows or connection.in_atomic_block:
        return None
    quote = connection.ops.quote_name
    name = f"efuda_stage_{model._meta.db_table}"
    names = ", ".join(quote(c) for c in columns)
    marks = ", ".join(["?"] * len(columns))
    connection.ensure_connection()
    raw = connection.connection  # the sqlite3 connection, in autocommit mode here
    # The staged rows in memory, not a temporary file: they were in memory already (the
    # plan's lists, emptied once staged), and writing them is ~10 % less of the write's CPU.
    raw.execute("PRAGMA temp_store = MEMORY")
    drop_staged(name)
    # Same column affinities as the real table, no constraints or indexes.
    raw.execute(
        f"CREATE TEMP TABLE {quote(name)} AS "  # noqa: S608 - our own names
        f"SELECT {names} FROM main.{quote(model._meta.db_table)} WHERE 0"
    )
    raw.execute("BEGIN DEFERRED")  # writes only the TEMP database: no lock on the main one
    try:
        raw.executemany(f"INSERT INTO temp.{quote(name)} VALUES ({marks})", rows)  # noqa: S608
    except BaseException:
        raw.execute("ROLLBACK")
        drop_staged(name)
        raise
    raw.execute("COMMIT")
    return name


def insert_staged(model: type[models.Model], columns: Sequence[str], name: str) -> None:
    """Inside the write transaction: copy the staged rows into ``model``'s table. The caller
    drops the staged table afterwards, committed or not (``drop_staged``)."""
    quote = connection.ops.quote_name
    names = ", ".join(quote(c) for c in columns)
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO main.{quote(model._meta.db_table)} ({names}) "  # noqa: S608
            f"SELECT {names} FROM temp.{quote(name)}"
        )


def drop_staged(name: str) -> None:
    """Drop a staged table if it is there (after a failure, or before staging again)."""
    if connection.vendor == "sqlite" and connection.connection is not None:
        connection.connection.execute(
            f"DROP TABLE IF EXISTS temp.{connection.ops.quote_name(name)}"
        )


def _executemany(sql: str, rows: Sequence[tuple], *, copy_sql: str | None = None) -> None:
    """Every bulk write of an import goes through here (one place to make fail in tests)."""
    if copy_sql and rows and connection.vendor == "postgresql":
        # The psycopg cursor under Django's; its errors raised as Django's (IntegrityError…).
        with connection.cursor() as cursor, connection.wrap_database_errors:
            with cursor.cursor.copy(copy_sql) as copy:
                for row in rows:
                    copy.write_row(row)
        return
    with connection.cursor() as cursor:
        for start in range(0, len(rows), BATCH):
            cursor.executemany(sql, rows[start : start + BATCH])


def upsert_add(
    model: type[models.Model], *, keys: Sequence[str], counters: Sequence[str],
    rows: Iterable[tuple], fixed: Sequence[str] = (),
) -> None:  # fmt: skip
    """Insert rows of ``keys + fixed + counters``; where a row with the same keys exists, add
    the counters to it (``INSERT … ON CONFLICT … DO UPDATE SET c = c + excluded.c``), so totals
    summed once per period by an import add up with what concurrent deals wrote. ``fixed``
    columns are written by a new row only."""
    _executemany(_upsert_sql(model, keys, fixed, counters), list(rows))


def upsert_add_once(
    model: type[models.Model], *, keys: Sequence[str], counters: Sequence[str],
    rows: Sequence[tuple], fixed: Sequence[str] = (),
) -> None:  # fmt: skip
    """``upsert_add`` for the few rows of one deal (15 aggregates), in one statement of several
    ``VALUES`` rows instead of one statement per row. The rows must have distinct keys and
    counters that are never negative where the column must not be (a row is checked as
    proposed, before the conflict turns it into an addition)."""
    if rows:
        with connection.cursor() as cursor:
            sql = _upsert_sql(model, keys, fixed, counters, rows=len(rows))
            cursor.execute(sql, [value for row in rows for value in row])


def insert_once(model: type[models.Model], fields: Sequence[str], rows: Sequence[tuple]) -> None:
    """Insert the few rows of one deal (its players' rating history) in one ``INSERT`` of
    several ``VALUES`` rows, built here rather than by the ORM (which took longer to build it
    than the database to run it). ``fields`` name every column written (``attname``s); values
    are Python values, dates adapted here."""
    if rows:
        columns, adapt = _columns(model, fields)
        with connection.cursor() as cursor:
            cursor.execute(
                f"INSERT INTO {_table(model)} ({columns}) VALUES {_marks(fields, len(rows))}",  # noqa: S608
                [adapt(i, value) for row in rows for i, value in enumerate(row)],
            )


def upsert_set_once(
    model: type[models.Model], *, keys: Sequence[str], fields: Sequence[str], rows: Sequence[tuple]
) -> None:
    """``insert_once``, and where a row with the same ``keys`` (the first ``fields``, a unique
    constraint's) exists, its other columns set to the new row's (``INSERT … ON CONFLICT …
    DO UPDATE SET c = excluded.c``): the players' ratings after one deal."""
    if rows:
        columns, adapt = _columns(model, fields)
        quote = connection.ops.quote_name
        names = [model._meta.get_field(name).column for name in fields]
        conflict = ", ".join(quote(c) for c in names[: len(keys)])
        update = ", ".join(f"{quote(c)} = excluded.{quote(c)}" for c in names[len(keys) :])
        with connection.cursor() as cursor:
            cursor.execute(
                f"INSERT INTO {_table(model)} ({columns}) VALUES {_marks(fields, len(rows))} "  # noqa: S608
                f"ON CONFLICT ({conflict}) DO UPDATE SET {update}",
                [adapt(i, value) for row in rows for i, value in enumerate(row)],
            )


def _table(model) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def _marks(fields, rows: int) -> str:
    return ", ".join([f"({', '.join(['%s'] * len(fields))})"] * rows)


def _columns(model, fields) -> tuple[str, Callable]:
    """The quoted columns of ``fields`` and ``adapt(index, value)``: the value as a database
    parameter (dates as the backend stores them)."""
    found = [model._meta.get_field(name) for name in fields]
    convert = {i: _converter(f, connection) for i, f in enumerate(found)}
    convert = {i: c for i, c in convert.items() if c is not None}

    def adapt(index, value):
        fn = convert.get(index)
        return value if fn is None or value is None else fn(value)

    return ", ".join(connection.ops.quote_name(f.column) for f in found), adapt


def _upsert_sql(model, keys, fixed, counters, *, rows: int = 1) -> str:
    quote = connection.ops.quote_name
    table = quote(model._meta.db_table)
    columns = [model._meta.get_field(name).column for name in (*keys, *fixed, *counters)]
    added = ", ".join(
        f"{quote(c)} = {table}.{quote(c)} + excluded.{quote(c)}"
        for c in columns[len(keys) + len(fixed) :]
    )
    conflict = ", ".join(quote(c) for c in columns[: len(keys)])
    values = ", ".join([f"({', '.join(['%s'] * len(columns))})"] * rows)
    return (
        f"INSERT INTO {table} ({', '.join(quote(c) for c in columns)}) "  # noqa: S608
        f"VALUES {values} ON CONFLICT ({conflict}) DO UPDATE SET {added}"
    )
