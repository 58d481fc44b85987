"""Text filters for pages and PDFs (loaded everywhere through TEMPLATES builtins).

``{{ name|isolate }}``: a name in a ``<title>``, wrapped in Unicode isolates (FSI … PDI).

``{{ text|suits }}``: ♥ and ♦ (and their white forms) wrapped in ``<span class="suit-red">``, so
red suits print red (the colour is in efuda.css and the PDF stylesheet).

``{{ "独り立ち"|term }}``: a game term in the clubs' own Japanese; on an English page it is
marked ``lang="ja"`` and followed by its English gloss (``i18n.GLOSSES``): 独り立ち (solo).

``{{ names|name_list }}``: names joined as the page's language lists them (「、」 or ", ").

``{{ seconds|clock }}``: the seconds left on a round clock as ``m:ss``.

``{{ points|signed }}``: points with their sign as the pages print them (+2, -1, 0; 0.00).

``{{ session.ruleset|ruleset_name }}``: a club rule set by the name every page uses.

``{{ field|heading:"table" }}``: a standings field's heading in that place (``standings_fields``:
"file", "table", "player"): a game term as ``|term`` shows it, any other heading translated.

``{% for text in row|cells:fields %}``: a standings row's ``fields`` as the pages write them.

A session page's deal cards: ``efuda_cards`` (``{% deal_cards %}``).

``{{ napoleon|fact_items }}``, ``{{ stats.by_bid|bid_rows }}``, ``{{ stats.month_table|month_rows
}}``: a player page's figures and tables, their loops written in Python.
"""

import re

from django import template
from django.conf import settings
from django.utils.formats import localize
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe

from .. import i18n
from ..i18n import list_join, term_html
from ..selectors.sessions import ruleset_label
from ..standings_fields import PLAYER

register = template.Library()

FSI, PDI = "\u2068", "\u2069"  # FIRST STRONG ISOLATE … POP DIRECTIONAL ISOLATE

_RED = re.compile("([♥♦♡♢])")


@register.filter(needs_autoescape=True)
def suits(value, autoescape=True):
    text = str(conditional_escape(value) if autoescape else value)
    return mark_safe(_RED.sub(r'<span class="suit-red">\1</span>', text))  # noqa: S308 - escaped


@register.filter
def term(value):
    """A game term (``i18n.GLOSSES``) with its English gloss on an English page; anything
    else, and every term on a Japanese page, as it is."""
    return term_html(value)


@register.filter(needs_autoescape=True)
def name_list(names, autoescape=True):
    """Names as a list in the page's language, each isolated: 「<bdi>太郎</bdi>、<bdi>花子</bdi>」
    on a Japanese page, "<bdi>Ken</bdi>, <bdi>Sam</bdi>" on an English one. ``names`` may also
    be (key, name) pairs, as the seating lists hold them."""
    esc = conditional_escape if autoescape else str
    shown = (name[1] if isinstance(name, tuple | list) else name for name in names)
    return mark_safe(list_join(f"<bdi>{esc(name)}</bdi>" for name in shown))  # noqa: S308


@register.filter
def clock(seconds) -> str:
    """Seconds left on a round clock as the clock shows them: ``12:05``, ``0:09``."""
    if seconds is None or seconds == "":
        return ""
    seconds = max(int(seconds), 0)
    return f"{seconds // 60}:{seconds % 60:02d}"


@register.filter
def isolate(value) -> str:
    """A name in a ``<title>``, where ``<bdi>`` cannot be used: wrapped in Unicode isolates, so a
    right-to-left name never reorders the words around it. Names cannot hold bidi controls of
    their own (services/names.py), so the pair always closes."""
    if value is None or value == "":
        return ""
    return f"{FSI}{value}{PDI}"


@register.filter
def signed(value) -> str:
    """A number of points as the pages show one: ``+2``, ``-1``, ``0`` (never ``+0`` or ``-0``);
    an average with two decimals (``+0.50``, ``0.00``). Anything else is shown as it is."""
    if value is None or value == "" or isinstance(value, bool):
        return "" if value is None else str(value)
    if isinstance(value, int):
        return f"{value:+d}" if value else "0"
    try:
        number = round(float(value), 2)
    except (TypeError, ValueError):
        return str(value)
    return f"{number:+.2f}" if number else "0.00"


@register.filter
def ruleset_name(ruleset) -> str:
    """A club rule set's name as every page shows it (``selectors.sessions.ruleset_label``)."""
    return ruleset_label(ruleset) if ruleset is not None else ""


@register.filter
def heading(field, place: str):
    """A standings field's heading in ``place`` (``i18n.heading``)."""
    return i18n.heading(field, place)


@register.filter
def cells(row, fields) -> list[str]:
    """A standings row's ``fields`` written as the pages write them (``StandingRow.cells``)."""
    return row.cells(fields)


# A player's page shows their figures and their record by bid, by trump and by month: written
# here in Python, the same markup the page's loops wrote, without a template node per cell
# (tournaments/selectors/players.py's PlayerStats).


def _number_writer():
    """How ``{{ n }}`` writes a number (``formats.localize``): an int as it is, unless the site
    groups thousands (``USE_THOUSAND_SEPARATOR``); anything else localized."""
    if settings.USE_THOUSAND_SEPARATOR:
        return lambda value: conditional_escape(localize(value))
    return lambda value: str(value) if type(value) is int else conditional_escape(localize(value))


@register.filter
def fact_items(facts) -> str:
    """``{{ napoleon|fact_items }}``: each figure of ``PlayerStats.facts`` as a ``<div>`` of
    its heading (``|heading:"player"``) and its value."""
    esc = conditional_escape
    return mark_safe("\n  ".join(  # noqa: S308 - each heading and value escaped
        f"<div><dt>{esc(i18n.heading(f, PLAYER))}</dt><dd>{esc(value)}</dd></div>"
        for f, value in facts
    ))  # fmt: skip


@register.filter
def bid_rows(rows) -> str:
    """``{{ stats.by_bid|bid_rows }}``: a ``<tr>`` for each bid (or trump) the player made as
    the Napoleon: played, made, lost, the win rate in per cent and the points."""
    number = _number_writer()
    return mark_safe("".join(  # noqa: S308 - each label and number escaped
        f'<tr><td>{conditional_escape(r.label)}</td><td class="num">{number(r.deals)}</td>'
        f'<td class="num">{number(r.wins)}</td><td class="num">{number(r.lost)}</td>'
        f'<td class="num">{number(r.win_rate)}%</td><td class="num">{number(r.points)}</td></tr>'
        for r in rows
    ))  # fmt: skip


@register.filter
def month_rows(months) -> str:
    """``{{ stats.month_table|month_rows }}``: a ``<tr>`` for each month, with each game's
    points and deals ("–" for a game not played that month)."""
    number = _number_writer()

    def cell(value) -> str:
        return f'<td class="num">{"–" if value is None else number(value)}</td>'

    return mark_safe("".join(  # noqa: S308 - each month and number escaped
        f"<tr><td>{conditional_escape(m['month'])}</td>{cell(m['napoleon_points'])}"
        f"{cell(m['napoleon_deals'])}{cell(m['daifugo_points'])}{cell(m['daifugo_deals'])}</tr>"
        for m in months
    ))  # fmt: skip
