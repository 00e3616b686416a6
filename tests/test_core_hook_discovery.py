"""critcore's plugin manager finds a module's hooks by a look-up in the module's namespace
(critcore.engine.loader._PluginManager) instead of pluggy's ``inspect.getattr_static`` on every name:
it must find exactly what pluggy finds, in every shipped plugin and in the hook specifications,
and in a module holding every kind of callable pluggy accepts or skips."""

from __future__ import annotations

import functools
import importlib
import types

import pluggy
import pytest

from critcore import hookimpl
from critcore.engine import hookspecs
from critcore.engine.loader import PROJECT, Registry, _PluginManager, new_plugin_manager


def _both(module: types.ModuleType, spec: bool) -> list[tuple[str, object, object]]:
    """(name, ours, pluggy's) for every name in the module."""
    ours, theirs = _PluginManager(PROJECT), pluggy.PluginManager(PROJECT)
    parse = "parse_hookspec_opts" if spec else "parse_hookimpl_opts"
    return [(name, getattr(ours, parse)(module, name), getattr(theirs, parse)(module, name)) for name in dir(module)]


def _shipped_modules() -> list[types.ModuleType]:
    registry = Registry.installed()
    specs = [*(registry.system_spec(s) for s in registry.systems), *(registry.rule_spec(r) for r in registry.rules)]
    found = []
    for spec in specs:
        module = importlib.import_module(spec.value.split(":")[0])
        found.append(module)
    return found


def test_the_hook_specifications_are_found_as_pluggy_finds_them() -> None:
    rows = _both(hookspecs, spec=True)
    assert [r for r in rows if r[1] != r[2]] == []
    assert sum(1 for r in rows if r[1] is not None) >= 15  # every critcore_* specification, not none


@pytest.mark.parametrize("module", _shipped_modules(), ids=lambda m: m.__name__)
def test_every_shipped_plugin_s_hooks_are_found_as_pluggy_finds_them(module: types.ModuleType) -> None:
    rows = _both(module, spec=False)
    assert [r for r in rows if r[1] != r[2]] == []
    assert any(r[1] is not None for r in rows)  # the plugin has hooks, and they are found


class _Holder:
    @hookimpl
    def critcore_show(self, ctx):  # a bound method put in a module: pluggy takes it
        return ["bound"]


def test_every_kind_of_module_attribute_is_read_as_pluggy_reads_it() -> None:
    """Marked plain functions, static and class methods and bound methods set in a module, a
    wrapped function, an unmarked function, a non-dict marker, a class and plain values."""
    module = types.ModuleType("fake_plugin")

    @hookimpl(tryfirst=True)
    def critcore_report(outcome, view):
        return None

    @functools.wraps(critcore_report)
    def wrapped(outcome, view):
        return None

    def critcore_unmarked():
        return None

    def bad_marker():
        return None

    bad_marker.critcore_impl = "not options"  # type: ignore[attr-defined]
    module.critcore_report = critcore_report
    module.wrapped = wrapped
    module.critcore_unmarked = critcore_unmarked
    module.bad_marker = bad_marker
    module.static = staticmethod(hookimpl(lambda: None))
    module.klass = classmethod(hookimpl(lambda cls: None))
    module.bound = _Holder().critcore_show
    module.Holder = _Holder
    module.number = 3
    module.text = "critcore_show"
    rows = {name: (ours, theirs) for name, ours, theirs in _both(module, spec=False)}
    assert all(ours == theirs for ours, theirs in rows.values()), rows
    assert rows["critcore_report"][0]["tryfirst"] is True
    assert rows["wrapped"][0] is not None  # functools.wraps copies the marker, as pluggy sees it
    assert rows["critcore_unmarked"][0] is None and rows["bad_marker"][0] is None
    assert rows["bound"][0] is not None


def test_a_plugin_that_is_not_a_module_goes_to_pluggy() -> None:
    """An object registered as a plugin (its class may have properties) is read by pluggy
    itself: the same answers, and its hooks registered."""

    class Plugin:
        @hookimpl
        def critcore_report(self, outcome, view):
            return None

        def helper(self):
            return None

    plugin = Plugin()
    ours, theirs = _PluginManager(PROJECT), pluggy.PluginManager(PROJECT)
    for name in dir(plugin):
        assert ours.parse_hookimpl_opts(plugin, name) == theirs.parse_hookimpl_opts(plugin, name)
    pm = new_plugin_manager()
    pm.register(plugin, name="object-plugin")
    assert [i.plugin_name for i in pm.hook.critcore_report.get_hookimpls()] == ["object-plugin"]
