"""Scoring one Daifugō round: the Hyōsube rules (「大富豪・大貧民」) and the common-rules post
(「俺が今から、トランプ:大富豪の世界共通の基本ルールを決める。」), as docs/rules.md settles them.

``score_daifugo`` turns the order in which players went out into titles and points, applying
都落ち and the forbidden finish, and tells the table the card exchanges and who leads next.

Final order (efuda decision, see docs/rules.md "Ordering penalties"):
1. players who went out normally, in the order they went out;
2. then the forbidden finishers, the *earliest* to go out on a forbidden card *lowest* (the
   common-rules post: going out on a forbidden card makes you 大貧民 "確定" at that moment;
   whoever comes later can only take the lowest place still free, which is above);
3. then the player who fell by 都落ち, at the very bottom (the Hyōsube rules: the
   大富豪 "either stays 大富豪 or becomes 大貧民"; docs/rules.md: they become 大貧民 of this round).
The previous 大富豪 keeps the title only by being first in the final order, i.e. the first to
go out on a card that is not forbidden (the common-rules post: "1位になれなかった場合").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from core.errors import EfudaError
from core.i18n import N_
from core.messages import Message
from rules.ruleset import RuleSet
from rules.titles import TITLE_LABELS, daifugo_titles
from scoring.validation import player_keys, shown


@dataclass(frozen=True)
class DaifugoRound:
    """One round: ``order`` = players in the order they went out (the last one left last).

    ``forbidden``: players who went out on a forbidden card (a joker or a 2; a 3 during a
    revolution). ``previous_daifugo``: the previous round's 大富豪 in this session, None in a
    session's first round. ``players``: everyone at the table, when known apart from the order
    (an entry form, a tournament table): then the order must name every one of them, so a
    round whose last finisher was forgotten is refused, never scored as a smaller round.
    """

    order: tuple[str, ...]
    forbidden: frozenset[str] = frozenset()
    previous_daifugo: str | None = None
    players: tuple[str, ...] | None = None


@dataclass(frozen=True)
class Exchange:
    """Before the next round ``giver`` hands ``count`` cards to ``receiver``."""

    giver: str
    receiver: str
    count: int


@dataclass(frozen=True)
class DaifugoResult:
    final_order: tuple[str, ...]
    titles: Mapping[str, str]
    points: Mapping[str, int]
    miyako_ochi: str | None
    forbidden_applied: tuple[str, ...]
    exchanges: tuple[Exchange, ...]
    next_leader: str
    first_round_lead: str | None
    explanation: tuple[Message, ...] = field(default=())

    def __post_init__(self) -> None:
        object.__setattr__(self, "titles", MappingProxyType(dict(self.titles)))
        object.__setattr__(self, "points", MappingProxyType(dict(self.points)))


FIRST_ROUND_LEAD = N_("Whoever holds ♦3 leads the first round.")


def score_daifugo(round: DaifugoRound, ruleset: RuleSet) -> DaifugoResult:  # noqa: A002
    """Titles, points, exchanges and the next leader for ``round`` under ``ruleset``."""
    if not isinstance(ruleset, RuleSet) or ruleset.game != "daifugo":
        raise EfudaError("preset", "wrong_game", N_("This is not a Daifugō rule set."))
    if not isinstance(round, DaifugoRound):
        raise EfudaError("order", "not_a_round", N_("This is not a Daifugō round."))
    order = player_keys(round.order, "order")
    _check_complete(order, round.players)
    titles_by_position = daifugo_titles(len(order))
    forbidden = _check_forbidden(round.forbidden, order, ruleset)
    previous = _check_previous(round.previous_daifugo)

    normal = [p for p in order if p not in forbidden]
    fell = None
    if ruleset.miyako_ochi and previous in order and normal[0] != previous:
        fell = previous
    top = [p for p in normal if p != fell]
    penalised = [p for p in order if p in forbidden and p != fell]
    final = tuple(top + penalised[::-1] + ([fell] if fell else []))

    titles = dict(zip(final, titles_by_position, strict=True))
    points = {p: ruleset.title_points[titles[p]] for p in final}
    by_title = {t: p for p, t in titles.items() if t != "heimin"}
    exchanges = [
        Exchange(by_title["daihinmin"], by_title["daifugo"], 2),
        Exchange(by_title["daifugo"], by_title["daihinmin"], 2),
    ]
    if "fugo" in by_title:
        exchanges += [
            Exchange(by_title["hinmin"], by_title["fugo"], 1),
            Exchange(by_title["fugo"], by_title["hinmin"], 1),
        ]
    first_lead = FIRST_ROUND_LEAD if ruleset.diamond3_leads_first and previous is None else None
    explanation = _explain(order, penalised, fell, final, titles, points, first_lead,
                           fell_forbidden=fell is not None and fell in forbidden)  # fmt: skip
    return DaifugoResult(
        final_order=final, titles=titles, points=points, miyako_ochi=fell,
        forbidden_applied=tuple(p for p in order if p in forbidden),
        exchanges=tuple(exchanges), next_leader=by_title["daihinmin"],
        first_round_lead=first_lead, explanation=explanation,
    )  # fmt: skip


def _check_complete(order: tuple[str, ...], players: object) -> None:
    """With the table's players known, the order names exactly them."""
    if players is None:
        return
    table = player_keys(players, "players")
    strangers = [p for p in order if p not in table]
    if strangers:
        raise EfudaError("order", "not_at_table",
                         N_("%(player)s is not one of the players at this table."),
                         {"player": strangers[0]})  # fmt: skip
    missing = [p for p in table if p not in order]
    if missing:
        raise EfudaError(
            "order", "order_incomplete",
            N_("The order must name every player at the table: %(players)s still has no "
               "place. Tap the players in the order they went out, the last one too."),
            {"players": ", ".join(missing)},
        )  # fmt: skip


def _check_forbidden(value: object, order: tuple[str, ...], ruleset: RuleSet) -> frozenset[str]:
    if value is None:
        return frozenset()
    if not isinstance(value, (frozenset, set, tuple, list)):
        raise EfudaError(
            "forbidden", "not_a_list", N_("List the players who went out on a forbidden card.")
        )
    for player in value:
        if not isinstance(player, str) or player not in order:
            raise EfudaError("forbidden", "not_in_round",
                             N_("“%(player)s” did not play this round."),
                             {"player": shown(player)})  # fmt: skip
    if value and not ruleset.forbidden_finish:
        raise EfudaError(
            "forbidden",
            "forbidden_not_in_rules",
            N_("These rules have no forbidden finishing cards."),
        )
    if order[-1] in value:
        raise EfudaError("forbidden", "last_did_not_go_out",
                         N_("%(player)s was left last and did not go out on any card."),
                         {"player": order[-1]})  # fmt: skip
    return frozenset(value)


def _check_previous(value: object) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip():
        raise EfudaError(
            "previous_daifugo",
            "invalid_player",
            N_("The previous 大富豪 (grand millionaire) must be a player."),
        )
    return value


def _explain(order, penalised, fell, final, titles, points, first_lead, *,
             fell_forbidden=False) -> tuple[Message, ...]:  # fmt: skip
    lines = [Message(N_("Went out in this order: %(order)s."), {"order": ", ".join(order)})]
    for player in penalised:
        position = final.index(player) + 1
        if position == len(final):
            lines.append(Message(
                N_("%(player)s went out on a forbidden card and is placed last (an earlier "
                   "forbidden finish ranks lower)."), {"player": player},
            ))  # fmt: skip
        else:  # a later forbidden finisher, or one above the player who fell by 都落ち
            lines.append(Message(
                N_("%(player)s went out on a forbidden card and is placed %(position)s of "
                   "%(count)s, below everyone who went out normally (an earlier forbidden "
                   "finish ranks lower)."),
                {"player": player, "position": position, "count": len(final)},
            ))  # fmt: skip
    if fell and fell_forbidden:
        lines.append(Message(
            N_("%(player)s went out on a forbidden card, so did not finish first."),
            {"player": fell},
        ))  # fmt: skip
    if fell:
        lines.append(Message(
            N_("都落ち (fall from the capital): %(player)s, last round's 大富豪 (grand "
               "millionaire), did not finish first and becomes 大貧民 (grand pauper)."),
            {"player": fell},
        ))  # fmt: skip
    for position, player in enumerate(final, start=1):
        one = abs(points[player]) == 1  # "+1 point", "+2 points" (the core has no ngettext)
        lines.append(Message(
            N_("%(position)s. %(player)s — %(title)s, %(points)s point.") if one else
            N_("%(position)s. %(player)s — %(title)s, %(points)s points."),
            {"position": position, "player": player,
             "title": TITLE_LABELS[titles[player]][0], "points": f"{points[player]:+d}"},
        ))  # fmt: skip
    if first_lead:
        lines.append(Message(first_lead))
    return tuple(lines)
