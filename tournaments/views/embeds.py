"""The standings of a public club on another site, in a frame (docs/api.md, "Standings on
another site"): ``/c/<club>/embed/standings/<game>/`` (and a season's, a month's).

A bare page: no site header, no login bar, no form, one small style sheet; links open in a new
tab (``<base target="_blank">``). The rows, ranks and tiebreaks are the standings page's, from
the same selector and table, as a visitor who is not logged in sees them (a frame on another
site gets no cookie of ours anyway): the same answer for everyone, kept by browsers for a
minute. A private club's answer is 404, even to its members.

**The one exception to the site's frame rules.** Every other page says ``frame-ancestors
'none'`` (config/settings/base.py) and, in production, ``X-Frame-Options: DENY``. This view
alone replaces the policy's ``frame-ancestors`` with ``'self'`` and the sites the club's owner
listed (``Club.embed_origins``, checked by services/embeds.py) and leaves out
``X-Frame-Options``, which cannot name several sites (browsers that know CSP ignore it beside
``frame-ancestors``). With no site listed the page says ``frame-ancestors 'self'`` and
``X-Frame-Options: SAMEORIGIN``: only efuda's own pages may frame it. Every other directive of
the policy stays as it is.
"""

from __future__ import annotations

import html

from django.http import Http404
from django.shortcuts import render
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.http import require_safe

from ..models import Club, Game
from ..permissions import club_for_request
from ..reader import Reader
from ..selectors.standings import Period, standings
from ..selectors.visibility import deal_visibility
from ..tables.standings import standings_table
from .public import standings_url

BROWSER_KEEPS = 60  # seconds a browser may reuse an answer


def frame_ancestors(club: Club) -> list[str]:
    """The page's CSP ``frame-ancestors``: efuda itself and the club's listed sites."""
    return ["'self'", *club.embed_origin_list]


@require_safe
@xframe_options_exempt
def embed_standings_view(
    request, club_slug: str, game: str, year: int | None = None, month: int | None = None
):
    club = club_for_request(request, club_slug)
    if not club.is_public or game not in Game.values:
        raise Http404
    try:
        period = Period.of(year, month)
    except ValueError:
        raise Http404 from None
    visibility = deal_visibility(club=club, reader=Reader.of(None))  # as a visitor sees them
    result = standings(club=club, game=game, period=period, visibility=visibility)
    table = standings_table(game, result.rows, club_slug=club.slug)
    table.orderable = False  # the ranked order only: no sorting links inside the frame
    response = render(request, "tournaments/public/embed_standings.html", {
        "club": club, "standings": result, "table": table, "game_label": Game(game).label,
        "page_url": standings_url(club, game, period),
    })  # fmt: skip
    response._csp_replace = {"frame-ancestors": frame_ancestors(club)}  # django-csp's hook
    if not club.embed_origin_list:
        response["X-Frame-Options"] = "SAMEORIGIN"
    patch_cache_control(response, public=True, max_age=BROWSER_KEEPS)
    return response


def embed_snippets(request, club: Club) -> list[tuple[str, str]]:
    """For the owner's settings page: per game, the ``<iframe>`` to paste into another site
    (as text); none for a private club, whose standings cannot be shown elsewhere."""
    if not club.is_public:
        return []
    out = []
    for game, label in Game.choices:
        url = request.build_absolute_uri(reverse("embed_standings_all", args=[club.slug, game]))
        title = _("%(game)s standings of %(club)s") % {"game": label, "club": club.name}
        out.append((str(label), (
            f'<iframe src="{html.escape(url)}" title="{html.escape(title)}" width="100%" '
            'height="480" loading="lazy"></iframe>'
        )))  # fmt: skip
    return out
