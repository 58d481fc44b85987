"""``manage.py rating_eval --club SLUG --game napoleon|daifugo --json``: how well the ratings
predict. Replays the club's history, predicts each deal before learning from it, and prints one
JSON object: deals, log_loss, baseline_log_loss, accuracy, baseline_accuracy, mu, ratings (and
the same figures for openskill uncorrected, for comparison). Nothing is written.

``--synthetic N`` evaluates the synthetic club of ``ratings.synthetic`` (N deals, known skills)
instead and adds how well μ and the points totals rank the players by their true skill.
"""

from __future__ import annotations

import json
from collections import defaultdict

from django.core.management.base import BaseCommand, CommandError

from ratings import synthetic
from ratings.engine import UNCORRECTED, params_for
from ratings.evaluate import evaluate, kendall, spearman
from tournaments.models import Club, Player
from tournaments.selectors.ratings import rating_events


class Command(BaseCommand):
    help = "Replay a club's history and report how well the ratings predict each deal."

    def add_arguments(self, parser):
        parser.add_argument("--club", help="the club's address (slug)")
        parser.add_argument("--game", required=True, choices=["napoleon", "daifugo"])
        parser.add_argument("--json", action="store_true", help="print one JSON object")
        parser.add_argument(
            "--synthetic", type=int, metavar="N", help="evaluate the synthetic club of N deals"
        )
        parser.add_argument("--seed", type=int, default=1, help="seed of the synthetic club")
        parser.add_argument(
            "--drift", type=float, default=0.0, help="skill drift per deal of the synthetic club"
        )

    def handle(self, *args, club=None, game, json=False, synthetic=None, seed=1, drift=0.0,
               **options):  # fmt: skip
        if synthetic:
            result = self._synthetic(game, synthetic, seed, drift)
        else:
            if not club:
                raise CommandError("give --club SLUG (or --synthetic N)")
            found = Club.objects.filter(slug=club).first()
            if found is None:
                raise CommandError(f"no club with the address {club!r}")
            names = dict(Player.objects.filter(club=found).values_list("id", "name"))

            def events():
                return (
                    e for _d, _t, e in rating_events(club_id=found.pk, game=game, with_points=True)
                )

            result = evaluate(game, events(), params_for(game), names=names)
            plain = evaluate(game, events(), UNCORRECTED, names=names)
            result["uncorrected_log_loss"] = plain["log_loss"]
            result["uncorrected_accuracy"] = plain["accuracy"]
        self._print(result, as_json=json)

    def _synthetic(self, game: str, count: int, seed: int, drift: float) -> dict:
        make = synthetic.napoleon_events if game == "napoleon" else synthetic.daifugo_events
        events, truth = make(count, seed=seed, drift=drift)
        result = evaluate(game, events, params_for(game))
        plain = evaluate(game, events, UNCORRECTED)
        result["uncorrected_log_loss"] = plain["log_loss"]
        result["uncorrected_accuracy"] = plain["accuracy"]
        totals: dict = defaultdict(int)
        for event in events:
            for player, points in event.points.items():
                totals[player] += points
        names = sorted(truth)
        true = [truth[n] for n in names]
        mu = [result["mu"][n] for n in names]
        tot = [totals[n] for n in names]
        result["spearman_mu"] = round(spearman(mu, true), 4)
        result["spearman_totals"] = round(spearman(tot, true), 4)
        result["kendall_mu"] = round(kendall(mu, true), 4)
        result["kendall_totals"] = round(kendall(tot, true), 4)
        result["true_skill"] = {n: round(v, 3) for n, v in truth.items()}
        return result

    def _print(self, result: dict, *, as_json: bool) -> None:
        if as_json:
            self.stdout.write(json.dumps(result, ensure_ascii=False))
            return
        for key, value in result.items():
            if not isinstance(value, dict):
                self.stdout.write(f"{key:>22}: {value}")
        self.stdout.write("ratings (μ − 3σ):")
        for name, value in result["ratings"].items():
            self.stdout.write(f"  {value:8.2f}  μ {result['mu'][name]:6.2f}  {name}")
