"""django-tables2 tables, fed from selectors (rows are plain objects; nothing is computed here)."""

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from ..models import GameSession
from .standings import Column, table_html


class SessionTable(tables.Table):
    date = tables.Column(verbose_name=_("Date"))
    table = tables.Column(verbose_name=_("Table"))
    game = tables.Column(verbose_name=_("Game"))
    ruleset = tables.Column(verbose_name=_("Rule set"), orderable=False)
    # Both games in one list: each count says what it counts (Daifugō rounds, never deals).
    deal_count = tables.Column(
        verbose_name=_("Recorded"), attrs={"td": {"class": "num"}, "th": {"class": "num"}}
    )

    class Meta:
        model = GameSession
        fields = ("date", "table", "game", "ruleset", "deal_count")
        orderable = False
        attrs = {"class": "sessions"}
        template_name = "components/table.html"

    def __init__(self, *args, club=None, **kwargs):
        self.club = club
        super().__init__(*args, **kwargs)

    def render_date(self, value, record):
        url = reverse("session_detail", args=[self.club.slug, record.pk])
        return format_html('<a href="{}">{}</a>', url, value.isoformat())

    def render_table(self, value):
        return format_html("<bdi>{}</bdi>", value)

    def render_deal_count(self, value, record):
        if record.game == "daifugo":
            return ngettext("%(n)s round", "%(n)s rounds", value) % {"n": value}
        return ngettext("%(n)s deal", "%(n)s deals", value) % {"n": value}

    def render_ruleset(self, value):
        return format_html("<bdi>{}</bdi>", value.name or value.code)


class SessionTotalsTable(tables.Table):
    """The final table of a session (``selectors.sessions.TotalRow`` rows)."""

    rank = Column(verbose_name=_("Rank"), attrs={"td": {"class": "num"}})
    name = Column(verbose_name=_("Player"))
    points = Column(
        verbose_name=_("Points"), attrs={"td": {"class": "num"}, "th": {"class": "num"}}
    )
    deals = Column(verbose_name=_("Deals"), attrs={"td": {"class": "num"}, "th": {"class": "num"}})

    class Meta:
        orderable = False
        attrs = {"class": "totals"}
        # Written whole in Python (``{{ totals_table.html }}``: head, body and django-tables2's
        # wrapper around them, as its template wrote them): cell-by-cell rendering was a fifth
        # of a session page, the template around the head and body another few per cent.
        row_attrs = {"class": lambda record: "winner" if record.is_winner else ""}

    @property
    def html(self) -> str:
        return table_html(self, totals_body(self))

    def render_name(self, value, record):
        if record.is_winner:
            return format_html(
                '<span class="crown" aria-hidden="true">★</span> <bdi>{}</bdi>', value
            )
        return format_html("<bdi>{}</bdi>", value)

    def render_points(self, value):
        css = "pos" if value > 0 else "neg" if value < 0 else ""
        return format_html('<span class="{}">{}</span>', css, f"{value:+d}")


class DaifugoSessionTotalsTable(SessionTotalsTable):
    """Daifugō counts rounds (回戦), never deals; otherwise the same table (django-tables2 does
    not inherit a table's ``Meta``: without its own, this one was written by the library's
    default template, its winners' rows unmarked)."""

    class Meta(SessionTotalsTable.Meta):
        pass

    deals = Column(verbose_name=_("Rounds"), attrs={"td": {"class": "num"}, "th": {"class": "num"}})


def totals_body(table) -> str:
    """The totals' ``<tbody>`` as django-tables2 wrote it (the winner's row marked, rows
    alternately even and odd, each cell through the table's ``render_*``)."""
    rows = []
    for i, r in enumerate(table.data):
        css = ("winner " if r.is_winner else "") + ("even" if i % 2 == 0 else "odd")
        rows.append(
            f'<tr class="{css}"><td class="num">{r.rank}</td>'
            f"<td>{table.render_name(r.name, r)}</td>"
            f'<td class="num">{table.render_points(r.points)}</td>'
            f'<td class="num">{r.deals}</td></tr>'
        )
    return mark_safe("<tbody>\n" + "\n".join(rows) + "\n</tbody>")  # noqa: S308 - escaped


def session_totals_table(rows, *, game: str) -> SessionTotalsTable:
    return (DaifugoSessionTotalsTable if game == "daifugo" else SessionTotalsTable)(rows)
