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
changes afterwards. A container in a class body counts as a module-level one (changed through ``self.NAME`` or
``Class.NAME``), and a change through a nested index or an item's method
(``X[k][1] = v``, ``X[k].append(v)``) counts as a change of ``X``. Not seen by this check, by
design: a container changed through another name bound to it (``d = X; d[k] = v``), and an
object whose own methods fill it (a ``dict`` subclass with ``__missing__``, a regular expression
compiled on first use); no shipped plugin has such a table (GURPS's ``BOUNDS``, the last, is
gone).
"""

from __future__ import annotations

import ast

from shipped_plugins import scan_shipped

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


def _containers(body: list[ast.stmt]) -> set[str]:
    """The names a module's (or a class's) body binds to a mutable container."""
    names = set()
    for node in body:
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets, value = [node.target], node.value
        else:
            continue
        if _is_container(value):
            names |= {t.id for t in targets if isinstance(t, ast.Name)}
    return names


def _root(node: ast.expr, owner: str | None) -> str | None:
    """What an index or attribute chain (``X[k][1]``, ``X["a"].items``) starts from: a module
    name ``X``, or ``.NAME`` for ``self.NAME``, ``cls.NAME`` or ``Owner.NAME`` in a class's
    methods (``owner``: the class's name)."""
    while isinstance(node, (ast.Subscript, ast.Attribute)):
        inner = node.value
        if isinstance(node, ast.Attribute) and isinstance(inner, ast.Name) \
                and inner.id in ("self", "cls", owner):
            return "." + node.attr
        node = inner
    return node.id if isinstance(node, ast.Name) else None


def _changes(fn: ast.AST, owner: str | None) -> list[tuple[int, str]]:
    """(line, root) of every change a function makes through an index or a changing method."""
    out = []
    for node in ast.walk(fn):
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete)):
            targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target]
            out += [(node.lineno, r) for t in targets if isinstance(t, ast.Subscript)
                    for r in [_root(t.value, owner)] if r is not None]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _CHANGERS:
            root = _root(node.func.value, owner)
            if root is not None:
                out.append((node.lineno, root))
    return out


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
    containers = _containers(tree.body)
    owners = {fn: cls for cls in ast.walk(tree) if isinstance(cls, ast.ClassDef)
              for fn in ast.walk(cls) if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef))}
    class_containers = {cls.name: _containers(cls.body) for cls in ast.walk(tree) if isinstance(cls, ast.ClassDef)}
    seen = set()
    for fn in (n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))):
        found += [(node.lineno, f"global {', '.join(node.names)}") for node in ast.walk(fn)
                  if isinstance(node, ast.Global)]
        owner = owners.get(fn)
        name = owner.name if owner is not None else None
        shared = class_containers.get(name, set()) if name is not None else set()
        for line, root in _changes(fn, name):
            if root in containers:
                what = f"module-level {root} changed in {fn.name}"
            elif root.startswith(".") and root[1:] in shared:
                what = f"class-level {name}{root} changed in {fn.name}"
            else:
                continue
            if (line, what) not in seen:
                seen.add((line, what))
                found.append((line, what))
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


def test_the_scan_follows_indexes_and_finds_class_level_caches():
    """A change through a nested index or an attribute of an item (``_C[k][1] = 2``,
    ``_L["a"].append(k)``) changes the module-level container it starts from; a container in a
    class body, changed through ``self.NAME`` or ``Class.NAME`` in a method, is the whole
    process's too (one per class, shared by every instance)."""
    source = '''_C = {}
_L = {"a": []}
def f(k):
    _C[k][1] = 2
    _L["a"].append(k)
class K:
    seen = {}
    def g(self, k):
        self.seen[k] = 1
        K.seen.clear()
    def h(self, k):
        self.own = {}
        self.own[k] = 1
'''
    assert module_caches(source) == [
        (4, "module-level _C changed in f"), (5, "module-level _L changed in f"),
        (9, "class-level K.seen changed in g"), (10, "class-level K.seen changed in g")]


def test_no_shipped_plugin_keeps_a_module_level_cache():
    """Every module of every plugin package under plugins/ (its src/, what a wheel ships)."""
    hits = scan_shipped(module_caches)
    assert hits == []
