"""Who entered a deal on a phone, as the phone's outbox and service worker name people.

An author key is ``u:<user id>`` for an account and ``pin:<entry id>`` for a tournament player
who unlocked their table with a PIN (the PINs a browser holds are kept in its session under
``PIN_SESSION_KEY``). Plain functions of a request: no database read.
"""

from __future__ import annotations

PIN_SESSION_KEY = "efuda_tournament_pins"
WHO_HEADER = "X-Efuda-Who"


def user_author(user) -> str:
    """The author key of a logged-in account (empty when not logged in)."""
    return f"u:{user.pk}" if getattr(user, "is_authenticated", False) else ""


def pin_author(entry) -> str:
    return f"pin:{entry.pk}"


def request_who(request) -> str:
    """Everyone this browser is now, as the service worker keys the pages it keeps: the account
    and the tournament PINs held (their entry ids as stored, unchecked: only a cache key)."""
    keys = []
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        keys.append(user_author(user))
    session = getattr(request, "session", None)
    if session is not None and session.session_key:
        for held in (session.get(PIN_SESSION_KEY) or {}).values():
            if isinstance(held, dict) and str(held.get("entry", "")).isdigit():
                keys.append(f"pin:{held['entry']}")
    return " ".join(sorted(set(keys)))
