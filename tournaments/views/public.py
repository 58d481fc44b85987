"""Read pages anyone may see for a public club (members only otherwise; 404 for outsiders):
club home, standings (the CSV and PDF files: views/reports.py) and player pages. Thin:
selectors do the reading."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_safe

from .. import charts
from ..models import Club, Game, Player, Role
from ..permissions import can_record, club_for_request, club_role, has_role
from ..selectors.accounts import club_tools, my_summary
from ..selectors.clubs import club_home
from ..selectors.players import player_stats
from ..selectors.ratings import rating_curves, ratings_page
from ..selectors.standings import Period, standings
from ..selectors.visibility import deal_visibility
from ..tables.standings import ratings_table, standings_table
from .cards import standings_meta
from .page_cache import SharedParts, cached_page
from .reports import STANDINGS_FILES, standings_file

MAX_MIN_DEALS = 100_000


def _game(game: str) -> str:
    if game not in Game.values:
        raise Http404
    return game


def _min_deals(request) -> int:
    try:
        return max(0, min(MAX_MIN_DEALS, int(request.GET.get("min", "0"))))
    except ValueError:
        return 0


def standings_url(club: Club, game: str, period: Period | None) -> str | None:
    if period is None:
        return None
    if period.kind == "all":
        return reverse("standings_all", args=[club.slug, game])
    if not 1 <= period.year <= 9999:  # before year 1 or after 9999: no page, no link
        return None
    if period.kind == "season":
        return reverse("standings_season", args=[club.slug, game, period.year])
    return reverse("standings_month", args=[club.slug, game, period.year, f"{period.month:02d}"])


def _my_standing_box(club: Club, player_id: int, visibility, today) -> str:
    """The "my standing" box of a member linked to a player, rendered."""
    me = my_summary(club=club, player_id=player_id, visibility=visibility, today=today)
    return render_to_string(
        "tournaments/accounts/_me_summary.html",
        {
            "club": club,
            "me": me,
            "me_rows": [
                (g, label, me.standing.get(g), me.ranked.get(g)) for g, label in Game.choices
            ],
        },
    )


@require_safe
@cached_page
def club_home_view(request, club_slug: str):
    club = club_for_request(request, club_slug, with_player=True)
    today = timezone.localdate()
    visibility = deal_visibility(club=club, reader=request.reader)

    def shared(neutral):  # leaders, latest sessions, tournaments: alike for the same view
        # The tournaments listed follow reader_view (members also see private ones), the
        # leaders and sessions the reader's visibility (part of reader_view too).
        home = club_home(club=club, reader=request.reader, visibility=visibility, today=today)
        return {
            "club": club,
            "home": home,
            "month_links": [
                (g, label, standings_url(club, g, home.month)) for g, label in Game.choices
            ],
            "leaders": [
                (label, standings_url(club, g, home.month), home.leaders[g])
                for g, label in Game.choices
            ],
        }

    parts = SharedParts(request, club, shared, visibility=visibility)
    # "My standing" for a logged-in member linked to a player (never in the anonymous cache):
    # what it shows follows from the club's records, what the reader may see of them and the
    # player alone, so the box is kept rendered per player under this page's key (version,
    # language, day, view). The player's id comes with the club's row (one query, not two).
    is_member = has_role(request.reader, club, Role.MEMBER)
    player_id = request.reader.players[club.pk] if is_member else None

    def my_standing_box():
        return _my_standing_box(club, player_id, visibility, today)

    return render(
        request,
        "tournaments/public/club_home.html",
        {
            "club": club,
            "shared": parts,
            "can_record": can_record(request.reader, club),
            # The tools of an owner or a scorekeeper (what waits for an owner, counted).
            "tools": club_tools(club=club, role=club_role(request.reader, club)),
            # "my standing" for a logged-in member linked to a player of the club
            "my_standing": mark_safe(parts.value("my-standing", my_standing_box, player_id))  # noqa: S308 - our template
            if player_id
            else None,
            # a "this is me" waiting for an owner: said, not asked again (read with the club)
            "pending_claim_name": None if player_id else request.reader.claims[club.pk],
            "is_member": is_member,
        },
    )


@require_safe
@cached_page
def standings_view(
    request, club_slug: str, game: str, year: int | None = None, month: int | None = None
):
    club = club_for_request(request, club_slug)
    game = _game(game)
    try:
        period = Period.of(year, month)
    except ValueError:
        raise Http404 from None
    visibility = deal_visibility(club=club, reader=request.reader)
    fmt = request.GET.get("format", "html")
    if fmt in STANDINGS_FILES:
        result = standings(
            club=club, game=game, period=period, min_deals=_min_deals(request),
            visibility=visibility,
        )  # fmt: skip
        return standings_file(request, result, fmt)

    def shared(neutral):
        result = standings(
            club=club, game=game, period=period, min_deals=_min_deals(neutral),
            visibility=visibility,
        )  # fmt: skip
        return {
            "club": club,
            "standings": result,
            "game_label": Game(game).label,
            "table": standings_table(game, result.rows, club_slug=club.slug, request=neutral),
            "previous_url": standings_url(club, game, period.previous()),
            "next_url": standings_url(club, game, period.next()),
            "other_game_url": standings_url(
                club, Game.DAIFUGO if game == Game.NAPOLEON else Game.NAPOLEON, period
            ),
            "all_url": standings_url(club, game, Period("all")),
            "season_url": standings_url(club, game, Period("season", period.year))
            if period.year
            else None,
        }

    return render(
        request,
        "tournaments/public/standings.html",
        {
            "club": club,
            # the title and description follow from the address alone
            "game_label": Game(game).label,
            "period_label": period.label,
            "shared": SharedParts(request, club, shared, visibility=visibility),
            "share": standings_meta(request, club, game, period, visibility),
        },
    )


@require_safe
@cached_page
def player_detail_view(request, club_slug: str, player_id: int):
    club = club_for_request(request, club_slug)
    visibility = deal_visibility(club=club, reader=request.reader)
    if not visibility.player_visible(player_id):  # known only from a tournament hidden from them
        raise Http404

    def shared(neutral):  # the player is read only when the page is not kept yet
        player = get_object_or_404(Player, club=club, pk=player_id)
        stats = player_stats(
            player=player, visibility=visibility, all_months=neutral.GET.get("months") == "all"
        )
        cumulative, monthly = charts.player_charts(stats)
        rating_charts = [
            (Game(c.game).label, reverse("ratings", args=[club.slug, c.game]), c.current,
             charts.rating_chart(c))
            for c in rating_curves(player=player)
        ]  # fmt: skip
        return {
            "club": club,
            "player": player,
            "stats": stats,
            "napoleon": stats.facts(Game.NAPOLEON),
            "daifugo": stats.facts(Game.DAIFUGO),
            "cumulative_chart": cumulative,
            "monthly_chart": monthly,
            "rating_charts": rating_charts,
        }

    return render(
        request,
        "tournaments/public/player.html",
        {"club": club, "shared": SharedParts(request, club, shared, visibility=visibility)},
    )


@require_safe
@cached_page
def ratings_view(request, club_slug: str, game: str):
    """Skill ratings of a club in one game, read from stored rows."""
    club = club_for_request(request, club_slug)
    game = _game(game)
    other = Game.DAIFUGO if game == Game.NAPOLEON else Game.NAPOLEON

    def shared(neutral):
        page = ratings_page(club=club, game=game, show_all=neutral.GET.get("all") == "1")
        return {
            "club": club,
            "page": page,
            "game": game,
            "game_label": Game(game).label,
            "table": ratings_table(page.rows, club_slug=club.slug, request=neutral, game=game),
            "other_game_url": reverse("ratings", args=[club.slug, other]),
            "other_game_label": Game(other).label,
            "standings_url": reverse("standings_all", args=[club.slug, game]),
        }

    return render(
        request,
        "tournaments/public/ratings.html",
        {
            "club": club,
            "game": game,
            "game_label": Game(game).label,
            "shared": SharedParts(request, club, shared),
        },
    )


@require_safe
@cached_page
def ratings_about_view(request, club_slug: str):
    """How the ratings are computed, in plain words (Japanese and English)."""
    club = club_for_request(request, club_slug)
    return render(request, "tournaments/public/ratings_about.html", {"club": club})
