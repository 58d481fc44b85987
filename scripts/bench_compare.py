"""``scripts/bench-compare REV``: the benchmark for REV and for the working tree, interleaved.

REV is checked out with ``git worktree`` in a temporary directory and run with the same Python
(the same installed packages). Each round runs ``manage.py bench --rounds 1`` once in each tree,
the order alternating from round to round, so a busy moment on a shared machine falls on both
alike. For each size and step it prints the median over the rounds of each tree's medians and
the ratio working tree ÷ REV (below 1: the working tree is faster), with both query counts, and
the same for the CPU time per request when both benches report it.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _parse(argv):
    parser = argparse.ArgumentParser(
        prog="scripts/bench-compare", description=__doc__.split("\n")[0]
    )
    parser.add_argument(
        "rev", help="the commit to compare the working tree with (e.g. main, HEAD~1)"
    )
    parser.add_argument("--sizes", default="10000", help="score lines, comma-separated")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each tree, interleaved")
    parser.add_argument("--repeat", type=int, default=9, help="timed requests per step and run")
    parser.add_argument("--pdf-repeat", type=int, default=3, help="timed PDFs per run")
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    return parser.parse_args(argv)


def _bench(tree: Path, args) -> list[dict]:
    command = [sys.executable, "manage.py", "bench", "--json", "--rounds", "1",
               "--sizes", args.sizes, "--repeat", str(args.repeat),
               "--pdf-repeat", str(args.pdf_repeat)]  # fmt: skip
    result = subprocess.run(command, cwd=tree, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"bench failed in {tree}:\n{result.stderr[-3000:]}")
    return [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]


def _checkout(rev: str, where: Path) -> Path:
    tree = where / "rev"
    subprocess.run(["git", "worktree", "add", "--detach", "-q", str(tree), rev], cwd=ROOT,
                   check=True)  # fmt: skip
    # The translation catalogues are not in git: compile them as in the working tree.
    subprocess.run([sys.executable, "manage.py", "compilemessages", "--ignore=.venv", "-v", "0"],
                   cwd=tree, check=True)  # fmt: skip
    return tree


def _rows(medians: dict, queries: dict, rev: str, cpu: dict) -> list[dict]:
    rows = []
    for size, step in dict.fromkeys((s, st) for s, st, _side in medians):  # the bench's order
        if (size, step, "rev") not in medians or (size, step, "work") not in medians:
            continue
        before = statistics.median(medians[(size, step, "rev")])
        after = statistics.median(medians[(size, step, "work")])
        rows.append({
            "size": size, "step": step, rev: round(before, 2), "work": round(after, 2),
            "ratio": round(after / before, 2),
            "queries": [queries.get((size, step, "rev")), queries.get((size, step, "work"))],
        })  # fmt: skip
        if cpu.get((size, step, "rev")) and cpu.get((size, step, "work")):
            cpu_before = statistics.median(cpu[(size, step, "rev")])
            cpu_after = statistics.median(cpu[(size, step, "work")])
            rows[-1].update({
                f"{rev}_cpu": round(cpu_before, 2), "work_cpu": round(cpu_after, 2),
                "ratio_cpu": round(cpu_after / cpu_before, 2),
            })  # fmt: skip
    return rows


def main(argv=None) -> None:
    args = _parse(argv)
    medians: dict[tuple, list[float]] = defaultdict(list)
    cpu: dict[tuple, list[float]] = defaultdict(list)
    queries: dict[tuple, int] = {}
    with tempfile.TemporaryDirectory(prefix="efuda-bench-compare-") as where:
        tree = _checkout(args.rev, Path(where))
        try:
            for number in range(args.rounds):
                order = [("rev", tree), ("work", ROOT)]
                for side, path in order if number % 2 == 0 else order[::-1]:
                    for row in _bench(path, args):
                        medians[(row["size"], row["step"], side)].append(row["median_ms"])
                        if "cpu_ms" in row:  # benches from 28 Nov 2026 on
                            cpu[(row["size"], row["step"], side)].append(row["cpu_ms"])
                        queries[(row["size"], row["step"], side)] = row["queries"]
                print(f"round {number + 1}/{args.rounds} done", file=sys.stderr)
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT)
    rows = _rows(medians, queries, args.rev, cpu)
    for row in rows:
        if args.json:
            print(json.dumps(row))
        else:
            q = row["queries"]
            print(f"{row['size']:>9} {row['step']:<17} {args.rev} {row[args.rev]:9.2f} ms  "
                  f"work {row['work']:9.2f} ms  x{row['ratio']:<5}  "
                  f"queries {q[0]} → {q[1]}"
                  + (f"  CPU {row[args.rev + '_cpu']:.2f} → {row['work_cpu']:.2f} ms "
                     f"x{row['ratio_cpu']}" if "ratio_cpu" in row else ""))  # fmt: skip


if __name__ == "__main__":
    main()
