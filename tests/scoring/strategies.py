"""Hypothesis strategies for deals and rounds under every preset and the main options."""

from hypothesis import strategies as st

from rules import build_ruleset
from scoring.cards import JOKER, RANKS, SUIT_SYMBOLS, SUITS, Card
from scoring.napoleon import NapoleonDeal

from .helpers import NAMES

NAPOLEON_RULESETS = [
    build_ruleset("napoleon-originator"),
    build_ruleset("napoleon-originator", {"jokers": 1, "min_bid": 12}),
    build_ruleset("napoleon-wiki"),
    build_ruleset("napoleon-wiki", {"discard_policy": "napoleon", "min_bid": 12}),
    build_ruleset("napoleon-wiki", {"discard_policy": "last_trick"}),
    build_ruleset("napoleon-joker"),
    build_ruleset("napoleon-joker", {"all20_loses": True, "discard_policy": "napoleon"}),
    build_ruleset("napoleon-joker", {"all20_loses": True, "discard_policy": "last_trick"}),
    build_ruleset(
        "napoleon-wiki",
        {"point_table": {
            "4": {"napoleon": 2, "adjutant": 2, "ally": 2, "solo_napoleon": 6, "solo_ally": 2},
            "5": {"napoleon": 3, "adjutant": 3, "ally": 2, "solo_napoleon": 8, "solo_ally": 2},
            "6": {"napoleon": 3, "adjutant": 1, "ally": 1, "solo_napoleon": 5, "solo_ally": 1},
        }},
    ),
]  # fmt: skip

names = st.permutations(NAMES)
suit_texts = st.sampled_from(SUITS).flatmap(
    lambda s: st.sampled_from([s, s.lower(), SUIT_SYMBOLS[s]])
)


@st.composite
def napoleon_deals(draw, ruleset):
    """A valid, non-redeal deal for ``ruleset``."""
    players = draw(st.sampled_from(ruleset.players))
    seats = tuple(draw(names)[:players])
    napoleon = draw(st.sampled_from(seats))
    adjutant = draw(st.one_of(st.none(), st.sampled_from([s for s in seats if s != napoleon])))
    low, high = ruleset.bids[players]
    bid = draw(st.integers(low, high))
    discarded = draw(st.integers(0, ruleset.widow[players]))
    honours = draw(st.integers(0, 20 - discarded))
    called = draw(
        st.one_of(
            st.none(),
            st.sampled_from(
                [Card(s, r) for s in SUITS for r in RANKS] + [JOKER] * ruleset.jokers
            ).map(str),
        )
    )
    return NapoleonDeal(
        seats=seats, napoleon=napoleon, bid=bid, trump=draw(suit_texts), called=called,
        adjutant=adjutant, solo=adjutant is None, honours=honours, discarded=discarded,
        last_trick=draw(st.sampled_from(["napoleon", "allies"])),
    )  # fmt: skip


GARBAGE = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 30), st.floats(allow_nan=True),
    st.text(max_size=4), st.lists(st.integers(), max_size=2),
    st.dictionaries(st.text(), st.integers(), max_size=1),
    st.sampled_from(["Zed", "", " ", "太郎", "S", "♠", "SA", "JK", "napoleon", "allies"]),
    st.frozensets(st.sampled_from(NAMES), max_size=2), st.builds(object),
)  # fmt: skip
