"""``manage.py worker``: the task worker — django-tasks-db's ``db_worker``, with the same options,
which also takes up imports whose worker died (``services.import_jobs.import_jobs_take_up``)
and webhook deliveries left behind (``services.webhook_send.webhook_deliveries_take_up``)
when it starts and every minute after, writes its heartbeat for ``/healthz`` every
``WORKER_HEARTBEAT_SECONDS``, and goes on after the database went away.

db_worker's loop ends, and the process with it, on any database error but a locked SQLite
database. Here a lost PostgreSQL connection (a restart, a failover: ``db_errors.lost_connection``)
is one WARNING line instead; the worker closes its connections, waits until the database
answers again, says so (INFO) and goes on with the next task. A task that was running when the
connection was lost is not run twice: it stays claimed, and an import among them is taken up
again like one whose worker died. Any other error still ends the worker, as before.
"""

from __future__ import annotations

import logging
import socket
import threading
import time

from django.conf import settings
from django.db import DatabaseError, connections
from django_tasks_db.management.commands import db_worker

from tournaments.db_errors import lost_connection
from tournaments.services.import_jobs import import_jobs_take_up
from tournaments.services.webhook_send import webhook_deliveries_take_up
from tournaments.services.worker_beat import worker_beat_record

log = logging.getLogger("efuda.worker")
TAKE_UP_EVERY = 60.0  # seconds
PROBE_EVERY = 0.5  # seconds between attempts to reach a database that went away
BEAT_RETRY = 2.0  # seconds before the next heartbeat after one that failed


def _beat_loop(stop: threading.Event) -> None:
    """Every ``WORKER_HEARTBEAT_SECONDS`` the worker's heartbeat (``/healthz`` reads it), and
    every ``TAKE_UP_EVERY`` the imports whose worker died taken up; until ``stop`` is set."""
    host = socket.gethostname()
    next_take_up = 0.0
    while True:
        wait = min(settings.WORKER_HEARTBEAT_SECONDS, TAKE_UP_EVERY)
        try:
            worker_beat_record(host=host)
            if time.monotonic() >= next_take_up:
                next_take_up = time.monotonic() + TAKE_UP_EVERY
                outcome = import_jobs_take_up()
                for key, jobs in outcome.items():
                    if jobs:
                        log.warning("imports whose worker died, %s: %s", key, jobs)
                if late := webhook_deliveries_take_up():
                    log.warning("webhook deliveries enqueued again: %s", late)
        except DatabaseError as error:  # the database away: again soon, so that the worker
            # is seen as soon as it is back
            log.warning("the heartbeat or taking up imports failed: %s", error)
            wait = min(wait, BEAT_RETRY)
        finally:
            connections.close_all()  # this thread's connections
        if stop.wait(wait):
            return


def _answers() -> bool:
    try:
        with connections["default"].cursor() as cursor:
            cursor.execute("SELECT 1")
        return True
    except DatabaseError:
        return False
    finally:
        connections.close_all()


class Worker(db_worker.Worker):
    """db_worker's worker, going on after a lost database connection (see module doc)."""

    def run(self) -> None:
        while True:
            try:
                return super().run()
            except DatabaseError as error:
                if not (self.running and lost_connection(error)):
                    raise
                log.warning("the database went away (%s); waiting for it", _first_line(error))
            self.running_task = False  # a signal now stops the worker at once
            connections.close_all()
            began = time.monotonic()
            while not _answers():
                time.sleep(PROBE_EVERY)
            log.info("the database is back after %.0f s; going on", time.monotonic() - began)


def _first_line(error: BaseException) -> str:
    return (str(error).strip() or type(error).__name__).splitlines()[0]


class Command(db_worker.Command):
    help = "Run the task worker (background imports); takes up imports whose worker died."

    def handle(self, *args, **options):
        stop = threading.Event()
        thread = threading.Thread(
            target=_beat_loop, args=(stop,), daemon=True, name="heartbeat-take-up"
        )
        thread.start()
        # db_worker's handle builds its loop from the module's ``Worker``: this one, while the
        # command runs (one command per process).
        vendor = db_worker.Worker
        db_worker.Worker = Worker
        try:
            return super().handle(*args, **options)
        finally:
            db_worker.Worker = vendor
            stop.set()
