"""Simulate the seating draw for players p1…pN: the app's draw, and how it compares.

    simulate_draw --players 17 --rounds 5 --rules napoleon-originator --seed 1
    simulate_draw --players 17 --rounds 5 --rules napoleon-originator --compare --seeds 4
    simulate_draw --sweep [--step 1] [--seeds 2]      # 8–60 players × 3–8 rounds, every preset

``--compare`` prints the repeated meetings of four draws over the same table sizes: the app's
whole-event plan, the old round-by-round draw, a random draw and a plain whole-event annealing
(the yardstick: the plan must stay within +10 % of it). ``--sweep`` does that over the whole
range and exits with an error if any row misses the target or a plan takes 2 s or more
(CPU time of the process, so that other work on the machine does not count).
"""

import json
import statistics
import time

from django.core.management.base import BaseCommand, CommandError

import rules
from core.errors import EfudaError
from tournaments.draw import PastRound, make_draw, plain_annealing, plan_rounds, repeat_count

TARGET = 1.10  # repeats of the plan ≤ 1.10 × those of the plain annealing
TIME_LIMIT = 2.0  # seconds for one plan


def per_round(players, rounds, sizes, seed, method="mixing") -> list[PastRound]:
    """The draw made round by round (the app's behaviour before whole-event planning)."""
    past: list[PastRound] = []
    for number in range(1, rounds + 1):
        d = make_draw(
            players, sizes_allowed=sizes, history=past, method=method, seed=seed * 100 + number
        )
        past.append(PastRound(d.tables, d.sitouts))
    return past


def compare(players: int, rounds: int, sizes, seeds) -> dict:
    """Mean repeated meetings of the four draws over ``seeds``, and the slowest plan."""
    keys = [f"p{i}" for i in range(1, players + 1)]
    figures: dict[str, list] = {"plan": [], "per_round": [], "random": [], "plain": []}
    slowest = 0.0
    for seed in seeds:
        started = time.process_time()  # CPU time: the machine may be busy with others
        plan = plan_rounds(keys, rounds=rounds, sizes_allowed=sizes, seed=seed * 100 + 1)
        slowest = max(slowest, time.process_time() - started)
        figures["plan"].append(repeat_count(plan.as_past()))
        figures["per_round"].append(repeat_count(per_round(keys, rounds, sizes, seed)))
        figures["random"].append(repeat_count(per_round(keys, rounds, sizes, seed, "random")))
        plain = plain_annealing(keys, rounds=rounds, sizes_allowed=sizes, seed=seed)
        figures["plain"].append(repeat_count(plain))
    means = {name: statistics.mean(values) for name, values in figures.items()}
    means["seconds"] = slowest
    means["ok"] = means["plan"] <= TARGET * means["plain"] + 1e-9 and slowest < TIME_LIMIT
    return means


class Command(BaseCommand):
    help = "Simulate a tournament's seating draw (default method, every table scoring 0)."

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int)
        parser.add_argument("--rounds", type=int)
        parser.add_argument("--rules", default="napoleon-wiki", help="a preset code")
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument("--json", action="store_true", help="print one JSON object")
        parser.add_argument("--compare", action="store_true", help="against the other draws")
        parser.add_argument("--sweep", action="store_true", help="8–60 players, 3–8 rounds")
        parser.add_argument("--seeds", type=int, default=2, help="seeds per row (compare)")
        parser.add_argument("--step", type=int, default=1, help="player step (sweep)")
        parser.add_argument(
            "--only", default="", help="comma-separated preset codes (sweep; default every preset)"
        )

    def handle(self, *args, **opts):
        if opts["sweep"]:
            return self.sweep(opts)
        if not opts["players"] or not opts["rounds"] or opts["players"] < 1 or opts["rounds"] < 1:
            raise CommandError("--players and --rounds must be positive")
        try:
            ruleset = rules.build_ruleset(opts["rules"], {})
        except EfudaError as err:
            raise CommandError(str(err)) from None
        sizes = ruleset.players
        try:
            if opts["compare"]:
                seeds = range(opts["seed"], opts["seed"] + max(1, opts["seeds"]))
                row = compare(opts["players"], opts["rounds"], sizes, seeds)
                self.stdout.write(self.format_row(opts["rules"], opts, row, header=True))
                return
            # Same seed as the app for round 1: tournament seed × 100 + 1.
            plan = plan_rounds(
                [f"p{i}" for i in range(1, opts["players"] + 1)],
                rounds=opts["rounds"],
                sizes_allowed=sizes,
                seed=opts["seed"] * 100 + 1,
            )
        except EfudaError as err:
            raise CommandError(str(err)) from None
        rounds = [[list(t) for t in d.tables] for d in plan.rounds]
        if opts["json"]:
            sitouts = [list(d.sitouts) for d in plan.rounds]
            out = {"rounds": rounds, "sitouts": sitouts, "repeats": repeat_count(plan.as_past())}
            self.stdout.write(json.dumps(out, ensure_ascii=False))
            return
        for number, (tables, d) in enumerate(zip(rounds, plan.rounds, strict=True), start=1):
            self.stdout.write(f"Round {number}")
            for t, table in enumerate(tables, start=1):
                self.stdout.write(f"  T{t}: {' '.join(table)}")
            if d.sitouts:
                self.stdout.write(f"  sit out: {' '.join(d.sitouts)}")
        self.stdout.write(f"Repeated meetings: {repeat_count(plan.as_past())}")

    def format_row(self, code, opts, row, header=False) -> str:
        line = (
            f"{code:20} {opts['players']:3} {opts['rounds']:2} {row['plan']:7.2f} "
            f"{row['plain']:7.2f} {row['per_round']:9.2f} {row['random']:7.2f} "
            f"{row['seconds']:6.2f}s {'ok' if row['ok'] else 'MISSED'}"
        )
        if header:
            head = (
                f"{'rules':20} {'n':>3} {'r':>2} {'plan':>7} {'plain':>7} {'per-round':>9} "
                f"{'random':>7} {'time':>7}"
            )
            return head + "\n" + line
        return line

    def sweep(self, opts):
        seeds = range(max(1, opts["seeds"]))
        done: dict = {}
        missed = 0
        self.stdout.write(self.format_row("rules", {"players": 0, "rounds": 0}, {
            "plan": 0, "plain": 0, "per_round": 0, "random": 0, "seconds": 0, "ok": True,
        }, header=True).splitlines()[0])  # fmt: skip
        only = {c for c in opts["only"].split(",") if c}
        unknown = only - set(rules.PRESETS)
        if unknown:
            raise CommandError(f"unknown preset: {', '.join(sorted(unknown))}")
        for code, preset in rules.PRESETS.items():
            if only and code not in only:
                continue
            sizes = tuple(sorted(preset.players))
            for players in range(8, 61, max(1, opts["step"])):
                for rounds in range(3, 9):
                    key = (sizes, players, rounds)
                    if key not in done:  # presets with the same table sizes draw alike
                        done[key] = compare(players, rounds, sizes, seeds)
                    row = done[key]
                    missed += not row["ok"]
                    line = self.format_row(code, {"players": players, "rounds": rounds}, row)
                    self.stdout.write(line)
                    self.stdout.flush()
        if missed:
            raise CommandError(f"{missed} rows missed the target")
        self.stdout.write("every row within the target")
