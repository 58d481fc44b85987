"""The club's feeds: an Atom feed of its sessions (Django's syndication framework) and an
iCalendar of its tournaments and sessions (docs/api.md, "Feeds and calendars").

Thin: ``club_for_request`` answers 404 exactly where the club's pages do (a private club to
anyone not a member), and selectors/feeds.py reads through the pages' own selectors, so a feed
shows the reader what the session list and the tournament list show them.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.syndication.views import Feed
from django.http import HttpResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_cache_control
from django.utils.feedgenerator import Atom1Feed
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_safe

from ..ical import Event, calendar_text
from ..models import Club, Game
from ..permissions import club_for_request
from ..selectors.feeds import FeedSession, calendar, feed_sessions
from ..selectors.visibility import deal_visibility


def session_title(session) -> str:
    return _("%(date)s %(game)s, table %(table)s") % {
        "date": session.date.isoformat(),
        "game": Game(session.game).label,
        "table": session.table,
    }


@dataclass(frozen=True)
class _FeedObject:
    club: Club
    items: list[FeedSession]


class SessionsFeed(Feed):
    """``/c/<club>/sessions.atom``: the latest sessions the reader may see, newest first."""

    feed_type = Atom1Feed

    def get_object(self, request, club_slug: str):
        club = club_for_request(request, club_slug)
        visibility = deal_visibility(club=club, reader=request.reader)
        return _FeedObject(club, feed_sessions(club=club, visibility=visibility))

    def title(self, obj):
        return _("%(club)s: sessions") % {"club": obj.club.name}

    def subtitle(self, obj):
        return _("The latest sessions of %(club)s on efuda, newest first.") % {
            "club": obj.club.name
        }

    def link(self, obj):
        return reverse("session_list", args=[obj.club.slug])

    def feed_url(self, obj):
        return reverse("club_sessions_feed", args=[obj.club.slug])

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
    """``/c/<club>/sessions.atom`` (``SessionsFeed``)."""
    return _private_for_members(request, _sessions_feed(request, club_slug=club_slug))


def _private_for_members(request, response):
    """What a logged-in reader gets may hold what others may not see: no shared cache keeps it
    (``Vary: Cookie`` comes from the session middleware)."""
    if request.reader.is_authenticated:
        patch_cache_control(response, private=True)
    return response


@require_safe
def tournaments_ics_view(request, club_slug: str):
    """``/c/<club>/tournaments.ics``: the tournaments and sessions the reader may see."""
    club = club_for_request(request, club_slug)
    visibility = deal_visibility(club=club, reader=request.reader)
    found = calendar(club=club, reader=request.reader, visibility=visibility)
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
    return _private_for_members(request, response)
