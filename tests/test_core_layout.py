"""The core's layout (issue 24): a dozen top-level modules at most, packages named for what they
hold, and imports that go one way only. ``ALLOWED`` is the rule (docs/architecture.md, "Layout"
draws it): each package of critcore and what it may import. Every package's docstring says the
same thing in its "May import" line, and the import graph, counting imports inside functions and
under ``TYPE_CHECKING``, keeps to it."""

from __future__ import annotations

import re
from pathlib import Path

from test_core_import_cycles import CORE, _cycles, import_graph

ALLOWED: dict[str, set[str]] = {
    "errors": set(),
    "_speed": set(),
    "model": {"errors", "_speed"},
    "files": {"errors"},
    "dice": {"errors", "model"},
    "tables": {"errors", "_speed", "model", "files", "dice"},
    "targets": {"errors", "model", "files"},
    "report": {"errors", "_speed", "model", "dice"},
    "stages": {"errors", "_speed", "model", "dice", "tables"},
    "config": {"errors", "model", "files", "tables", "stages"},
    "engine": {"errors", "_speed", "model", "dice", "tables", "stages", "config", "report"},
    "chance": {"errors", "_speed", "model", "dice", "stages", "engine"},
    "campaign": {"errors", "_speed", "model", "files", "dice", "stages", "config", "targets", "engine"},
    "api": {"errors", "model", "stages", "engine", "chance"},
    "web": {"errors", "_speed", "model", "files", "dice", "stages", "engine", "chance", "report", "campaign", "api",
            "targets"},
    "cli": {"errors", "_speed", "model", "files", "dice", "tables", "targets", "report", "stages", "config",
            "engine", "chance", "campaign", "api", "web"},
    "plugin": {"errors", "_speed", "model", "files", "dice", "tables", "stages", "report"},
    "testing": {"errors", "_speed", "model", "files", "dice", "tables", "targets", "report", "stages", "config",
                "engine", "chance", "campaign", "api", "cli"},
    "__main__": {"cli"},
}


def part(module: str) -> str:
    return module.split(".")[1]


def package_graph() -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for name, imported in import_graph().items():
        here = part(name)
        out.setdefault(here, set()).update(part(m) for m in imported if part(m) != here)
    return out


def test_at_most_twelve_top_level_modules():
    modules = sorted(p.name for p in CORE.glob("*.py"))
    assert len(modules) <= 12, modules


def test_every_module_and_package_has_a_rule():
    names = {p.stem for p in CORE.glob("*.py") if p.stem != "__init__"}
    names |= {p.parent.name for p in CORE.glob("*/__init__.py")}
    assert names == set(ALLOWED)


def test_imports_go_one_way():
    """Each package imports only what ALLOWED gives it (a lazy import inside a function counts)."""
    wrong = {pkg: sorted(found - ALLOWED[pkg]) for pkg, found in package_graph().items() if found - ALLOWED[pkg]}
    assert wrong == {}


def test_the_rule_itself_has_no_cycle():
    assert _cycles({k: set(v) for k, v in ALLOWED.items()}) == []


def test_the_check_finds_a_wrong_import(monkeypatch):
    """The check above can fail: dice importing the engine is named."""
    import test_core_layout as me

    graph = {"dice": {"model", "engine"}, "model": set()}
    monkeypatch.setattr(me, "package_graph", lambda: graph)
    try:
        me.test_imports_go_one_way()
    except AssertionError as exc:
        assert "engine" in str(exc)
    else:
        raise AssertionError("a wrong import went unnoticed")


def test_each_package_says_what_it_holds_and_may_import():
    for init in sorted(CORE.glob("*/__init__.py")):
        pkg = init.parent.name
        text = init.read_text(encoding="utf-8")
        assert text.startswith('"""'), f"{pkg} has no docstring"
        said = re.search(r"May import:(.*?)(\n\n|\"\"\")", text, re.S)
        assert said, f"critcore.{pkg}'s docstring has no 'May import:' line"
        named = set(re.findall(r"critcore\.(\w+)", said.group(1)))
        if "the standard library only" in said.group(1):
            named = set()
        if "anything" in said.group(1):
            named = ALLOWED[pkg]
        assert named == ALLOWED[pkg], f"critcore.{pkg}: the docstring names {sorted(named)}, the rule {sorted(ALLOWED[pkg])}"
