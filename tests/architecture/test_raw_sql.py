"""The request's read path reads through the ORM: no raw SQL (a cursor, ``.raw()``, ``RawSQL``,
``.extra()``) in config/ (settings aside), permissions.py, the views, the template tags or the
selectors. A query the ORM writes follows the models: a renamed field fails at once, and
``makemigrations --check`` sees every column a read names. The test reads the syntax trees and
fails naming the file, line and call.

One function is allowed, with its reason: the ratings' streaming read
(``selectors/ratings.py``, ``_lines``), which only a ratings replay runs (a service and the
``rating_eval`` command, never a page): it reads every score line of a club, and the ORM's
per-row conversion cost as much as the rating maths (docs/ratings.md)."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PATHS = [
    ROOT / "config",
    ROOT / "tournaments" / "permissions.py",
    ROOT / "tournaments" / "views",
    ROOT / "tournaments" / "templatetags",
    ROOT / "tournaments" / "selectors",
]
SKIPPED = ROOT / "config" / "settings"
ALLOWED = {("tournaments/selectors/ratings.py", "_lines")}

RAW_CALLS = {"cursor", "chunked_cursor", "raw", "extra", "execute", "executemany"}
RAW_NAMES = {"RawSQL"}


def raw_sql(source: str, filename: str) -> list[str]:
    """One line per raw SQL call or name: 'file:line (function): what'."""
    tree = ast.parse(source, filename)
    found = []

    def visit(node: ast.AST, function: str) -> None:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            function = node.name
        what = None
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr in RAW_CALLS:
                what = f".{node.func.attr}()"
        if isinstance(node, ast.Name) and node.id in RAW_NAMES:
            what = node.id
        if isinstance(node, ast.alias) and node.name.split(".")[-1] in RAW_NAMES:
            what = f"import {node.name}"
        if what and (filename, function) not in ALLOWED:
            found.append(f"{filename}:{getattr(node, 'lineno', '?')} ({function}): {what}")
        for child in ast.iter_child_nodes(node):
            visit(child, function)

    visit(tree, "<module>")
    return found


def _files():
    for path in PATHS:
        for file in [path] if path.is_file() else sorted(path.rglob("*.py")):
            if SKIPPED not in file.parents:
                yield file


def test_the_read_path_has_no_raw_sql():
    offenders = []
    for file in _files():
        name = file.relative_to(ROOT).as_posix()
        offenders += raw_sql(file.read_text(encoding="utf-8"), name)
    assert not offenders, "raw SQL on the read path (write it with the ORM):\n" + "\n".join(
        offenders
    )


def test_the_paths_are_there():
    files = {file.relative_to(ROOT).as_posix() for file in _files()}
    assert "tournaments/permissions.py" in files
    assert {"config/urls.py", "config/routers.py"} <= files
    assert not any(name.startswith("config/settings/") for name in files)
    for folder in ("tournaments/views/", "tournaments/templatetags/", "tournaments/selectors/"):
        assert any(name.startswith(folder) for name in files), folder


def test_every_kind_of_raw_sql_is_found():
    source = """
from django.db import connection
from django.db.models.expressions import RawSQL

def club(slug):
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    Club.objects.raw("SELECT * FROM club")
    Club.objects.extra(where=["1 = 1"])
    Club.objects.annotate(n=RawSQL("1", []))
    with connection.chunked_cursor() as c:
        c.executemany("SELECT %s", [[1]])
"""
    found = raw_sql(source, "example.py")
    whats = [line.split(": ", 1)[1] for line in found]
    assert whats == [
        "import RawSQL",
        ".cursor()",
        ".execute()",
        ".raw()",
        ".extra()",
        "RawSQL",
        ".chunked_cursor()",
        ".executemany()",
    ]
    assert all("(club)" in line for line in found[1:])
    assert raw_sql(source, "tournaments/selectors/ratings.py") != []  # only _lines is allowed
