"""The plugin's own modules import each other in one direction: no cycle (issue 24, item 5).

The graph is read from the source with :mod:`ast`, so every import counts, also one made inside
a function (``from .units import unit_from_mtf`` in a hook) or under ``if TYPE_CHECKING``: a
cycle hidden in a function is still a knot a reader has to untie. Only the plugin's own
modules are nodes; imports of the core or the standard library are not edges.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = "critcore_battletech"
SRC = Path(__file__).resolve().parent.parent / "src" / PACKAGE


def _module_name(path: Path, src: Path) -> str:
    parts = list(path.relative_to(src.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    """The absolute name an ``from X import ...`` refers to, from ``module``."""
    if node.level == 0:
        return node.module or ""
    base = module.split(".")
    if not is_package:
        base = base[:-1]
    if node.level > 1:
        base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def import_graph(src: Path = SRC) -> dict[str, set[str]]:
    """Module -> the plugin modules it imports (anywhere in its source)."""
    files = {_module_name(p, src): p for p in src.rglob("*.py")}
    graph: dict[str, set[str]] = {name: set() for name in files}
    for name, path in files.items():
        is_package = path.name == "__init__.py"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = _resolve(name, is_package, node)
                # "from . import units" names a module; "from .units import x" names a module's attribute
                targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in files else base for alias in node.names]
            for target in targets:
                while target and target not in files:  # a name inside a module: the module
                    target = target.rpartition(".")[0]
                if target and target != name and target.startswith(PACKAGE):
                    # a submodule import also runs its package's __init__, which is not a dependency on it
                    graph[name].add(target)
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` as a list of modules (the first repeated at the end), or None."""
    state: dict[str, int] = {}  # 1 on the current path, 2 done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state:
            found = visit(start)
            if found:
                return found
    return None


def test_battletech_plugin_has_no_import_cycle() -> None:
    """Every import of the plugin, inside functions too, points one way."""
    graph = import_graph()
    assert len(graph) > 10  # the walk found the plugin's modules
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or ())


def test_battletech_importer_runs_parse_classify_unit() -> None:
    """The .mtf importer in one direction: the reader (mtf) knows nothing of the catalog or the
    unit builder, the catalog (classify) nothing of the unit builder, and nothing the importer
    uses imports the rules engine."""
    graph = import_graph()
    mtf, catalog, units = f"{PACKAGE}.mtf", f"{PACKAGE}.data.catalog", f"{PACKAGE}.units"

    def reach(start: str) -> set[str]:
        seen: set[str] = set()
        todo = [start]
        while todo:
            for nxt in graph[todo.pop()]:
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return seen

    assert catalog not in reach(mtf) and units not in reach(mtf)
    assert units not in reach(catalog) and mtf not in reach(catalog)
    assert {mtf, catalog} <= reach(units)
    assert not reach(units) & {f"{PACKAGE}.plugin", f"{PACKAGE}.damage", f"{PACKAGE}.criticals"}


@pytest.mark.parametrize("source, cycle", [
    ({"a.py": "from . import b\n", "b.py": "def f():\n    from .a import x\n"}, True),
    ({"a.py": "from . import b\n", "b.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import a\n"},
     True),
    ({"a.py": "from . import b\n", "b.py": "import os\n"}, False),
])
def test_battletech_cycle_finder_sees_function_level_imports(tmp_path: Path, source: dict[str, str],
                                                             cycle: bool) -> None:
    """The finder itself: a cycle closed by an import inside a function (or under TYPE_CHECKING)
    is found; one-way imports are not a cycle."""
    pkg = tmp_path / PACKAGE
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    for name, text in source.items():
        (pkg / name).write_text(text)
    found = find_cycle(import_graph(pkg))
    assert (found is not None) is cycle
