"""Reads for the session pages: sessions of a club, one session deal by deal (a deal's history:
``selectors/history.py``).

Everything here returns plain dataclasses built from stored deals and their ``outcome`` (the
scoring core's result kept at record time): nothing is re-scored. The functions take no request,
so the printed session sheet reuses them; texts are rendered in the active language.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from django.db.models import Count, Q
from django.utils.translation import get_language, gettext
from django.utils.translation import gettext_lazy as _

import rules
from core.errors import EfudaError
from rules import TITLE_LABELS
from scoring.cards import SUIT_SYMBOLS, parse_card

from ..i18n import render_explanation
from ..models import Club, Deal, Game, GameSession, Player
from .visibility import Visibility

ROLE_LABELS = {
    "napoleon": _("Napoleon"),
    "adjutant": _("Adjutant"),
    "ally": _("Allies"),
}


# A session page builds a hundred of these and twenty DealRows: plain slotted dataclasses, not
# frozen ones (whose __init__ sets each field through object.__setattr__, ~2.5x the cost).
@dataclass(slots=True)
class SeatPoints:
    """One player's part in one deal."""

    player_id: int
    name: str
    points: int | None
    role: str = ""
    role_label: str = ""
    title: str = ""  # Daifugō title in Japanese (大富豪 …)
    position: int | None = None
    miyako_ochi: bool = False
    forbidden: bool = False


@dataclass(slots=True)
class DealRow:
    id: int
    seq: int
    game: str
    version: int
    is_deleted: bool
    redeal: bool
    seats: list[SeatPoints]
    explanation: list[str]
    totals_after: list[tuple[int, str, int]]  # (player id, name, total) after this deal
    # Napoleon
    napoleon: str = ""
    adjutant: str = ""
    solo: bool = False
    bid: int | None = None
    trump: str = ""  # symbol ♠ ♥ ♦ ♣
    called: str = ""  # label ♠A, JK
    army_count: int | None = None
    won: bool | None = None
    plan_b: bool = False
    all20: bool = False
    # Daifugō
    exchanges: list[tuple[str, str, int]] = field(default_factory=list)
    next_leader: str = ""


@dataclass(frozen=True)
class TotalRow:
    rank: int
    player_id: int
    name: str
    points: int
    deals: int
    is_winner: bool


@dataclass(frozen=True)
class SessionDetail:
    session: GameSession
    club: Club
    game: str
    ruleset_name: str
    players: list[tuple[int, str]]  # every player of a live deal, by first appearance
    deals: list[DealRow]
    totals: list[TotalRow]  # the final table, best first
    winners: list[str]
    live_deals: int


def club_sessions(*, club: Club, visibility: Visibility):
    """The club's sessions the reader may see, newest first, with their live deal count (a
    queryset to paginate)."""
    return (
        visibility.sessions(GameSession.objects.filter(club=club))
        .select_related("ruleset")
        .annotate(deal_count=Count("deals", filter=Q(deals__is_deleted=False)))
        .order_by("-date", "table", "-id")
    )


def card_label(code: str | None) -> str:
    if not code:
        return ""
    if isinstance(code, str):
        return _card_label(code)
    try:
        return parse_card(code).label
    except EfudaError:
        return str(code)


@lru_cache(maxsize=128)
def _card_label(code: str) -> str:
    """A called card's label (a few dozen codes, each parsed once)."""
    try:
        return parse_card(code).label
    except EfudaError:
        return code


def _title_label(code: str) -> str:
    return TITLE_LABELS[code][0] if code in TITLE_LABELS else code


def player_names(*, club: Club | int, ids) -> dict[str, str]:
    """``{str(id): name}`` for the given player ids of ``club`` (a club or its id: what i18n
    messages need)."""
    wanted = {int(i) for i in ids if str(i).isdigit()}
    if not wanted:
        return {}
    return {
        str(pk): name
        for pk, name in Player.objects.filter(club=club, id__in=wanted).values_list("id", "name")
    }


# What a deal's row is built from: read as values, not as ``Deal`` models (a model per deal,
# with the twenty fields a row does not show, cost more than the row built from it).
ROW_FIELDS = ("id", "seq", "game", "version", "is_deleted", "redeal", "data", "outcome")


def _deal_player_ids(deal) -> list[str]:
    data = deal.data or {}
    keys = data.get("seats") if deal.game == Game.NAPOLEON else data.get("order")
    return [str(k) for k in (keys or [])]


def _deal_named(deal) -> set[str]:
    """The player keys a deal's row names: its players and every key of its points."""
    return {*_deal_player_ids(deal), *(str(k) for k in (deal.outcome or {}).get("points") or {})}


def role_labels() -> dict[str, str]:
    """Each Napoleon role's label in the active language (a page translates them once, not
    once a seat)."""
    return {role: str(label) for role, label in ROLE_LABELS.items()}


def _napoleon_row(deal, names: dict[str, str], totals: list, labels=None, translations=None):
    """``deal``: a ``Deal`` or a row of its ``ROW_FIELDS``; ``labels``: ``role_labels()``;
    ``translations``: the explanations' msgids translated so far (``render_message``)."""
    data, out = deal.data or {}, deal.outcome or {}
    points, roles = out.get("points") or {}, out.get("roles") or {}
    labels = labels or role_labels()
    seats = []
    for key in _deal_player_ids(deal):
        role = roles.get(key, "")
        seats.append(SeatPoints(
            player_id=int(key), name=names.get(key, key), points=points.get(key),
            role=role, role_label=labels.get(role, ""),
        ))  # fmt: skip
    redeal = bool(out.get("redeal") or data.get("redeal") or deal.redeal)
    napoleon = str(data.get("napoleon") or "")
    adjutant = str(data.get("adjutant") or "")
    solo = bool(out.get("solo")) or (not redeal and adjutant in ("", napoleon))
    return DealRow(
        id=deal.id, seq=deal.seq, game=deal.game, version=deal.version,
        is_deleted=deal.is_deleted, redeal=redeal, seats=seats,
        explanation=render_explanation(out.get("explanation") or [], names, translations),
        totals_after=totals,
        napoleon="" if redeal else names.get(napoleon, napoleon),
        adjutant="" if (redeal or solo) else names.get(adjutant, adjutant),
        solo=solo and not redeal, bid=None if redeal else data.get("bid"),
        trump="" if redeal else SUIT_SYMBOLS.get(data.get("trump") or "", ""),
        called="" if redeal else card_label(data.get("called")),
        army_count=None if redeal else out.get("army_count"),
        won=None if redeal else out.get("won"),
        plan_b=bool(out.get("plan_b")), all20=bool(out.get("all20")),
    )  # fmt: skip


def _daifugo_row(deal, names: dict[str, str], totals: list, labels=None, translations=None):
    out = deal.outcome or {}
    points, titles = out.get("points") or {}, out.get("titles") or {}
    forbidden = set(out.get("forbidden_applied") or [])
    seats = [
        SeatPoints(
            player_id=int(key), name=names.get(key, key), points=points.get(key),
            role=titles.get(key, ""), title=_title_label(titles.get(key, "")),
            position=position, miyako_ochi=key == out.get("miyako_ochi"),
            forbidden=key in forbidden,
        )
        for position, key in enumerate(out.get("final_order") or [], start=1)
    ]  # fmt: skip
    exchanges = [
        (names.get(giver, giver), names.get(receiver, receiver), count)
        for giver, receiver, count in out.get("exchanges") or []
    ]
    leader = out.get("next_leader") or ""
    return DealRow(
        id=deal.id, seq=deal.seq, game=deal.game, version=deal.version,
        is_deleted=deal.is_deleted, redeal=False, seats=seats,
        explanation=render_explanation(out.get("explanation") or [], names, translations),
        totals_after=totals, exchanges=exchanges, next_leader=names.get(leader, leader),
    )  # fmt: skip


def session_detail(session: GameSession) -> SessionDetail:
    """The session deal by deal with running totals, the final table and the winner(s)."""
    deals = list(
        Deal.objects.filter(session=session).order_by("seq").values_list(*ROW_FIELDS, named=True)
    )
    ids: set[str] = set()
    for deal in deals:
        ids.update(_deal_named(deal))
    names = player_names(club=session.club_id, ids=ids)
    labels, translations = role_labels(), {}

    totals: dict[int, int] = {}
    played: dict[int, int] = {}
    order: list[int] = []
    rows = []
    for deal in deals:
        if not deal.is_deleted:
            for key, points in ((deal.outcome or {}).get("points") or {}).items():
                pid = int(key)
                if pid not in totals:
                    totals[pid], played[pid] = 0, 0
                    order.append(pid)
                totals[pid] += points
                played[pid] += 1
        build = _napoleon_row if deal.game == Game.NAPOLEON else _daifugo_row
        after = (
            []
            if deal.is_deleted
            else [(pid, names.get(str(pid), str(pid)), totals[pid]) for pid in order]
        )
        rows.append(build(deal, names, after, labels, translations))

    ranked = sorted(order, key=lambda pid: (-totals[pid], order.index(pid)))
    best = totals[ranked[0]] if ranked else None
    table: list[TotalRow] = []
    for index, pid in enumerate(ranked):
        rank = table[-1].rank if table and table[-1].points == totals[pid] else index + 1
        table.append(TotalRow(
            rank=rank, player_id=pid, name=names.get(str(pid), str(pid)), points=totals[pid],
            deals=played[pid], is_winner=totals[pid] == best,
        ))  # fmt: skip
    ruleset = session.ruleset
    return SessionDetail(
        session=session, club=session.club, game=session.game,
        ruleset_name=ruleset_label(ruleset),
        players=[(pid, names.get(str(pid), str(pid))) for pid in order],
        deals=rows, totals=table, winners=[r.name for r in table if r.is_winner],
        live_deals=sum(1 for d in deals if not d.is_deleted),
    )  # fmt: skip


def deal_row(deal_id: int) -> DealRow:
    """One stored deal as its session page shows it, without the running totals (an API
    answer about that deal): the deal and its players' names, two queries however long its
    session is."""
    deal = Deal.objects.get(pk=deal_id)
    names = player_names(club=deal.club_id, ids=_deal_named(deal))
    build = _napoleon_row if deal.game == Game.NAPOLEON else _daifugo_row
    return build(deal, names, [])


def previous_players(session: GameSession) -> list[int]:
    """The players of the session's latest live deal, in seat (or went-out) order."""
    last = (
        Deal.objects.filter(session=session, is_deleted=False)
        .order_by("-seq")
        .only("data", "game")
        .first()
    )
    if last is None:
        return []
    return [int(k) for k in _deal_player_ids(last) if k.isdigit()]


def entry_players(*, session: GameSession, roster=None, extra=()) -> list[Player]:
    """The players an entry form offers, in an order that does not change while a deal is
    being tapped in (buttons never jump): a tournament table's drawn ``roster`` in seat order;
    otherwise the session's previous players in their seat (went-out) order, then the club's
    other active players by name, then any other of the club's players in ``extra`` (ids the
    form already holds, e.g. an inactive player of the deal being edited)."""
    club = session.club
    if roster is not None:
        known = {p.id: p for p in Player.objects.filter(club=club, id__in=list(roster))}
        return [known[i] for i in roster if i in known]
    first = previous_players(session)
    # One query for both: the previous players and the club's active players by name.
    offered = list(
        Player.objects.filter(Q(id__in=first) | Q(active=True), club=club).order_by("name")
    )
    known = {p.id: p for p in offered if p.id in first}
    ordered = [known[i] for i in first if i in known]
    ordered += [p for p in offered if p.active and p.id not in known]
    have = {p.id for p in ordered}
    missing = [i for i in dict.fromkeys(extra) if i not in have]
    if missing:
        found = {p.id: p for p in Player.objects.filter(club=club, id__in=missing)}
        ordered += [found[i] for i in missing if i in found]
    return ordered


def preview_row(*, game: str, data: dict, outcome: dict, names: dict[str, str]) -> DealRow:
    """A not-yet-saved deal shown like a stored one (the entry form's points panel)."""
    deal = Deal(id=None, seq=0, game=game, data=data, outcome=outcome, version=0)
    build = _napoleon_row if game == Game.NAPOLEON else _daifugo_row
    return build(deal, names, [])


def ruleset_label(ruleset) -> str:
    """A club rule set's name as every page shows it: its own name; a preset the club adopted
    unchanged (named after the preset) in the page's language; else its code."""
    preset = rules.PRESETS.get(ruleset.code) or rules.PRESETS.get(ruleset.preset)
    if ruleset.name and (preset is None or ruleset.name != preset.name_ja):
        return ruleset.name
    if preset is not None and (ruleset.name or ruleset.code == preset.code):
        return preset_name(preset)
    return ruleset.name or ruleset.code


def preset_name(preset) -> str:
    """A preset's name in the page's language (the Japanese one is the clubs' own)."""
    return preset.name_ja if (get_language() or "ja").startswith("ja") else gettext(preset.name_en)


_ruleset_label = ruleset_label


def session_rule_choices(*, club: Club) -> list[tuple[str, list[tuple[str, str]]]]:
    """The rules a new session may be played under, grouped by game, Napoleon first.

    Within a game: the club's own rule sets, most used first, then the presets, except a preset
    the club already has as a rule set with no changes (the same rules twice, under two names,
    is a near-duplicate). Nothing is pre-selected: the form starts with an empty choice."""
    own = list(club.rulesets.annotate(used=Count("sessions")).order_by("-used", "name", "code"))
    same_as_preset = {r.preset for r in own if not r.options}
    groups = []
    for game, label in Game.choices:
        choices = [
            (r.code, _ruleset_label(r)) for r in own if rules.PRESETS.get(r.preset) is not None
            and rules.PRESETS[r.preset].game == game
        ]  # fmt: skip
        have = {code for code, _label in choices}
        for code, preset in rules.PRESETS.items():
            if preset.game == game and code not in have and code not in same_as_preset:
                choices.append((code, preset_name(preset)))
        if choices:
            groups.append((str(label), choices))
    return groups
