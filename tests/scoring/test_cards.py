"""Card and suit parsing in every notation players write, and bid order."""

import pytest

from core.errors import EfudaError
from scoring.cards import (
    JOKER,
    RANKS,
    SUIT_SYMBOLS,
    SUITS,
    TOTAL_HONOURS,
    Card,
    parse_card,
    parse_suit,
)  # fmt: skip

WHITE = {"S": "♤", "H": "♡", "D": "♢", "C": "♧"}
DECK = [Card(s, r) for s in SUITS for r in RANKS]


def notations(card):
    s, r = card.suit, card.rank
    sym = SUIT_SYMBOLS[s]
    return [f"{s}{r}", f"{s}{r}".lower(), f"{sym}{r}", f"{r}{sym}", f"{WHITE[s]}{r}",
            f"{r}{WHITE[s]}", f"{r}{s}", f"{r}{s}".lower(), f" {sym} {r} "]  # fmt: skip


@pytest.mark.parametrize("card", DECK, ids=[c.code for c in DECK])
def test_every_card_round_trips(card):
    for text in notations(card):
        assert parse_card(text) == card, text
    assert parse_card(card.code) == card
    assert parse_card(card.label) == card
    assert card.label == f"{SUIT_SYMBOLS[card.suit]}{card.rank}"
    assert card.is_honour == (card.rank in {"A", "K", "Q", "J", "10"})


@pytest.mark.parametrize("text", ["JK", "jk", "joker", "Joker", "JOKER", "ジョーカー"])
def test_joker(text):
    card = parse_card(text)
    assert card == Card(None, "JK") and card.code == card.label == "JK"
    assert card.is_joker and not card.is_honour
    assert parse_card(card.code) == card


def test_joker_refused_without_jokers():
    with pytest.raises(EfudaError) as err:
        parse_card("JK", jokers=0)
    assert (err.value.field, err.value.code) == ("called", "no_joker")


@pytest.mark.parametrize(
    "text", ["1", "S1", "♠1", "11S", "X", "", "  ", "SJK", "SS", "AA", "♠", "10", None, 10, []]
)
def test_bad_cards(text):
    with pytest.raises(EfudaError) as err:
        parse_card(text, field="called")
    assert err.value.field == "called"


def test_examples_from_the_brief():
    expected = {"SA": "♠A", "sa": "♠A", "♠A": "♠A", "A♠": "♠A", "HJ": "♥J", "10♦": "♦10",
                "D10": "♦10", "♦10": "♦10"}  # fmt: skip
    for text, label in expected.items():
        assert parse_card(text).label == label


@pytest.mark.parametrize("suit", SUITS)
def test_suits(suit):
    for text in [suit, suit.lower(), SUIT_SYMBOLS[suit], WHITE[suit], f" {suit} "]:
        assert parse_suit(text) == suit


@pytest.mark.parametrize("text", ["X", "", "SS", None, 1, "♠A"])
def test_bad_suits(text):
    with pytest.raises(EfudaError) as err:
        parse_suit(text)
    assert (err.value.field, err.value.code) == ("trump", "invalid_suit")


def test_deck():
    assert len(DECK) == 52 and len(set(DECK)) == 52
    assert sum(c.is_honour for c in DECK) == TOTAL_HONOURS == 20  # jokers are no honour
    assert not JOKER.is_honour
    assert sorted([JOKER, *reversed(DECK)]) == [*DECK, JOKER]  # ♠A first, jokers last


def test_invalid_card_object():
    with pytest.raises(EfudaError):
        Card("X", "A")
