"""The project's own middleware (settings.MIDDLEWARE places each).

``SessionCookieMiddleware``: a session cookie Django could not have made is no session.

``KeptHeadersMiddleware``: a NUL byte in a header django-axes keeps is written ``0x00``.

``DatabaseBusyMiddleware``: a database busy with another writer answers 503 "try again", never a
500. On SQLite every request runs inside ``services.busy.bounded_wait``: while a large import
writes, a request that writes (a deal, an edit, anything) waits for the writer only briefly, then
gets this answer; any other write that ran out of SQLite's busy timeout gets it too. The phone's
outbox treats a 503 as "not sent yet": it keeps the deal and sends it again.

``ReaderMiddleware``: ``request.reader``, who reads this request (tournaments/reader.py).

``WhoHeaderMiddleware``: every page says who this browser is, for the service worker."""

import re

from django.conf import settings
from django.contrib.sessions.backends.base import VALID_KEY_CHARS
from django.http import JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext

from .authors import WHO_HEADER, request_who
from .reader import Reader
from .services.busy import DatabaseBusy, bounded_wait, bulk_write_running, is_locked

RETRY_AFTER = 5  # seconds

# A session key as Django makes one: 32 of VALID_KEY_CHARS (SessionBase._get_new_session_key).
# Django's store reads any key of 8 characters or more (SessionBase._validate_session_key) from
# a column of 40 (Session.session_key): what lies outside both can name no stored session.
SESSION_KEY_FORM = re.compile(f"[{re.escape(VALID_KEY_CHARS)}]{{8,40}}")


class SessionCookieMiddleware:
    """A session cookie whose value Django could not have made (a NUL byte, other characters,
    non-ASCII, too short or too long) is no session: it is taken out of the request before
    Django's ``SessionMiddleware`` (placed after this one) reads it, and the response deletes
    it. Django's own store would look such a key up, and PostgreSQL refuses a NUL byte in a
    query with an error (``DataError``): a 500 on every page for whoever holds the cookie. A
    key of the right form that names no live session is Django's to answer (no session; the
    cookie deleted)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        name = settings.SESSION_COOKIE_NAME
        value = request.COOKIES.get(name)
        malformed = value is not None and not SESSION_KEY_FORM.fullmatch(value)
        if malformed:
            del request.COOKIES[name]  # Django's SessionMiddleware sees no cookie: no session
        response = self.get_response(request)
        if malformed and name not in response.cookies:  # unless a new session was saved
            response.delete_cookie(
                name,
                path=settings.SESSION_COOKIE_PATH,
                domain=settings.SESSION_COOKIE_DOMAIN,
                samesite=settings.SESSION_COOKIE_SAMESITE,
            )
        return response


# The request headers django-axes keeps with every login, failed or not (its AccessAttempt,
# AccessFailureLog and AccessLog rows), beside the address and the path.
KEPT_HEADERS = ("HTTP_USER_AGENT", "HTTP_ACCEPT")


class KeptHeadersMiddleware:
    """A NUL byte in a header django-axes keeps (``KEPT_HEADERS``) is written ``0x00``, as axes
    itself writes it in the form data it keeps. PostgreSQL refuses a NUL byte in text
    (``DataError``): a login with one in its User-Agent answered 500, and a failed one went
    uncounted by the lock-out."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        meta = request.META
        for name in KEPT_HEADERS:
            value = meta.get(name)
            if value and "\x00" in value:
                meta[name] = value.replace("\x00", "0x00")
        return self.get_response(request)


class ReaderMiddleware:
    """Sets ``request.reader`` (tournaments.reader.Reader) once per request, after Django's
    ``AuthenticationMiddleware``: who reads, for every view and check to pass along. The user
    is not read from the session until something asks."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request.reader = Reader(user=request.user)
        return self.get_response(request)


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
