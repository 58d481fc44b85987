"""ETags for the API's reads and ``If-Match`` for its edits (docs/api.md, "Polling").

A read's ETag is made from what its answer depends on, before the answer is read: the club's
``data_version`` (every write that changes what a club shows moves it, in its own
transaction: services/cache.py), what the reader may see there (their role, and the key of
the deals hidden from them: ``selectors.visibility``, the same key the pages' cache uses), the
language and the address (path and query). A poller that sends it back as ``If-None-Match``
gets 304 once the club is loaded and the reader's visibility known, before any other read:
one query for the club (with the reader's role), the visibility kept in the cache per data
version. Two readers who may see different things get different ETags, so a 304 never
confirms what another reader was shown. Answers say ``Vary: Authorization, Accept-Language``.

A deal's ETag is its version (``"deal-<id>-<version>"``): an edit or a delete sends it as
``If-Match``; another version answers 412, none at all 428.
"""

from __future__ import annotations

import hashlib
from functools import wraps

from django.http import HttpResponse
from django.utils.cache import patch_vary_headers
from django.utils.http import parse_etags
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from ..permissions import club_role
from .errors import ApiRefusalError, NotModifiedError

VARY = ("Authorization", "Accept-Language")


def _tag(*parts) -> str:
    digest = hashlib.sha256("\n".join(str(p) for p in parts).encode()).hexdigest()
    return f'"{digest[:32]}"'


def read_etag(request, *, club, visibility, extra: str = "") -> None:
    """Set the answer's ETag (see module doc); raise ``NotModifiedError`` when the request's
    ``If-None-Match`` names it. ``extra``: anything else the answer depends on (a PIN's
    table)."""
    role = club_role(request.reader, club) or "-"  # read with the club: no query
    tag = _tag(club.pk, club.data_version, role, visibility.key, get_language(),
               request.get_full_path(), extra)  # fmt: skip
    request.api_etag = tag
    sent = request.headers.get("If-None-Match", "")
    if sent and (sent.strip() == "*" or tag in parse_etags(sent)):
        raise NotModifiedError


def _headers(request, response: HttpResponse) -> HttpResponse:
    patch_vary_headers(response, VARY)
    tag = getattr(request, "api_etag", None)
    if tag and response.status_code in (200, 304):
        response["ETag"] = tag
        response["Cache-Control"] = "private, no-cache"
    return response


def fresh(view):
    """The view-level decorator of the read routers: the ETag and ``Vary`` on every answer."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        return _headers(request, view(request, *args, **kwargs))

    return wrapper


def deal_etag(deal) -> str:
    return f'"deal-{deal.pk}-{deal.version}"'


def if_match_version(request, deal) -> int:
    """The deal version the request's ``If-Match`` names: 428 without one, 412 when it names
    another version than the deal's own (the service checks it again, under the deal's lock)."""
    sent = request.headers.get("If-Match")
    if not sent:
        text = _("Send the deal's ETag as If-Match: an edit must say which version it changes.")
        raise ApiRefusalError(428, field="If-Match", code="if_match_missing", message=text)
    tags = parse_etags(sent)
    if deal_etag(deal) not in tags:
        raise stale()
    return deal.version


def stale() -> ApiRefusalError:
    text = _("This deal was changed since: read it again (its ETag) and send your change anew.")
    return ApiRefusalError(412, field="If-Match", code="deal_stale", message=text)
