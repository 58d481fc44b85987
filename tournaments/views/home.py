"""The site's front page: the clubs a visitor may see."""

from django.db.models import Q
from django.shortcuts import render
from django.views.decorators.http import require_safe

from ..models import Club


@require_safe
def home_view(request):
    clubs = Club.objects.filter(is_public=True)
    if request.user.is_authenticated:
        clubs = Club.objects.filter(
            Q(is_public=True) | Q(memberships__user=request.user)
        ).distinct()
        if request.user.is_superuser:
            clubs = Club.objects.all()
    return render(request, "tournaments/home.html", {"clubs": clubs.order_by("name")})
