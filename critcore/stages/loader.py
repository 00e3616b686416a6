"""Finding and loading plugins.

Systems are entry points in the group ``critcore.systems`` (name = the system's id); house-rule
plugins are entry points in ``critcore.rules``. Installing a plugin makes it *available*;
nothing is imported until a command needs it:

* a system is imported only when it is the chosen one (or ``crit systems`` lists everything);
* a rule plugin is imported only when enabled (``--rule NAME`` or ``rules = [...]``).

Each entry point is loaded on its own: one that fails to import becomes a one-line warning
naming its distribution, and every other plugin keeps working; so does one whose hook raises
(:func:`plugin_at_fault` names it). ``CRITCORE_DISABLE_PLUGINS=a,b`` blocks plugins by plugin
name or by distribution name; two distributions claiming one name load neither.

Entry points are found by reading the ``entry_points.txt`` of installed distributions directly,
which is several times faster than importing :mod:`importlib.metadata` at every start-up.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any, Iterable, Mapping

import pluggy

from critcore.stages import hookspecs
from critcore.errors import PluginError, UnknownNameError
from critcore.model import RuleInfo as RuleInfo  # re-exported: rule plugins import it from here

if TYPE_CHECKING:
    from types import FrameType

hookimpl = pluggy.HookimplMarker("critcore")
"""Marker for hook implementations: ``@hookimpl``, ``@hookimpl(tryfirst=True)``,
``@hookimpl(wrapper=True)``."""

SYSTEMS_GROUP = "critcore.systems"
RULES_GROUP = "critcore.rules"
PROJECT = "critcore"


class PluginSpec:
    """An installed plugin, known by its entry point before it is imported."""

    name: str
    group: str
    value: str = ""  # "module:attr" (or "module")
    dist: str = ""
    version: str = ""
    obj: Any = None  # set once loaded, or given directly (tests)
    error: str = ""

    def __init__(self, name: str, group: str, value: str = "", dist: str = "", version: str = "",
                 obj: Any = None, error: str = "") -> None:
        self.name = name
        self.group = group
        self.value = value
        self.dist = dist
        self.version = version
        self.obj = obj
        self.error = error
        self.claimants: list[str] = []  # the distributions claiming this name, when more than one

    def load(self) -> Any:
        """Import the plugin. Raises :class:`PluginError` with one line on failure."""
        if self.obj is not None:
            return self.obj
        if self.error:
            raise PluginError(self.error)
        module, _, attr = self.value.partition(":")
        try:
            from importlib import import_module

            obj = import_module(module.strip())
            for part in filter(None, attr.strip().split(".")):
                obj = getattr(obj, part)
        except (Exception, SystemExit) as exc:  # a broken plugin must not take the CLI down
            self.error = f"{self.label()} failed to load: {exception_line(exc)}"
            raise PluginError(self.error) from None
        self.obj = obj
        return obj

    def label(self) -> str:
        """``system plugin 'gurps' (critcore-gurps 0.1.0)``: what an error calls this plugin."""
        kind = "system" if self.group == SYSTEMS_GROUP else "house rule"
        who = f"{self.dist} {self.version}".strip() or self.value
        return f"{kind} plugin {self.name!r}" + (f" ({who})" if who else "")


def exception_line(exc: BaseException) -> str:
    """``ValueError: the first line of its message`` (a SystemExit says its exit code)."""
    if isinstance(exc, SystemExit):
        return f"called sys.exit({exc.code!r})"
    text = str(exc).splitlines()[0] if str(exc) else ""
    return f"{type(exc).__name__}: {text}".rstrip(": ")[:300]


def scan_entry_points(groups: Iterable[str], paths: Iterable[str] | None = None) -> dict[str, dict[str, PluginSpec]]:
    """The entry points of ``groups`` installed on ``sys.path`` (or ``paths``), by group and name.

    The first distribution of a given name on the path wins, as for imports. Two distributions
    claiming one plugin name make that name an error naming both (never a silent winner).
    """
    from critcore._speed.entrypoints import installed_entry_points

    wanted = set(groups)
    found: dict[str, dict[str, PluginSpec]] = {g: {} for g in wanted}
    blocked = disabled_names()
    for group, name, value, dist, version in installed_entry_points(wanted, paths):
        _claim(found[group], PluginSpec(name, group, value, dist, version), blocked)
    return found


def _claim(found: dict[str, PluginSpec], spec: PluginSpec, blocked: set[str]) -> None:
    """Add ``spec`` under its name; a name two distributions claim loads neither (an error naming both).

    A plugin blocked by name or by distribution (``CRITCORE_DISABLE_PLUGINS``) claims nothing, so
    the user picks one of two by disabling the other's distribution.
    """
    if spec.name in blocked or spec.dist in blocked or spec.dist.lower() in blocked:
        return
    first = found.get(spec.name)
    if first is None:
        found[spec.name] = spec
        return
    kind = "system" if spec.group == SYSTEMS_GROUP else "house rule"
    if not first.claimants:
        first.claimants.append(first.dist)
    first.claimants.append(spec.dist)
    dists = [d for d in first.claimants if d]
    two = len(first.claimants) == 2
    count, none, others = ("two", "neither", "the other's distribution") if two else \
        (str(len(first.claimants)), "none", "the others' distributions")
    first.error = (f"{kind} {spec.name!r} is claimed by {count} distributions, {' and '.join(dists)}: {none} is "
                   f"loaded; pick one by disabling {others}, e.g. CRITCORE_DISABLE_PLUGINS={spec.dist}")
    first.dist = " and ".join(dists)
    first.version = ""


def disabled_names() -> set[str]:
    raw = os.environ.get("CRITCORE_DISABLE_PLUGINS", "")
    return {n.strip() for n in raw.split(",") if n.strip()}


def did_you_mean(name: str, choices: Iterable[str]) -> str:
    import difflib

    close = difflib.get_close_matches(name, list(choices), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


class Registry:
    """The plugins available here: installed entry points, or plugins given directly (tests).

    ``systems`` / ``rules`` map a name to a :class:`PluginSpec` or to a plugin object.
    ``discover=False`` skips the installed entry points.
    """

    systems: dict[str, PluginSpec]
    rules: dict[str, PluginSpec]
    warnings: list[str]

    def __init__(self, systems: dict[str, PluginSpec] | None = None, rules: dict[str, PluginSpec] | None = None,
                 warnings: list[str] | None = None) -> None:
        self.systems = {} if systems is None else systems
        self.rules = {} if rules is None else rules
        self.warnings = [] if warnings is None else warnings

    @classmethod
    def installed(cls, extra_systems: Mapping[str, Any] | None = None,
                  extra_rules: Mapping[str, Any] | None = None, discover: bool = True) -> Registry:
        found = scan_entry_points([SYSTEMS_GROUP, RULES_GROUP]) if discover else {SYSTEMS_GROUP: {}, RULES_GROUP: {}}
        reg = cls(found[SYSTEMS_GROUP], found[RULES_GROUP])
        for name, obj in (extra_systems or {}).items():
            reg.add_system(name, obj)
        for name, obj in (extra_rules or {}).items():
            reg.add_rule(name, obj)
        return reg

    def add_system(self, name: str, obj: Any, dist: str = "", version: str = "") -> None:
        self.systems[name] = obj if isinstance(obj, PluginSpec) else PluginSpec(name, SYSTEMS_GROUP, "", dist, version, obj)

    def add_rule(self, name: str, obj: Any, dist: str = "", version: str = "") -> None:
        self.rules[name] = obj if isinstance(obj, PluginSpec) else PluginSpec(name, RULES_GROUP, "", dist, version, obj)

    def system_spec(self, name: str) -> PluginSpec:
        spec = self.systems.get(name)
        if spec is None:
            raise UnknownNameError(unknown_message("system", name, self.systems))
        return spec

    def rule_spec(self, name: str) -> PluginSpec:
        spec = self.rules.get(name)
        if spec is None:
            raise UnknownNameError(unknown_message("house rule", name, self.rules))
        return spec

    def plugin_manager(self, system: str, rules: Iterable[str] = ()) -> pluggy.PluginManager:
        """A fresh plugin manager with the chosen system and the enabled rule plugins."""
        return get_plugin_manager(self, system, rules)


def unknown_message(kind: str, name: str, known: Iterable[str]) -> str:
    known = sorted(known)
    listing = ", ".join(known) if known else "none installed"
    return f"unknown {kind} {name!r}{did_you_mean(name, known)}; installed: {listing}"


def new_plugin_manager() -> pluggy.PluginManager:
    """An empty plugin manager that knows critcore's hook specifications."""
    pm = pluggy.PluginManager(PROJECT)
    pm.add_hookspecs(hookspecs)
    return pm


def rule_applies(info: RuleInfo | None, system: str) -> bool:
    """A rule whose :class:`RuleInfo` names a system applies only there; one naming none (or
    ``"*"``), or with no info at all, applies everywhere."""
    return rule_system_matches(None if info is None else info.system, system)


def rule_system_matches(rule_system: str | None, system: str) -> bool:
    """Whether a rule for ``rule_system`` (None, ``""`` or ``"*"``: every system) applies to ``system``."""
    return rule_system in (None, "", "*", system)


def registered_rule_info(pm: pluggy.PluginManager, plugin: Any, spec: PluginSpec | None = None) -> RuleInfo | None:
    """What the registered rule ``plugin`` says about itself in its ``critcore_rule`` hook.

    A plugin still carrying the module attribute ``RULE`` of earlier versions, and no hook, is a
    :class:`PluginError`: read no more, it would apply to every system without a word.
    """
    for impl in pm.hook.critcore_rule.get_hookimpls():
        if impl.plugin is plugin:
            try:
                info = impl.function()
            except (Exception, SystemExit) as exc:
                who = spec.label() if spec is not None else "house rule plugin"
                raise PluginError(f"{who} failed in critcore_rule: {exception_line(exc)}") from None
            if info is not None and not isinstance(info, RuleInfo):
                who = spec.label() if spec is not None else "house rule plugin"
                raise PluginError(f"{who}: critcore_rule must return a RuleInfo, not {type(info).__name__}")
            return info
    if isinstance(getattr(plugin, "RULE", None), RuleInfo):
        who = spec.label() if spec is not None else "house rule plugin"
        raise PluginError(f"{who} sets RULE = RuleInfo(...): say it with a hook instead, "
                          "@hookimpl def critcore_rule(): return RuleInfo(...) (docs/hooks.md)")
    return None


def rule_info(plugin: Any, spec: PluginSpec | None = None) -> RuleInfo | None:
    """What a rule plugin says about itself (its ``critcore_rule`` hook), without registering it
    for a command (``crit systems``, :mod:`critcore.testing`)."""
    pm = new_plugin_manager()
    _register(pm, spec or PluginSpec("?", RULES_GROUP, obj=plugin), plugin, "rule")
    return registered_rule_info(pm, plugin, spec)


def get_plugin_manager(registry: Registry | None, system: str, rules: Iterable[str] = ()) -> pluggy.PluginManager:
    """Build a plugin manager holding ``system`` and the rule plugins named in ``rules``.

    Rules are registered in the order given; with pluggy, among implementations of the same
    kind (plain, ``tryfirst``, wrapper) the one registered *last* runs first, so a rule listed
    later wraps or pre-empts the ones before it.
    """
    registry = registry if registry is not None else Registry.installed()
    pm = new_plugin_manager()
    spec = registry.system_spec(system)
    _register(pm, spec, spec.load(), f"system:{system}")
    for rule in dict.fromkeys(rules):  # enabled twice is enabled once
        rspec = registry.rule_spec(rule)
        robj = rspec.load()
        _register(pm, rspec, robj, f"rule:{rule}")
        if not rule_applies(registered_rule_info(pm, robj, rspec), system):
            pm.unregister(robj)
    return pm


def _register(pm: pluggy.PluginManager, spec: PluginSpec, plugin: Any, name: str) -> None:
    """Register one plugin; a hook critcore does not know (a misspelt name) or an argument its hook
    does not have is one line naming the plugin, not a pluggy traceback."""
    try:
        pm.register(plugin, name=name)
        pm.check_pending()
    except pluggy.PluginValidationError as exc:
        lines = str(exc).splitlines()
        hook = lines[0].rsplit(" for hook ", 1)[-1].strip("'") if " for hook " in lines[0] else ""
        why = lines[-1] if len(lines) > 1 else lines[0].split(" in plugin ")[0]  # pluggy's last line says what
        where = f" (hook {hook})" if hook else ""
        raise PluginError(f"{spec.label()} is broken{where}: {why[:300]}") from None


def plugin_at_fault(exc: BaseException, registry: Registry | None) -> str | None:
    """When ``exc`` was raised inside a loaded plugin's code, one line naming the plugin, the hook and
    the error; None when it came from critcore itself (a bug, to be shown with its traceback)."""
    if registry is None:
        return None
    owners: dict[str, PluginSpec] = {}
    for spec in (*registry.systems.values(), *registry.rules.values()):
        module = getattr(spec.obj, "__name__", None) if spec.obj is not None else None
        if isinstance(module, str) and not module.startswith("critcore."):
            owners[module.split(".")[0]] = spec
    if not owners:
        return None
    frames: list[FrameType] = []
    tb = exc.__traceback__
    while tb is not None:
        frames.append(tb.tb_frame)
        tb = tb.tb_next
    culprit = None
    for frame in reversed(frames):  # the innermost frame of a plugin's own code
        top = str(frame.f_globals.get("__name__", "")).split(".")[0]
        if top in owners:
            culprit = owners[top]
            break
    if culprit is None:
        return None
    return f"{culprit.label()} failed in {_hook_of(frames)}: {exception_line(exc)}"


def _hook_of(frames: list[FrameType]) -> str:
    """The hook being called when the error happened, read off the call stack."""
    for frame in reversed(frames):
        caller = frame.f_locals.get("self")
        if isinstance(caller, pluggy.HookCaller):
            return caller.name
        if frame.f_code.co_name == "run_context" and frame.f_globals.get("__name__") == "critcore.engine.runner":
            stage = getattr(frame.f_locals.get("ctx"), "stage", None)
            if isinstance(stage, list) and stage and stage[0]:
                return f"critcore_{stage[0]}"
    for frame in frames:
        if frame.f_code.co_name.startswith("critcore_"):
            return frame.f_code.co_name
    return "a hook"

