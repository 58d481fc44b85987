"""Seeded plans pinned: a refactoring of the search (``draw/search.py``) must give the very same
plan for the same arguments, as the draw is deterministic for them (a tournament's planned
rounds are kept and compared with what a replan gives). Each plan is pinned by the SHA-256 of
its tables and sit-outs; the cases go through the annealing, the spread and the polish (mixed
table sizes), one after a history, and the spread and the polish are pinned on their own too."""

from __future__ import annotations

import hashlib
import json
import random

import pytest

from tournaments.draw import PastRound, plan_rounds
from tournaments.draw.search import Search, repeat_costs


def digest(value) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()[:16]


def keys(n: int) -> list[str]:
    return [f"p{i:02d}" for i in range(n)]


def plan_digest(plan) -> str:
    return digest([[list(map(list, r.tables)), sorted(r.sitouts)] for r in plan.rounds])


CASES = {
    # (players, rounds, sizes allowed, seed, moves): digest
    (19, 5, (4, 5, 6), 4, None): "7d9ee24535280965",
    (23, 4, (4, 5), 1, None): "c8bf21ab2255b0ed",
    (27, 6, (4, 5), 9, 20_000): "5d0963bccf3aab1d",
    (17, 5, (4,), 3, 20_000): "5522872df7c6125b",
    (21, 3, (5,), 2, 8_000): "f6e0b5513c602e65",
}


@pytest.mark.parametrize(("case", "expected"), CASES.items(), ids=str)
def test_seeded_plans_stay_the_same(case, expected):
    n, rounds, sizes, seed, moves = case
    plan = plan_rounds(keys(n), rounds=rounds, sizes_allowed=sizes, seed=seed, moves=moves)
    assert plan_digest(plan) == expected


def test_a_seeded_plan_after_a_history_stays_the_same():
    players = keys(18)
    first = plan_rounds(players, rounds=2, sizes_allowed=(4, 5, 6), seed=2, moves=10_000)
    past = [PastRound(r.tables, r.sitouts) for r in first.rounds]
    plan = plan_rounds(players[1:], rounds=3, sizes_allowed=(4, 5, 6), history=past, seed=2,
                       moves=10_000)  # fmt: skip
    assert plan_digest(plan) == "57739c69e7dc85be"


def _search(seed: int) -> Search:
    n, sizes = 27, (5, 5, 5, 4, 4, 4)
    seated = [list(range(n))] * 6
    search = Search(
        n, sizes, seated, [{} for _ in range(n)], [[0] * n for _ in range(n)],
        random.Random(seed), repeat_costs(10), 1.0,
    )  # fmt: skip
    search.run(5_000, 0.6, 0.04, 0.5)
    return search


def test_the_spread_and_the_polish_on_their_own_stay_the_same():
    spread = _search(3)
    spread.spread(20_000, random.Random("spread"))
    polished = _search(5)
    polished.polish(20_000)
    assert digest(spread.tables) == "9c75f25b4bcc474b"
    assert digest(polished.tables) == "06c43bb178e4df5f"
