"""The error pages: not found (404), not allowed (403), a form without its security token
(CSRF) and a server error (500), in the site's frame and the reader's language.

The 500 page is rendered without the request's context: no context processor runs, so it
reads nothing from the database (the error may be the database) and asks nothing of the
session; it is the site's base template with the parts that need them left out. A database
connection lost outside a view is answered 503 "try again in a moment" instead (db_errors.py).
"""

from django.http import HttpResponseForbidden, HttpResponseNotFound, HttpResponseServerError
from django.shortcuts import render
from django.template import loader
from django.views.decorators.csrf import requires_csrf_token

from ..db_errors import lost_connection_response


@requires_csrf_token
def page_not_found_view(request, exception=None):
    return render(request, "errors/404.html", status=HttpResponseNotFound.status_code)


@requires_csrf_token
def permission_denied_view(request, exception=None):
    return render(request, "errors/403.html", status=HttpResponseForbidden.status_code)


@requires_csrf_token
def csrf_failure_view(request, reason=""):
    """``CSRF_FAILURE_VIEW``: a form sent with an old or missing security token."""
    return render(request, "errors/403_csrf.html", status=HttpResponseForbidden.status_code)


def server_error_view(request):
    # A lost database connection outside a view (a session read in a middleware): 503.
    unavailable = lost_connection_response(request)
    if unavailable is not None:
        return unavailable
    return HttpResponseServerError(loader.get_template("errors/500.html").render({}))
