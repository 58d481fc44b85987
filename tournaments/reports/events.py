"""Tournament PDFs: seating cards per round, a result slip per table, the final results.
Built from the same selectors as the HTML pages (WeasyPrint, the Japanese font of pdf.py)."""

from django.utils import timezone

from ..models import Game, Tournament, TournamentRound
from ..selectors import events as sel
from .pdf import render_pdf


def seating_cards(*, rnd: TournamentRound, pins: dict[int, str] | None = None) -> bytes:
    """One card per seated player (table, seat, tablemates; the PIN when just issued)."""
    tournament = rnd.tournament
    names = sel.names_of(tournament)
    entry_of = dict(tournament.entries.values_list("player_id", "pk"))
    view = sel.round_view(rnd, names)
    cards = []
    for table in view.tables:
        for seat, (pid, name) in enumerate(table.seats, start=1):
            cards.append(
                {
                    "name": name,
                    "table": table.label,
                    "seat": seat,
                    "others": [n for p, n in table.seats if p != pid],
                    "pin": (pins or {}).get(entry_of.get(pid)),
                }
            )
    return render_pdf(
        "tournaments/events/pdf_seating.html",
        {
            "tournament": tournament,
            "round": rnd,
            "cards": cards,
            "sitouts": view.sitouts,
            "printed": timezone.localtime(),
        },
    )


def result_slips(*, rnd: TournamentRound) -> bytes:
    """A slip per table to write the deals by hand (a fallback when phones fail)."""
    tournament = rnd.tournament
    view = sel.round_view(rnd)
    lines = tournament.deals_per_round or 12
    return render_pdf(
        "tournaments/events/pdf_slips.html",
        {
            "tournament": tournament,
            "round": rnd,
            "tables": view.tables,
            "lines": range(1, lines + 1),
            "is_napoleon": tournament.game == Game.NAPOLEON,
            "printed": timezone.localtime(),
        },
    )


def final_results(*, tournament: Tournament) -> bytes:
    standings = sel.tournament_standings(tournament=tournament)
    return render_pdf(
        "tournaments/events/pdf_results.html",
        {
            "tournament": tournament,
            "standings": standings,
            "rank_mode": standings.mode == "rank",
            "printed": timezone.localtime(),
        },
    )
