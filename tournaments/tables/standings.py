"""Standings tables (django-tables2), fed with ``selectors.standings.StandingRow`` objects.

Sorting a column re-orders the rows for reading; the rank column always shows the official
rank computed by ``tournaments.ranking`` (points, then the documented tiebreaks).
"""

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from rules import TITLE_LABELS

from ..i18n import term_html


class NumberColumn(tables.Column):
    def __init__(self, *args, **kwargs):
        kwargs.setdefault("attrs", {"th": {"class": "num"}, "td": {"class": "num"}})
        kwargs.setdefault("default", "–")
        super().__init__(*args, **kwargs)


class StandingsTable(tables.Table):
    rank = NumberColumn(verbose_name=_("Rank"))
    name = tables.Column(verbose_name=_("Player"), attrs={"td": {"class": "player"}})
    points = NumberColumn(verbose_name=_("Points"))
    deals = NumberColumn(verbose_name=_("Deals"))
    average = NumberColumn(
        verbose_name=_("Avg"),
        attrs={"th": {"class": "num", "title": _("average per deal")}, "td": {"class": "num"}},
    )

    class Meta:
        # The body is written out plainly (cell-by-cell rendering cost ~2 ms a row);
        # django-tables2 still does the sorting and the header links.
        template_name = "tournaments/public/standings_table.html"
        attrs = {"class": "standings"}
        orderable = True
        empty_text = _("No deals in this period yet.")

    def __init__(self, data, *, club_slug: str, **kwargs):
        self.club_slug = club_slug
        super().__init__(data, **kwargs)

    def render_name(self, value, record):
        url = reverse("player_detail", args=[self.club_slug, record.player_id])
        return format_html('<a href="{}"><bdi>{}</bdi></a>', url, value)

    def render_average(self, value):
        return f"{value:+.2f}" if value else "0.00"

    def render_points(self, value):
        return f"{value:+d}" if value else "0"


class NapoleonStandingsTable(StandingsTable):
    game = "napoleon"

    class Meta(StandingsTable.Meta):  # django-tables2 reads Meta from each class body
        pass

    napoleon_deals = NumberColumn(verbose_name=_("As Napoleon"))
    napoleon_wins = NumberColumn(verbose_name=_("Napoleon wins"))
    win_rate = NumberColumn(verbose_name=_("Win rate"))
    adjutant_deals = NumberColumn(verbose_name=_("As adjutant"))
    solo_wins = NumberColumn(verbose_name=_("Solo wins"))

    def render_win_rate(self, value):
        return f"{value:.1f}%"


class TermColumn(NumberColumn):
    """A column headed by a game term: 大富豪, and on an English page its gloss after it."""

    def __init__(self, japanese: str, **kwargs):
        self.japanese = japanese
        super().__init__(verbose_name=japanese, **kwargs)

    @property
    def header(self):
        return term_html(self.japanese)


class DaifugoStandingsTable(StandingsTable):
    game = "daifugo"

    class Meta(StandingsTable.Meta):  # django-tables2 reads Meta from each class body
        empty_text = _("No rounds in this period yet.")

    deals = NumberColumn(verbose_name=_("Rounds"))
    average = NumberColumn(
        verbose_name=_("Avg"),
        attrs={"th": {"class": "num", "title": _("average per round")}, "td": {"class": "num"}},
    )
    title_daifugo = TermColumn(TITLE_LABELS["daifugo"][0])
    title_fugo = TermColumn(TITLE_LABELS["fugo"][0])
    title_heimin = TermColumn(TITLE_LABELS["heimin"][0])
    title_hinmin = TermColumn(TITLE_LABELS["hinmin"][0])
    title_daihinmin = TermColumn(TITLE_LABELS["daihinmin"][0])
    miyako_ochi = TermColumn("都落ち")


def standings_table(game: str, rows, *, club_slug: str, request=None):
    cls = NapoleonStandingsTable if game == "napoleon" else DaifugoStandingsTable
    for row in rows:
        row.url = reverse("player_detail", args=[club_slug, row.player_id])
    table = cls(rows, club_slug=club_slug)
    if request is not None:
        tables.RequestConfig(request, paginate=False).configure(table)
    return table


__all__ = [
    "DaifugoRatingsTable",
    "DaifugoStandingsTable",
    "NapoleonStandingsTable",
    "RatingsTable",
    "ratings_table",
    "standings_table",
]


class RatingsTable(tables.Table):
    """Skill ratings (fed with ``selectors.ratings.RatingRow``): μ − 3σ is the headline."""

    game = "napoleon"

    rank = NumberColumn(verbose_name=_("Rank"))
    name = tables.Column(verbose_name=_("Player"), attrs={"td": {"class": "player"}})
    score = NumberColumn(
        verbose_name=_("Rating"),
        attrs={
            "th": {
                "class": "num",
                "title": _("μ − 3σ: the skill the player almost surely has at least"),
            },
            "td": {"class": "num"},
        },  # noqa: E501
    )
    sigma = NumberColumn(
        verbose_name=_("± uncertainty"),
        attrs={
            "th": {"class": "num", "title": _("σ: how unsure the rating still is")},
            "td": {"class": "num"},
        },  # noqa: E501
    )
    mu = NumberColumn(
        verbose_name=_("Skill μ"),
        attrs={
            "th": {"class": "num", "title": _("the skill's best estimate")},
            "td": {"class": "num"},
        },  # noqa: E501
    )
    deals = NumberColumn(verbose_name=_("Deals"))
    last_played = tables.Column(verbose_name=_("Last played"))

    class Meta:
        template_name = "tournaments/public/ratings_table.html"
        attrs = {"class": "standings ratings"}
        orderable = True
        empty_text = _("No rated deals yet.")


class DaifugoRatingsTable(RatingsTable):
    """Daifugō counts rounds (回戦), never deals."""

    game = "daifugo"

    class Meta(RatingsTable.Meta):
        empty_text = _("No rated rounds yet.")

    deals = NumberColumn(verbose_name=_("Rounds"))


def ratings_table(rows, *, club_slug: str, request=None, game: str = "napoleon") -> RatingsTable:
    for row in rows:
        row.url = reverse("player_detail", args=[club_slug, row.player_id])
    table = (DaifugoRatingsTable if game == "daifugo" else RatingsTable)(rows)
    if request is not None:
        tables.RequestConfig(request, paginate=False).configure(table)
    return table
