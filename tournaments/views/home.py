"""The site's front page (the clubs a visitor may see) and where a login lands."""

import re

from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from ..selectors.accounts import invitation_by_token
from ..selectors.clubs import clubs_visible, slugs_of_member_clubs

# What a person pastes: the whole link (…/invite/<token>/) or only the code at its end.
_TOKEN = re.compile(r"(?:/invite/)?([A-Za-z0-9_-]{8,64})/?\s*$")


@login_required
@require_safe
def after_login_view(request):
    """``LOGIN_REDIRECT_URL``: the user's club when they belong to exactly one, otherwise the
    list of clubs (a login with ``next`` goes there instead, as usual)."""
    slugs = slugs_of_member_clubs(user=request.user, limit=2)
    if len(slugs) == 1:
        return redirect("club_home", slugs[0])
    return redirect("home")


@require_safe
def home_view(request):
    """The clubs a visitor may see; a logged-in person is also offered the two ways in: found a
    club, or open the invitation their club sent."""
    member_of = (
        slugs_of_member_clubs(user=request.user, limit=1) if request.user.is_authenticated else []
    )
    return render(request, "tournaments/home.html", {
        "clubs": clubs_visible(user=request.user),
        "in_a_club": bool(member_of),
    })  # fmt: skip


@login_required
@require_safe
def invitation_find_view(request):
    """ "I have an invitation": paste the link (or its code) and go to it."""
    text = (request.GET.get("link") or "").strip()
    error = ""
    if text:
        found = _TOKEN.search(text)
        invitation = invitation_by_token(found.group(1)) if found else None
        if invitation is not None:
            return redirect("invitation_open", token=invitation.token)
        error = _(
            "This is not an invitation of any club: copy the whole link from the message your "
            "club sent, or scan its QR code with the phone's camera."
        )
    return render(request, "tournaments/accounts/invitation_find.html", {
        "link": text, "error": error,
    }, status=400 if error else 200)  # fmt: skip
