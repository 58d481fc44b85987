"""Weng-Lin (openskill) ratings for Napoleon deals and Daifugō rounds. Pure Python, no Django.

A Napoleon deal is two sides: the Napoleon's army (the Napoleon and the adjutant, or the
Napoleon alone for 独り立ち) against the rest. openskill adds up teammates' skills, so a side of
two starts 50 against 75 and a Napoleon alone 25 against 100, whatever the players' skill. The
correction: every army also fields a *handicap*, one pseudo-player per side size and contract
(the bid count), which openskill rates like anybody else. It starts where the sides balance
(μ₀ for a side of two, 3μ₀ for a side of one) and learns how hard that contract really is, so
the players' own ratings measure only what they add to it.

A Daifugō round is a ranking of single players by the order they went out; players who went
out on a forbidden card share the last place (a tie). 都落ち does not change the ranking.

``Rater`` keeps the state (players' μ and σ, the handicaps), predicts an event before it learns
from it, and learns. The same events in the same order always give the same ratings.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field

from openskill.models import (
    BradleyTerryFull,
    BradleyTerryPart,
    PlackettLuce,
    ThurstoneMostellerFull,
    ThurstoneMostellerPart,
)

MODELS = {
    "PlackettLuce": PlackettLuce,
    "BradleyTerryFull": BradleyTerryFull,
    "BradleyTerryPart": BradleyTerryPart,
    "ThurstoneMostellerFull": ThurstoneMostellerFull,
    "ThurstoneMostellerPart": ThurstoneMostellerPart,
}

Player = Hashable


@dataclass(frozen=True)
class Params:
    """The model and its constants. The defaults are the tuned ones (docs/ratings.md)."""

    model: str = "PlackettLuce"
    mu: float = 25.0
    sigma: float = 25.0 / 3.0
    beta: float = 25.0 / 6.0
    tau: float = 25.0 / 300.0
    handicap: bool = True  # False: openskill as it comes (summed sides, no handicap)
    handicap_sigma: float = 25.0 / 3.0
    # "model": the model's own likelihood (below); "openskill": openskill's predict_win
    predict: str = "model"
    fast: bool = True  # False: call openskill's public rate() (same results, slower)

    def build(self):
        return MODELS[self.model](mu=self.mu, sigma=self.sigma, beta=self.beta, tau=self.tau)


# Tuned per game on the synthetic club and the demo club (docs/ratings.md, "Tuning").
NAPOLEON = Params(sigma=25.0 / 6.0, beta=25.0 / 3.0, tau=25.0 / 300.0)
DAIFUGO = Params(sigma=25.0 / 6.0, beta=25.0 / 6.0, tau=25.0 / 300.0)
# openskill as it comes: default constants, summed sides, no handicap, its own predict_win.
UNCORRECTED = Params(handicap=False, predict="openskill")


def params_for(game: str) -> Params:
    return NAPOLEON if game == "napoleon" else DAIFUGO


@dataclass(frozen=True)
class NapoleonEvent:
    """One Napoleon deal: the army (Napoleon first, then the adjutant if any), the other
    players, whether the army won, and the bid count."""

    army: tuple
    rest: tuple
    won: bool
    bid: int
    points: dict = field(default_factory=dict, compare=False)  # for the baseline only

    @property
    def players(self) -> tuple:
        return self.army + self.rest

    @property
    def contract(self) -> str:
        """The handicap's key: side sizes and bid, e.g. ``2v3:14`` or ``1v4:13``."""
        return f"{len(self.army)}v{len(self.rest)}:{self.bid}"


@dataclass(frozen=True)
class DaifugoEvent:
    """One Daifugō round: ``places`` maps each player to their place (1 = went out first;
    equal places are a tie)."""

    places: dict
    points: dict = field(default_factory=dict, compare=False)  # for the baseline only

    @property
    def players(self) -> tuple:
        return tuple(self.places)


def daifugo_places(went_out: Sequence, forbidden: Iterable = ()) -> dict:
    """Places from the order players went out: normal finishers 1, 2, …; everyone who went
    out on a forbidden card shares the place after them."""
    bad = set(forbidden)
    places, place = {}, 0
    for player in went_out:
        if player not in bad:
            place += 1
            places[player] = place
    for player in went_out:
        if player in bad:
            places[player] = place + 1
    return places


def conservative(mu: float, sigma: float) -> float:
    """The headline score: μ − 3σ (the skill the player almost surely has at least)."""
    return mu - 3.0 * sigma


class Rater:
    """The ratings of one club in one game, learning one event at a time."""

    def __init__(self, params: Params, *, ratings=None, handicaps=None):
        self.params = params
        self.model = params.build()
        self.ratings: dict = {k: tuple(v) for k, v in (ratings or {}).items()}
        self.handicaps: dict = {k: tuple(v) for k, v in (handicaps or {}).items()}
        # openskill rating objects kept between events (making one draws a uuid: a replay of a
        # million score lines would spend seconds on them)
        self._objects: dict = {}

    # --- state --------------------------------------------------------------------------
    def rating(self, player) -> tuple[float, float]:
        return self.ratings.get(player) or (self.params.mu, self.params.sigma)

    def handicap(self, contract: str) -> tuple[float, float]:
        found = self.handicaps.get(contract)
        if found is not None:
            return found
        army, rest = (int(n) for n in contract.split(":", 1)[0].split("v"))
        # Where the sides balance with summed skills: μ₀ for 2 v 3, 3μ₀ for 1 v 4.
        return (self.params.mu * max(0, rest - army), self.params.handicap_sigma)

    def _player(self, player):
        found = self._objects.get(("p", player))
        if found is None:
            mu, sigma = self.rating(player)
            found = self._objects[("p", player)] = self.model.rating(mu=mu, sigma=sigma)
        return found

    def _handicap(self, contract: str):
        found = self._objects.get(("h", contract))
        if found is None:
            mu, sigma = self.handicap(contract)
            found = self._objects[("h", contract)] = self.model.rating(mu=mu, sigma=sigma)
        return found

    def _sides(self, event: NapoleonEvent):
        army = [self._player(p) for p in event.army]
        if self.params.handicap:
            army.append(self._handicap(event.contract))
        rest = [self._player(p) for p in event.rest]
        return army, rest

    # --- prediction ---------------------------------------------------------------------
    # The chance one side finishes ahead of another under the model's own likelihood:
    # Plackett-Luce and Bradley-Terry are logistic in (μa − μb) / c, Thurstone-Mosteller is
    # the normal CDF. Plackett-Luce's c spans the whole table (every side's σ² + β²); the
    # pairwise models' c spans the two sides compared (σa² + σb² + 2β²).
    def _chance(self, mu_a, var_a, mu_b, var_b, table_var: float) -> float:
        beta2 = self.params.beta**2
        if self.params.model == "PlackettLuce":
            c = math.sqrt(table_var)
        else:
            c = math.sqrt(var_a + var_b + 2 * beta2)
        x = (mu_a - mu_b) / c
        if self.params.model.startswith("Thurstone"):
            return _phi(x)
        return 1.0 / (1.0 + math.exp(-x))

    def predict(self, event):
        """Napoleon: the chance the army wins. Daifugō: {(a, b): chance a goes out before b}
        for every pair of players with different places."""
        beta2 = self.params.beta**2
        if isinstance(event, NapoleonEvent):
            army, rest = self._sides(event)
            if self.params.predict == "openskill":
                return self.model.predict_win([army, rest])[0]
            mu_a, var_a = sum(r.mu for r in army), sum(r.sigma**2 for r in army)
            mu_r, var_r = sum(r.mu for r in rest), sum(r.sigma**2 for r in rest)
            return self._chance(mu_a, var_a, mu_r, var_r, var_a + var_r + 2 * beta2)
        ratings = {p: self.rating(p) for p in event.players}
        table = sum(s * s + beta2 for _m, s in ratings.values())
        out = {}
        for a, b in ranked_pairs(event):
            (ma, sa), (mb, sb) = ratings[a], ratings[b]
            out[(a, b)] = self._chance(ma, sa * sa, mb, sb * sb, table)
        return out

    # --- learning -----------------------------------------------------------------------
    def update(self, event) -> dict:
        """Learn from ``event``; returns {player: (μ, σ)} after it."""
        if isinstance(event, NapoleonEvent):
            army, rest = self._sides(event)
            new_army, new_rest = self._rate([army, rest], [0, 1] if event.won else [1, 0])
            if self.params.handicap:
                h = new_army.pop()
                self.handicaps[event.contract] = (h.mu, h.sigma)
                self._objects[("h", event.contract)] = h
            after = dict(zip(event.army + event.rest, new_army + new_rest, strict=True))
        else:
            players = event.players
            teams = [[self._player(p)] for p in players]
            rated = self._rate(teams, [event.places[p] for p in players])
            after = {p: team[0] for p, team in zip(players, rated, strict=True)}
        out = {}
        for p, r in after.items():
            out[p] = (r.mu, r.sigma)
            self._objects[("p", p)] = r
        self.ratings.update(out)
        return out

    def _rate(self, teams: list[list], ranks: list[int]) -> list[list]:
        """openskill's ``rate(teams, ranks=ranks)`` without its safety copies: the rating
        objects are this rater's own and are updated in place (the copies draw a uuid each,
        the larger part of a replay's time). The same steps in the same order: σ grows by τ,
        teams sorted by rank, the model's own update. A test checks it equals ``rate``."""
        if not self.params.fast:
            return self.model.rate(teams, ranks=ranks)
        tau2 = self.model.tau**2
        for team in teams:
            for r in team:
                r.sigma = math.sqrt(r.sigma * r.sigma + tau2)
        order = sorted(range(len(teams)), key=lambda i: ranks[i])
        self.model._compute(teams=[teams[i] for i in order], ranks=[ranks[i] for i in order])
        return teams


def ranked_pairs(event: DaifugoEvent) -> list[tuple]:
    """Every ordered pair (ahead, behind) of players who did not tie."""
    items = list(event.places.items())
    out = []
    for i, (a, pa) in enumerate(items):
        for b, pb in items[i + 1 :]:
            if pa < pb:
                out.append((a, b))
            elif pb < pa:
                out.append((b, a))
    return out


def _phi(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))
