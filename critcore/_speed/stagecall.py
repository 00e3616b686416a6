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


_KEPT: Any = None  # a WeakKeyDictionary: plugin manager -> {hook name: its stage_function}


def hook_function(pm: Any, hook: str, names: Sequence[str]) -> Callable[..., Any]:
    """:func:`stage_function` of the firstresult hook ``hook`` of the plugin manager ``pm``, made
    the first time it is asked for and kept while the manager lives (a manager holds the same
    plugins for as long as it is loaded: the engine's stages rely on it too). A report calls two
    hooks (``critcore_report``, ``critcore_changes``) for each outcome ``crit serve`` answers:
    about 3 us a request through pluggy. A manager that cannot be weakly referenced, or that is
    not pluggy's, is called through its ``hook`` each time."""
    global _KEPT
    if _KEPT is None:
        from weakref import WeakKeyDictionary

        _KEPT = WeakKeyDictionary()
    try:
        kept = _KEPT.get(pm)
    except TypeError:
        kept = None
        known = False
    else:
        known = True
    if kept is not None:
        found = kept.get(hook)
        if found is not None:
            return found  # type: ignore[no-any-return]
    caller = getattr(pm.hook, hook)
    if not hasattr(caller, "get_hookimpls"):  # not pluggy's: called as it is
        names = tuple(names)
        return lambda *args: caller(**dict(zip(names, args)))
    found = stage_function(caller, names)
    if known:
        _KEPT.setdefault(pm, {})[hook] = found
    return found
