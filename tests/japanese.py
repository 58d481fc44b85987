"""What a Japanese reader sees of the pure core's messages, without Django.

The core raises ``EfudaError`` and explains scores with ``Message``: an English msgid plus its
parameters; the app shows them through the Japanese catalogue. ``japanese`` does the same with
the standard library's gettext on the compiled catalogue (scripts/test compiles it), so the
pure tests can check the sentence a player reads: the msgid has its translation and every
parameter fills it.
"""

from __future__ import annotations

import functools
import gettext
from collections.abc import Callable
from pathlib import Path

import pytest

from core.errors import EfudaError
from core.messages import Message

CATALOGUE = Path(__file__).resolve().parent.parent / "locale/ja/LC_MESSAGES/django.mo"


@functools.cache
def _catalogue() -> gettext.GNUTranslations:
    with CATALOGUE.open("rb") as mo:
        return gettext.GNUTranslations(mo)


def japanese(item: EfudaError | Message) -> str:
    """The Japanese sentence for ``item``; fails if the catalogue has no translation for it."""
    if isinstance(item, EfudaError):
        text, params = item.message, item.params
    else:
        text, params = item.text, dict(item.params)
    translated = _catalogue().gettext(text)
    assert translated != text, f"no Japanese translation for {text!r}"
    return translated % params


def refusal(call: Callable[[], object]) -> tuple[str, str, str]:
    """The field, the code and the Japanese sentence of the ``EfudaError`` that ``call()``
    raises; fails when it raises none."""
    with pytest.raises(EfudaError) as err:
        call()
    return err.value.field, err.value.code, japanese(err.value)
