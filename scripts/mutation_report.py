"""The summary of a mutation run (scripts/mutation): per module, the mutants and what became of
them, checked against the equivalent mutants listed in docs/architecture.md.

Reads mutmut's results kept in mutants/ (one ``<file>.meta`` per mutated file). A mutant counts
as killed when a test failed on it, including a mutant that breaks the project's import (every
test fails; mutmut files that as "timeout"). A survivor is either listed in the "Equivalent
mutants" table of docs/architecture.md (its name in backquotes) or unexplained; any unexplained
survivor makes this exit 1.
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MUTANTS = ROOT / "mutants"
DOC = ROOT / "docs" / "architecture.md"

KILLED = {1, 3}  # a test failed; pytest's internal error
BROKE_IMPORT = {255, -24, 24, 152, 36}  # mutmut's "timeout": no test could even start or finish
SURVIVED = {0}
NO_TESTS = {5, 33}


def equivalent_names() -> set[str]:
    text = DOC.read_text(encoding="utf-8")
    section = text.split("### Equivalent mutants", 1)[-1].split("\n## ", 1)[0]
    return set(re.findall(r"`([\w.ǁ]+__mutmut_\d+)`", section))


def seconds() -> Counter[str]:
    """Seconds each module's mutants ran, summed over the workers (mutmut's debug log); a
    mutant run more than once (its function changed, or it was named again) counts its last
    run only."""
    last: dict[str, tuple[str, float]] = {}
    log = MUTANTS / "mutmut-debug.log"
    if log.exists():
        done = re.compile(r"Completed (([\w.ǁ]+?)\.x\S*__mutmut_\d+): exit=-?\d+ \(([\d.]+)s\)")
        for match in done.finditer(log.read_text(encoding="utf-8", errors="replace")):
            last[match.group(1)] = (match.group(2), float(match.group(3)))
    spent: Counter[str] = Counter()
    for module, taken in last.values():
        spent[module] += taken
    return spent


def results() -> dict[str, dict[str, int | None]]:
    by_module: dict[str, dict[str, int | None]] = defaultdict(dict)
    for meta in sorted(MUTANTS.rglob("*.py.meta")):
        data = json.loads(meta.read_text(encoding="utf-8"))
        module = ".".join(meta.relative_to(MUTANTS).with_suffix("").with_suffix("").parts)
        module = module.removesuffix(".__init__")
        for name, code in data["exit_code_by_key"].items():
            by_module[module][name] = code
    return by_module


def main(selected: list[str]) -> int:
    markdown = "--markdown" in selected
    selected = [s for s in selected if s != "--markdown"]
    if not MUTANTS.is_dir():
        print("efuda: no mutation results yet: run scripts/mutation", file=sys.stderr)
        return 2
    equivalent = equivalent_names()
    rows, unexplained, not_run = [], [], []
    totals: Counter[str] = Counter()
    spent = seconds()
    for module, codes in sorted(results().items()):
        if selected and not any(module == s or module.startswith(s + ".") for s in selected):
            continue
        count: Counter[str] = Counter()
        for name, code in codes.items():
            count["mutants"] += 1
            if code in KILLED or code in BROKE_IMPORT:
                count["killed"] += 1
            elif code in SURVIVED or code in NO_TESTS:
                if name in equivalent:
                    count["equivalent"] += 1
                else:
                    count["survived"] += 1
                    unexplained.append(name)
            else:
                count["not run"] += 1
                not_run.append(name)
        count["seconds"] = round(spent[module])
        totals.update(count)
        rows.append((module, count))
    if markdown:  # the table docs/architecture.md shows
        print("| module | mutants | killed | equivalent | survived | not run yet | seconds |")
        print("| --- | --- | --- | --- | --- | --- | --- |")
        for module, count in rows + [("total", totals)]:
            keys = ("mutants", "killed", "equivalent", "survived", "not run", "seconds")
            cells = [count[k] for k in keys]
            print(f"| `{module}` | " + " | ".join(str(c) for c in cells) + " |")
        return 1 if unexplained or not_run else 0
    header = (
        f"{'module':34} {'mutants':>8} {'killed':>8} {'equivalent':>11} {'survived':>9} "
        f"{'seconds':>8}"
    )
    print(header)
    print("-" * len(header))
    # seconds: how long the module's mutants ran, summed over the parallel workers
    for module, count in rows + [("total", totals)]:
        print(
            f"{module:34} {count['mutants']:>8} {count['killed']:>8} "
            f"{count['equivalent']:>11} {count['survived']:>9} {count['seconds']:>8}"
            + (f"  ({count['not run']} not run)" if count["not run"] else "")
        )
    stale = equivalent - {n for _, codes in results().items() for n in codes}
    if stale:
        print(f"\nListed as equivalent but no longer a mutant: {', '.join(sorted(stale))}")
    if unexplained:
        print("\nSurvivors neither killed nor listed as equivalent in docs/architecture.md:")
        for name in unexplained:
            print(f"  {name}   (mutmut show {name})")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
