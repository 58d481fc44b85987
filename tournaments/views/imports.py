"""Club owners upload a results CSV: the same all-or-nothing import as ``import_results``."""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods

from ..models import Role
from ..permissions import club_for_request
from ..services.imports import (
    DAIFUGO_COLUMNS,
    MAX_BYTES,
    NAPOLEON_COLUMNS,
    NAPOLEON_OPTIONAL,
    ImportFailed,
    results_import,
)


class ImportForm(forms.Form):
    file = forms.FileField(
        label=_("CSV file (UTF-8)"),
        help_text=_("Napoleon deals or Daifugō rounds; the header row says which."),
    )


@login_required
@require_http_methods(["GET", "POST"])
def results_import_view(request, club_slug: str):
    club = club_for_request(request, club_slug, role=Role.OWNER)
    problems = []
    form = ImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        # Read one byte more than allowed, so the service can say the file is too big.
        data = form.cleaned_data["file"].read(MAX_BYTES + 1)
        try:
            report = results_import(club=club, file=data, user=request.user)
        except ImportFailed as failed:
            problems = failed.problems
        else:
            messages.success(request, gettext(
                "Imported %(deals)s deals (%(redeals)s redeals) in %(sessions)s sessions; "
                "%(players)s new players."
            ) % {"deals": report.deals, "redeals": report.redeals,
                 "sessions": len(report.sessions), "players": report.players_created})  # fmt: skip
            return redirect("manage_import", club_slug=club.slug)
    return render(request, "tournaments/imports/upload.html", {
        "club": club,
        "form": form,
        "problems": problems,
        "napoleon_header": ",".join(NAPOLEON_COLUMNS),
        "napoleon_optional": ",".join(NAPOLEON_OPTIONAL),
        "daifugo_header": ",".join(DAIFUGO_COLUMNS),
    }, status=400 if problems else 200)  # fmt: skip
