"""The standings fields are defined once (``tournaments/standings_fields.py``): what each kind of
score line adds is pinned here line by line, and every consumer (the model, the aggregates'
writers, the SQL sums, the rows, the CSV, the table, the PDF and the player page) is held to the
definition, so adding a counter there (and its model column) is the one change needed."""

import pytest

from tournaments.services.scoring_bridge import BID_COUNTERS, LineSpec, bid_counters, counters


def line(role, points=0, **flags):
    return LineSpec(player_id=1, seat=1, points=points, role=role, **flags)


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        (line("napoleon", 6, won=True, bid=14, trump="S"),
         {"points": 6, "deals": 1, "wins": 1, "napoleon_deals": 1, "napoleon_wins": 1}),
        (line("napoleon", -4, won=False, bid=13, trump="H", solo=True),
         {"points": -4, "deals": 1, "napoleon_deals": 1, "solo_deals": 1}),
        (line("napoleon", 8, won=True, bid=13, trump="H", solo=True),
         {"points": 8, "deals": 1, "wins": 1, "napoleon_deals": 1, "napoleon_wins": 1,
          "solo_deals": 1, "solo_wins": 1}),
        (line("adjutant", 2, won=True),
         {"points": 2, "deals": 1, "wins": 1, "adjutant_deals": 1, "adjutant_wins": 1}),
        (line("adjutant", -2, won=False, plan_b=True),
         {"points": -2, "deals": 1, "adjutant_deals": 1, "plan_b_suffered": 1}),
        (line("napoleon", -3, won=False, plan_b=True, bid=16, trump="C"),
         {"points": -3, "deals": 1, "napoleon_deals": 1, "plan_b_suffered": 1}),
        (line("ally", 1, won=True, plan_b=True), {"points": 1, "deals": 1, "wins": 1,
                                                  "plan_b_inflicted": 1}),
        (line("ally", -1, won=False, solo=True), {"points": -1, "deals": 1}),
        (line("daifugo", 2, position=1), {"points": 2, "deals": 1, "title_daifugo": 1}),
        (line("heimin", 0, position=3), {"deals": 1, "title_heimin": 1}),
        (line("hinmin", -1, position=4, miyako_ochi=True),
         {"points": -1, "deals": 1, "title_hinmin": 1, "miyako_ochi": 1}),
        (line("daihinmin", -2, position=5, forbidden=True),
         {"points": -2, "deals": 1, "title_daihinmin": 1, "forbidden": 1}),
    ],
)  # fmt: skip
def test_what_one_score_line_adds(spec, expected):
    assert counters(spec) == expected


def test_the_napoleons_own_line_adds_to_the_bid_record():
    won_solo = line("napoleon", 8, won=True, bid=13, trump="H", solo=True)
    assert bid_counters(won_solo) == {
        "points": 8, "deals": 1, "wins": 1, "solo_deals": 1, "solo_wins": 1
    }  # fmt: skip
    lost = line("napoleon", -4, won=False, bid=15, trump="S")
    assert bid_counters(lost) == dict.fromkeys(BID_COUNTERS, 0) | {"points": -4, "deals": 1}
    assert bid_counters(line("adjutant", 2, won=True, bid=13, trump="S")) is None
    assert bid_counters(line("napoleon", 0)) is None  # no bid: a redeal's line never counts
