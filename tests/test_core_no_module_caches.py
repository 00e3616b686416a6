"""No shipped plugin keeps a cache at module level (issue 13: "Preparation and caches belong to
the Engine ... No module-level caches in plugins"). A module-level cache lives as long as the
process and is shared by every engine in it, whatever their options, tables and house rules;
what a plugin learns belongs in what the engine hands it: ``critcore_prepare``'s answer,
``ctx.memo`` (per target) or the reader memo of ``critcore_read_target``.

The rule this scan checks, on every module of every plugin package's ``src/`` (what a wheel
ships), by its syntax tree:

1. No ``functools.lru_cache`` or ``functools.cache``, as a decorator (``@lru_cache``,
   ``@lru_cache(maxsize=...)``, ``@functools.cache``) or called (``lru_cache(...)(f)``), at any
   depth: on a function or a method alike its answers are the process's. (``cached_property``
   keeps its answer on the object, and is allowed.)
2. No module-level name bound to a mutable container (a dict, list or set display or
   comprehension, or a call of ``dict``, ``list``, ``set``, ``defaultdict``, ``OrderedDict``,
   ``deque``, ``Counter``, ``WeakValueDictionary`` or ``WeakKeyDictionary``) that code inside a
   function or method changes: item assignment or deletion (``X[k] = v``, ``X[k] += 1``,
   ``del X[k]``) or a method that changes it (``append``, ``clear``, ``update``, ``setdefault``,
   ``pop``, ...).
3. No ``global`` statement (a function rebinding a module-level name).

Allowed: constants built once at import, even mutable ones filled by module-level code (tables
of names, frozensets, a dict of stage results filled by a loop at import), that no function
changes afterwards. Not seen by this check, by design: an object whose own methods fill it (a ``dict`` subclass
with ``__missing__``, a regular expression compiled on first use); no shipped plugin has such a
table (GURPS's ``BOUNDS``, the last, is gone).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PLUGINS = Path(__file__).resolve().parent.parent / "plugins"

_CACHE_DECORATORS = frozenset({"lru_cache", "cache"})
_CONTAINERS = frozenset({"dict", "list", "set", "defaultdict", "OrderedDict", "deque", "Counter",
                         "WeakValueDictionary", "WeakKeyDictionary"})
_CHANGERS = frozenset({"append", "extend", "insert", "remove", "clear", "update", "setdefault", "pop", "popitem",
                       "add", "discard", "sort", "reverse", "appendleft", "popleft", "__setitem__",
                       "__delitem__"})


def _called_name(node: ast.expr) -> str:
    """``lru_cache`` for ``lru_cache``, ``functools.lru_cache`` and ``lru_cache(maxsize=1)``."""
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    return ""


def _is_container(value: ast.expr) -> bool:
    if isinstance(value, (ast.Dict, ast.List, ast.Set, ast.DictComp, ast.ListComp, ast.SetComp)):
        return True
    return isinstance(value, ast.Call) and _called_name(value.func) in _CONTAINERS


def _module_containers(tree: ast.Module) -> set[str]:
    names = set()
    for node in tree.body:
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets, value = [node.target], node.value
        else:
            continue
        if _is_container(value):
            names |= {t.id for t in targets if isinstance(t, ast.Name)}
    return names


def module_caches(text: str) -> list[tuple[int, str]]:
    """(line, what) for every module-level cache in a module's source (the rule above)."""
    tree = ast.parse(text)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            for deco in node.decorator_list:
                if _called_name(deco) in _CACHE_DECORATORS:
                    found.append((deco.lineno, f"@{_called_name(deco)} on {node.name}"))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Call) \
                and _called_name(node.func) in _CACHE_DECORATORS:
            found.append((node.lineno, f"{_called_name(node.func)}(...)(...)"))
    containers = _module_containers(tree)
    functions = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    seen = set()
    for fn in functions:
        for node in ast.walk(fn):
            if isinstance(node, ast.Global):
                found.append((node.lineno, f"global {', '.join(node.names)}"))
                continue
            changed = None
            if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete)):
                targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target]
                for t in targets:
                    if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and t.value.id in containers:
                        changed = t.value.id
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr in _CHANGERS and isinstance(node.func.value, ast.Name) \
                    and node.func.value.id in containers:
                changed = node.func.value.id
            if changed is not None and (node.lineno, changed) not in seen:
                seen.add((node.lineno, changed))
                found.append((node.lineno, f"module-level {changed} changed in {fn.name}"))
    return sorted(found)


def test_the_scan_finds_each_kind_of_module_cache():
    """The importer's caches before they moved to the reader memo are found (lru_caches in both
    forms, a dict filled and cleared by a function, a list changed through an index, a global),
    and constants built at import are not."""
    old = '''from functools import lru_cache
import functools
_CLASSIFIED: dict[tuple[str, str], int] = {}
_NAMES: list[int] = []
_ADDED = [False]

@lru_cache(maxsize=4096)
def parse_slot_name(text):
    return text

@functools.cache
def catalog():
    return 1

def classify(name):
    if len(_CLASSIFIED) > 8192:
        _CLASSIFIED.clear()
    _CLASSIFIED[name] = 1
    _ADDED[0] = True

class Catalog:
    def names(self):
        _NAMES.append(1)

norm = lru_cache(8192)(str.lower)

def reset():
    global _LAST
    _LAST = None
'''
    assert module_caches(old) == [
        (7, "@lru_cache on parse_slot_name"), (11, "@cache on catalog"),
        (17, "module-level _CLASSIFIED changed in classify"), (18, "module-level _CLASSIFIED changed in classify"),
        (19, "module-level _ADDED changed in classify"), (23, "module-level _NAMES changed in names"),
        (25, "lru_cache(...)(...)"), (28, "global _LAST")]
    constants = '''from functools import cached_property
FLAGS = {"r": "rear", "t": "turret"}
RESULTS: dict[str, int] = {}
for _n in ("a", "b"):
    RESULTS[_n] = len(_n)
SUFFIXES = frozenset({"r", "t"})

def flag(word):
    local = {}
    local[word] = FLAGS.get(word)
    return RESULTS[word], local

class Spec:
    @cached_property
    def locations(self):
        return tuple(FLAGS)
'''
    assert module_caches(constants) == []


def test_no_shipped_plugin_keeps_a_module_level_cache():
    """Every module of every plugin package under plugins/ (its src/, what a wheel ships)."""
    sources = sorted(PLUGINS.glob("*/src/**/*.py"))
    if not sources:
        pytest.skip("no plugin sources beside the core (an installed core alone)")
    assert {p.relative_to(PLUGINS).parts[0] for p in sources} >= {"critcore-battletech", "critcore-gurps",
                                                                    "critcore-shadowrun2"}
    hits = [f"{p.relative_to(PLUGINS)}:{line}: {what}" for p in sources
            for line, what in module_caches(p.read_text(encoding="utf-8"))]
    assert hits == []
