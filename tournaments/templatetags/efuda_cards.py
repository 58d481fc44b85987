"""``{% deal_cards detail.deals can_record %}``: a session page's deals, one card each, with the
totals after each deal (``selectors.sessions.DealRow``).

Written in Python rather than as a template included once per deal: the markup is the one the
included template ``components/deal_card.html`` wrote (whitespace aside); but an include, its
nodes and its ``{% url %}`` tags per deal cost most of the page's rendering on a long evening.
Each part is escaped here as the template escaped it; the texts are the same messages
(gettext), so the catalogue is unchanged. The addresses are reversed once per page, each
deal's id put in place.
"""

import html

from django import template
from django.template.defaulttags import CsrfTokenNode
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext

from ..i18n import term_html
from ..tables.standings import address_around_id
from .efuda_text import _RED

register = template.Library()

_ACTIONS = ("deal_edit", "deal_delete", "deal_restore", "deal_history")


def _esc(value) -> str:
    """``conditional_escape``, without its lazy wrapper for the plain ``str`` most values are
    (the same text: Django's ``escape`` is ``html.escape``)."""
    return html.escape(value) if type(value) is str else conditional_escape(value)


def _suits(value) -> str:
    """What ``|suits`` writes: escaped, its red suits marked."""
    return _RED.sub(r'<span class="suit-red">\1</span>', str(_esc(value)))


def _texts() -> dict[str, str]:
    """The cards' words in the page's language, escaped: translated once a page, not once a
    deal (the same messages as before, so the catalogue is unchanged)."""
    words = {
        "forbidden": gettext("forbidden finish"), "adj": gettext("adj."),
        "made": gettext("made"), "set": gettext("set"), "all20": gettext("all 20"),
        "Restore": gettext("Restore"), "Delete": gettext("Delete"), "Edit": gettext("Edit"),
        "History": gettext("History"),
        "how": gettext("How it was scored"),
    }  # fmt: skip
    texts = {key: _esc(text) for key, text in words.items()}
    for key, term in (("miyako", "都落ち"), ("redeal", "流れ"), ("solo", "独り立ち"),
                      ("plan_b", "作戦B")):  # fmt: skip
        texts[key] = _esc(term_html(term))
    texts["army"] = gettext("army %(n)s")
    texts["leader"] = gettext("Next round led by <bdi>%(leader)s</bdi>.")
    texts["after"] = gettext("Totals after #%(seq)s:")  # as blocktranslate: unescaped
    return texts


def _seat(s, texts) -> str:
    who = f'<span class="title">{_esc(term_html(s.title))}</span>' if s.title else ""
    who += f"<bdi>{_esc(s.name)}</bdi>"
    if s.role_label:
        who += f' <span class="muted">{_esc(s.role_label)}</span>'
    if s.miyako_ochi:
        who += f' <span class="mark">{texts["miyako"]}</span>'
    if s.forbidden:
        who += f' <span class="mark">{texts["forbidden"]}</span>'
    points = ""
    if s.points is not None:
        sign = "pos" if s.points > 0 else "neg" if s.points < 0 else ""
        points = f'\n      <span class="pts {sign}">{s.points:+d}</span>'
    return f'<li><span class="who">{who}</span>{points}</li>'


def _total_chips(totals_after) -> str:
    """Each player's total after a deal, as a chip."""
    return "".join(
        f'<span class="chip"><bdi>{_esc(name)}</bdi> {total:+d}</span>'
        for _pid, name, total in totals_after
    )


def _addresses(club_slug: str) -> dict[str, tuple[str, str]]:
    """Each action's address around the deal's id, reversed once."""
    return {name: address_around_id(name, club_slug) for name in _ACTIONS}


def _summary(d, texts) -> str:
    """The head's summary of a Napoleon deal (nothing for Daifugō)."""
    if d.game != "napoleon":
        return ""
    if d.redeal:
        return f'<span class="summary">{texts["redeal"]}</span>'
    parts = [
        f'<bdi>{_esc(d.napoleon)}</bdi> <b class="contract">{_esc(d.bid)}{_suits(d.trump)}</b>'
    ]
    if d.called:
        parts.append(f'<span class="called">{_suits(d.called)}</span>')
    if d.solo:
        parts.append(f'<span class="solo">{texts["solo"]}</span>')
    else:
        parts.append(f'<span class="muted">{texts["adj"]}</span> <bdi>{_esc(d.adjutant)}</bdi>')
    army = texts["army"] % {"n": _esc(d.army_count)}
    parts.append(f'<span class="army">{army}</span>')
    won = f'<span class="pos">{texts["made"]}</span>'
    parts.append(won if d.won else f'<span class="neg">{texts["set"]}</span>')
    marks = ""
    if d.plan_b:
        marks += f'<span class="mark">{texts["plan_b"]}</span>'
    if d.all20:
        marks += f'<span class="mark">{texts["all20"]}</span>'
    parts.append(marks)
    return f'<span class="summary">{" ".join(p for p in parts if p)} </span>'


def _form(url: str, csrf: str, label: str) -> str:
    return f'<form method="post" action="{url}">{csrf}<button type="submit">{label}</button></form>'


def _actions(d, urls: dict, csrf: str, texts) -> str:
    """The scorekeeper's buttons: restore a deleted deal, or edit and delete it; its history."""

    def url(name: str) -> str:
        before, after = urls[name]
        return f"{before}{d.id}{after}"

    if d.is_deleted:
        buttons = _form(url("deal_restore"), csrf, texts["Restore"])
    else:
        buttons = f'<a class="button" href="{url("deal_edit")}">{texts["Edit"]}</a>\n' + _form(
            url("deal_delete"), csrf, texts["Delete"]
        )
    return (
        f'<div class="deal-actions">\n{buttons}\n'
        f'<a class="button" href="{url("deal_history")}">{texts["History"]}</a>\n</div>\n'
    )


def deal_card(d, *, urls: dict | None, csrf: str = "", texts: dict | None = None) -> str:
    """One deal's card; ``urls`` (``_addresses``) when the reader may record, else None;
    ``texts``: ``_texts()``, made once for a page's cards."""
    texts = texts or _texts()
    classes = "card deal" + (" deleted" if d.is_deleted else "") + (" redeal" if d.redeal else "")
    state = ""
    if d.is_deleted:  # a status label, its text in place (tests/i18n/test_words.py reads it)
        state = f'<span class="mark state">{_esc(gettext("Deleted"))}</span>'
    leader = ""
    if d.exchanges:
        text = texts["leader"] % {"leader": _esc(d.next_leader)}
        leader = f'<p class="muted">{text}</p>'
    head = f'<span class="seq">#{d.seq}</span>\n' + (f"{state}\n" if state else "")
    summary = _summary(d, texts)
    seats = "\n".join(_seat(s, texts) for s in d.seats)
    explanation = "".join(f"<li>{_suits(line)}</li>" for line in d.explanation)
    return (
        f'\n<li id="deal-{d.seq}" class="{classes}">\n'
        f'<div class="deal-head">\n{head}' + (f"{summary}\n" if summary else "") + "</div>\n"
        f'<ol class="points">\n{seats}\n</ol>\n'
        f'<details class="explain"><summary>{texts["how"]}</summary>\n'
        f"<ul>{explanation}</ul>\n"
        + (f"{leader}\n" if leader else "")
        + "</details>\n"
        + (_actions(d, urls, csrf, texts) if urls is not None else "")
        + "</li>\n"
    )


def _after(d, texts) -> str:
    """The totals after a deal that counts, between its card and the next."""
    if d.is_deleted or not d.totals_after:
        return ""
    label = texts["after"] % {"seq": d.seq}
    chips = _total_chips(d.totals_after)
    return f'<li class="after"><span class="muted">{label}</span>\n{chips}\n</li>\n'


@register.simple_tag(takes_context=True)
def deal_cards(context, deals, can_record) -> str:
    """Every deal's card and the totals after it, in the session page's list."""
    urls = csrf = None
    if can_record:
        urls = _addresses(context["club"].slug)
        csrf = CsrfTokenNode().render(context)
    texts = _texts()
    return mark_safe(  # noqa: S308 - every part escaped above
        "".join(
            deal_card(d, urls=urls, csrf=csrf or "", texts=texts) + _after(d, texts) for d in deals
        )
    )
