"""The site's front page: the clubs a visitor may see."""

from django.shortcuts import render
from django.views.decorators.http import require_safe

from ..selectors.clubs import clubs_visible


@require_safe
def home_view(request):
    return render(request, "tournaments/home.html", {"clubs": clubs_visible(user=request.user)})
