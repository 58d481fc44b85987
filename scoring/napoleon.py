"""Scoring one Napoleon deal under the three Napoleon presets: 『トランプゲームナポレオン秘話』,
「ナポレオン (Napoleone)」 and 「ナポレオン」, as docs/rules.md settles them.

``score_napoleon`` checks a ``NapoleonDeal`` against a ``RuleSet`` and returns the points of
every seat with an explanation a player can read. Nothing here touches a database.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType

from core.errors import EfudaError
from core.i18n import N_
from core.messages import Message
from rules.ruleset import RuleSet
from rules.tables import point_row
from scoring.cards import SUIT_SYMBOLS, TOTAL_HONOURS, parse_card, parse_suit
from scoring.napoleon_explain import explain, explain_redeal
from scoring.validation import count, is_int, player_keys, seated, shown

LAST_TRICK_SIDES = ("napoleon", "allies")


@dataclass(frozen=True)
class NapoleonDeal:
    """One deal as the scorekeeper records it; ``seats`` are player keys, clockwise.

    Nothing that changes a score is assumed: ``redeal=True`` says nobody bid (流れ), and then
    nothing else of the deal may be given; otherwise the Napoleon, the bid, the trump, the
    adjutant *or* ``solo=True`` (独り立ち), ``honours`` (honours the Napoleon army won in
    tricks) and ``discarded`` (honours among the discards) must all be given. The Napoleon is
    never their own adjutant: a called card in the Napoleon's own hand is ``solo=True``.
    ``last_trick``: "napoleon" or "allies", needed only under the last-trick discard rule when
    honours were discarded.
    """

    seats: tuple[str, ...]
    napoleon: str | None = None
    bid: int | None = None
    trump: str | None = None
    called: str | None = None
    adjutant: str | None = None
    honours: int | None = None
    discarded: int | None = None
    last_trick: str | None = None
    redeal: bool = False
    solo: bool = False


@dataclass(frozen=True)
class NapoleonResult:
    """Points of every seat (seat order, summing to zero) and how they came about.

    A redeal has ``redeal=True`` and empty ``points`` and ``roles``: it counts in no record.
    ``trump`` and ``called`` are normalised codes ("S", "SA", "JK").
    """

    points: Mapping[str, int]
    roles: Mapping[str, str]
    army_count: int
    won: bool
    solo: bool
    plan_b: bool
    all20: bool
    multiplier: int
    redeal: bool
    explanation: tuple[Message, ...]
    bid: int | None = None
    trump: str | None = None
    called: str | None = None
    discards_to: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "points", MappingProxyType(dict(self.points)))
        object.__setattr__(self, "roles", MappingProxyType(dict(self.roles)))


@dataclass(frozen=True)
class _Checked:
    seats: tuple[str, ...]
    napoleon: str
    adjutant: str | None
    bid: int
    trump: str
    called: str | None
    honours: int
    discarded: int
    last_trick: str | None


def score_napoleon(deal: NapoleonDeal, ruleset: RuleSet) -> NapoleonResult:
    """Score ``deal`` under ``ruleset``; raise EfudaError (with its field) if it is invalid."""
    _check_types(deal, ruleset)
    seats = _check_seats(deal.seats, ruleset)
    if not isinstance(deal.redeal, bool):
        raise EfudaError("redeal", "not_a_bool", N_("Say whether the deal was a redeal."))
    if deal.redeal:
        _check_redeal(deal)
        return NapoleonResult(
            points={}, roles={}, army_count=0, won=False, solo=False, plan_b=False,
            all20=False, multiplier=0, redeal=True, explanation=(explain_redeal(),),
        )  # fmt: skip
    return _score(_check_deal(deal, seats, ruleset), ruleset)


def _check_redeal(deal: NapoleonDeal) -> None:
    """A redeal is a deal nobody bid on: nothing else of a deal may be given with it."""
    given = (
        deal.napoleon is not None or deal.bid is not None or deal.trump is not None
        or deal.called is not None or deal.adjutant is not None or deal.solo is not False
        or deal.honours not in (None, 0) or deal.discarded not in (None, 0)
        or deal.last_trick is not None
    )  # fmt: skip
    if given:
        raise EfudaError(
            "redeal", "redeal_with_deal",
            N_("A 流れ (redeal) has no Napoleon, bid, adjutant or honours: either clear "
               "them or take back the redeal."),
        )  # fmt: skip


def _check_types(deal: object, ruleset: object) -> None:
    if not isinstance(ruleset, RuleSet) or ruleset.game != "napoleon":
        raise EfudaError("preset", "wrong_game", N_("This is not a Napoleon rule set."))
    if not isinstance(deal, NapoleonDeal):
        raise EfudaError("deal", "not_a_deal", N_("This is not a Napoleon deal."))


def _check_seats(value: object, ruleset: RuleSet) -> tuple[str, ...]:
    seats = player_keys(value, "seats")
    if len(seats) not in ruleset.players:
        raise EfudaError(
            "seats", "players_not_allowed",
            N_("These rules are not played at a table of %(players)s; they are played at tables "
               "of %(allowed)s."),
            {"players": len(seats), "allowed": ", ".join(map(str, ruleset.players))},
        )  # fmt: skip
    return seats


def _check_deal(deal: NapoleonDeal, seats: tuple[str, ...], ruleset: RuleSet) -> _Checked:
    if deal.napoleon is None:
        raise EfudaError(
            "napoleon", "napoleon_missing",
            N_("Choose the Napoleon, or 流れ (redeal) if nobody bid."),
        )  # fmt: skip
    napoleon = seated(deal.napoleon, seats, "napoleon")
    adjutant = _check_adjutant(deal, seats, napoleon)
    players = len(seats)
    _check_bid(deal, ruleset, players)
    if deal.trump is None:
        raise EfudaError("trump", "trump_missing", N_("Choose the trump suit."))
    trump = parse_suit(deal.trump, "trump")
    called = None
    if deal.called is not None:
        called = parse_card(deal.called, "called", jokers=ruleset.jokers).code
    honours, discarded, last_trick = _check_honours(deal, ruleset, players)
    return _Checked(seats, napoleon, adjutant, deal.bid, trump, called, honours, discarded,
                    last_trick)  # fmt: skip


def _check_bid(deal: NapoleonDeal, ruleset: RuleSet, players: int) -> None:
    """The bid is given, a whole number within the table's bid range."""
    low, high = ruleset.bids[players]
    if deal.bid is None:
        raise EfudaError(
            "bid", "bid_missing",
            N_("Choose the bid (%(min)s to %(max)s at a %(players)s-player table)."),
            {"min": low, "max": high, "players": players},
        )  # fmt: skip
    if not is_int(deal.bid) or not low <= deal.bid <= high:
        raise EfudaError(
            "bid", "bid_out_of_range",
            N_("The bid must be a whole number from %(min)s to %(max)s at a %(players)s-player "
               "table, not %(bid)s."),
            {"min": low, "max": high, "players": players, "bid": shown(deal.bid)},
        )  # fmt: skip


def _check_honours(
    deal: NapoleonDeal, ruleset: RuleSet, players: int
) -> tuple[int, int, str | None]:
    """The honours taken in tricks and among the discards (at most the deck's 20 together, the
    discards at most the widow), and who won the last trick where the discards go to them."""
    if deal.honours is None:
        raise EfudaError(
            "honours", "honours_missing",
            N_("Enter the honours the Napoleon army took in tricks (0 to 20)."),
        )  # fmt: skip
    honours = count(deal.honours, "honours")
    if honours > TOTAL_HONOURS:
        raise EfudaError(
            "honours", "honours_range",
            N_("Honours are counted from 0 to 20 (the deck has 20), not %(honours)s."),
            {"honours": honours},
        )  # fmt: skip
    if deal.discarded is None:
        raise EfudaError(
            "discarded", "discarded_missing",
            N_("Enter the honours among the discards (0 if none)."),
        )  # fmt: skip
    discarded = count(deal.discarded, "discarded")
    if honours + discarded > TOTAL_HONOURS:
        raise EfudaError(
            "honours", "too_many_honours",
            N_("The army's %(honours)s honours and %(discarded)s discarded make more than "
               "the 20 honours in the deck."),
            {"honours": honours, "discarded": discarded},
        )  # fmt: skip
    widow = ruleset.widow[players]
    if discarded > widow:
        raise EfudaError(
            "discarded", "too_many_discards",
            N_("At a %(players)s-player table the widow holds %(widow)s, so %(discarded)s "
               "cannot be discarded."),
            {"widow": widow, "players": players, "discarded": discarded},
        )  # fmt: skip
    last_trick = None
    if ruleset.discard_policy == "last_trick" and discarded > 0:
        if not isinstance(deal.last_trick, str) or deal.last_trick not in LAST_TRICK_SIDES:
            raise EfudaError(
                "last_trick", "last_trick_missing",
                N_("Say who won the last trick (the Napoleon army or the allies): the "
                   "discarded honours go to them."),
            )  # fmt: skip
        last_trick = deal.last_trick
    return honours, discarded, last_trick


def _check_adjutant(deal: NapoleonDeal, seats: tuple[str, ...], napoleon: str) -> str | None:
    """The adjutant is a seated player other than the Napoleon, or ``solo`` said explicitly."""
    if not isinstance(deal.solo, bool):
        raise EfudaError("adjutant", "solo_not_a_bool", N_("Say whether the Napoleon plays solo."))
    if deal.solo:
        if deal.adjutant is not None:
            raise EfudaError(
                "adjutant", "adjutant_and_solo",
                N_("Choose either an adjutant or 独り立ち (solo), not both."),
            )  # fmt: skip
        return None
    if deal.adjutant is None:
        raise EfudaError(
            "adjutant", "adjutant_missing",
            N_("Choose the adjutant, or 独り立ち (solo) if the Napoleon has none."),
        )  # fmt: skip
    adjutant = seated(deal.adjutant, seats, "adjutant")
    if adjutant == napoleon:
        raise EfudaError(
            "adjutant", "adjutant_is_napoleon",
            N_("The Napoleon cannot be their own adjutant: if the called card was in the "
               "Napoleon's hand or in the widow, choose 独り立ち (solo)."),
        )  # fmt: skip
    return adjutant


def _discards_to(deal: _Checked, ruleset: RuleSet) -> str:
    """Who the discarded honours belong to (docs/rules.md, "Army count")."""
    policy = ruleset.discard_policy
    if policy == "last_trick":
        return deal.last_trick or "nobody"
    return {"allies": "allies", "nobody": "nobody", "napoleon": "napoleon"}[policy]


def _score(deal: _Checked, ruleset: RuleSet) -> NapoleonResult:
    players = len(deal.seats)
    solo = deal.adjutant is None
    discards_to = _discards_to(deal, ruleset)
    army = deal.honours + (deal.discarded if discards_to == "napoleon" else 0)
    took_all = army == TOTAL_HONOURS
    plan_b = ruleset.plan_b and took_all and deal.bid < TOTAL_HONOURS
    all20 = ruleset.all20_loses and took_all
    if plan_b or (all20 and deal.bid < TOTAL_HONOURS):
        won = False
    else:
        won = army >= deal.bid
    multiplier = 2 if all20 else 1
    row = point_row(ruleset, players, deal.bid, solo)
    sign = multiplier if won else -multiplier
    roles: dict[str, str] = {}
    points: dict[str, int] = {}
    for seat in deal.seats:
        if seat == deal.napoleon:
            roles[seat], points[seat] = "napoleon", sign * row.napoleon
        elif seat == deal.adjutant:
            roles[seat], points[seat] = "adjutant", sign * row.adjutant
        else:
            roles[seat], points[seat] = "ally", -sign * row.ally
    if sum(points.values()):  # guarded by the table check; a bug if it ever fires
        raise AssertionError(f"points do not balance: {points}")
    explanation = explain(
        napoleon=deal.napoleon, adjutant=deal.adjutant, bid=deal.bid,
        trump=SUIT_SYMBOLS[deal.trump], called=_label(deal.called), honours=deal.honours,
        discarded=deal.discarded, discards_to=discards_to, policy=ruleset.discard_policy,
        army=army, won=won, plan_b=plan_b, all20=all20, points=points, roles=roles,
    )  # fmt: skip
    return NapoleonResult(
        points=points, roles=roles, army_count=army, won=won, solo=solo, plan_b=plan_b,
        all20=all20, multiplier=multiplier, redeal=False, explanation=explanation,
        bid=deal.bid, trump=deal.trump, called=deal.called, discards_to=discards_to,
    )  # fmt: skip


def napoleon_reseated(result: NapoleonResult, seats: Sequence[str]) -> NapoleonResult:
    """``result`` for the same deal with the same players in other seats (``seats``, its keys
    in another order). A seat's points and role go by who the Napoleon and the adjutant are,
    never by where anyone sits (``_score``); the seats give only the order of ``points`` and
    ``roles``. A redeal has no points to order."""
    if result.redeal:
        return result
    if len(seats) != len(result.points) or set(seats) != set(result.points):
        raise ValueError("reseated: the seats are not the deal's players")
    return replace(result, points={s: result.points[s] for s in seats},
                   roles={s: result.roles[s] for s in seats})  # fmt: skip


def _label(code: str | None) -> str | None:
    return None if code is None else parse_card(code).label


__all__ = [
    "LAST_TRICK_SIDES", "NapoleonDeal", "NapoleonResult", "napoleon_reseated", "score_napoleon",
]  # fmt: skip
