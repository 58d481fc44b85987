"""One check for every name people give: players, clubs, session tables, tournaments, rule sets.

Bidi controls (embeddings and overrides U+202A–U+202E, isolates U+2066–U+2069, the marks
U+200E/U+200F) can make a name display as something else — “‮evil” reads backwards — and other
control characters (NUL, escape …) are invisible or refused by the database. A name holding
any of them is refused with the same message wherever it is typed or imported.
"""

import unicodedata

from .errors import fail

BIDI_CONTROLS = frozenset("\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def is_hidden(ch: str) -> bool:
    return ch in BIDI_CONTROLS or unicodedata.category(ch) == "Cc"


def check_name_text(text: str, *, field: str) -> str:
    """``text`` if it holds no bidi or other control character; else EfudaError on ``field``."""
    if any(is_hidden(ch) for ch in text):
        shown = "".join(ch for ch in text if ch.isprintable() and not is_hidden(ch))
        raise fail(field, "player_name_control", name=shown)
    return text


def clean_name(value, *, field: str) -> str:
    """NFC, spaces collapsed, then ``check_name_text``: how every name is stored."""
    text = " ".join(unicodedata.normalize("NFC", str(value or "")).split())
    return check_name_text(text, field=field)
