"""Fixtures for the hardening tests."""

import pytest
from django.core.management import call_command
from django.db import connections

# The real redis-server and PostgreSQL standby of the fault tests (marker shared_parts).
from .realparts import redis_server, replica, shared_cache, standby_server  # noqa: F401


def _in_memory(settings_dict) -> bool:
    name = str(settings_dict.get("NAME") or "")
    return name == ":memory:" or "mode=memory" in name


@pytest.fixture(scope="module")
def _sqlite_file_template(tmp_path_factory, django_db_setup, django_db_blocker):
    """A migrated on-disk SQLite database (only when the test database is in memory)."""
    current = connections.settings["default"]
    if current["ENGINE"] != "django.db.backends.sqlite3" or not _in_memory(current):
        yield None
        return
    path = tmp_path_factory.mktemp("sqlite") / "efuda-concurrency.sqlite3"
    settings_dict = {**current, "NAME": str(path), "TEST": {**current.get("TEST", {})}}
    with django_db_blocker.unblock(), _Swapped(settings_dict):
        call_command("migrate", verbosity=0, interactive=False)
    yield settings_dict


class _Swapped:
    """Point the default alias (this thread and every new thread) at another database."""

    def __init__(self, settings_dict):
        self.settings_dict = settings_dict

    def __enter__(self):
        self.old_settings = connections.settings["default"]
        self.old_conn = connections["default"]
        connections.settings["default"] = self.settings_dict
        connections["default"] = connections.create_connection("default")
        return self

    def __exit__(self, *exc):
        connections["default"].close()
        connections.settings["default"] = self.old_settings
        connections["default"] = self.old_conn
        return False


@pytest.fixture
def threaded_db(transactional_db, _sqlite_file_template, django_db_blocker):
    """A database that real threads can share.

    PostgreSQL (and an on-disk SQLite test database) are used as they are. SQLite's in-memory test
    database uses a shared cache whose table locks fail at once instead of waiting, which no
    production set-up has; so here the test runs against an on-disk SQLite file with the same
    OPTIONS as production (WAL, ``BEGIN IMMEDIATE``, 20 s busy timeout).
    """
    if _sqlite_file_template is None:
        yield connections["default"].vendor
        return
    with _Swapped(_sqlite_file_template):
        try:
            yield "sqlite-file"
        finally:
            call_command("flush", verbosity=0, interactive=False)
