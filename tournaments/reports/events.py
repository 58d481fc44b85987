"""Tournament PDFs: seating cards per round, a result slip per table, the final results.
Built from the same selectors as the HTML pages (WeasyPrint, the Japanese font of pdf.py)."""

from django.utils import timezone

from ..models import Game, Tournament, TournamentRound
from ..selectors import events as sel
from .pdf import render_pdf
from .qr import absolute_url, qr_svg

# Cards per A4 page: two columns of four rows, each card a fixed 90 × 62 mm (base.css,
# .ev-card) so a card never splits across pages and every page starts a new sheet of eight.
CARDS_PER_PAGE = 8
LONG_NAME = 10  # characters of a name printed large; a longer one is printed small on two lines


def seating_cards_context(*, rnd: TournamentRound, pins: dict[int, str] | None = None) -> dict:
    """The cards of a round grouped by printed page: one card per seated player with table,
    seat, tablemates, the QR code of the table's page (absolute, ``SITE_URL``), the address
    and table number to type without a camera, and the PIN when just issued."""
    tournament = rnd.tournament
    names = sel.names_of(tournament)
    entry_of = dict(tournament.entries.values_list("player_id", "pk"))
    view = sel.round_view(rnd, names)
    pin_url = absolute_url("tournament_pin", tournament.pk)
    cards = []
    for table in view.tables:
        url = absolute_url("tournament_table", tournament.pk, table.table.pk)
        qr = qr_svg(url)
        for seat, (pid, name) in enumerate(table.seats, start=1):
            cards.append(
                {
                    "name": name,
                    "long": len(name) > LONG_NAME,
                    "table": table.label,
                    "number": table.table.number,
                    "seat": seat,
                    "others": [n for p, n in table.seats if p != pid],
                    "pin": (pins or {}).get(entry_of.get(pid)),
                    "url": url,
                    "qr": qr,
                }
            )
    pages = [cards[i : i + CARDS_PER_PAGE] for i in range(0, len(cards), CARDS_PER_PAGE)]
    return {
        "tournament": tournament,
        "round": rnd,
        "pages": pages,
        "pin_url": pin_url,
        "sitouts": view.sitouts,
        "printed": timezone.localtime(),
    }


SEATING_TEMPLATE = "tournaments/events/pdf_seating.html"


def seating_cards(*, rnd: TournamentRound, pins: dict[int, str] | None = None) -> bytes:
    """One card per seated player, eight to an A4 page (see ``seating_cards_context``)."""
    return render_pdf(SEATING_TEMPLATE, seating_cards_context(rnd=rnd, pins=pins))


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
