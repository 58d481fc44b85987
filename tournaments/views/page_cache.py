"""Read pages rendered once and reused, never stale: whole pages for visitors who are not
logged in, and the shared parts of a page for everyone else.

A club's read pages (club home, standings, session, player, ratings, tournament standings) are
the pages a hundred phones refresh during a club evening, most of them logged in: every player
has an account. What any two readers of a page see alike is rendered once and kept in Django's
cache under a key holding the club's ``data_version``; every write bumps that number in its own
transaction (services/cache.py), so the first request after a commit renders anew. Keys also
hold the language, the day (the club home's month, a session "so far" or finished), the address
and whose view it is (:func:`reader_view`).

- **Visitors without a session** (not logged in, no PIN, no pending message) get the whole
  page from the cache (:func:`cached_page`). Only the CSRF token differs between two of them:
  the page is rendered with a placeholder and each response carries its own visitor's token.
- **Everyone else** gets a page rendered for them, cheaply: their own parts (the header with
  their name, the tools of their role) per request ("my standing" is kept rendered per player
  under the page's key: :meth:`SharedParts.value`), and the parts every reader
  with the same view shares (tables, charts, lists) from the cache. A template marks those
  parts ``{% shared "name" [variable …] %} … {% endshared %}`` and the view hands the page a
  :class:`SharedParts`, which builds what they show only when one of them is not in the cache.
  A shared part is rendered as a visitor of the same address with no session would see it,
  from the values its view builds for everyone (never the reader's own) and the variables it
  names (a role's buttons: ``{% shared "deals" can_record %}``), which are part of its key.
  Forms inside carry the CSRF placeholder, replaced in each response by the reader's token.

Who may see a page is checked for every request before any of this; a key only tells apart
what readers who may see the page see differently.

What a reader may see of a tournament's deals depends on who they are
(``selectors/visibility.py``: a private tournament's deals are hidden from non-members, a
frozen round's from all but the tournament's staff), so the reader's ``Visibility`` is part of
the key's view (:func:`reader_view`), computed for each request: two readers share a part only
when the same deals are hidden from both. For readers who are not logged in it is decided by
stored rows only (a tournament's privacy, its freeze, its reveal, the rounds started), and
every change to those is a write that moves the club's data version, so their key names the
audience (``ANONYMOUS``) and the version does the rest: a freeze, a reveal or a round starting
changes the key, and the cache never serves what was shown before.

A shared part that fails only makes this slower: a cache that is down is a miss and the page
renders uncached (config/cache.py), a replica that is down or fails mid-page leaves the primary
to render it (config/routers.py).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from functools import wraps

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from config.routers import reading_replica, replica_failed

from ..context_processors import CSRF_PLACEHOLDER, request_token
from ..models import Club
from ..permissions import club_role
from ..reader import Reader
from ..selectors.clubs import club_page_version, replica_caught_up
from ..selectors.visibility import Visibility, deal_visibility

KEPT_HEADERS = ("Content-Type", "Content-Disposition")

# Whose view of a club's pages a request gets (reader_view).
ANONYMOUS = "anon"  # not logged in: what they see follows from the club's version alone
PUBLIC = "public"  # logged in, not a member of the club
MEMBER = "member"  # its members, scorekeepers and owners, and site staff


def reader_view(request, club: Club, visibility: Visibility | None = None) -> str:
    """Whose view of ``club``'s pages this request gets: beside the club's data version, the
    language, the day and the address, the one thing a shared part of a page may depend on.

    ``ANONYMOUS`` for whoever is not logged in (visitors, PIN holders: a PIN adds nothing on
    the club's pages). For a logged-in reader, their role in the club (``PUBLIC`` for a
    non-member, ``MEMBER`` for members, scorekeepers, owners and site staff: members also see
    the club's private tournaments in its home page's list) and the key of what is hidden from
    them (``visibility``, the reader's :func:`deal_visibility`, computed here if not given): two
    readers get the same view only when the same deals are hidden from both. What a role
    changes in a shared part (buttons) is named by the part itself."""
    reader = Reader.of_request(request)
    if not reader.is_authenticated:
        return ANONYMOUS
    if visibility is None:
        visibility = deal_visibility(club=club, reader=reader)
    role = MEMBER if club_role(reader, club) else PUBLIC
    return f"{role}:{visibility.key}"


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
            # Logged in (or a PIN, a message): the page is rendered for this reader, with the
            # shared parts from the cache (SharedParts); forms in them get this reader's token.
            return _with_token(request, view(request, *args, **kwargs))
        version = club_page_version(
            slug=kwargs.get("club_slug"),
            tournament_id=kwargs.get("tournament_id"),
        )
        if version is None:  # unknown, or not public: the view answers (404) as always
            return view(request, *args, **kwargs)
        # htmx asks some pages for a fragment only: another variant of the same address.
        view_of = reader_view(request, Club(pk=version[0]))  # ANONYMOUS: no one is logged in
        key = f"efuda:page:{version[0]}:{version[1]}:{view_of}:{_variant(request)}"
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


def _variant(request) -> str:
    """The language, the day and the address (htmx asks some pages for a fragment only: another
    variant of the same address)."""
    address = f"{request.get_full_path()}|{request.headers.get('HX-Request', '')}"
    digest = hashlib.sha1(address.encode()).hexdigest()
    return f"{get_language()}:{timezone.localdate().isoformat()}:{digest}"


def _render(view, request, version, *args, **kwargs):
    """Render for the cache (see ``_for_the_cache``)."""
    return _for_the_cache(version[0], version[1], lambda: view(request, *args, **kwargs))


def _for_the_cache(club_id: int, version: int, render: Callable, *, again: Callable = None):
    """Render what will be kept for ``version``: from the replica when it caught up with the
    club, otherwise, or when the replica fails in the middle, from the primary (``again``
    first forgets what the failed attempt read)."""
    if replica_caught_up(club_id=club_id, version=version):
        try:
            with reading_replica():
                return render()
        except DatabaseError as error:
            replica_failed(error)
            if again is not None:
                again()
    return render()


def _with_token(request, response):
    if not response.streaming and CSRF_PLACEHOLDER.encode() in response.content:
        response.content = response.content.replace(
            CSRF_PLACEHOLDER.encode(), request_token(request).encode()
        )
    return response


class SharedParts:
    """The parts of one page that every reader with the same view shares (module doc), for the
    ``{% shared %}`` tag: the view passes one as ``shared`` with ``build``, a function of the
    ``neutral_request`` returning what those parts show — built for everyone with the same
    view, so nothing of the reader's own, and only the deals ``visibility`` lets them see —
    called at most once, and only when a part is not in the cache. ``visibility`` is the
    reader's :func:`deal_visibility`, which the view computed for its own reads (computed
    here otherwise): ``build`` reads through the same one."""

    def __init__(
        self,
        request,
        club: Club,
        build: Callable[[HttpRequest], dict],
        *,
        visibility: Visibility | None = None,
    ):
        self.request = request
        self.club_id = club.pk
        self.version = club.data_version
        self.view = reader_view(request, club, visibility)
        self._build = build
        self._values: dict | None = None
        self.prefix = f"efuda:part:{club.pk}:{club.data_version}:{self.view}:{_variant(request)}"

    def _key(self, name: str, vary: dict) -> str:
        named = repr((name, sorted(vary.items())))
        return f"{self.prefix}:{hashlib.sha1(named.encode()).hexdigest()}"

    @property
    def _kept(self) -> bool:
        # A whole page rendered for visitors is kept as it is: its parts are not kept twice.
        return bool(settings.EFUDA_PAGE_CACHE_SECONDS) and not getattr(
            self.request, "efuda_page_cache", False
        )

    def values(self, processors=()) -> dict:
        """What the shared parts are rendered with: the template's context processors run on a
        visitor of the same address with no session (``neutral_request``), then ``build``."""
        if self._values is None:
            neutral = neutral_request(self.request)
            values = {}
            for processor in processors:
                values.update(processor(neutral))
            values.update(self._build(neutral))
            values["request"] = neutral
            self._values = values
        return self._values

    def part(self, name: str, vary: dict, render: Callable[[], str]) -> SafeString:
        """The part ``name`` (and the values it varies by) from the cache, or ``render()``d
        and kept."""
        if not self._kept:
            return mark_safe(render())
        key = self._key(name, vary)
        html = cache.get(key)
        if html is None:
            html = str(_for_the_cache(self.club_id, self.version, render, again=self._forget))
            cache.set(key, html, settings.EFUDA_PAGE_CACHE_SECONDS)
        return mark_safe(html)  # noqa: S308 - rendered by our own templates, escaped there

    def value(self, name: str, build: Callable, *vary):
        """``build()`` kept under this page's key: for the reader's own figures that follow only
        from the club's records and a value in ``vary`` (their player's standing)."""
        if not self._kept:
            return build()
        key = self._key(f"value:{name}", {"vary": vary})
        found = cache.get(key)
        if found is None:
            found = build()
            cache.set(key, found, settings.EFUDA_PAGE_CACHE_SECONDS)
        return found

    def _forget(self) -> None:
        self._values = None


NEUTRAL_META = ("SERVER_NAME", "SERVER_PORT", "HTTP_HOST", "QUERY_STRING", "SCRIPT_NAME",
                "wsgi.url_scheme", "HTTP_X_FORWARDED_PROTO", "HTTP_HX_REQUEST")  # fmt: skip


def neutral_request(request) -> HttpRequest:
    """``request``'s address with nobody behind it: no user, session, cookies or messages, and
    the CSRF placeholder as its token. Shared parts are rendered with it."""
    neutral = HttpRequest()
    neutral.method = "GET"
    neutral.path, neutral.path_info = request.path, request.path_info
    neutral.GET = request.GET
    neutral.META = {k: request.META[k] for k in NEUTRAL_META if k in request.META}
    neutral.user = AnonymousUser()
    neutral.reader = Reader(user=neutral.user)
    neutral.resolver_match = getattr(request, "resolver_match", None)
    neutral.LANGUAGE_CODE = get_language()
    neutral.efuda_page_cache = True  # the CSRF placeholder (context_processors.csrf)
    return neutral
