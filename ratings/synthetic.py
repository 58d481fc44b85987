"""A synthetic club whose players' true skills are known, to check that ratings find them.

Twelve players, skills evenly spread from strong to weak. The three strongest play rarely, the
three weakest play a lot, everyone else in between: the situation where a points total shows
who plays most rather than who plays best. Deals are drawn with a fixed seed, so the same seed
gives the same club.

Players sit at a table for an evening (a session of ``SESSION`` deals) as clubs do, so who
one plays against varies from evening to evening.

Napoleon: five at the table; a random Napoleon bids 12–16, goes alone (独り立ち) one deal in ten,
otherwise calls a random adjutant. The army wins with probability
logistic(difficulty(side, bid) + 1.5 · (mean army skill − mean defenders' skill)), where
higher bids and going alone are harder. Points follow the shape of the club tables: stake =
bid − 10; a winning Napoleon +2·stake (alone +4·stake), the adjutant +stake, each defender −stake
(all signs reversed on a loss).

``drift`` > 0 lets every skill wander (a random walk, this step per deal played), as real
players improve or get rusty; ``skills()`` are then the starting skills. Both generators return
the events and the skills at the end.

Daifugō: five at the table; each player's performance is skill + Gumbel noise, and they go out
from best to worst performance (a Plackett-Luce ranking). One finish in thirty is on a
forbidden card; those players share the last place. Points +2, +1, 0, −1, −2 by place.
"""

from __future__ import annotations

import math
import random

from .engine import DaifugoEvent, NapoleonEvent, daifugo_places

PLAYERS = 12
SEATS = 5
SESSION = 20


def skills() -> dict[str, float]:
    """Player name -> true skill (P01 strongest)."""
    step = 3.0 / (PLAYERS - 1)
    return {f"P{i + 1:02d}": round(1.5 - i * step, 6) for i in range(PLAYERS)}


def frequency(index: int) -> float:
    if index < 3:
        return 0.25  # strong, plays rarely
    if index >= PLAYERS - 3:
        return 3.0  # weak, plays a lot
    return 1.0


def _table(rng: random.Random, names: list[str]) -> list[str]:
    weights = [frequency(i) for i in range(len(names))]
    chosen: list[str] = []
    pool = list(range(len(names)))
    while len(chosen) < SEATS:
        i = rng.choices(pool, weights=[weights[j] for j in pool])[0]
        pool.remove(i)
        chosen.append(names[i])
    return chosen


def _logistic(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


def _drift(rng: random.Random, truth: dict, seated, drift: float) -> None:
    if drift:
        for p in seated:
            truth[p] += rng.gauss(0.0, drift)


def napoleon_events(
    count: int, seed: int = 1, drift: float = 0.0
) -> tuple[list[NapoleonEvent], dict[str, float]]:
    rng = random.Random(seed)
    truth = skills()
    names = list(truth)
    events = []
    for n in range(count):
        if n % SESSION == 0:
            seated = _table(rng, names)
        napoleon = rng.choice(seated)
        solo = rng.random() < 0.1
        bid = rng.choice((12, 13, 13, 14, 14, 15, 16))
        others = [p for p in seated if p != napoleon]
        army = (napoleon,) if solo else (napoleon, rng.choice(others))
        rest = tuple(p for p in seated if p not in army)
        difficulty = 1.2 - 0.4 * (bid - 12) - (0.6 if solo else 0.0)
        gap = sum(truth[p] for p in army) / len(army) - sum(truth[p] for p in rest) / len(rest)
        won = rng.random() < _logistic(difficulty + 1.5 * gap)
        stake = (bid - 10) * (1 if won else -1)
        points = {p: -stake for p in rest}
        points[napoleon] = 4 * stake if solo else 2 * stake
        if not solo:
            points[army[1]] = stake
        events.append(NapoleonEvent(army=army, rest=rest, won=won, bid=bid, points=points))
        _drift(rng, truth, seated, drift)
    return events, truth


def daifugo_events(
    count: int, seed: int = 1, drift: float = 0.0
) -> tuple[list[DaifugoEvent], dict[str, float]]:
    rng = random.Random(seed)
    truth = skills()
    names = list(truth)
    events = []
    for n in range(count):
        if n % SESSION == 0:
            seated = _table(rng, names)
        perf = {p: truth[p] - math.log(-math.log(rng.random() or 1e-12)) for p in seated}
        went_out = sorted(seated, key=lambda p: -perf[p])
        forbidden = [p for p in went_out[:-1] if rng.random() < 1 / 30]
        places = daifugo_places(went_out, forbidden)
        worst = max(places.values())
        points = {p: (-2 if places[p] == worst else 3 - places[p]) for p in seated}
        events.append(DaifugoEvent(places=places, points=points))
        _drift(rng, truth, seated, drift)
    return events, truth
