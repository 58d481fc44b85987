"""Django's database sessions (``SESSION_ENGINE = "config.sessions"``), read with one SQL
statement written out once.

Every request of a logged-in reader starts by loading their session, before anything else it
does, and Django's store builds that ``SELECT`` through the ORM each time: compiling the
query, building a model instance, about 0.35 ms of CPU against 0.13 ms for the same statement
written out (docs/performance.md, "Members read as fast as visitors"). Everything else is
Django's: the same table and rows, the same encoding, creating, saving, cycling and deleting
(so logging out deletes the row, and a session that is gone or expired is gone for every
worker and server at once), the same database for the read (the router's), and the same
answer to a key that is unknown, expired or malformed: no data, and the key is dropped, so
the next save makes a new one (no session fixation). A session saved before config/auth.py
named the backend that logged its user in by Django's or allauth's own class; it is read as
naming the same backend under its new name.
"""

from __future__ import annotations

from django.contrib.auth import BACKEND_SESSION_KEY
from django.contrib.sessions.backends import db
from django.db import connections, router
from django.utils import timezone

from .auth import RENAMED


class SessionStore(db.SessionStore):
    def load(self):
        data = super().load()
        # A login made before config/auth.py names Django's or allauth's backend: the same
        # backend now, under its new name (stored so when the session is next saved).
        renamed = RENAMED.get(data.get(BACKEND_SESSION_KEY))
        if renamed:
            data[BACKEND_SESSION_KEY] = renamed
        return data

    def _get_session_from_db(self):
        key = self.session_key  # None when the cookie's value is not a valid key
        row = None
        if key:
            alias = router.db_for_read(self.model)
            connection = connections[alias or "default"]
            table = connection.ops.quote_name(self.model._meta.db_table)
            now = connection.ops.adapt_datetimefield_value(timezone.now())
            with connection.cursor() as cursor:
                cursor.execute(
                    f"SELECT session_data FROM {table} WHERE session_key = %s AND expire_date > %s",
                    [key, now],
                )
                row = cursor.fetchone()
        if row is None:
            self._session_key = None
            return None
        # Only the data is read from the instance (db.SessionStore.load).
        return self.model(session_key=key, session_data=row[0])
