"""critcore._speed.stagecall: the engine's stage calls give what pluggy's own hook call gives.

The engine calls a stage's one plain implementation directly and hands every other case to
pluggy (a speed piece: docs/architecture.md, "Speed machinery"). The rule checked here is pluggy's
documented ``firstresult`` semantics: implementations run from the last registered (``tryfirst``
ones first), wrappers run to their ``yield`` before them, the first answer that is not None wins,
and the wrappers are resumed the last entered first with that answer or with the exception. Every
case is compared with ``HookCaller.__call__`` on the same plugin manager.
"""

from __future__ import annotations

import itertools

import pluggy
import pytest

from critcore.stages import hookspecs
from critcore.stages.loader import hookimpl
from critcore._speed.stagecall import stage_function as stage_caller

NAMES = ("ctx", "determination")


class Boom(Exception):
    pass


def plain(answer, log, name, tryfirst=False):
    @hookimpl(tryfirst=tryfirst)
    def critcore_locate(ctx, determination):
        log.append(name)
        if answer == "raise":
            raise Boom(name)
        return answer

    return critcore_locate


def plain_ctx_only(answer, log, name):
    @hookimpl
    def critcore_locate(ctx):  # takes fewer arguments than the spec
        log.append((name, ctx))
        return answer

    return critcore_locate


def plain_reordered(answer, log, name):
    @hookimpl
    def critcore_locate(determination, ctx):  # takes them in another order
        log.append((name, ctx, determination))
        return answer

    return critcore_locate


def wrapper(kind, log, name):
    @hookimpl(wrapper=True)
    def critcore_locate(ctx, determination):
        log.append(f"{name} before")
        if kind == "no-yield":
            return "never yielded"
        try:
            got = yield
        except Boom as exc:
            log.append(f"{name} caught {exc}")
            if kind == "swallow":
                return f"{name} recovered"
            raise
        log.append(f"{name} after {got!r}")
        if kind == "raise":
            raise Boom(f"{name} teardown")
        if kind == "twice":
            yield
        return f"{name}({got})" if kind == "adjust" else got

    return critcore_locate


class Holder:
    """A plugin object holding one hook implementation."""

    def __init__(self, fn):
        self.critcore_locate = fn


def manager(impls):
    pm = pluggy.PluginManager("critcore")
    pm.add_hookspecs(hookspecs)
    for n, fn in enumerate(impls):
        pm.register(Holder(fn), name=f"p{n}")
    return pm


def outcome(call):
    try:
        return ("answer", call())
    except Boom as exc:
        return ("Boom", str(exc))
    except RuntimeError as exc:
        return ("RuntimeError", str(exc))  # a wrapper that did not yield, or yielded twice


def both(make_impls):
    """(answer or exception, call log) from pluggy's call and from the stage caller."""
    results = []
    for via_pluggy in (True, False):
        log: list = []
        pm = manager(make_impls(log))
        caller = pm.hook.critcore_locate
        if via_pluggy:
            got = outcome(lambda: caller(ctx="C", determination="D"))
        else:
            fast = stage_caller(caller, NAMES)
            got = outcome(lambda: fast("C", "D"))
        results.append((got, log))
    return results


PLAIN = [None, "a", "raise"]
WRAPPERS = ["pass", "adjust", "swallow", "raise", "no-yield", "twice"]


@pytest.mark.parametrize("answers", list(itertools.product(PLAIN, PLAIN)))
@pytest.mark.parametrize("wrappers", [(), ("pass",), ("adjust",), ("swallow",), ("adjust", "swallow"),
                                      ("raise", "swallow"), ("swallow", "raise"), ("no-yield",), ("twice",),
                                      ("adjust", "no-yield")])
def test_stage_caller_gives_what_pluggy_gives(answers, wrappers):
    """The first answer that is not None wins, wrappers see it (or the exception) last-entered
    first, and every implementation and wrapper that pluggy runs is run, in pluggy's order."""

    def impls(log):
        out = [plain(a, log, f"impl{n}") for n, a in enumerate(answers)]
        out += [wrapper(k, log, f"wrap{n}") for n, k in enumerate(wrappers)]
        return out

    via_pluggy, direct = both(impls)
    assert direct == via_pluggy


def test_tryfirst_runs_before_the_others_as_in_pluggy():
    """A house rule's tryfirst implementation answers first; the system's is not called."""

    def impls(log):
        return [plain("system", log, "system"), plain("rule", log, "rule", tryfirst=True),
                wrapper("adjust", log, "w")]

    via_pluggy, direct = both(impls)
    assert direct == via_pluggy
    assert direct[0] == ("answer", "w(rule)")
    assert "system" not in direct[1]


def test_an_implementation_taking_fewer_or_reordered_arguments_gets_the_right_ones():
    """pluggy passes arguments by name: ctx-only and (determination, ctx) implementations get theirs."""

    def impls(log):
        return [plain_reordered(None, log, "reordered"), plain_ctx_only(None, log, "ctx-only"),
                wrapper("pass", log, "w")]

    via_pluggy, direct = both(impls)
    assert direct == via_pluggy
    assert ("reordered", "C", "D") in direct[1] and ("ctx-only", "C") in direct[1]


def test_a_single_plain_implementation_is_called_as_it_is():
    """No rule touches the stage: the engine calls the system's function itself."""
    fn = plain("x", [], "only")
    pm = manager([fn])
    assert stage_caller(pm.hook.critcore_locate, NAMES) is fn


def test_old_style_hookwrappers_are_left_to_pluggy():
    """An old-style hookwrapper=True still works (through pluggy's own call)."""
    seen = []

    @hookimpl(hookwrapper=True)
    def critcore_locate(ctx, determination):
        outcome_ = yield
        seen.append(outcome_.get_result())

    pm = manager([plain("a", [], "impl"), critcore_locate])
    assert stage_caller(pm.hook.critcore_locate, NAMES)("C", "D") == "a"
    assert seen == ["a"]


def test_an_implementation_taking_the_first_arguments_is_called_without_stagecalls() -> None:
    """pluggy lets an implementation leave out the hook's last arguments (GURPS's prepare takes
    no tables): the engine calls it with the first ones, as pluggy would."""
    from critcore import hookimpl
    from critcore._speed.stagecall import stage_function as direct_caller
    from critcore.stages.loader import new_plugin_manager

    class Plugin:
        @staticmethod
        @hookimpl
        def critcore_prepare(procedure, params):
            return (procedure, params)

    pm = new_plugin_manager()
    pm.register(Plugin)
    names = ("procedure", "params", "options", "tables", "memo")
    call = direct_caller(pm.hook.critcore_prepare, names)
    assert call("p", "q", "o", "t", {}) == ("p", "q") == pm.hook.critcore_prepare(procedure="p", params="q", options="o",
                                                                                  tables="t", memo={})


def test_a_stage_with_no_implementation_answers_none_as_pluggy_does() -> None:
    from critcore._speed.stagecall import stage_function as direct_caller
    from critcore.stages.loader import new_plugin_manager

    pm = new_plugin_manager()
    call = direct_caller(pm.hook.critcore_treat, ("ctx",))
    assert call(object()) is None is pm.hook.critcore_treat(ctx=object())



# --- hook_function: a report hook's function, kept with its plugin manager ---

from critcore._speed.stagecall import hook_function  # noqa: E402


def test_a_kept_hook_function_answers_as_pluggy_and_follows_a_plugin_registered_later() -> None:
    """Every report calls critcore_changes through the function kept for its plugin manager: it
    answers what pluggy answers, and a plugin registered (or taken out) after the first report
    is heard from the next report on, as it would be through pluggy."""
    log: list = []
    pm = manager([plain("system", log, "system")])
    first = hook_function(pm, "critcore_locate", NAMES)
    assert first("C", "D") == pm.hook.critcore_locate(ctx="C", determination="D") == "system"
    assert hook_function(pm, "critcore_locate", NAMES) is first  # kept: no pluggy work the second time
    rule = Holder(plain("rule", log, "rule", tryfirst=True))
    pm.register(rule, name="rule")
    assert hook_function(pm, "critcore_locate", NAMES)("C", "D") == "rule"
    pm.unregister(rule)
    assert hook_function(pm, "critcore_locate", NAMES)("C", "D") == "system"


def test_a_kept_hook_function_belongs_to_its_own_plugin_manager() -> None:
    """Two managers (two systems' engines) each get their own implementation's answer, and a
    manager with none answers None, as a firstresult hook does through pluggy."""
    one, two = manager([plain("one", [], "one")]), manager([plain("two", [], "two")])
    assert hook_function(one, "critcore_locate", NAMES)("C", "D") == "one"
    assert hook_function(two, "critcore_locate", NAMES)("C", "D") == "two"
    assert hook_function(manager([]), "critcore_locate", NAMES)("C", "D") is None


def test_a_stand_in_manager_is_called_by_keyword_as_pluggys_hook_is() -> None:
    """A manager that is not pluggy's (a test's stand-in with a hook attribute) is called with
    the hook's arguments by name, as a report called it through pluggy."""
    seen = []

    class Pm:
        class hook:  # noqa: N801
            @staticmethod
            def critcore_locate(ctx, determination):
                seen.append((ctx, determination))
                return "answer"

    assert hook_function(Pm(), "critcore_locate", NAMES)("C", "D") == "answer" and seen == [("C", "D")]
