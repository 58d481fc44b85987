"""Explanation lines: an English msgid plus already formatted parameters."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType


@dataclass(frozen=True)
class Message:
    """One translatable line. ``text`` is an ``N_`` msgid; ``params`` hold plain str/int values."""

    text: str
    params: Mapping[str, str | int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for key, value in self.params.items():
            if (
                not isinstance(key, str)
                or isinstance(value, bool)
                or not isinstance(value, (str, int))
            ):
                raise TypeError(f"Message params must be str/int values, got {key!r}={value!r}")
        object.__setattr__(self, "params", MappingProxyType(dict(self.params)))

    def __str__(self) -> str:
        return self.text % dict(self.params)

    def render(self, translate=None) -> str:
        """The text through ``translate`` (e.g. Django's ``gettext``) filled with the params."""
        text = translate(self.text) if translate else self.text
        return text % dict(self.params)
