"""A database busy with another writer answers 503 "try again", never a 500.

On SQLite every request runs inside ``services.busy.bounded_wait``: while a large import writes,
a request that writes (a deal, an edit, anything) waits for the writer only briefly, then gets
this answer; any other write that ran out of SQLite's busy timeout gets it too.
The phone's outbox treats a 503 as "not sent yet": it keeps the deal and sends it again.
"""

from django.http import JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext

from .authors import WHO_HEADER, request_who
from .services.busy import DatabaseBusy, bounded_wait, bulk_write_running, is_locked

RETRY_AFTER = 5  # seconds


class DatabaseBusyMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        with bounded_wait():  # SQLite, during a large import's write: a short wait for writes
            return self.get_response(request)

    def process_exception(self, request, exception):
        if not (isinstance(exception, DatabaseBusy) or is_locked(exception)):
            return None
        if bulk_write_running():
            message = gettext(
                "Not recorded yet: the database is busy writing a large import. Nothing was "
                "saved; save again in a moment (a phone keeps the deal and sends it again by "
                "itself)."
            )
        else:  # other writes held SQLite's one writer past its busy timeout
            message = gettext(
                "Not recorded yet: the database is busy with other saves. Nothing was saved; "
                "save again in a moment (a phone keeps the deal and sends it again by itself)."
            )
        wants_json = "json" in request.headers.get("Accept", "") or request.headers.get(
            "X-Efuda-Outbox"
        )
        if wants_json:
            response = JsonResponse({"ok": False, "busy": True, "message": message}, status=503)
        else:
            response = render(request, "busy.html", {"message": message}, status=503)
        response["Retry-After"] = str(RETRY_AFTER)
        return response


class WhoHeaderMiddleware:
    """Every page says who this browser is (``X-Efuda-Who``: the account and the tournament
    PINs it holds, as author keys; empty when nobody). The service worker (static/js/sw.js)
    keeps entry pages for that person only and forgets them as soon as a page says someone
    else (a logout, another login), so a kept page never opens for anyone but its user."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if "text/html" in response.get("Content-Type", "") or response.status_code in (301, 302):
            response[WHO_HEADER] = request_who(request)
        return response
