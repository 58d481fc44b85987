"""Modules and functions stay small enough to read: no Python module past 500 lines (outside
migrations; tests, management commands and the load test included) and no function past 60
lines in the code (from its ``def`` to its last line, nested functions counted in their own
right too). A module that grows past the limit is a package waiting to happen; a function past
it is steps waiting for names."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MODULE_LINES = 500
FUNCTION_LINES = 60
CODE = ("config", "core", "loadtest", "ratings", "rules", "scoring", "tournaments")
# (site-packages: a virtualenv of any name inside the checkout holds other people's modules)
SKIP_DIRS = {".git", ".venv", "__pycache__", "migrations", "mutants", "node_modules", "media",
             "staticfiles", "var", ".hypothesis", ".pytest_cache", ".ruff_cache",
             "site-packages"}  # fmt: skip

# Nothing is allowed past the limits.
ALLOWED: set[str] = set()


def _python_files(*roots: str):
    for root in roots:
        for path in sorted((ROOT / root).rglob("*.py")):
            rel = path.relative_to(ROOT)
            if not SKIP_DIRS.intersection(rel.parts):
                yield rel.as_posix(), path


def long_modules(files) -> list[str]:
    return [
        f"{rel}: {count} lines"
        for rel, path in files
        if (count := len(path.read_text(encoding="utf-8").splitlines())) > MODULE_LINES
    ]


def long_functions(rel: str, source: str) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(source, filename=rel)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            lines = node.end_lineno - node.lineno + 1
            if lines > FUNCTION_LINES:
                found.append(f"{rel}:{node.lineno} {node.name}: {lines} lines")
    return found


def test_no_module_is_past_500_lines():
    top = [p.name for p in ROOT.iterdir() if p.is_dir() and p.name not in SKIP_DIRS]
    files = [(rel, path) for rel, path in _python_files(*top) if rel not in ALLOWED]
    files += [(p.name, p) for p in sorted(ROOT.glob("*.py"))]
    offenders = long_modules(files)
    assert not offenders, (
        f"Modules past {MODULE_LINES} lines: split each into a package of modules that each do "
        "one thing (as services/imports/ reads, checks and writes):\n  " + "\n  ".join(offenders)
    )


def test_no_function_is_past_60_lines():
    offenders = []
    for rel, path in _python_files(*CODE):
        if rel not in ALLOWED:
            offenders += long_functions(rel, path.read_text(encoding="utf-8"))
    assert not offenders, (
        f"Functions past {FUNCTION_LINES} lines: give their steps names of their own:\n  "
        + "\n  ".join(offenders)
    )


def test_a_function_is_counted_from_its_def_to_its_last_line():
    body = "".join(f"    x{i} = {i}\n" for i in range(FUNCTION_LINES - 1))
    assert long_functions("fits.py", "@decorated\ndef fits():\n" + body) == []
    past = "def past():\n" + body + "    return x0\n"
    assert long_functions("past.py", past) == ["past.py:1 past: 61 lines"]
    inner = "".join(f"        y{i} = {i}\n" for i in range(FUNCTION_LINES))
    nested = "def outer():\n    def inner():\n" + inner + "    return inner\n"
    assert long_functions("n.py", nested) == ["n.py:1 outer: 63 lines", "n.py:2 inner: 61 lines"]


def test_a_module_is_counted_by_its_lines(tmp_path):
    fits, past = tmp_path / "fits.py", tmp_path / "past.py"
    fits.write_text("x = 1\n" * MODULE_LINES)
    past.write_text("x = 1\n" * (MODULE_LINES + 1))
    assert long_modules([("fits.py", fits), ("past.py", past)]) == ["past.py: 501 lines"]
