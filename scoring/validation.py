"""Shared checks of raw inputs: every failure is an EfudaError naming its field."""

from __future__ import annotations

from typing import Any

from core.errors import EfudaError
from core.i18n import N_


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def player_keys(value: Any, field: str) -> tuple[str, ...]:
    """A tuple (or list) of distinct, non-blank player keys."""
    if not isinstance(value, (tuple, list)):
        raise EfudaError(field, "not_a_list", N_("List the players in order."))
    for key in value:
        if not isinstance(key, str) or not key.strip():
            raise EfudaError(field, "blank_player", N_("Every player needs a name or key."))
    seen: set[str] = set()
    for key in value:
        if key in seen:
            raise EfudaError(field, "duplicate_player",
                             N_("%(player)s is listed twice."), {"player": key})  # fmt: skip
        seen.add(key)
    return tuple(value)


def seated(value: Any, players: tuple[str, ...], field: str) -> str:
    """A player key that is one of ``players``."""
    if not isinstance(value, str) or value not in players:
        raise EfudaError(
            field, "not_seated", N_("“%(player)s” is not one of the players at this table."),
            {"player": shown(value)},
        )  # fmt: skip
    return value


def count(value: Any, field: str) -> int:
    """A whole number of 0 or more."""
    if not is_int(value) or value < 0:
        raise EfudaError(field, "not_a_count", N_("Enter a whole number of 0 or more."),
                         {"value": repr(value)})  # fmt: skip
    return value


def shown(value: Any) -> str:
    """A value for a message: a string as is, nothing as empty (never Python's ``None``)."""
    if value is None:
        return ""
    return value if isinstance(value, str) else repr(value)
