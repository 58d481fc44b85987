"""Cached read pages for visitors who are not logged in, never stale.

A public club's read pages (club home, standings, session, player, tournament standings) are the
pages a hundred phones refresh during a club evening. For a visitor with no session (not logged
in, no PIN, no pending message) the rendered page is kept in Django's cache under a key holding
the club's ``data_version``; every write bumps that number in its own transaction
(services/cache.py), so the next request after a commit renders anew. Logged-in users, PIN
holders and private clubs always get a fresh render of their own.

Only the CSRF token differs between two visitors of one page: the page is rendered with a
placeholder and each response carries its own visitor's token.

A shared part that fails only makes this slower: a cache that is down is a miss and the page
renders uncached (config/cache.py), a replica that is down or fails mid-page leaves the primary
to render it (config/routers.py).

What a reader may see of a tournament's deals depends on who they are
(``selectors/visibility.py``); the key names the one audience served here, visitors who are
not logged in (``ANONYMOUS``). What that audience sees is decided by stored rows only (a
tournament's privacy, its freeze, its reveal, the rounds started), and every change to those is
a write that moves the club's data version, so a freeze, a reveal or a round starting changes
the key: the cache never serves what was shown before.
"""

from __future__ import annotations

import hashlib
from functools import wraps

from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError
from django.http import HttpResponse
from django.middleware.csrf import get_token
from django.utils.translation import get_language

from config.routers import reading_replica, replica_failed

from ..context_processors import CSRF_PLACEHOLDER
from ..selectors.clubs import club_page_version, replica_caught_up

KEPT_HEADERS = ("Content-Type", "Content-Disposition")
ANONYMOUS = "anon"  # the audience whose pages are kept (see the module doc)


def _anonymous(request) -> bool:
    cookies = request.COOKIES
    return (
        request.method in ("GET", "HEAD")
        and settings.SESSION_COOKIE_NAME not in cookies
        and "messages" not in cookies
    )


def cached_page(view):
    """Serve ``view`` from the page cache for visitors without a session (see module doc)."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if not settings.EFUDA_PAGE_CACHE_SECONDS or not _anonymous(request):
            return view(request, *args, **kwargs)
        version = club_page_version(
            slug=kwargs.get("club_slug"),
            tournament_id=kwargs.get("tournament_id"),
        )
        if version is None:  # unknown, or not public: the view answers (404) as always
            return view(request, *args, **kwargs)
        # htmx asks some pages for a fragment only: another variant of the same address.
        variant = f"{request.get_full_path()}|{request.headers.get('HX-Request', '')}"
        path = hashlib.sha1(variant.encode()).hexdigest()
        key = f"efuda:page:{version[0]}:{version[1]}:{ANONYMOUS}:{get_language()}:{path}"
        hit = cache.get(key)
        if hit is None:
            request.efuda_page_cache = True
            try:
                response = _render(view, request, version, *args, **kwargs)
            finally:
                request.efuda_page_cache = False
            if response.status_code != 200 or response.streaming or response.cookies:
                return _with_token(request, response)
            headers = {k: response[k] for k in KEPT_HEADERS if response.has_header(k)}
            hit = (response.content, headers)
            cache.set(key, hit, settings.EFUDA_PAGE_CACHE_SECONDS)
        content, headers = hit
        return _with_token(request, HttpResponse(content, headers=headers))

    return wrapper


def _render(view, request, version, *args, **kwargs):
    """Render for the cache: from the replica when it caught up with the club, otherwise, or
    when the replica fails in the middle of the page, from the primary."""
    if replica_caught_up(club_id=version[0], version=version[1]):
        try:
            with reading_replica():
                return view(request, *args, **kwargs)
        except DatabaseError as error:
            replica_failed(error)
    return view(request, *args, **kwargs)


def _with_token(request, response):
    if not response.streaming and CSRF_PLACEHOLDER.encode() in response.content:
        response.content = response.content.replace(
            CSRF_PLACEHOLDER.encode(), get_token(request).encode()
        )
    return response
