"""The whole-event plan against the fields whose fewest repeats are known, the tabu phase's
bookkeeping, the spread of repeats over pairs, and any plan being a valid draw (pure, no
database). ``manage.py simulate_draw --optimum`` prints the same fields with CPU times."""

import json
import random

import pytest
from django.core.management import CommandError, call_command
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tournaments.draw import History, PastRound, choose_sizes, make_draw, plan_rounds, repeat_count
from tournaments.draw.search import Search, repeat_costs
from tournaments.draw.tabu import Tabu
from tournaments.management.commands.simulate_draw import OPTIMA


def keys(n):
    return [f"p{i}" for i in range(1, n + 1)]


def plan_repeats(n, rounds, sizes, preferred, seed):
    """As simulate_draw and the app plan round 1 of tournament seed ``seed``."""
    plan = plan_rounds(
        keys(n), rounds=rounds, sizes_allowed=sizes, preferred=preferred, seed=seed * 100 + 1
    )
    return repeat_count(plan.as_past()), plan


RESOLVABLE = [row for row in OPTIMA if row[5] == 0]


@pytest.mark.parametrize(("label", "n", "sizes", "preferred", "rounds", "best"), RESOLVABLE)
@pytest.mark.parametrize("seed", range(1, 6))
def test_resolvable_fields_without_a_repeat(label, n, sizes, preferred, rounds, best, seed):
    """16 × 4 × 5, 20 × 4 × 5, 25 × 5 × 6, 36 × 6 × 3, 32 × 4 × 9 and 32 × 4 × 10: no pair
    meets twice, whatever the seed (20 × 4 × 5 left 2 repeats for seed 3 before the tabu
    phase; 32 × 4 × 9 and × 10 left 9–12 and 27–30 before the stored designs)."""
    repeats, plan = plan_repeats(n, rounds, sizes, preferred, seed)
    assert repeats == 0, label
    assert all(len(t) == preferred for d in plan.rounds for t in d.tables)


def test_seventeen_players_reach_the_counting_bound_for_every_seed():
    """5+4+4+4 over 5 rounds: the 25 seats at tables of 5 force at least 4 repeats; before the
    tabu phase seeds 1 and 2 stopped at 7."""
    got = [plan_repeats(17, 5, (4, 5), None, seed)[0] for seed in range(1, 6)]
    assert got == [4] * 5


def test_the_tabu_phase_keeps_its_swap_costs_exact():
    """The per-round tables of meeting costs give exactly the change of the whole cost, over
    a long run of swaps, with sit-outs, a history and tables of two sizes."""
    rng = random.Random(5)
    n, sizes = 15, (5, 4, 4)  # 13 seated, 2 sit out
    seated = []
    for _ in range(4):
        players = list(range(n))
        rng.shuffle(players)
        seated.append(sorted(players[:13]))
    met = [[0] * n for _ in range(n)]
    met[0][1] = met[1][0] = 2  # a history
    search = Search(
        n, sizes, seated, [{} for _ in range(n)], met, rng, repeat_costs(10), 0.03
    )  # fmt: skip
    tabu = Tabu(search, random.Random(1))
    for _ in range(300):
        r = rng.randrange(4)
        table_a, table_b = rng.sample(search.tables[r], 2)
        a, b = rng.choice(table_a), rng.choice(table_b)
        before = tabu.cost()
        predicted = tabu.delta(r, a, b)
        tabu.swap(r, a, b)
        assert tabu.cost() - before == pytest.approx(predicted, abs=1e-9)
    # and the search leaves valid rounds (every seated player once, the sizes kept)
    tabu.run(50_000)
    for r, tables in enumerate(search.tables):
        assert sorted(p for t in tables for p in t) == seated[r]
        assert sorted(map(len, tables)) == sorted(sizes)


def _search_meeting(pairs: dict, n=6):
    """A search whose meeting counts are ``pairs`` ({(a, b): meetings})."""
    search = Search(
        n, (n,), [list(range(n))], [{} for _ in range(n)], [[0] * n for _ in range(n)],
        random.Random(0), repeat_costs(10), 0.0,
    )  # fmt: skip
    search.meet = [[0] * n for _ in range(n)]
    for (a, b), m in pairs.items():
        search.meet[a][b] = search.meet[b][a] = m
    return search


def test_a_pair_meeting_three_times_costs_more_than_two_pairs_meeting_twice():
    three = _search_meeting({(0, 1): 3})
    twice = _search_meeting({(0, 1): 2, (2, 3): 2})
    assert three.repeats() == twice.repeats() == 2
    assert three.cost() > twice.cost()  # the annealing's cost
    assert Tabu(three, random.Random(0)).cost() > Tabu(twice, random.Random(0)).cost()
    # and a pair meeting every round of five costs more than four pairs meeting twice
    assert (
        Tabu(_search_meeting({(0, 1): 5}), random.Random(0)).cost()
        > Tabu(
            _search_meeting({(0, 1): 2, (2, 3): 2, (4, 5): 2, (0, 2): 2}), random.Random(0)
        ).cost()
    )


def test_spread_never_adds_a_repeat_and_spreads_them():
    """A crowded field (10 players at two tables of 5 for 6 rounds: repeats cannot be
    avoided) from a plan where some pairs meet every round."""
    n = 10
    rounds = [[(0, 1, 2, 3, 4), (5, 6, 7, 8, 9)]] * 6
    search = Search(
        n, (5, 5), [list(range(n))] * 6, [{} for _ in range(n)],
        [[0] * n for _ in range(n)], random.Random(0), repeat_costs(10), 0.0,
    )  # fmt: skip
    search.restore([[list(t) for t in ts] for ts in rounds])
    squares = lambda s: sum(m * (m - 1) // 2 for row in s.meet for m in row) // 2  # noqa: E731
    repeats_before, squares_before = search.repeats(), squares(search)
    search.spread(20_000, random.Random(1))
    assert search.repeats() <= repeats_before
    assert squares(search) < squares_before
    assert max(m for row in search.meet for m in row) < 6  # no pair meets every round any more


SIZE_SETS = [(4, 5), (4, 5, 6), (5,), (3, 4, 5, 6, 7, 8)]


@settings(
    max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
@given(
    n=st.integers(min_value=5, max_value=26),
    rounds=st.integers(min_value=1, max_value=4),
    sizes=st.sampled_from(SIZE_SETS),
    preferred=st.sampled_from([None, 4, 5, 6]),
    played=st.integers(min_value=0, max_value=2),
    seed=st.integers(min_value=0, max_value=10_000),
)
# a late arrival after two rounds: in the plan alone sit-outs differ by 2, over the evening by 1
@example(n=7, rounds=3, sizes=(4, 5), preferred=None, played=2, seed=0)
def test_any_plan_is_a_valid_draw(n, rounds, sizes, preferred, played, seed):
    """Every planned round seats every player once or sits them out, at tables of the sizes
    the split asks for; sit-outs stay within one; after played rounds too (a late arrival)."""
    players = keys(n)
    if n < min(sizes):
        return
    past = []
    for number in range(played):  # rounds played before, one player arriving late
        d = make_draw(players[:-1] if n - 1 >= min(sizes) else players,
                      sizes_allowed=sizes, history=past, seed=number)  # fmt: skip
        past.append(PastRound(d.tables, d.sitouts))
    plan = plan_rounds(
        players, rounds=rounds, sizes_allowed=sizes, history=past, seed=seed,
        preferred=preferred, moves=3000, tabu_budget=20_000,
    )  # fmt: skip
    expected, sitting_out = choose_sizes(n, sizes, preferred)
    assert len(plan.rounds) == rounds
    for d in plan.rounds:
        seated = [p for t in d.tables for p in t]
        assert len(seated) == len(set(seated))
        assert sorted(seated + list(d.sitouts)) == sorted(players)
        assert sorted(map(len, d.tables), reverse=True) == list(expected)
        assert len(d.sitouts) == sitting_out
    # within one over the evening (the rounds played and the plan): the plan evens them out
    sat_out = History.from_rounds(past + plan.as_past()).sitouts
    counts = [sat_out[p] for p in players]
    assert max(counts) - min(counts) <= 1
    # the same arguments, the same plan (clubs draw again with a seed and expect the same)
    again = plan_rounds(
        players, rounds=rounds, sizes_allowed=sizes, history=past, seed=seed,
        preferred=preferred, moves=3000, tabu_budget=20_000,
    )  # fmt: skip
    assert again == plan


def test_simulate_draw_takes_the_preferred_table_size(capsys):
    call_command(
        "simulate_draw", "--players", "20", "--rounds", "5", "--rules", "napoleon-originator",
        "--table-size", "4", "--seed", "3", "--json",
    )  # fmt: skip

    out = json.loads(capsys.readouterr().out)  # one line: the tables of p1…p20 per round
    assert all(len(t) == 4 for tables in out["rounds"] for t in tables)
    assert len(out["rounds"][0]) == 5 and out["repeats"] == 0
    with pytest.raises(CommandError, match="--table-size 4"):
        call_command(
            "simulate_draw", "--players", "20", "--rounds", "5", "--rules", "napoleon-joker",
            "--table-size", "4",
        )  # fmt: skip
