"""A club's deals as a results file the import takes back (CSV or .xlsx), for its owners and
scorekeepers: the whole club or some days, one game per file (docs/import-format.md)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.views.decorators.http import require_safe

from core.errors import EfudaError

from .. import exports
from ..forms.exports import ResultsExportForm
from ..i18n import error_text
from ..models import Game, Role
from ..permissions import club_for_request
from ..selectors.results import results_count, results_rows


def results_filename(club, game: str, date_from, date_to, ext: str) -> str:
    span = "all"
    if date_from or date_to:
        span = f"{date_from or 'start'}_{date_to or 'end'}"
    return f"{club.slug}-{game}-{span}.{ext}"


@login_required
@require_safe
def results_export_view(request, club_slug: str):
    """The export page (what the club holds per game); once a game is chosen, the file."""
    club = club_for_request(request, club_slug, role=Role.SCOREKEEPER)
    form = ResultsExportForm(request.GET or None, initial={"format": "csv"})
    if form.is_bound and form.is_valid():
        data = form.cleaned_data
        game, start, end, fmt = data["game"], data["date_from"], data["date_to"], data["format"]
        rows = results_rows(club=club, game=game, date_from=start, date_to=end)
        if fmt == "xlsx":
            return exports.file_response(
                exports.xlsx_bytes(rows, sheet=str(Game(game).label)),
                results_filename(club, game, start, end, "xlsx"),
                exports.XLSX_TYPE,
            )
        encoding = exports.SHIFT_JIS if fmt == "sjis" else "utf-8"
        try:
            body = exports.csv_bytes(rows, encoding=encoding)
        except EfudaError as err:
            form.add_error("format", error_text(err))
        else:
            charset = "shift_jis" if fmt == "sjis" else "utf-8"
            return exports.file_response(
                body, results_filename(club, game, start, end, "csv"),
                f"text/csv; charset={charset}",
            )  # fmt: skip
    counts = [(label, results_count(club=club, game=game)) for game, label in Game.choices]
    status = 400 if form.is_bound else 200
    return render(
        request,
        "tournaments/manage/export.html",
        {"club": club, "form": form, "counts": counts},
        status=status,
    )
