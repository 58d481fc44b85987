"""A member's secret feed links for a club (docs/api.md, "Secret feed links"): the links shown
once when made, made anew (the old ones revoked) or revoked. Members only; a private club stays
404 to others, as its pages do."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.cache import add_never_cache_headers
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from ..models import Membership, Role
from ..permissions import club_for_request
from ..selectors.feeds import feed_key_live
from ..services.feed_keys import feed_key_renew, feed_key_revoke

FEEDS = ("club_sessions_feed", "club_tournaments_ics")


def _links(request, club, key: str | None) -> list[str]:
    query = f"?{urlencode({'key': key})}" if key else ""
    return [request.build_absolute_uri(reverse(name, args=[club.slug])) + query for name in FEEDS]


@login_required
@require_http_methods(["GET", "POST"])
def feed_keys_view(request, club_slug: str):
    club = club_for_request(request, club_slug, role=Role.MEMBER)
    membership = get_object_or_404(Membership, club=club, user=request.user)
    made = None
    if request.method == "POST":
        if request.POST.get("action") == "revoke":
            if feed_key_revoke(membership=membership):
                messages.success(request, _("Your secret feed links no longer work."))
            return redirect("club_feed_keys", club.slug)
        made = feed_key_renew(membership=membership)
    response = render(request, "tournaments/accounts/feed_keys.html", {
        "club": club,
        "plain": _links(request, club, None),
        "made": _links(request, club, made) if made else None,
        "live": feed_key_live(membership_id=membership.pk),
    })  # fmt: skip
    add_never_cache_headers(response)  # the links shown once are never kept by a browser
    return response
