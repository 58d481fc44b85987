"""``manage.py worker``: the task worker — django-tasks-db's ``db_worker``, with the same options,
which also takes up imports whose worker died (``services.import_jobs.import_jobs_take_up``)
when it starts and every minute after."""

from __future__ import annotations

import logging
import threading

from django.db import DatabaseError, connections
from django_tasks_db.management.commands.db_worker import Command as DbWorkerCommand

from tournaments.services.import_jobs import import_jobs_take_up

log = logging.getLogger("efuda.worker")
TAKE_UP_EVERY = 60.0  # seconds


def _take_up_loop(stop: threading.Event) -> None:
    while True:
        try:
            outcome = import_jobs_take_up()
            for key, jobs in outcome.items():
                if jobs:
                    log.warning("imports whose worker died, %s: %s", key, jobs)
        except DatabaseError as error:  # the database away for a moment: next time
            log.warning("taking up imports failed: %s", error)
        finally:
            connections.close_all()  # this thread's connections
        if stop.wait(TAKE_UP_EVERY):
            return


class Command(DbWorkerCommand):
    help = "Run the task worker (background imports); takes up imports whose worker died."

    def handle(self, *args, **options):
        stop = threading.Event()
        thread = threading.Thread(
            target=_take_up_loop, args=(stop,), daemon=True, name="import-take-up"
        )
        thread.start()
        try:
            return super().handle(*args, **options)
        finally:
            stop.set()
