"""Print the draw the app would make with its default method, for players p1…pN."""

import json

from django.core.management.base import BaseCommand, CommandError

import rules
from core.errors import EfudaError
from tournaments.draw import PastRound, make_draw
from tournaments.models import DrawMethod


class Command(BaseCommand):
    help = "Simulate a tournament's seating draw (default method, every table scoring 0)."

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, required=True)
        parser.add_argument("--rounds", type=int, required=True)
        parser.add_argument("--rules", default="napoleon-wiki", help="a preset code")
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument("--json", action="store_true", help="print one JSON object")

    def handle(self, *args, **opts):
        try:
            ruleset = rules.build_ruleset(opts["rules"], {})
        except EfudaError as err:
            raise CommandError(str(err)) from None
        if opts["players"] < 1 or opts["rounds"] < 1:
            raise CommandError("--players and --rounds must be positive")
        players = [f"p{i}" for i in range(1, opts["players"] + 1)]
        past: list[PastRound] = []
        rounds = []
        for number in range(1, opts["rounds"] + 1):
            try:
                # Same per-round seed as the app: tournament seed × 100 + round number.
                result = make_draw(
                    players,
                    sizes_allowed=ruleset.players,
                    history=past,
                    method=DrawMethod.MIXING,
                    seed=opts["seed"] * 100 + number,
                )
            except EfudaError as err:
                raise CommandError(str(err)) from None
            past.append(PastRound(tables=result.tables, sitouts=result.sitouts))
            rounds.append([list(t) for t in result.tables])
        if opts["json"]:
            self.stdout.write(json.dumps({"rounds": rounds}, ensure_ascii=False))
            return
        for number, tables in enumerate(rounds, start=1):
            self.stdout.write(f"Round {number}")
            for t, table in enumerate(tables, start=1):
                self.stdout.write(f"  T{t}: {' '.join(table)}")
