"""Every cell of every source document's point table, copied from the documents, checked
through scoring (docs/rules.md names each document by its title).

The numbers below are typed from the documents (not derived from the code's tables); each is
checked on a concrete deal the Napoleon army wins (count = bid) and loses (count = bid − 1).
"""

import pytest

from rules import get_preset
from scoring.napoleon import score_napoleon

from .helpers import deal, expected_points

# The originator's account 【点数の付け方(5人)】 — bids 11..20 as printed.
S000_5_BIDS = [11, 12, 13, 14, 15, 16, 17, 18, 19, 20]
S000_5_NAPOLEON = [2, 4, 6, 8, 10, 12, 14, 16, 18, 20]
S000_5_ADJUTANT = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
S000_5_ALLY = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
# [独り立ち]: the document prints 1 at bid 11; efuda scores that cell as 4 (docs/rules.md).
S000_5_SOLO_NAPOLEON = [4, 8, 12, 16, 20, 24, 28, 32, 36, 40]
S000_5_SOLO_ALLY = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]

# The originator's account 【点数の付け方(4人)】 — bids 13..20; the points row reads 3..10.
S000_4_BIDS = [13, 14, 15, 16, 17, 18, 19, 20]
S000_4_NAPOLEON = [3, 4, 5, 6, 7, 8, 9, 10]
S000_4_ADJUTANT = [3, 4, 5, 6, 7, 8, 9, 10]
S000_4_ALLY = [3, 4, 5, 6, 7, 8, 9, 10]
S000_4_SOLO_NAPOLEON = [9, 12, 15, 18, 21, 24, 27, 30]
S000_4_SOLO_ALLY = [3, 4, 5, 6, 7, 8, 9, 10]


def _rows(players, bids, napoleon, adjutant, ally, solo_napoleon, solo_ally):
    for i, bid in enumerate(bids):
        yield pytest.param(players, bid, False, napoleon[i], adjutant[i], ally[i],
                           id=f"{players}p-bid{bid}")  # fmt: skip
        yield pytest.param(players, bid, True, solo_napoleon[i], None, solo_ally[i],
                           id=f"{players}p-bid{bid}-solo")  # fmt: skip


ORIGINATOR_CELLS = list(
    _rows(5, S000_5_BIDS, S000_5_NAPOLEON, S000_5_ADJUTANT, S000_5_ALLY,
          S000_5_SOLO_NAPOLEON, S000_5_SOLO_ALLY)
) + list(
    _rows(4, S000_4_BIDS, S000_4_NAPOLEON, S000_4_ADJUTANT, S000_4_ALLY,
          S000_4_SOLO_NAPOLEON, S000_4_SOLO_ALLY)
)  # fmt: skip


@pytest.mark.parametrize(("players", "bid", "solo", "napoleon", "adjutant", "ally"),
                         ORIGINATOR_CELLS)  # fmt: skip
def test_originator_table(players, bid, solo, napoleon, adjutant, ally):
    rules = get_preset("napoleon-originator")
    won = score_napoleon(deal(players, bid=bid, honours=bid, solo=solo), rules)
    assert won.won and not won.plan_b
    assert dict(won.points) == expected_points(players, napoleon, adjutant, ally, +1)
    lost = score_napoleon(deal(players, bid=bid, honours=bid - 1, solo=solo), rules)
    assert not lost.won
    assert dict(lost.points) == expected_points(players, napoleon, adjutant, ally, -1)


# The wiki page ★勝利ポイントの配分: (players, solo, Napoleon, adjutant, other) on a win / a loss.
WIKI_CELLS = [
    # 4人: 勝利 +1 +1 -1; 敗北 -1 -1 +1; 独り勝ち +3 -1; 独り負け -3 +1
    (4, False, {"win": (1, 1, -1), "loss": (-1, -1, 1)}),
    (4, True, {"win": (3, None, -1), "loss": (-3, None, 1)}),
    # 5人: 勝利 +2 +1 -1; 敗北 -2 -1 +1; 独り勝ち +4 -1; 独り負け -4 +1
    (5, False, {"win": (2, 1, -1), "loss": (-2, -1, 1)}),
    (5, True, {"win": (4, None, -1), "loss": (-4, None, 1)}),
    # 6人: 勝利 +2 +2 -1; 敗北 -2 -2 +1; 独り勝ち +5 -1; 独り負け -5 +1
    (6, False, {"win": (2, 2, -1), "loss": (-2, -2, 1)}),
    (6, True, {"win": (5, None, -1), "loss": (-5, None, 1)}),
]

# The club handout ⑧得点計算 (5 players): 勝ち +2 +1 -1; 副官なし +4 -1; 負け -2 -1 +1; -4 +1.
JOKER_CELLS = [
    (5, False, {"win": (2, 1, -1), "loss": (-2, -1, 1)}),
    (5, True, {"win": (4, None, -1), "loss": (-4, None, 1)}),
]


def _seat_points(players, napoleon, adjutant, other):
    from .helpers import seats

    table = seats(players)
    points = {seat: other for seat in table}
    points[table[0]] = napoleon
    if adjutant is not None:
        points[table[1]] = adjutant
    return points


@pytest.mark.parametrize(
    ("preset", "players", "solo", "cells"),
    [("napoleon-wiki", *cell) for cell in WIKI_CELLS]
    + [("napoleon-joker", *cell) for cell in JOKER_CELLS],
)
@pytest.mark.parametrize("bid", [10, 13, 16, 20])
def test_flat_tables(preset, players, solo, cells, bid):
    rules = get_preset(preset)
    won = score_napoleon(deal(players, bid=bid, honours=bid, solo=solo), rules)
    lost = score_napoleon(deal(players, bid=bid, honours=bid - 1, solo=solo), rules)
    assert (won.won, lost.won) == (True, False)
    assert dict(won.points) == _seat_points(players, *cells["win"])
    assert dict(lost.points) == _seat_points(players, *cells["loss"])


# The club handout: with "all 20 loses" on, a deal where the army took all 20 scores double
# ("点数は2倍になる … 20枚勝ち/負けの場合、両方に適用する").
ALL20_CELLS = [
    # (bid, solo, Napoleon, adjutant, each ally)
    (13, False, -4, -2, 2),  # loses although 20 ≥ 13; doubled 2/1/1
    (19, False, -4, -2, 2),
    (13, True, -8, None, 2),  # solo loss doubled: 4 → 8, allies 1 → 2
    (20, False, 4, 2, -2),  # bid 20 taken: a win, still doubled
    (20, True, 8, None, -2),
]


@pytest.mark.parametrize(("bid", "solo", "napoleon", "adjutant", "ally"), ALL20_CELLS)
def test_joker_all20_doubles(bid, solo, napoleon, adjutant, ally):
    from rules import build_ruleset

    rules = build_ruleset("napoleon-joker", {"all20_loses": True})
    result = score_napoleon(deal(5, bid=bid, honours=20, solo=solo, called="JK"), rules)
    assert result.all20 and result.multiplier == 2
    assert result.won == (bid == 20)
    assert dict(result.points) == _seat_points(5, napoleon, adjutant, ally)


def test_joker_without_option_takes_all20_as_plain_win():
    result = score_napoleon(deal(5, bid=13, honours=20), get_preset("napoleon-joker"))
    assert result.won and not result.all20 and result.multiplier == 1
    assert dict(result.points) == _seat_points(5, 2, 1, -1)
