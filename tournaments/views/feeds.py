"""The club's feeds: an Atom feed of its sessions (Django's syndication framework) and an
iCalendar of its tournaments and sessions (docs/api.md, "Feeds and calendars").

Thin: ``club_for_request`` answers 404 exactly where the club's pages do (a private club to
anyone not a member), and selectors/feeds.py reads through the pages' own selectors, so a feed
shows the reader what the session list and the tournament list show them.

With ``?key=…`` (a member's secret link: services/feed_keys.py) the feed reads as the key's
person, whoever asks and whatever cookie they send: the same visibility as their own pages. A
key that is unknown, revoked, of another club, of a membership that ended or of an account no
longer active answers 404, as the private club does to a stranger. Each key's reads are
counted (``EFUDA_FEED_RATE_KEY``, allauth's limiter, as the API's tokens): past the limit, 429.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

from allauth.core.internal import ratelimit
from django.conf import settings
from django.contrib.syndication.views import Feed
from django.core.cache import cache
from django.http import Http404, HttpResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_cache_control
from django.utils.feedgenerator import Atom1Feed
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_safe

from ..ical import Event, calendar_text
from ..models import Club, Game
from ..permissions import club_for_request
from ..reader import Reader
from ..selectors.feeds import FeedSession, calendar, feed_key_reader, feed_sessions
from ..selectors.visibility import deal_visibility


def session_title(session) -> str:
    return _("%(date)s %(game)s, table %(table)s") % {
        "date": session.date.isoformat(),
        "game": Game(session.game).label,
        "table": session.table,
    }


RATE_APP = "efuda.feeds"
DEFAULT_KEY_RATE = "60/m"  # a feed reader polls every few minutes at most


@dataclass(frozen=True)
class _Found:
    """The club, who reads it, and the secret key they came with (None: their login, if any)."""

    club: Club
    reader: Reader
    key: str | None = None
    key_id: int | None = None


def _find(request, club_slug: str) -> _Found:
    raw = request.GET.get("key")
    if raw is None:
        return _Found(club_for_request(request, club_slug), request.reader)
    found = feed_key_reader(club_slug=club_slug, raw=raw)
    if found is None:
        raise Http404
    club, reader, key_id = found
    return _Found(club, reader, raw, key_id)


def _key_rate() -> str:
    rate = getattr(settings, "EFUDA_FEED_RATE_KEY", DEFAULT_KEY_RATE) or ""
    return f"{rate}/key" if rate.count("/") == 1 else rate


def _over_limit(request, found: _Found) -> HttpResponse | None:
    """A 429 with ``Retry-After`` when the key has been read too often; None otherwise."""
    rate = _key_rate()
    if found.key_id is None or not rate:
        return None
    key = f"feedkey:{found.key_id}"
    if ratelimit.consume(request, app=RATE_APP, action="key", config={"key": rate}, key=key,
                         limit_get=True):  # fmt: skip
        return None
    wait = 1
    for parsed in ratelimit.parse_rates(rate):
        cache_key = ratelimit.get_cache_key(request, app=RATE_APP, action="key", rate=parsed,
                                            key=key)  # fmt: skip
        history = cache.get(cache_key) or []
        if len(history) >= parsed.amount:
            wait = max(wait, math.ceil(history[-1] + parsed.duration - time.time()))
    response = HttpResponse(
        _("Too many requests: wait a little, then try again."), status=429,
        content_type="text/plain; charset=utf-8",
    )  # fmt: skip
    response["Retry-After"] = str(wait)
    return response


def _with_key(url: str, found: _Found) -> str:
    return f"{url}?{urlencode({'key': found.key})}" if found.key else url


@dataclass(frozen=True)
class _FeedObject:
    found: _Found
    items: list[FeedSession]

    @property
    def club(self) -> Club:
        return self.found.club


class SessionsFeed(Feed):
    """``/c/<club>/sessions.atom``: the latest sessions the reader may see, newest first."""

    feed_type = Atom1Feed

    def get_object(self, request, found: _Found):
        visibility = deal_visibility(club=found.club, reader=found.reader)
        return _FeedObject(found, feed_sessions(club=found.club, visibility=visibility))

    def title(self, obj):
        return _("%(club)s: sessions") % {"club": obj.club.name}

    def subtitle(self, obj):
        return _("The latest sessions of %(club)s on efuda, newest first.") % {
            "club": obj.club.name
        }

    def link(self, obj):
        return reverse("session_list", args=[obj.club.slug])

    def feed_url(self, obj):  # a secret link names itself with its key
        return _with_key(reverse("club_sessions_feed", args=[obj.club.slug]), obj.found)

    def items(self, obj):
        return obj.items

    def item_title(self, item: FeedSession):
        return session_title(item.session)

    def item_link(self, item: FeedSession):
        return reverse("session_detail", args=[item.session.club.slug, item.session.pk])

    def item_description(self, item: FeedSession):
        if item.session.game == Game.DAIFUGO:
            deals = ngettext("%(n)s round", "%(n)s rounds", item.deals) % {"n": item.deals}
        else:
            deals = ngettext("%(n)s deal", "%(n)s deals", item.deals) % {"n": item.deals}
        if not item.winners:
            return deals
        top = _("On top: %(names)s (%(points)s)") % {
            "names": ", ".join(item.winners),
            "points": f"{item.best:+d}",
        }
        return f"{top} · {deals}"

    def item_pubdate(self, item: FeedSession):
        return item.session.created_at

    def item_updateddate(self, item: FeedSession):
        return item.session.created_at


_sessions_feed = SessionsFeed()


@require_safe
def sessions_feed_view(request, club_slug: str):
    """``/c/<club>/sessions.atom`` (``SessionsFeed``); ``?key=``: a member's secret link."""
    found = _find(request, club_slug)
    refused = _over_limit(request, found)
    if refused is not None:
        return refused
    return _private_for_members(request, found, _sessions_feed(request, found=found))


def _private_for_members(request, found: _Found, response):
    """What a logged-in reader or a key's holder gets may hold what others may not see: no
    shared cache keeps it (``Vary: Cookie`` comes from the session middleware; a key is in
    the address)."""
    if request.reader.is_authenticated or found.key:
        patch_cache_control(response, private=True)
    return response


@require_safe
def tournaments_ics_view(request, club_slug: str):
    """``/c/<club>/tournaments.ics``: the tournaments and sessions the reader may see
    (``?key=``: a member's secret link)."""
    who = _find(request, club_slug)
    refused = _over_limit(request, who)
    if refused is not None:
        return refused
    club = who.club
    visibility = deal_visibility(club=club, reader=who.reader)
    found = calendar(club=club, reader=who.reader, visibility=visibility)
    events = [
        Event(
            uid=f"tournament-{t.pk}@efuda",
            day=t.date,
            summary=t.name,
            url=request.build_absolute_uri(reverse("tournament_detail", args=[t.pk])),
            description=_("Tournament of %(club)s (%(game)s)")
            % {"club": club.name, "game": Game(t.game).label},
        )
        for t in found.tournaments
    ] + [
        Event(
            uid=f"session-{s.pk}@efuda",
            day=s.date,
            summary=f"{club.name}: {session_title(s)}",
            url=request.build_absolute_uri(reverse("session_detail", args=[club.slug, s.pk])),
        )
        for s in found.sessions
    ]
    text = calendar_text(
        name=_("%(club)s: tournaments") % {"club": club.name},
        events=events,
        stamp=timezone.now(),
    )
    response = HttpResponse(text, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{club.slug}-tournaments.ics"'
    return _private_for_members(request, who, response)
