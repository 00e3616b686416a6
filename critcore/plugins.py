"""Finding and loading plugins.

Systems are entry points in the group ``critcore.systems`` (name = the system's id); house-rule
plugins are entry points in ``critcore.rules``. Installing a plugin makes it *available*;
nothing is imported until a command needs it:

* a system is imported only when it is the chosen one (or ``crit systems`` lists everything);
* a rule plugin is imported only when enabled (``--rule NAME`` or ``rules = [...]``).

Each entry point is loaded on its own: one that fails to import becomes a one-line warning
naming its distribution, and every other plugin keeps working. ``CRITCORE_DISABLE_PLUGINS=a,b``
blocks plugins by name.

Entry points are found by reading the ``entry_points.txt`` of installed distributions directly,
which is several times faster than importing :mod:`importlib.metadata` at every start-up.
"""

from __future__ import annotations

import os
import sys
from typing import Any, Iterable, Mapping

import pluggy

from . import hookspecs
from .errors import PluginError, UnknownNameError
from .model import record, record_field

hookimpl = pluggy.HookimplMarker("critcore")
"""Marker for hook implementations: ``@hookimpl``, ``@hookimpl(tryfirst=True)``,
``@hookimpl(wrapper=True)``."""

SYSTEMS_GROUP = "critcore.systems"
RULES_GROUP = "critcore.rules"
PROJECT = "critcore"


@record(frozen=False)
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
        except Exception as exc:  # a broken plugin must not take the CLI down
            kind = "system" if self.group == SYSTEMS_GROUP else "house rule"
            who = f"{self.dist} {self.version}".strip() or self.value
            self.error = (
                f"{kind} plugin {self.name!r} from {who} failed to load: "
                f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}".rstrip(": ")
            )
            raise PluginError(self.error) from None
        self.obj = obj
        return obj


def _parse_entry_points(text: str) -> dict[str, list[tuple[str, str]]]:
    groups: dict[str, list[tuple[str, str]]] = {}
    current: list[tuple[str, str]] | None = None
    for line in text.splitlines():
        line = line.strip()
        if not line or line[0] in "#;":
            continue
        if line[0] == "[" and line[-1] == "]" and len(line) > 2 and "]" not in line[1:-1]:  # [section]
            current = groups.setdefault(line[1:-1].strip(), [])
            continue
        if current is not None and "=" in line:
            name, _, value = line.partition("=")
            current.append((name.strip(), value.strip()))
    return groups


def _dist_name_version(dirname: str) -> tuple[str, str]:
    stem = dirname.rsplit(".", 1)[0]
    name, _, version = stem.partition("-")
    return name.replace("_", "-"), version


def scan_entry_points(groups: Iterable[str], paths: Iterable[str] | None = None) -> dict[str, dict[str, PluginSpec]]:
    """Find entry points of ``groups`` on ``sys.path`` without importing importlib.metadata.

    The first distribution of a given name on the path wins, as for imports.
    """
    wanted = set(groups)
    found: dict[str, dict[str, PluginSpec]] = {g: {} for g in wanted}
    seen: set[str] = set()
    for path in paths if paths is not None else sys.path:
        try:
            entries = os.scandir(path or ".")
        except OSError:
            continue
        with entries:
            for entry in entries:
                name = entry.name
                if not (name.endswith(".dist-info") or name.endswith(".egg-info")):
                    continue
                dist, version = _dist_name_version(name)
                key = dist.lower()
                if key in seen:
                    continue
                seen.add(key)
                try:
                    with open(os.path.join(entry.path, "entry_points.txt"), encoding="utf-8") as fh:
                        text = fh.read()
                except OSError:
                    continue
                if "critcore." not in text:
                    continue
                for group, items in _parse_entry_points(text).items():
                    if group in wanted:
                        for ep_name, value in items:
                            found[group].setdefault(ep_name, PluginSpec(ep_name, group, value, dist, version))
    return found


def disabled_names() -> set[str]:
    raw = os.environ.get("CRITCORE_DISABLE_PLUGINS", "")
    return {n.strip() for n in raw.split(",") if n.strip()}


def did_you_mean(name: str, choices: Iterable[str]) -> str:
    import difflib

    close = difflib.get_close_matches(name, list(choices), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


@record(frozen=False)
class Registry:
    """The plugins available here: installed entry points, or plugins given directly (tests).

    ``systems`` / ``rules`` map a name to a :class:`PluginSpec` or to a plugin object.
    ``discover=False`` skips the installed entry points.
    """

    systems: dict[str, PluginSpec] = record_field(default_factory=dict)
    rules: dict[str, PluginSpec] = record_field(default_factory=dict)
    warnings: list[str] = record_field(default_factory=list)

    def __init__(self, systems: dict[str, PluginSpec] | None = None, rules: dict[str, PluginSpec] | None = None,
                 warnings: list[str] | None = None) -> None:
        self.systems = {} if systems is None else systems
        self.rules = {} if rules is None else rules
        self.warnings = [] if warnings is None else warnings

    @classmethod
    def installed(cls, extra_systems: Mapping[str, Any] | None = None,
                  extra_rules: Mapping[str, Any] | None = None, discover: bool = True) -> Registry:
        found = scan_entry_points([SYSTEMS_GROUP, RULES_GROUP]) if discover else {SYSTEMS_GROUP: {}, RULES_GROUP: {}}
        blocked = disabled_names()
        reg = cls(
            {n: s for n, s in found[SYSTEMS_GROUP].items() if n not in blocked},
            {n: s for n, s in found[RULES_GROUP].items() if n not in blocked},
        )
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


def rule_applies(plugin: Any, system: str) -> bool:
    """A rule plugin may set ``RULE = RuleInfo(..., system="gurps")``; then it only applies there."""
    info = getattr(plugin, "RULE", None)
    target = getattr(info, "system", None)
    return target in (None, "", "*", system)


@record
class RuleInfo:
    """What a house-rule plugin says about itself (module attribute ``RULE``)."""

    name: str
    system: str
    summary: str
    changes: tuple[str, ...] = ()  # the stages or tables it changes, for crit systems
    events: tuple[Any, ...] = ()  # critcore.model.Event: tags this rule's stages set, added to the system's

    def __init__(self, name: str, system: str, summary: str, changes: tuple[str, ...] = (),
                 events: tuple[Any, ...] = ()) -> None:
        v = self.__dict__
        v["name"] = name
        v["system"] = system
        v["summary"] = summary
        v["changes"] = changes
        v["events"] = events


def get_plugin_manager(registry: Registry | None, system: str, rules: Iterable[str] = ()) -> pluggy.PluginManager:
    """Build a plugin manager holding ``system`` and the rule plugins named in ``rules``.

    Rules are registered in the order given; with pluggy, among implementations of the same
    kind (plain, ``tryfirst``, wrapper) the one registered *last* runs first, so a rule listed
    later wraps or pre-empts the ones before it.
    """
    registry = registry if registry is not None else Registry.installed()
    pm = new_plugin_manager()
    spec = registry.system_spec(system)
    plugin = spec.load()
    pm.register(plugin, name=f"system:{system}")
    for rule in dict.fromkeys(rules):  # enabled twice is enabled once
        rspec = registry.rule_spec(rule)
        robj = rspec.load()
        if not rule_applies(robj, system):
            continue
        pm.register(robj, name=f"rule:{rule}")
    return pm

