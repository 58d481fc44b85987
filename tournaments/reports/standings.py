"""Standings as an A4 PDF with the points chart."""

from django.utils import timezone

from ..models import Game
from ..selectors.standings import Standings
from ..standings_fields import TABLE, shown
from .pdf import render_pdf


def standings_pdf(standings: Standings, *, chart: str | None = None) -> bytes:
    return render_pdf(
        "tournaments/reports/standings.html",
        {
            "club": standings.club,
            "standings": standings,
            "fields": shown(standings.game, TABLE),  # the page's table's columns
            "chart": chart,
            "game_label": Game(standings.game).label,
            "printed": timezone.localtime(),
        },
    )
