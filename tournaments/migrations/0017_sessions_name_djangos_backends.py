"""Logins stay logged in when efuda goes back to Django's own authentication backends.

Django's login stores in the session the dotted path of the backend that logged the user in, and
on every request reads the user only through a backend named in AUTHENTICATION_BACKENDS: a
session naming any other path is a visitor. efuda's own backends (config.auth.ModelBackend and
config.auth.AuthenticationBackend, Django's and allauth's with a hand-written read of the user)
are gone; the sessions saved while they logged people in name them. This rewrites those
sessions to name Django's and allauth's classes, which log in exactly as efuda's did, each
session decoded and encoded by Django's own store and kept with its expiry. Sessions older than
efuda's backends already name Django's and allauth's classes and are left as they are.

Going back needs nothing: the code before this migration read Django's and allauth's names as
its own (config/sessions.py, RENAMED).
"""

from django.contrib.auth import BACKEND_SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from django.db import migrations
from django.utils import timezone

RENAMED = {
    "config.auth.ModelBackend": "django.contrib.auth.backends.ModelBackend",
    "config.auth.AuthenticationBackend": "allauth.account.auth_backends.AuthenticationBackend",
}


def sessions_name_djangos_backends(apps, schema_editor):
    """Each live session naming one of efuda's old backends names Django's or allauth's."""
    session_model = apps.get_model("sessions", "Session")
    store = SessionStore()  # only its encode and decode: no session of its own is read
    live = session_model.objects.filter(expire_date__gt=timezone.now()).order_by("pk")
    changed = {}
    for key, encoded in live.values_list("session_key", "session_data").iterator(2000):
        data = store.decode(encoded)  # {} for data that is not Django's (another secret key)
        renamed = RENAMED.get(data.get(BACKEND_SESSION_KEY))
        if renamed is not None:
            data[BACKEND_SESSION_KEY] = renamed
            changed[key] = store.encode(data)
    # The same rows, the same expiry: only the data changes (written after the read, which
    # then never meets a row it wrote).
    for key, encoded in changed.items():
        session_model.objects.filter(session_key=key).update(session_data=encoded)

class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0016_organiser_merge_undo'),
        ('sessions', '0001_initial'),
    ]

    operations = [
        migrations.RunPython(sessions_name_djangos_backends, migrations.RunPython.noop),
    ]
