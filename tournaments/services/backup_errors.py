"""The one error a restore is refused with, and how a database's refusal of a row becomes it."""

from __future__ import annotations

import re

from django.utils.translation import gettext as _


class BackupError(Exception):
    """A backup file that cannot be restored here; the message says why (shown as is)."""


def damaged(exc: Exception, table: str | None) -> BackupError:
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
