"""The site's front page (the clubs a visitor may see) and where a login lands."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.views.decorators.http import require_safe

from ..selectors.clubs import clubs_visible, slugs_of_member_clubs


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
    return render(request, "tournaments/home.html", {"clubs": clubs_visible(user=request.user)})
