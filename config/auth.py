"""Who is logged in, read with one SQL statement written out once.

Every request of a logged-in reader loads their user after their session (Django's
``get_user``: the session names the backend that logged them in, whose ``get_user`` reads the
user; Django then checks the session's hash against the user's password). Django's and
allauth's backends read the user through the ORM, compiling the same ``SELECT`` on every
request; these are the same backends (logging in, by user name or e-mail address, is
theirs, unchanged) except that ``get_user`` runs the statement written out once and builds the
user as the ORM would (config/rows.py). The answer is the same: the user, or None for a user
who is gone or may not log in (``is_active`` false), read from the same database.

Sessions of logins made before these backends existed name Django's or allauth's class; the
session store reads them as naming these (``RENAMED``, config/sessions.py), so nobody is
logged out by the change.
"""

from __future__ import annotations

from allauth.account.auth_backends import AuthenticationBackend as AllauthBackend
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend as DjangoModelBackend
from django.db import connections, router

from .rows import model_from_row

RENAMED = {
    "django.contrib.auth.backends.ModelBackend": "config.auth.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend": "config.auth.AuthenticationBackend",
}

_USER_SQL: dict[str, str] = {}


def user_by_id(user_id):
    """The user with primary key ``user_id`` as ``User.objects.get(pk=…)`` returns them, or
    None: one statement, from the database the router reads users from."""
    model = get_user_model()
    using = router.db_for_read(model) or "default"
    conn = connections[using]
    if conn.vendor not in _USER_SQL:
        q = conn.ops.quote_name
        meta = model._meta
        columns = ", ".join(q(f.column) for f in meta.concrete_fields)
        _USER_SQL[conn.vendor] = (
            f"SELECT {columns} FROM {q(meta.db_table)} WHERE {q(meta.pk.column)} = %s"
        )
    with conn.cursor() as cursor:
        cursor.execute(_USER_SQL[conn.vendor], [user_id])
        row = cursor.fetchone()
    return None if row is None else model_from_row(model, using, row)


class _ReadsTheUserOnce:
    def get_user(self, user_id):
        user = user_by_id(user_id)
        return user if user is not None and self.user_can_authenticate(user) else None


class ModelBackend(_ReadsTheUserOnce, DjangoModelBackend):
    """Django's: logging in by user name."""


class AuthenticationBackend(_ReadsTheUserOnce, AllauthBackend):
    """allauth's: logging in by user name or e-mail address."""
