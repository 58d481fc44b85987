"""A database that restarts costs no 500: a request that meets a lost connection answers 503
"try again in a moment" with ``Retry-After``.

When PostgreSQL restarts or fails over (``pg_ctl restart``, a standby promoted), every
connection the gunicorn workers hold dies with it. Production checks each connection before a
request gets it (``CONN_HEALTH_CHECKS``: psycopg's pool runs ``check_connection`` on the way
out, config/settings/production.py), so a request starts on a live one, and one that arrives
while the server is still down waits for the pool (``DB_POOL_TIMEOUT``) rather than failing.
A request that still meets a lost connection — the server went away in the middle of it, or
did not come back within the pool's timeout — is answered 503 with ``Retry-After``: a page in
the site's frame, or, to the phone's outbox, the JSON it reads as "not sent yet" (it keeps the
deal and sends it again). It is logged as one WARNING line, without a traceback.

Only ``OperationalError`` and ``InterfaceError`` raised by the PostgreSQL driver count (a lost
or refused connection, a server shutting down or starting up, the pool's timeout); every other
database error is still a 500 with its traceback, and SQLite's own errors are left to
``middleware.DatabaseBusyMiddleware`` and the 500 page.

Where the connection is lost decides who answers. In a view (or its template) it is
:class:`LostConnectionMiddleware`. Outside one — the session is read on first use, and that
may be in a middleware after the view (``WhoHeaderMiddleware`` names the reader of every page)
— Django turns the error into its 500 response, and ``views.errors.server_error_view`` answers
503 instead (:func:`lost_connection_response`). A failed session read used to show
``AttributeError: 'SessionStore' object has no attribute '_session_cache'`` at the head of that
500's traceback: Django's ``SessionBase._get_session`` loads the session inside ``except
AttributeError`` (the cache not filled yet), so the AttributeError is only the context of the
connection error raised while loading; it is this module's 503 now.
"""

from __future__ import annotations

import logging
import sys

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template import loader
from django.utils.translation import gettext

RETRY_AFTER = 5  # seconds: a fast restart is over by then

logger = logging.getLogger("efuda.db")


def lost_connection(error: BaseException | None) -> bool:
    """Whether ``error`` is the PostgreSQL connection lost or out of reach (see module doc)."""
    if not isinstance(error, OperationalError | InterfaceError):
        return False
    cause = error.__cause__
    return cause is not None and type(cause).__module__.startswith(("psycopg", "psycopg_pool"))


def _reason(error: BaseException) -> str:
    text = str(error).strip() or type(error).__name__
    return text.splitlines()[0]


def unavailable(request: HttpRequest) -> HttpResponse:
    """503 "try again in a moment", rendered without the request's context: no context
    processor runs, so nothing here asks the database or the session."""
    message = gettext(
        "The database did not answer for a moment (it may be restarting). Nothing is lost; "
        "what you were saving may not have been saved: try again in a moment (a phone keeps "
        "a deal that was not answered and sends it again by itself)."
    )
    wants_json = "json" in request.headers.get("Accept", "") or request.headers.get(
        "X-Efuda-Outbox"
    )
    if wants_json:
        response = JsonResponse({"ok": False, "busy": True, "message": message}, status=503)
    else:
        html = loader.get_template("errors/503.html").render({"message": message})
        response = HttpResponse(html, status=503)
    response["Retry-After"] = str(RETRY_AFTER)
    return response


class LostConnectionMiddleware:
    """A view that meets a lost database connection answers 503 (see module doc)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not lost_connection(exception):
            return None
        logger.warning(
            "database connection lost (%s): %s %s answered 503",
            _reason(exception), request.method, request.path,
        )  # fmt: skip
        return unavailable(request)


def lost_connection_response(request: HttpRequest) -> HttpResponse | None:
    """For the 500 handler: the 503 when the error being handled is a lost connection."""
    error = sys.exc_info()[1]
    return unavailable(request) if lost_connection(error) else None


class _OneLine(logging.Filter):
    """Django logs every response it made from an error at ERROR with the traceback
    (``django.request``); a lost connection answered 503 by the 500 handler is one WARNING
    line, as the middleware logs it."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if lost_connection(error):
            path = getattr(getattr(record, "request", None), "path", "")
            record.msg = "database connection lost (%s): %s answered 503"
            record.args = (_reason(error), path)
            record.exc_info = record.exc_text = None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


logging.getLogger("django.request").addFilter(_OneLine())
