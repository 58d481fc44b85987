"""Tournament standings table (django-tables2), fed with ``selectors.events.StandingRow``."""

import django_tables2 as tables
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


class _Num(tables.Column):
    def __init__(self, *args, **kwargs):
        kwargs.setdefault("attrs", {"th": {"class": "num"}, "td": {"class": "num"}})
        super().__init__(*args, **kwargs)


# The column template below translates "dropped"; this marks it for makemessages.
_DROPPED = pgettext_lazy("tournament player", "dropped")


class TournamentStandingsTable(tables.Table):
    rank = _Num(verbose_name=_("Rank"))
    name = tables.TemplateColumn(
        '<bdi>{{ value }}</bdi>{% if record.dropped_at_round %} <small class="muted">'
        "({% load i18n %}{% translate 'dropped' context 'tournament player' %})</small>{% endif %}",
        verbose_name=_("Player"),
        attrs={"td": {"class": "player"}},
    )
    total = _Num(verbose_name=_("Total"))
    points = _Num(verbose_name=_("Points"))
    rank_points = _Num(verbose_name=_("Rank pts"))
    adjustments = _Num(verbose_name=_("Adj."))
    table_wins = _Num(
        verbose_name=_("Wins"),
        attrs={
            "th": {"class": "num", "title": _("table wins: rounds finished on top of the table")},
            "td": {"class": "num"},
        },
    )
    rounds = _Num(
        verbose_name=_("Rounds"),
        attrs={"th": {"class": "num ev-wide"}, "td": {"class": "num ev-wide"}},
    )

    class Meta:
        template_name = "components/table.html"
        attrs = {"class": "standings ev-standings"}
        orderable = False
        empty_text = _("Nobody has played yet.")

    def __init__(self, data, *, mode: str, **kwargs):
        exclude = [] if mode == "rank" else ["rank_points"]
        super().__init__(data, exclude=exclude, **kwargs)

    def render_total(self, value):
        return _fmt(value)

    def render_rank_points(self, value):
        return _fmt(value)

    def render_adjustments(self, value):
        return _fmt(value) if value else "–"


def _fmt(value) -> str:
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text
