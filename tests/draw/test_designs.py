"""The stored designs (pure, no database): each is what it says, and the plan uses one exactly
where it fits (a fresh field of its shape), relabelled by the seed."""

import itertools

import pytest

from tournaments.draw import PastRound, plan_rounds, repeat_count
from tournaments.draw.designs import SGP_8_4_10, designs


def keys(n):
    return [f"p{i}" for i in range(1, n + 1)]


# the fields the issue promises (every known resolvable family up to 64 players) and the rest
KIRKMAN = [(v, 3) for v in range(9, 64, 6)]  # v ≡ 3 (mod 6): 9, 15 … 63
TABLES_OF_FOUR = [(v, 4) for v in range(16, 65, 12)]  # v ≡ 4 (mod 12): 16, 28 … 64
AFFINE_PLANES = [(q * q, q) for q in (3, 4, 5, 7, 8)]
RESOLVABLE = sorted(set(KIRKMAN + TABLES_OF_FOUR + AFFINE_PLANES))


def assert_no_pair_twice(design, n, size):
    met = set()
    for tables in design:
        # a partition of the players 0 … n − 1 into tables of the size
        assert sorted(p for t in tables for p in t) == list(range(n))
        assert all(len(t) == size for t in tables)
        for table in tables:
            for pair in itertools.combinations(sorted(table), 2):
                assert pair not in met  # no pair at one table twice
                met.add(pair)
    return met


@pytest.mark.parametrize(("n", "size"), RESOLVABLE)
def test_each_resolvable_field_has_a_design_where_everyone_meets_everyone_once(n, size):
    """A resolvable 2-(n, size, 1) design: (n − 1) / (size − 1) rounds, every pair once."""
    design = designs()[n, size]
    assert len(design) == (n - 1) // (size - 1)
    assert len(assert_no_pair_twice(design, n, size)) == n * (n - 1) // 2


@pytest.mark.parametrize(("n", "size", "rounds"), [(36, 6, 3), (32, 4, 10)])
def test_each_other_design_is_resolvable_without_a_repeat(n, size, rounds):
    design = designs()[n, size]
    assert len(design) == rounds
    met = assert_no_pair_twice(design, n, size)
    assert len(met) == rounds * (n // size) * size * (size - 1) // 2


def test_no_design_is_stored_beyond_the_listed_fields():
    assert set(designs()) == set(RESOLVABLE) | {(36, 6), (32, 4)}


def _plan_fields():
    """Each resolvable field for 2 rounds, about half its design's and all of them."""
    for n, size in RESOLVABLE:
        full = (n - 1) // (size - 1)
        for rounds in sorted({2, (full + 1) // 2, full}):
            yield n, size, rounds


@pytest.mark.parametrize(("n", "size", "rounds"), list(_plan_fields()))
def test_the_plan_seats_each_resolvable_field_without_a_repeat(n, size, rounds):
    """As the app plans a fresh field (tables of ``size`` preferred, a smaller size also
    allowed): no pair meets twice, nobody sits out, every table of the size."""
    allowed = (size - 1, size) if size > 3 else (3, 4)
    for seed in (1, 2):
        plan = plan_rounds(
            keys(n), rounds=rounds, sizes_allowed=allowed, preferred=size, seed=seed * 100 + 1
        )
        assert len(plan.rounds) == rounds
        assert repeat_count(plan.as_past()) == 0
        for d in plan.rounds:
            assert not d.sitouts and all(len(t) == size for t in d.tables)
            assert sorted(p for t in d.tables for p in t) == sorted(keys(n))


def test_the_social_golfer_design_has_every_player_meet_thirty_others():
    """8-4-10: each player meets 3 new players a round, 30 of the 31 others in all."""
    partners = {p: set() for p in range(32)}
    for tables in SGP_8_4_10:
        for table in tables:
            for p in table:
                partners[p] |= set(table) - {p}
    assert {len(s) for s in partners.values()} == {30}


@pytest.mark.parametrize("rounds", [9, 10, 4])
@pytest.mark.parametrize("seed", range(1, 6))
def test_thirty_two_players_in_tables_of_four_never_meet_twice(rounds, seed):
    """The social golfer fields 8-4-9 and 8-4-10 (the search left 9–12 and 27–30 repeats)."""
    plan = plan_rounds(
        keys(32), rounds=rounds, sizes_allowed=(4, 5), preferred=4, seed=seed * 100 + 1
    )
    assert repeat_count(plan.as_past()) == 0
    for d in plan.rounds:
        assert len(d.tables) == 8 and all(len(t) == 4 for t in d.tables) and not d.sitouts
        assert sorted(p for t in d.tables for p in t) == sorted(keys(32))


def test_a_design_plan_depends_on_the_seed_and_only_on_it():
    a = plan_rounds(keys(32), rounds=10, sizes_allowed=(4, 5), preferred=4, seed=7)
    b = plan_rounds(list(reversed(keys(32))), rounds=10, sizes_allowed=(4, 5), preferred=4, seed=7)
    c = plan_rounds(keys(32), rounds=10, sizes_allowed=(4, 5), preferred=4, seed=8)
    assert a == b
    assert a.rounds[0].tables != c.rounds[0].tables
    # the seats rotate as in any plan: nobody sits in one seat more than 3 times in 10 rounds
    seats = {p: [0] * 4 for p in keys(32)}
    for d in a.rounds:
        for table in d.tables:
            for s, p in enumerate(table):
                seats[p][s] += 1
    assert max(max(v) for v in seats.values()) <= 3


def test_no_design_after_played_rounds_with_sitouts_or_mixed_sizes():
    """A design only fits a fresh field of its exact shape; the search plans the others
    (here: after a round played, 33 players at 5+4+…+4, and 34 with tables of 4 and 2 out)."""
    played = [PastRound(tuple(tuple(keys(32)[4 * t : 4 * t + 4]) for t in range(8)))]
    after = plan_rounds(
        keys(32), rounds=3, sizes_allowed=(4, 5), preferred=4, history=played, seed=1,
        moves=20_000, tabu_budget=20_000,
    )  # fmt: skip
    assert repeat_count(played + after.as_past()) == 0  # the search still finds none
    mixed = plan_rounds(keys(33), rounds=3, sizes_allowed=(4, 5), preferred=4, seed=1, moves=5000)
    assert sorted(len(t) for t in mixed.rounds[0].tables) == [4] * 7 + [5]
    sitting_out = plan_rounds(keys(34), rounds=3, sizes_allowed=(4,), seed=1, moves=5000)
    assert all(len(d.sitouts) == 2 for d in sitting_out.rounds)
