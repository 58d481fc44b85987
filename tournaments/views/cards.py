"""Share cards: the ``og:image`` pictures of a session's result and a month's standings, and the
tags that name them on those pages (docs/api.md, "Share cards").

- **Who sees a card:** whoever may see its page. ``club_for_request`` answers 404 to outsiders
  of a private club, a session hidden from the reader (a private tournament's table, a frozen
  round's) answers 404, and standings are read with the reader's ``deal_visibility``.
- **The tags** (``og:image``, ``og:title``, ``og:description``, ``twitter:card``) are written
  only on a public club's pages as visitors who are not logged in get them, which is what a
  chat or a social site fetches for a pasted link. A private club's pages never name a card.
- **Kept by version:** a card's values and its picture are kept in Django's cache under the
  club's data version, the reader's view of the club (``page_cache.reader_view``), the
  language and the subject, so a card is drawn once per version. The picture's address holds
  the version (``?v=``) and the language (``?lang=``): a page made after a deal names a new
  address, and a link preview fetched before shows the older picture only under the older one.
  A cache that is down is a miss: the card is drawn for the request.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from django.conf import settings
from django.core.cache import cache
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.http import urlencode
from django.utils.translation import get_language, override
from django.views.decorators.http import require_safe

from ..models import Club, Game, GameSession
from ..permissions import club_for_request
from ..reports.cards import HEIGHT, WIDTH, card_png
from ..selectors.cards import ShareCard, session_card, standings_card
from ..selectors.standings import Period
from ..selectors.visibility import deal_visibility
from .page_cache import ANONYMOUS, reader_view

KEPT_SECONDS = 7 * 24 * 3600  # a card is kept per version: a newer version names another key
MAX_AGE_CURRENT = 24 * 3600  # the address of the current version: its picture never changes
MAX_AGE_OLDER = 300  # an older version's address (or none): it shows the current picture


def _language(request) -> str:
    asked = request.GET.get("lang", "")
    return asked if asked in dict(settings.LANGUAGES) else get_language()


def _key(club: Club, view_of: str, language: str, subject: str) -> str:
    view = hashlib.sha1(view_of.encode()).hexdigest()[:16]
    return f"efuda:card:{club.pk}:{club.data_version}:{view}:{language}:{subject}"


def kept_card(club: Club, view_of: str, language: str, subject: str, build: Callable) -> ShareCard:
    """The card's values, from the cache or ``build()`` (in ``language``) and kept."""
    key = _key(club, view_of, language, subject)
    card = cache.get(key)
    if card is None:
        with override(language):
            card = build()
        cache.set(key, card, KEPT_SECONDS)
    return card


def _picture(request, club: Club, subject: str, build: Callable) -> HttpResponse:
    """The card's PNG for this reader, kept beside its values."""
    view_of = reader_view(request, club)
    language = _language(request)
    key = _key(club, view_of, language, subject) + ":png"
    png = cache.get(key)
    if png is None:
        png = card_png(kept_card(club, view_of, language, subject, build))
        cache.set(key, png, KEPT_SECONDS)
    response = HttpResponse(png, content_type="image/png")
    etag = f'"{hashlib.sha1(key.encode()).hexdigest()}"'
    response["ETag"] = etag
    if view_of == ANONYMOUS:
        current = request.GET.get("v") == str(club.data_version)
        patch_cache_control(
            response, public=True, max_age=MAX_AGE_CURRENT if current else MAX_AGE_OLDER
        )
    else:  # drawn from what this reader may see: no shared cache keeps it
        patch_cache_control(response, private=True, no_cache=True)
    return get_conditional_response(request, etag=etag, response=response)


def _visible_session(club: Club, session_id: int, visibility) -> GameSession:
    if session_id in visibility.hidden_session_ids:
        raise Http404
    return get_object_or_404(
        GameSession.objects.select_related("ruleset", "club"), club=club, pk=session_id
    )


@require_safe
def session_card_view(request, club_slug: str, pk: int):
    """``/c/<club>/sessions/<id>/card.png``: the session's result."""
    club = club_for_request(request, club_slug)
    session = _visible_session(club, pk, deal_visibility(club=club, reader=request.reader))
    return _picture(request, club, f"session:{pk}", lambda: session_card(session=session))


def _month(year: int, month: int) -> Period:
    try:
        return Period.of(year, month)
    except ValueError:
        raise Http404 from None


@require_safe
def standings_card_view(request, club_slug: str, game: str, year: int, month: int):
    """``/c/<club>/standings/<game>/<year>/<month>/card.png``: the month's top players."""
    club = club_for_request(request, club_slug)
    if game not in Game.values:
        raise Http404
    period = _month(year, month)
    visibility = deal_visibility(club=club, reader=request.reader)

    def build():
        return standings_card(club=club, game=game, period=period, visibility=visibility)

    return _picture(request, club, f"standings:{game}:{period.key}", build)


def share_meta(request, club: Club, *, page_url: str, card_url: str, subject: str, build):
    """The tags of a page's card, or None where none is written (module doc): only on a
    public club's page as a visitor who is not logged in gets it."""
    if not club.is_public or request.reader.is_authenticated:
        return None
    language = get_language()
    card = kept_card(club, ANONYMOUS, language, subject, build)
    query = urlencode({"v": club.data_version, "lang": language})
    return {
        "card": card,
        "image": f"{settings.SITE_URL}{card_url}?{query}",
        "url": f"{settings.SITE_URL}{page_url}",
        "width": WIDTH,
        "height": HEIGHT,
    }


def session_meta(request, club: Club, pk: int, visibility):
    """``share_meta`` of a session page, for a reader with ``visibility``."""

    def build():
        return session_card(session=_visible_session(club, pk, visibility))

    return share_meta(
        request, club, subject=f"session:{pk}", build=build,
        page_url=reverse("session_detail", args=[club.slug, pk]),
        card_url=reverse("session_card", args=[club.slug, pk]),
    )  # fmt: skip


def standings_meta(request, club: Club, game: str, period: Period, visibility):
    """``share_meta`` of a month's standings page, for a reader with ``visibility``."""
    if period.kind != "month":
        return None

    def build():
        return standings_card(club=club, game=game, period=period, visibility=visibility)

    args = [club.slug, game, period.year, f"{period.month:02d}"]
    return share_meta(
        request, club, subject=f"standings:{game}:{period.key}", build=build,
        page_url=reverse("standings_month", args=args),
        card_url=reverse("standings_card", args=args),
    )  # fmt: skip
