"""Views never write: every write goes through a service (tournaments/services), which runs it
in a transaction. import-linter sees imports, not calls, so this test reads the views' syntax
trees and fails naming the file and line of any model write. Nothing is allow-listed."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
VIEWS = ROOT / "tournaments" / "views"

# Methods that only models, managers, querysets and model forms have: always a write.
ALWAYS_WRITES = {
    "save",
    "delete",
    "create",
    "bulk_create",
    "bulk_update",
    "get_or_create",
    "update_or_create",
}
# ``update`` is also a dict method: a write when called on a manager or a queryset.
QUERYSET_METHODS = {"objects", "filter", "exclude", "all", "select_related", "select_for_update"}


def _chain(node: ast.AST) -> list[str]:
    """The attribute and method names along a receiver: ``A.objects.filter(x)`` ->
    ['A', 'objects', 'filter']."""
    names = []
    while True:
        if isinstance(node, ast.Call):
            node = node.func
        elif isinstance(node, ast.Attribute):
            names.append(node.attr)
            node = node.value
        elif isinstance(node, ast.Name):
            names.append(node.id)
            return names[::-1]
        else:
            return names[::-1]


def model_writes(source: str, filename: str) -> list[str]:
    """One line per write call: 'file:line: receiver.method()'."""
    found = []
    for node in ast.walk(ast.parse(source, filename)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        method = node.func.attr
        receiver = _chain(node.func.value)
        if method in ALWAYS_WRITES or (
            method == "update" and QUERYSET_METHODS.intersection(receiver)
        ):
            found.append(f"{filename}:{node.lineno}: {'.'.join(receiver)}.{method}()")
    return found


def test_views_call_services_to_write():
    offenders = []
    for path in sorted(VIEWS.rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        offenders += model_writes(path.read_text(encoding="utf-8"), rel)
    assert not offenders, (
        "Views never write through models, managers or model forms; call a service in "
        "tournaments/services/ (one transaction, keyword-only arguments) instead:\n  "
        + "\n  ".join(offenders)
    )


@pytest.mark.parametrize(
    "line",
    [
        "Club.objects.create(slug='x')",
        "Deal.objects.filter(pk=1).update(version=2)",
        "club.players.filter(active=True).update(active=False)",
        "Player.objects.bulk_create([])",
        "Player.objects.get_or_create(name='x')",
        "ClubRuleSet.objects.update_or_create(code='x')",
        "deal.save()",
        "form.save()",
        "membership.delete()",
        "club.memberships.all().delete()",
    ],
)
def test_the_check_finds_each_kind_of_write(line):
    method = line.split("(")[-2].rsplit(".", 1)[-1]
    found = model_writes(f"def view(request):\n    x = 1\n    {line}\n", "v.py")
    assert len(found) == 1 and found[0].startswith("v.py:3: ") and found[0].endswith(f".{method}()")


@pytest.mark.parametrize(
    "line",
    [
        "context.update(extra=1)",
        "seen.add(code)",
        "cache.set(key, value)",
        "Club.objects.filter(slug=s).first()",
        "messages.success(request, 'ok')",
    ],
)
def test_reads_and_dict_updates_are_not_writes(line):
    assert model_writes(f"def view(request):\n    {line}\n", "v.py") == []
