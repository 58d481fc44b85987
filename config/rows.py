"""Model instances from rows of SQL written out once (config/sessions.py, config/auth.py and
the selectors that read a club or a tournament for every request): the few statements every
logged-in request runs are kept as SQL text, since compiling them with the ORM costs more CPU
than running them (docs/performance.md, "Members read as fast as visitors")."""

from __future__ import annotations

from django.db import connections


def model_from_row(model, using: str, values):
    """An instance of ``model`` from its concrete columns, in field order, as the database
    ``using`` returned them, converted as the ORM's compiler converts them (the backend's
    converters, then the field's): SQLite's date-times become aware, decimals decimals."""
    conn = connections[using]
    fields = model._meta.concrete_fields
    converted = []
    for f, value in zip(fields, values, strict=True):
        col = f.get_col(model._meta.db_table)
        for convert in conn.ops.get_db_converters(col) + f.get_db_converters(conn):
            value = convert(value, col, conn)
        converted.append(value)
    return model.from_db(using, [f.attname for f in fields], converted)
