"""critcore's modules import each other without cycles (issue 13), so the core reads bottom-up.

Every import counts: at module level, inside functions (a lazy import is still a dependency,
and a cycle through one is what the old ``dice`` <-> ``enumeration`` shim was) and under ``if
TYPE_CHECKING:`` (a reader and mypy follow those too; the hook specs name ``Context``, which
lives in its own module so they need not import the engine). Only the package's facade
(``critcore/__init__.py``, which names its lazily loaded exports for mypy) is left out: a
submodule importing ``critcore`` for ``__version__`` is no cycle a reader meets.
"""

from __future__ import annotations

import ast
from pathlib import Path

CORE = Path(__file__).resolve().parent.parent / "critcore"


def _modules(root: Path = CORE) -> dict[str, Path]:
    found = {}
    for path in root.rglob("*.py"):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The critcore modules ``name`` imports, anywhere in its text."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    out: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ImportFrom):
                base = package[: len(package) - child.level + 1] if child.level else []
                target = ".".join(base + ([child.module] if child.module else []))
                subs = [f"{target}.{a.name}" for a in child.names]
                hits = [s for s in subs if s in known]
                if len(hits) < len(subs):  # a name from the module itself, not a submodule
                    hits.append(target)
                out.update(h for h in hits if h in known and h != name)
            elif isinstance(child, ast.Import):
                out.update(a.name for a in child.names if a.name in known and a.name != name)
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return out


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan's algorithm, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
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
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
    return found


def import_graph(root: Path = CORE) -> dict[str, set[str]]:
    """Module -> the modules of the same package it imports (``root`` is a package folder)."""
    known = _modules(root)
    del known[root.name]
    return {name: _imports(name, path, known) for name, path in known.items()}


PLUGINS = CORE.parent / "plugins"


def test_no_plugin_has_import_cycles():
    """Every plugin package under plugins/ (its src/), counted the same way: BattleTech's
    importer (units, mtf, the catalog) goes one way, parse -> classify -> unit (issue 24)."""
    packages = sorted(p.parent for p in PLUGINS.glob("*/src/*/__init__.py"))
    if not packages:
        import pytest

        pytest.skip("no plugin sources beside the core (an installed core alone)")
    found = {pkg.name: _cycles(import_graph(pkg)) for pkg in packages}
    assert found == {pkg.name: [] for pkg in packages}


def test_the_core_has_no_import_cycles():
    """No group of critcore modules imports itself round (issue 13: dice <-> enumeration,
    resources <-> tables, exact <-> oddsview <-> montecarlo were the ones found)."""
    assert _cycles(import_graph()) == []


def test_the_cycle_finder_finds_a_cycle():
    """The check above can fail: a <-> b and c -> a is one cycle {a, b}."""
    assert _cycles({"a": {"b"}, "b": {"a"}, "c": {"a"}}) == [["a", "b"]]


def test_the_walk_sees_lazy_and_type_only_imports():
    """dice no longer reaches enumeration in any way; enumeration imports dice (the direction
    the layers go); hookspecs names Context from its own module, not from the engine."""
    graph = import_graph()
    assert "critcore.dice.dice" in graph["critcore.chance.enumeration"]
    assert "critcore.chance.enumeration" not in graph["critcore.dice.dice"]
    assert "critcore.chance.enumeration" not in graph["critcore.dice.rollers"]
    assert "critcore.engine.runner" not in graph["critcore.stages.hookspecs"]
    assert "critcore.stages.context" in graph["critcore.stages.hookspecs"]  # under TYPE_CHECKING, and counted
    assert "critcore.tables.resources" in graph["critcore.tables.tableset"]  # lazy, inside functions
    assert "critcore.tables.tableset" not in graph["critcore.tables.resources"]
