"""The whole-event mixing draw (pure, no database): its target against a plain whole-event
annealing, fairness, determinism, keeping a plan between rounds, and speed.

The full sweep (8–60 players × 3–8 rounds × every preset) is ``manage.py simulate_draw
--sweep``; here a representative sample holds the same target."""

import statistics

import pytest

import rules
from tournaments.draw import (
    History,
    PastRound,
    make_draw,
    plain_annealing,
    plan_rounds,
    plan_to_json,
    planned_round,
    repeat_count,
)
from tournaments.management.commands.simulate_draw import TARGET, per_round


def keys(n):
    return [f"p{i}" for i in range(1, n + 1)]


# (players, rounds, preset): the issue's own cases, a joker field with sit-outs, Daifugō sizes,
# a large field and a tiny one.
SAMPLE = [
    (23, 6, "napoleon-originator"),
    (26, 5, "napoleon-wiki"),
    (13, 4, "napoleon-joker"),
    (30, 6, "daifugo-common"),
    (9, 3, "daifugo-hyousube"),
]


@pytest.mark.parametrize(("n", "rounds", "code"), SAMPLE)
def test_plan_within_ten_percent_of_a_plain_annealing(n, rounds, code):
    sizes = rules.PRESETS[code].players
    plan, plain, old = [], [], []
    for seed in (0, 1):
        plan.append(
            repeat_count(
                plan_rounds(keys(n), rounds=rounds, sizes_allowed=sizes, seed=seed).as_past()
            )
        )
        plain.append(
            repeat_count(plain_annealing(keys(n), rounds=rounds, sizes_allowed=sizes, seed=seed))
        )
        old.append(repeat_count(per_round(keys(n), rounds, sizes, seed)))
    assert statistics.mean(plan) <= TARGET * statistics.mean(plain), (plan, plain)
    assert statistics.mean(plan) <= statistics.mean(old), (plan, old)


# Rows a sweep missed before, against the plain annealing's figures for seeds 0 and 1 (it is
# deterministic; `simulate_draw --compare` recomputes them, and the test below checks one) with
# the plan's seeds as simulate_draw uses them (seed × 100 + 1): napoleon-originator (tables of
# 4–5, many rounds) before the search got its short runs and kicks; joker fields with sit-outs
# (24 × 5: 4 sit out, 36 × 6: 1) and 56 × 8 under napoleon-wiki (6+5+…+5) before large fields
# got the extension.
MISSED_BEFORE = [
    (24, 6, "napoleon-originator", (6, 6)),
    (32, 6, "napoleon-originator", (2, 3)),
    (36, 8, "napoleon-originator", (14, 15)),
    (40, 8, "napoleon-originator", (26, 28)),
    (24, 5, "napoleon-joker", (8, 6)),
    (36, 6, "napoleon-joker", (2, 3)),
    (56, 8, "napoleon-wiki", (0, 0)),
]


@pytest.mark.parametrize(("n", "rounds", "code", "plain"), MISSED_BEFORE)
def test_rows_a_sweep_missed_before_hold_the_target(n, rounds, code, plain):
    sizes = rules.PRESETS[code].players
    got = [
        repeat_count(
            plan_rounds(keys(n), rounds=rounds, sizes_allowed=sizes, seed=s * 100 + 1).as_past()
        )
        for s in (0, 1)
    ]
    assert statistics.mean(got) <= TARGET * statistics.mean(plain), (got, plain)


@pytest.mark.parametrize("row", [MISSED_BEFORE[0], MISSED_BEFORE[4]])
def test_the_plain_annealing_figures_above_still_hold(row):
    n, rounds, code, plain = row
    sizes = rules.PRESETS[code].players
    got = repeat_count(plain_annealing(keys(n), rounds=rounds, sizes_allowed=sizes, seed=1))
    assert got == plain[1]


def test_issue_cases_against_the_figures_measured_there():
    """The issue measured a plain annealing at 7 (17 × 5, originator) and 27 (21 × 5, wiki)
    repeats where the round-by-round draw gave 25 and 53."""
    for n, rounds, code, plain in ((17, 5, "napoleon-originator", 7), (21, 5, "napoleon-wiki", 27)):
        sizes = rules.PRESETS[code].players
        got = [
            repeat_count(plan_rounds(keys(n), rounds=rounds, sizes_allowed=sizes, seed=s).as_past())
            for s in (101, 201)
        ]
        assert statistics.mean(got) <= TARGET * plain, (n, got)


def test_sixty_players_eight_rounds_and_a_long_search():
    """60 × 8 finds a plan without repeats; 32 × 5 under napoleon-wiki (tables of 6 and 5) runs
    the whole search length with the extension and the tabu phase. Their CPU time is measured
    by ``simulate_draw --sweep`` (under 2 s), not asserted here."""
    for n, rounds, sizes, most in ((60, 8, (4, 5, 6), 0), (32, 5, (4, 5, 6), 12)):
        plan = plan_rounds(keys(n), rounds=rounds, sizes_allowed=sizes, seed=3)
        assert repeat_count(plan.as_past()) <= most, n


@pytest.mark.parametrize(("n", "sizes"), [(23, (5,)), (13, (5,)), (11, (4, 5, 6)), (27, (4, 5))])
def test_fair_sitouts_seats_and_valid_tables(n, sizes):
    rounds = 6
    plan = plan_rounds(keys(n), rounds=rounds, sizes_allowed=sizes, seed=7)
    history = History.from_rounds(plan.as_past())
    for d in plan.rounds:
        seated = [p for t in d.tables for p in t]
        assert sorted(seated + list(d.sitouts)) == sorted(keys(n))
        assert len(set(seated)) == len(seated)
        assert all(len(t) in sizes for t in d.tables)
    sat_out = [history.sitouts[p] for p in keys(n)]
    assert max(sat_out) - min(sat_out) <= 1
    # seats: nobody sits in the same seat more often than the rounds allow when spread
    for p in keys(n):
        played = sum(history.seats[p].values())
        table = max(len(t) for t in plan.rounds[0].tables)
        assert max(history.seats[p].values()) <= -(-played // table) + 1


def test_deterministic_and_seed_dependent():
    a = plan_rounds(keys(19), rounds=5, sizes_allowed=(4, 5, 6), seed=4)
    b = plan_rounds(list(reversed(keys(19))), rounds=5, sizes_allowed=(4, 5, 6), seed=4)
    c = plan_rounds(keys(19), rounds=5, sizes_allowed=(4, 5, 6), seed=5)
    assert a == b
    assert a.rounds != c.rounds


def test_plan_keeps_while_the_field_holds_and_replans_after_a_change():
    players = keys(18)
    plan = plan_rounds(players, rounds=4, sizes_allowed=(4, 5, 6), seed=2)
    stored = plan_to_json(plan, start=1, players=players)
    past = plan.as_past()
    # the rounds come out of the plan while everything is as planned
    for number in range(1, 5):
        got = planned_round(stored, number=number, players=players, past=past[: number - 1])
        assert got is not None and got.tables == plan.rounds[number - 1].tables
    # a late arrival, a drop-out or a swap in a played round: plan again
    assert planned_round(stored, number=3, players=[*players, "p99"], past=past[:2]) is None
    assert planned_round(stored, number=3, players=players[1:], past=past[:2]) is None
    swapped = list(past[:2])
    t = swapped[1].tables
    swapped[1] = PastRound(((t[1][0], *t[0][1:]), (t[0][0], *t[1][1:]), *t[2:]), ())
    assert planned_round(stored, number=3, players=players, past=swapped) is None
    # a replan from round 3 after a drop-out keeps rounds 1–2 and plans around their meetings
    # at least as well as drawing rounds 3 and 4 one at a time
    replanned = plan_rounds(
        players[1:], rounds=2, sizes_allowed=(4, 5, 6), history=past[:2], seed=2
    )
    one_by_one = list(past[:2])
    for number in (3, 4):
        d = make_draw(players[1:], sizes_allowed=(4, 5, 6), history=one_by_one, seed=number)
        one_by_one.append(PastRound(d.tables, d.sitouts))
    assert repeat_count([*past[:2], *replanned.as_past()]) <= repeat_count(one_by_one)


def test_size_polish_never_adds_a_repeat_and_evens_sizes_out():
    """Fewest repeats come first (small fields have near-perfect plans in which one player
    keeps the big table); the polish then shares the table sizes out as far as that costs no
    repeat."""
    import random

    from tournaments.draw.search import Search, repeat_costs

    n, sizes = 27, (5, 5, 5, 4, 4, 4)
    seated = [list(range(n))] * 6
    search = Search(
        n, sizes, seated, [{} for _ in range(n)], [[0] * n for _ in range(n)],
        random.Random(3), repeat_costs(10), 1.0,
    )  # fmt: skip
    search.run(20_000, 0.6, 0.04, 0.5)
    search.size_weight = 0.0
    repeats_before = search.cost()
    search.size_weight = 1.0
    size_before = search.cost() - repeats_before
    search.polish(20_000)
    search.size_weight = 0.0
    repeats_after = search.cost()
    search.size_weight = 1.0
    size_after = search.cost() - repeats_after
    # lexicographic: fewer repeats, or as many and sizes more even
    assert (repeats_after, size_after) < (repeats_before, size_before)
    # and never a repeat more, whatever happens to the sizes
    assert repeats_after <= repeats_before
