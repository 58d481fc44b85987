"""What a share card shows: a session's result or a month's standings, as plain values.

A share card is the picture a chat or a social site shows under a pasted link (``og:image``):
the club, a title, the top players with their points and a line of counts. Built here from
the pages' own selectors (``session_detail``, ``standings`` with the reader's visibility), so
a card never shows more than its page; drawn by reports/cards.py; kept and served by
views/cards.py (docs/api.md, "Share cards").
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ..models import Club, Game, GameSession
from .sessions import session_detail
from .standings import Period, standings
from .visibility import Visibility

TOP = 5  # players on a card: what fits 630 pixels in a size read on a phone


@dataclass(frozen=True)
class CardLine:
    rank: int
    name: str
    points: int

    @property
    def signed(self) -> str:
        """The points as the pages print them (+2, -1, 0)."""
        return f"{self.points:+d}" if self.points else "0"


@dataclass(frozen=True)
class ShareCard:
    club: str
    title: str
    subtitle: str
    lines: tuple[CardLine, ...]
    footer: str

    @property
    def description(self) -> str:
        """The card in one line of text (``og:description``)."""
        top = " · ".join(f"{line.rank}. {line.name} {line.signed}" for line in self.lines)
        return " · ".join(part for part in (top, self.footer) if part)


def _counted(game: str, n: int) -> str:
    if game == Game.DAIFUGO:  # Daifugō counts rounds, never deals
        return ngettext("%(n)s round", "%(n)s rounds", n) % {"n": n}
    return ngettext("%(n)s deal", "%(n)s deals", n) % {"n": n}


def session_card(*, session: GameSession, top: int = TOP) -> ShareCard:
    """The card of ``session`` (one the reader may see: the caller checked its visibility)."""
    detail = session_detail(session)
    players = len(detail.totals)
    return ShareCard(
        club=session.club.name,
        title=_("%(date)s · %(game)s · table %(table)s")
        % {
            "date": session.date.isoformat(),
            "game": Game(session.game).label,
            "table": session.table,
        },
        subtitle=detail.ruleset_name,
        lines=tuple(CardLine(r.rank, r.name, r.points) for r in detail.totals[:top]),
        footer=" · ".join(
            (
                _counted(session.game, detail.live_deals),
                ngettext("%(n)s player", "%(n)s players", players) % {"n": players},
            )
        ),
    )


def standings_card(
    *, club: Club, game: str, period: Period, visibility: Visibility, top: int = TOP
) -> ShareCard:
    """The card of ``game``'s standings in ``period``, as a reader with ``visibility`` sees
    them (the same rows and ranks as the standings page)."""
    result = standings(club=club, game=game, period=period, visibility=visibility)
    players = len(result.rows)
    return ShareCard(
        club=club.name,
        title=_("%(game)s standings · %(period)s")
        % {"game": Game(game).label, "period": period.label},
        subtitle="",
        lines=tuple(CardLine(r.rank, r.name, r.points) for r in result.rows[:top]),
        footer=ngettext("%(n)s player ranked", "%(n)s players ranked", players) % {"n": players},
    )
