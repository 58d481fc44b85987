"""``{% deal_cards detail.deals can_record %}``: a session page's deals, one card each, with the
totals after each deal (``selectors.sessions.DealRow``).

Written in Python rather than as a template included once per deal: the markup is the one the
included template ``components/deal_card.html`` wrote (whitespace aside); but an include, its
nodes and its ``{% url %}`` tags per deal cost most of the page's rendering on a long evening.
Each part is escaped here as the template escaped it; the texts are the same messages
(gettext), so the catalogue is unchanged. The addresses are reversed once per page, each
deal's id put in place.
"""

from django import template
from django.template.defaulttags import CsrfTokenNode
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext

from ..i18n import term_html
from ..tables.standings import address_around_id
from .efuda_text import suits

register = template.Library()

_ACTIONS = ("deal_edit", "deal_delete", "deal_restore", "deal_history")


def _seat(s) -> str:
    esc = conditional_escape
    who = f'<span class="title">{esc(term_html(s.title))}</span>' if s.title else ""
    who += f"<bdi>{esc(s.name)}</bdi>"
    if s.role_label:
        who += f' <span class="muted">{esc(s.role_label)}</span>'
    if s.miyako_ochi:
        who += f' <span class="mark">{esc(term_html("都落ち"))}</span>'
    if s.forbidden:
        who += f' <span class="mark">{esc(gettext("forbidden finish"))}</span>'
    points = ""
    if s.points is not None:
        sign = "pos" if s.points > 0 else "neg" if s.points < 0 else ""
        points = f'\n      <span class="pts {sign}">{s.points:+d}</span>'
    return f'<li><span class="who">{who}</span>{points}</li>'


def _seat_items(seats) -> str:
    """The ``<li>`` of each seat of a deal card."""
    return mark_safe("\n".join(_seat(s) for s in seats))  # noqa: S308 - each part escaped


def _explanation_items(lines) -> str:
    """Each line of "how it was scored" as ``<li>``,
    its red suits marked as ``|suits`` marks them."""
    return mark_safe("".join(f"<li>{suits(line)}</li>" for line in lines))  # noqa: S308


def _total_chips(totals_after) -> str:
    """Each player's total after a deal, as a chip."""
    esc = conditional_escape
    return mark_safe("".join(  # noqa: S308 - each name escaped
        f'<span class="chip"><bdi>{esc(name)}</bdi> {total:+d}</span>'
        for _pid, name, total in totals_after
    ))  # fmt: skip


def _addresses(club_slug: str) -> dict[str, tuple[str, str]]:
    """Each action's address around the deal's id, reversed once."""
    return {name: address_around_id(name, club_slug) for name in _ACTIONS}


def _summary(d) -> str:
    """The head's summary of a Napoleon deal (nothing for Daifugō)."""
    if d.game != "napoleon":
        return ""
    esc = conditional_escape
    if d.redeal:
        return f'<span class="summary">{esc(term_html("流れ"))}</span>'
    parts = [f'<bdi>{esc(d.napoleon)}</bdi> <b class="contract">{esc(d.bid)}{suits(d.trump)}</b>']
    if d.called:
        parts.append(f'<span class="called">{suits(d.called)}</span>')
    if d.solo:
        parts.append(f'<span class="solo">{esc(term_html("独り立ち"))}</span>')
    else:
        adj = esc(gettext("adj."))
        parts.append(f'<span class="muted">{adj}</span> <bdi>{esc(d.adjutant)}</bdi>')
    army = gettext("army %(n)s") % {"n": esc(d.army_count)}
    parts.append(f'<span class="army">{army}</span>')
    won = f'<span class="pos">{esc(gettext("made"))}</span>'
    parts.append(won if d.won else f'<span class="neg">{esc(gettext("set"))}</span>')
    marks = ""
    if d.plan_b:
        marks += f'<span class="mark">{esc(term_html("作戦B"))}</span>'
    if d.all20:
        marks += f'<span class="mark">{esc(gettext("all 20"))}</span>'
    parts.append(marks)
    return f'<span class="summary">{" ".join(p for p in parts if p)} </span>'


def _form(url: str, csrf: str, label: str) -> str:
    return (
        f'<form method="post" action="{url}">{csrf}'
        f'<button type="submit">{conditional_escape(gettext(label))}</button></form>'
    )


def _actions(d, urls: dict, csrf: str) -> str:
    """The scorekeeper's buttons: restore a deleted deal, or edit and delete it; its history."""

    def url(name: str) -> str:
        before, after = urls[name]
        return f"{before}{d.id}{after}"

    if d.is_deleted:
        buttons = _form(url("deal_restore"), csrf, "Restore")
    else:
        edit = conditional_escape(gettext("Edit"))
        buttons = f'<a class="button" href="{url("deal_edit")}">{edit}</a>\n' + _form(
            url("deal_delete"), csrf, "Delete"
        )
    history = conditional_escape(gettext("History"))
    return (
        f'<div class="deal-actions">\n{buttons}\n'
        f'<a class="button" href="{url("deal_history")}">{history}</a>\n</div>\n'
    )


def deal_card(d, *, urls: dict | None, csrf: str = "") -> str:
    """One deal's card; ``urls`` (``_addresses``) when the reader may record, else None."""
    esc = conditional_escape
    classes = "card deal" + (" deleted" if d.is_deleted else "") + (" redeal" if d.redeal else "")
    state = f'<span class="mark state">{esc(gettext("Deleted"))}</span>' if d.is_deleted else ""
    leader = ""
    if d.exchanges:
        text = gettext("Next round led by <bdi>%(leader)s</bdi>.") % {"leader": esc(d.next_leader)}
        leader = f'<p class="muted">{text}</p>'
    how = esc(gettext("How it was scored"))
    head = f'<span class="seq">#{d.seq}</span>\n' + (f"{state}\n" if state else "")
    summary = _summary(d)
    return (
        f'\n<li id="deal-{d.seq}" class="{classes}">\n'
        f'<div class="deal-head">\n{head}' + (f"{summary}\n" if summary else "") + "</div>\n"
        f'<ol class="points">\n{_seat_items(d.seats)}\n</ol>\n'
        f'<details class="explain"><summary>{how}</summary>\n'
        f"<ul>{_explanation_items(d.explanation)}</ul>\n"
        + (f"{leader}\n" if leader else "")
        + "</details>\n"
        + (_actions(d, urls, csrf) if urls is not None else "")
        + "</li>\n"
    )


def _after(d) -> str:
    """The totals after a deal that counts, between its card and the next."""
    if d.is_deleted or not d.totals_after:
        return ""
    label = gettext("Totals after #%(seq)s:") % {"seq": d.seq}  # as blocktranslate: unescaped
    chips = _total_chips(d.totals_after)
    return f'<li class="after"><span class="muted">{label}</span>\n{chips}\n</li>\n'


@register.simple_tag(takes_context=True)
def deal_cards(context, deals, can_record) -> str:
    """Every deal's card and the totals after it, in the session page's list."""
    urls = csrf = None
    if can_record:
        urls = _addresses(context["club"].slug)
        csrf = CsrfTokenNode().render(context)
    return mark_safe(  # noqa: S308 - every part escaped above
        "".join(deal_card(d, urls=urls, csrf=csrf or "") + _after(d) for d in deals)
    )
