"""The card vocabulary of the whole project: suits, ranks, cards, bids.

Suit order ♠ > ♥ > ♦ > ♣ is the bid order of every Napoleon source (the originator's
account 【マークの優先順位】, the wiki page ★ビッドの強さ, the club handout ② ビット).
Honours (絵札) are A K Q J 10 of each suit, 20 in all.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from typing import Any

from core.errors import EfudaError
from core.i18n import N_

SUITS: tuple[str, ...] = ("S", "H", "D", "C")
SUIT_SYMBOLS: dict[str, str] = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RANKS: tuple[str, ...] = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")
HONOUR_RANKS: frozenset[str] = frozenset({"A", "K", "Q", "J", "10"})
JOKER_RANK = "JK"
TOTAL_HONOURS = 20

_SUIT_ALIASES: dict[str, str] = {
    "s": "S", "h": "H", "d": "D", "c": "C",
    "♠": "S", "♥": "H", "♦": "D", "♣": "C",
    "♤": "S", "♡": "H", "♢": "D", "♧": "C",
    "spade": "S", "spades": "S", "heart": "H", "hearts": "H",
    "diamond": "D", "diamonds": "D", "club": "C", "clubs": "C",
    "スペード": "S", "ハート": "H", "ダイヤ": "D", "ダイア": "D", "ダイヤモンド": "D",
    "ダイアモンド": "D", "クラブ": "C",
}  # fmt: skip
_RANK_ALIASES: dict[str, str] = {r.lower(): r for r in RANKS} | {"t": "10"}
_JOKER_ALIASES = frozenset({"jk", "joker", "jo", "ジョーカー", "🃏"})

_SUIT_ERROR = N_("“%(value)s” is not a suit: use ♠ ♥ ♦ ♣ or S H D C.")
_CARD_ERROR = N_("“%(value)s” is not a card: write e.g. ♠A, SA, A♠, ♦10, D10 or JK.")
_JOKER_ERROR = N_("This rule set plays without a joker.")


def _normalise(text: Any) -> str | None:
    if not isinstance(text, str):
        return None
    return unicodedata.normalize("NFKC", text).strip().lower().replace(" ", "")


def _shown(text: Any) -> str:
    if text is None:
        return ""
    return text if isinstance(text, str) else repr(text)


def parse_suit(text: Any, field: str = "trump") -> str:
    """Return "S", "H", "D" or "C" for a letter, a symbol (black or white) or a suit name."""
    key = _normalise(text)
    # NFKC turns the white symbols into themselves, so aliases cover both.
    if key is not None and key in _SUIT_ALIASES:
        return _SUIT_ALIASES[key]
    if isinstance(text, str) and text.strip() in _SUIT_ALIASES:
        return _SUIT_ALIASES[text.strip()]
    raise EfudaError(field, "invalid_suit", _SUIT_ERROR, {"value": _shown(text)})


@dataclass(frozen=True, order=True)
class Card:
    """A card; the joker has ``suit=None`` and ``rank="JK"``. Sorts ♠A … ♣2, then jokers."""

    sort_index: tuple[int, int] = field(init=False, repr=False)
    suit: str | None
    rank: str

    def __post_init__(self) -> None:
        if self.suit is None and self.rank == JOKER_RANK:
            index = (len(SUITS), 0)
        elif self.suit in SUITS and self.rank in RANKS:
            index = (SUITS.index(self.suit), RANKS.index(self.rank))
        else:
            value = f"{self.suit}{self.rank}"
            raise EfudaError("card", "invalid_card", _CARD_ERROR, {"value": value})
        object.__setattr__(self, "sort_index", index)

    @property
    def is_joker(self) -> bool:
        return self.suit is None

    @property
    def is_honour(self) -> bool:
        return self.suit is not None and self.rank in HONOUR_RANKS

    @property
    def code(self) -> str:
        """ASCII code: "SA", "H10", "JK"."""
        return JOKER_RANK if self.suit is None else f"{self.suit}{self.rank}"

    @property
    def label(self) -> str:
        """What a player writes: "♠A", "♥10", "JK"."""
        return JOKER_RANK if self.suit is None else f"{SUIT_SYMBOLS[self.suit]}{self.rank}"

    def __str__(self) -> str:
        return self.label


JOKER = Card(None, JOKER_RANK)


def parse_card(text: Any, field: str = "called", *, jokers: int | None = None) -> Card:
    """Parse "SA", "sa", "♠A", "A♠", "AS", "10♦", "D10", "♦10", "JK", "joker" into a Card.

    With ``jokers=0`` a joker is refused (the rule set has none).
    """
    key = _normalise(text)
    if key is None or not key:
        raise EfudaError(field, "invalid_card", _CARD_ERROR, {"value": _shown(text)})
    if key in _JOKER_ALIASES:
        if jokers == 0:
            raise EfudaError(field, "no_joker", _JOKER_ERROR, {"value": _shown(text)})
        return JOKER
    for suit_part, rank_part in _splits(key):
        suit = _SUIT_ALIASES.get(suit_part)
        rank = _RANK_ALIASES.get(rank_part)
        if suit and rank:
            return Card(suit, rank)
    raise EfudaError(field, "invalid_card", _CARD_ERROR, {"value": _shown(text)})


def _splits(key: str):
    # Suit first ("sa", "♠10") or rank first ("a♠", "10d"); suit letters never clash with ranks.
    yield key[:1], key[1:]
    yield key[-1:], key[:-1]
