"""Private: a stage hook called without pluggy's per-call work when one plain function answers it.

Exact odds and simulations call each stage hundreds of thousands of times for one question; a
call through pluggy's ``HookCaller`` builds a keyword dict and walks its call loop each time. When
the stage has exactly one implementation that is not a wrapper (a system alone, no rule plugin
touching that stage), :func:`stage_function` hands back that function itself, read through
pluggy's public ``get_hookimpls()``; in every other case it calls the hook through pluggy.
What it saves is measured in docs/architecture.md ("Speed machinery");
``tests/test_core_stagecall.py`` holds its answers and errors to pluggy's.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence


def _no_answer(*args: Any) -> None:
    return None


def stage_function(caller: Any, names: Sequence[str]) -> Callable[..., Any]:
    """A function taking the hook's arguments in order (``names``) and answering as
    ``caller(**dict(zip(names, args)))`` does for a firstresult hook."""
    impls = caller.get_hookimpls()
    if not impls:  # no implementation: a firstresult hook answers None
        return _no_answer
    if len(impls) == 1 and not impls[0].hookwrapper and not impls[0].wrapper:
        fn, have = impls[0].function, tuple(impls[0].argnames)
        if have == tuple(names):
            return fn  # type: ignore[no-any-return]  # pluggy types a hook function as a plain object
        if have == tuple(names[:len(have)]):  # the first few of the hook's arguments, as pluggy allows
            return lambda *args: fn(*args[:len(have)])
    names = tuple(names)

    def through_pluggy(*args: Any) -> Any:
        return caller(**dict(zip(names, args)))

    return through_pluggy


_KEPT: Any = None  # a WeakKeyDictionary: plugin manager -> {hook name: (its implementations, the function)}


def hook_function(pm: Any, name: str, names: Sequence[str]) -> Callable[..., Any]:
    """:func:`stage_function` of ``pm``'s firstresult hook ``name``, kept with the manager while
    it lives and made again whenever the hook's implementations have changed since (a plugin
    registered or taken out later): for the hooks every report of an outcome calls
    (``critcore_changes``, ``critcore_report``), where pluggy's call loop costs about as much as
    a system's own answer. A manager that cannot be weakly referenced gets a new function each time."""
    global _KEPT
    caller = getattr(pm.hook, name)
    implementations = getattr(caller, "get_hookimpls", None)
    if implementations is None:  # not pluggy's (a stand-in manager): called by keyword, as pluggy's is
        names = tuple(names)
        return lambda *args: caller(**dict(zip(names, args)))
    impls = implementations()
    if _KEPT is None:
        from weakref import WeakKeyDictionary

        _KEPT = WeakKeyDictionary()
    try:
        kept = _KEPT.get(pm)
        if kept is None:
            kept = _KEPT[pm] = {}
    except TypeError:
        return stage_function(caller, names)
    found = kept.get(name)
    if found is None or found[0] != impls:  # HookImpl compares by identity
        found = kept[name] = (impls, stage_function(caller, names))
    return found[1]  # type: ignore[no-any-return]
