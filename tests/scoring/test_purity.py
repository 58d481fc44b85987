"""rules/ and scoring/ must stay pure: no Django, no tournaments app (architecture.md)."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FORBIDDEN = ("django", "tournaments", "config")
FILES = sorted(p for pkg in ("rules", "scoring") for p in (ROOT / pkg).rglob("*.py"))


def test_packages_have_files():
    assert len(FILES) >= 8


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(ROOT)) for p in FILES])
def test_no_framework_imports(path):
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            modules = [node.module or ""] if node.level == 0 else []
        elif isinstance(node, ast.Call) and getattr(node.func, "id", "") == "__import__":
            modules = [a.value for a in node.args[:1] if isinstance(a, ast.Constant)]
        else:
            continue
        for module in modules:
            assert module.split(".")[0] not in FORBIDDEN, f"{path}:{node.lineno} imports {module}"
