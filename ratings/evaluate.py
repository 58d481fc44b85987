"""How well ratings predict: each event is predicted before the ratings learn from it.

Napoleon: the chance that the Napoleon's side wins; the baseline is the win rate so far of
sides of that size and contract (Laplace-smoothed: (wins + 1) / (deals + 2)).
Daifugō: for every pair of players in a round who did not tie, the chance that one goes out
before the other (pairwise log loss); the baseline predicts from each player's points per deal
so far: logistic(k · difference), where k itself is fitted on the pairs seen so far (online
logistic regression), so the baseline too only uses the past.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence

from .engine import DaifugoEvent, NapoleonEvent, Params, Rater, conservative, ranked_pairs

EPS = 1e-9
BASELINE_RATE = 0.01  # step of the baseline's online fit of k


def _loss(p: float, happened: bool) -> float:
    p = min(1.0 - EPS, max(EPS, p))
    return -math.log(p if happened else 1.0 - p)


def _hit(p: float, happened: bool) -> float:
    if p == 0.5:
        return 0.5
    return 1.0 if (p > 0.5) == happened else 0.0


class _Score:
    def __init__(self):
        self.loss = 0.0
        self.hits = 0.0
        self.n = 0

    def add(self, p: float, happened: bool) -> None:
        self.loss += _loss(p, happened)
        self.hits += _hit(p, happened)
        self.n += 1

    @property
    def log_loss(self) -> float:
        return self.loss / self.n if self.n else 0.0

    @property
    def accuracy(self) -> float:
        return self.hits / self.n if self.n else 0.0


def evaluate(game: str, events: Iterable, params: Params, *, names: dict | None = None) -> dict:
    """Replay ``events`` in order, predicting each before learning; the result has the keys
    ``manage.py rating_eval`` prints."""
    rater = Rater(params)
    model, base = _Score(), _Score()
    deals = 0
    if game == "napoleon":
        record: dict = defaultdict(lambda: [0, 0])  # contract -> [wins, deals]
        for event in events:
            deals += 1
            model.add(rater.predict(event), event.won)
            wins, n = record[event.contract]
            base.add((wins + 1) / (n + 2), event.won)
            record[event.contract] = [wins + int(event.won), n + 1]
            rater.update(event)
    else:
        points: dict = defaultdict(lambda: [0, 0])  # player -> [points, deals]
        k = 1.0
        for event in events:
            deals += 1
            pending = []
            for (a, b), p in rater.predict(event).items():
                model.add(p, True)
                d = _ppd(points[a]) - _ppd(points[b])
                q = 1.0 / (1.0 + math.exp(-k * d))
                base.add(q, True)
                pending.append((d, q))
            for d, q in pending:  # learn k from this round only after predicting it
                k += BASELINE_RATE * (1.0 - q) * d
            for player in event.players:
                points[player][0] += event.points.get(player, 0)
                points[player][1] += 1
            rater.update(event)
    names = names or {}
    players = sorted(rater.ratings, key=lambda p: (-conservative(*rater.ratings[p]), str(p)))
    return {
        "deals": deals,
        "log_loss": round(model.log_loss, 4),
        "baseline_log_loss": round(base.log_loss, 4),
        "accuracy": round(model.accuracy, 4),
        "baseline_accuracy": round(base.accuracy, 4),
        "predictions": model.n,
        "mu": {str(names.get(p, p)): round(rater.ratings[p][0], 3) for p in players},
        "ratings": {
            str(names.get(p, p)): round(conservative(*rater.ratings[p]), 3) for p in players
        },
    }


def _ppd(pair: list[int]) -> float:
    return pair[0] / pair[1] if pair[1] else 0.0


def spearman(a: Sequence[float], b: Sequence[float]) -> float:
    """Spearman's rank correlation (average ranks for ties)."""
    ra, rb = _ranks(a), _ranks(b)
    n = len(a)
    ma, mb = sum(ra) / n, sum(rb) / n
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb, strict=True))
    va = math.sqrt(sum((x - ma) ** 2 for x in ra))
    vb = math.sqrt(sum((y - mb) ** 2 for y in rb))
    return cov / (va * vb) if va and vb else 0.0


def kendall(a: Sequence[float], b: Sequence[float]) -> float:
    """Kendall's τ-a: (concordant − discordant) / pairs."""
    n = len(a)
    s = 0
    for i in range(n):
        for j in range(i + 1, n):
            s += _sign(a[i] - a[j]) * _sign(b[i] - b[j])
    return s / (n * (n - 1) / 2) if n > 1 else 0.0


def _sign(x: float) -> int:
    return (x > 0) - (x < 0)


def _ranks(values: Sequence[float]) -> list[float]:
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


__all__ = ["evaluate", "kendall", "spearman", "ranked_pairs", "DaifugoEvent", "NapoleonEvent"]
