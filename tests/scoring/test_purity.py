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


MESSAGE_ARG = {"EfudaError": 2, "_error": 2, "Message": 0}


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(ROOT)) for p in FILES])
def test_user_texts_are_marked_for_translation(path):
    """Messages are never bare literals, and N_ only wraps literals (so xgettext finds them)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
            continue
        name = node.func.id
        if name == "N_":
            assert len(node.args) == 1 and isinstance(node.args[0], ast.Constant), (
                f"{path}:{node.lineno}: N_ must wrap one string literal"
            )
        elif name in MESSAGE_ARG and len(node.args) > MESSAGE_ARG[name]:
            arg = node.args[MESSAGE_ARG[name]]
            assert not (isinstance(arg, ast.Constant) and isinstance(arg.value, str)), (
                f"{path}:{node.lineno}: wrap the message in N_()"
            )
