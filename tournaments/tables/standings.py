"""Standings tables (django-tables2), fed with ``selectors.standings.StandingRow`` objects.

Sorting a column re-orders the rows for reading; the rank column always shows the official
rank computed by ``tournaments.ranking`` (points, then the documented tiebreaks). The columns
after the player are the fields ``standings_fields`` shows in the table, in its order.
"""

import copy
import html
from decimal import ROUND_HALF_UP, Decimal

import django_tables2 as tables
from django.template.defaultfilters import floatformat
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.formats import get_format
from django.utils.html import conditional_escape, escape, format_html
from django.utils.http import urlencode
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _

from .. import standings_fields
from ..i18n import heading
from ..standings_fields import DAIFUGO, NAPOLEON, TABLE


class Column(tables.Column):
    """django-tables2's column, copied shallowly for each table. The library copies a table
    class's columns for every table it makes, deeply (a standings field with its counters'
    definitions, every attribute dict: most of the cost of making one), so that one table's
    changes to its columns stay its own. These tables change nothing of a column but what
    the library sets on it (the accessor it names itself by, hidden or shown), which a
    shallow copy keeps apart just as well."""

    def __deepcopy__(self, memo):
        return copy.copy(self)


class NumberColumn(Column):
    def __init__(self, *args, **kwargs):
        kwargs.setdefault("attrs", {"th": {"class": "num"}, "td": {"class": "num"}})
        kwargs.setdefault("default", "–")
        super().__init__(*args, **kwargs)


class FieldColumn(NumberColumn):
    """A standings field's column, headed as ``i18n.heading`` says: a game term (大富豪) with its
    gloss on an English page, any other heading translated."""

    def __init__(self, field: standings_fields.Field):
        self.field = field
        th = {"class": "num"} | ({"title": _(field.hint)} if field.hint else {})
        text = field.heading(TABLE)
        super().__init__(
            verbose_name=text if field.term else _(text), attrs={"th": th, "td": {"class": "num"}}
        )

    @property
    def header(self):
        return heading(self.field, TABLE)


class StandingsTable(tables.Table):
    rank = NumberColumn(verbose_name=_("Rank"))
    name = Column(verbose_name=_("Player"), attrs={"td": {"class": "player"}})

    class Meta:
        # The table is written out plainly (``html``; cell-by-cell rendering cost ~2 ms a row,
        # django-tables2's template around the head and body another 0.3 ms): each row's
        # ``cells`` for the table's ``fields``; django-tables2 still does the sorting and the
        # header links. Pages write ``{{ table.html }}``, not ``{% render_table %}``.
        attrs = {"class": "standings"}
        orderable = True
        empty_text = _("No deals in this period yet.")

    def __init__(self, data, *, club_slug: str, **kwargs):
        self.club_slug = club_slug
        super().__init__(data, **kwargs)

    @property
    def html(self) -> str:
        return table_html(self, standings_body(self))

    def render_name(self, value, record):
        url = reverse("player_detail", args=[self.club_slug, record.player_id])
        return format_html('<a href="{}"><bdi>{}</bdi></a>', url, value)


def _game_table(name: str, game: str, empty_text) -> type[StandingsTable]:
    """The standings table of ``game``: a column for each field it shows. (django-tables2 reads
    ``Meta`` from each class body: a subclass without its own loses the parent's.)"""
    fields = standings_fields.shown(game, TABLE)
    meta = type("Meta", (StandingsTable.Meta,), {"empty_text": empty_text})
    body = {"__module__": __name__, "Meta": meta, "game": game, "fields": fields}
    return type(StandingsTable)(
        name, (StandingsTable,), body | {f.name: FieldColumn(f) for f in fields}
    )


NapoleonStandingsTable = _game_table(
    "NapoleonStandingsTable", NAPOLEON, _("No deals in this period yet.")
)
DaifugoStandingsTable = _game_table(
    "DaifugoStandingsTable", DAIFUGO, _("No rounds in this period yet.")
)


_SENTINEL = 987654321  # an id no row reaches: its place in a reversed address


def address_around_id(name: str, club_slug: str) -> tuple[str, str]:
    """The address ``name`` of a club's object reversed once, cut where the object's id goes:
    ``before + str(id) + after`` is its address, without a ``reverse`` per row."""
    before, after = reverse(name, args=[club_slug, _SENTINEL]).split(str(_SENTINEL))
    return before, after


def player_urls(club_slug: str, rows) -> None:
    """Each row's ``url``, its player's page (``address_around_id``)."""
    before, after = address_around_id("player_detail", club_slug)
    for row in rows:
        row.url = f"{before}{row.player_id}{after}"


def _esc(value) -> str:
    """``value`` escaped for HTML as Django's ``escape`` does, without its lazy-string wrapper
    (a number needs none)."""
    return str(value) if type(value) is int else html.escape(str(value))


_TENTH = Decimal("0.1")


def one_decimal(value: float, separator: str = ".") -> str:
    """``value`` as ``|floatformat:1`` writes it: rounded half up from the float's shortest
    form, no minus sign on a zero, the language's decimal ``separator`` (efuda groups no
    thousands: ``USE_THOUSAND_SEPARATOR`` is off). The filter looks the language's formats up
    again for every value; a table looks its separator up once. Numbers no rating comes near
    (not finite, 10¹⁵ or more, under 10⁻¹⁵⁰: the filter writes some of those as they are)
    are the filter's own to write."""
    if value and not 1e-150 <= abs(value) < 1e15:
        return str(floatformat(value, 1))
    number = Decimal(repr(value)).quantize(_TENTH, ROUND_HALF_UP)
    text = f"{abs(number) if not number else number:f}"
    return text if separator == "." else text.replace(".", separator)


def _player_cell(row, extra: str = "") -> str:
    name = _esc(row.name)
    return f'<td class="player"><a href="{_esc(row.url)}"><bdi>{name}</bdi></a>{extra}</td>'


def _body(table, row_html) -> str:
    """The ``<tbody>`` of a standings or ratings table, written in Python: the same markup the
    template's loop wrote, without a template node per cell (each one resolves its variable
    and escapes it through Django's lazy wrapper)."""
    rows = [f"  <tr>{row_html(r)}</tr>" for r in table.data]
    if not rows:
        rows = [f'  <tr><td colspan="{len(table.columns)}">{_esc(table.empty_text)}</td></tr>']
    return mark_safe("<tbody>\n" + "\n".join(rows) + "\n</tbody>")


def attributes_html(attrs) -> str:
    """What ``attrs.as_html()`` writes (django-tables2's ``AttributeDict``: a tag's attributes,
    each value escaped unless already safe), without format_html's wrappers around each
    attribute and value (a third of writing a table's head)."""
    return " ".join(f'{key}="{conditional_escape(value)}"' for key, value in attrs._iteritems())


def head_html(table) -> str:
    """The ``<thead>`` as django-tables2's template writes it (each orderable column's heading
    a link to the same page sorted by it, the other parameters kept), without a template."""
    request = getattr(table, "request", None)
    params = dict(request.GET) if request is not None else {}
    sort = table.prefixed_order_by_field
    cells = []
    for column in table.columns:
        text = conditional_escape(column.header)
        if column.orderable:
            params[sort] = column.order_by_alias.next
            text = f'<a href="{escape("?" + urlencode(params, doseq=True))}">{text}</a>'
        cells.append(f"<th {attributes_html(column.attrs['th'])}>{text}</th>")
    return mark_safe("<thead>\n<tr>" + "".join(cells) + "</tr>\n</thead>")


def table_html(table, body: str) -> str:
    """The whole table as ``{% render_table %}`` writes it around its ``<thead>`` and ``body``
    (django-tables2's wrapper, the table's attributes; these tables have neither a footer nor
    pages), without rendering django-tables2's template: a template with its context
    processors and a dozen nodes for the few tags around what is written here."""
    return mark_safe(  # noqa: S308 - every part escaped where it is written
        f'<div class="table-container">\n<table {attributes_html(table.attrs)}>\n'
        f"{head_html(table)}\n{body}\n</table>\n</div>"
    )


def standings_body(table) -> str:
    fields = table.fields
    escape_text = html.escape  # each field's text is a str (``StandingRow.cells``)

    def row_html(r) -> str:
        cells = [f'<td class="num">{escape_text(text)}</td>' for text in r.cells(fields)]
        return f'<td class="num">{r.rank}</td>{_player_cell(r)}{"".join(cells)}'

    return _body(table, row_html)


def standings_table(game: str, rows, *, club_slug: str, request=None):
    cls = NapoleonStandingsTable if game == "napoleon" else DaifugoStandingsTable
    player_urls(club_slug, rows)
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
    name = Column(verbose_name=_("Player"), attrs={"td": {"class": "player"}})
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
    last_played = Column(verbose_name=_("Last played"))

    class Meta:
        attrs = {"class": "standings ratings"}
        orderable = True
        empty_text = _("No rated deals yet.")

    @property
    def html(self) -> str:  # written out plainly, as StandingsTable's
        return table_html(self, ratings_body(self))


class DaifugoRatingsTable(RatingsTable):
    """Daifugō counts rounds (回戦), never deals."""

    game = "daifugo"

    class Meta(RatingsTable.Meta):
        empty_text = _("No rated rounds yet.")

    deals = NumberColumn(verbose_name=_("Rounds"))


def ratings_body(table) -> str:
    provisional = (
        " "
        + render_to_string("tournaments/public/provisional_mark.html", {"game": table.game}).strip()
    )
    separator = get_format("DECIMAL_SEPARATOR")

    def number(value: float) -> str:
        return one_decimal(value, separator)

    def row_html(r) -> str:
        # Numbers (the rank and deals are ints) need no escaping; the last day as
        # |date:"Y-m-d" writes a date (ISO 8601), empty when there is none.
        day = r.last_played.isoformat() if r.last_played else ""
        return (
            f'<td class="num">{r.rank}</td>{_player_cell(r, provisional if r.provisional else "")}'
            f'<td class="num rating-score">{number(r.score)}</td>'
            f'<td class="num">±{number(r.sigma)}</td><td class="num">{number(r.mu)}</td>'
            f'<td class="num">{r.deals}</td><td>{day}</td>'
        )

    return _body(table, row_html)


def ratings_table(rows, *, club_slug: str, request=None, game: str = "napoleon") -> RatingsTable:
    player_urls(club_slug, rows)
    table = (DaifugoRatingsTable if game == "daifugo" else RatingsTable)(rows)
    if request is not None:
        tables.RequestConfig(request, paginate=False).configure(table)
    return table
