"""No import cycle between efuda's modules, function-level imports included.

import-linter's contracts say which layer may import which; they do not forbid two modules of
one layer importing each other. A cycle hidden in a function-level import (``import x`` inside a
function, run only when called) is still a cycle: the two modules cannot be understood, tested
or loaded one without the other, and which of them loads first decides whether the program
starts. grimp (import-linter's graph) reads every import statement, those inside functions too.

Importing ``a.b.c`` also runs ``a/__init__.py`` and ``a/b/__init__.py``, which may import
more: so a module also depends on the packages of what it imports (all but its own).
"""

from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("config", "core", "loadtest", "ratings", "rules", "scoring", "tournaments")


def _ancestors(module: str) -> list[str]:
    parts = module.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]


def dependencies(imports: dict[str, set[str]]) -> dict[str, set[str]]:
    """What loading each module loads: what it imports, and the packages of those modules
    that are not its own (an ancestor of the importer is already loading)."""
    graph = {}
    for module, imported in imports.items():
        own = {module, *_ancestors(module)}
        found = set()
        for other in imported:
            found.add(other)
            found.update(p for p in _ancestors(other) if p not in own and p in imports)
        graph[module] = found - {module}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, without
    recursion), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in graph:
                    continue
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def _graph():
    return grimp.build_graph(*PACKAGES, cache_dir=None)


def _where(graph, importer: str, members: list[str]) -> list[str]:
    lines = []
    for imported in sorted(graph.find_modules_directly_imported_by(importer)):
        if imported in members:
            for detail in graph.get_import_details(importer=importer, imported=imported):
                lines.append(f"{importer}:{detail['line_number']}: {detail['line_contents']}")
    return lines


def test_no_module_imports_itself_back_through_others():
    graph = _graph()
    imports = {m: set(graph.find_modules_directly_imported_by(m)) for m in graph.modules}
    found = cycles(dependencies(imports))
    report = []
    for members in found:
        report.append(" <-> ".join(members))
        for member in members:
            report.extend("    " + line for line in _where(graph, member, members))
    assert not found, (
        "Import cycles (function-level imports and the packages they load included). Move the "
        "shared piece down to a module both can import, or pass it in:\n" + "\n".join(report)
    )


def test_the_graph_counts_imports_inside_functions():
    graph = _graph()
    # tournaments/apps.py imports its checks inside AppConfig.ready()
    assert graph.direct_import_exists(importer="tournaments.apps", imported="tournaments.checks")


def test_a_cycle_is_found_directly_and_through_a_package():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []
    # deals imports events.common; loading it runs events/__init__, which imports
    # events.table_deals, which imports deals
    imports = {
        "app": set(),
        "app.deals": {"app.events.common"},
        "app.events": {"app.events.common", "app.events.table_deals"},
        "app.events.common": set(),
        "app.events.table_deals": {"app.deals", "app.events.common"},
    }
    assert cycles(imports) == []  # the imports alone show none
    assert cycles(dependencies(imports)) == [["app.deals", "app.events", "app.events.table_deals"]]
    # a package importing its own modules, and a module importing its package's siblings, is none
    package = {"p": {"p.a", "p.b"}, "p.a": {"p.b"}, "p.b": set()}
    assert cycles(dependencies(package)) == []
