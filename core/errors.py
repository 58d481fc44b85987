"""The one user-facing error of the pure core.

Every invalid input to ``rules`` or ``scoring`` raises :class:`EfudaError`; any other exception
is a bug. The error names the input ``field`` it concerns (so a form can show it beside that
field), a stable machine ``code``, and an English msgid ``message`` (marked with ``N_``) with
``%(name)s`` placeholders filled from ``params``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class EfudaError(Exception):
    """An invalid deal, round, rule set or option, explained for the user."""

    def __init__(
        self, field: str, code: str, message: str, params: Mapping[str, Any] | None = None
    ) -> None:
        self.field = field
        self.code = code
        self.message = message
        self.params = dict(params or {})
        super().__init__(field, code, message, self.params)

    def __str__(self) -> str:
        try:
            return self.message % self.params
        except (KeyError, TypeError, ValueError):  # a bug in a template must not hide the error
            return self.message

    def __repr__(self) -> str:
        return f"EfudaError(field={self.field!r}, code={self.code!r}, message={str(self)!r})"
