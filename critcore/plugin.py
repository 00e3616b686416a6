"""The plugin face: everything a system or house-rule plugin needs from critcore, in one module.

A plugin imports from here, from ``critcore`` itself (``critcore.resolve`` and the rest of the
public API) and, in its tests, from :mod:`critcore.testing`; nothing else of the core. The core's
packages may move; this face may grow, but a name on it is never removed or changed in meaning
(the list is held by ``tests/test_core_plugin_face.py``). Each name says since when it is here
(:data:`SINCE`); see docs/plugin-face.md.

Names load when first used (a plugin that needs only ``hookimpl`` imports nothing more), so
importing this module costs a command nothing::

    from critcore.plugin import Applied, Effect, ParamError, hookimpl
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

#: The version of this face: it grows with critcore's minor versions and never breaks.
FACE_VERSION = (1, 4)

if TYPE_CHECKING:  # what type checkers see; at run time the names load lazily (below)
    # "x as x": exported names under mypy --strict
    from critcore.dice.dice import Dice as Dice
    from critcore.dice.notation import DiceExpr as DiceExpr, parse as parse
    from critcore.stages.context import Context as Context
    from critcore.stages.examples import Example as Example, package_examples as package_examples
    from critcore.stages.hookspecs import RollLookup as RollLookup
    from critcore.stages.loader import (
        RULES_GROUP as RULES_GROUP,
        SYSTEMS_GROUP as SYSTEMS_GROUP,
        RuleInfo as RuleInfo,
        did_you_mean as did_you_mean,
        hookimpl as hookimpl,
    )
    from critcore.model import (
        EMPTY as EMPTY,
        Applied as Applied,
        Data as Data,
        Determination as Determination,
        Effect as Effect,
        Event as Event,
        Location as Location,
        Option as Option,
        Outcome as Outcome,
        Param as Param,
        Procedure as Procedure,
        Roll as Roll,
        SystemInfo as SystemInfo,
        freeze as freeze,
        record as record,
        thaw as thaw,
    )
    from critcore.errors import (
        ConfigError as ConfigError,
        CritcoreError as CritcoreError,
        DiceError as DiceError,
        InputError as InputError,
        ParamError as ParamError,
        PluginError as PluginError,
        StateError as StateError,
        TableError as TableError,
    )
    from critcore._speed import diskcache as diskcache
    from critcore.files.reading import read_bytes as read_bytes
    from critcore.report.render import duration as duration, roll_line as roll_line
    from critcore.tables.resources import load_data as load_data
    from critcore.tables.tableset import Row as Row, Table as Table, TableSet as TableSet

#: name -> (module, attribute, the face version it arrived in)
_FACE: dict[str, tuple[str, str, tuple[int, int]]] = {
    # the hook marker and plugin metadata
    "hookimpl": ("critcore.stages.loader", "hookimpl", (1, 0)),
    "RuleInfo": ("critcore.stages.loader", "RuleInfo", (1, 0)),
    "SYSTEMS_GROUP": ("critcore.stages.loader", "SYSTEMS_GROUP", (1, 0)),
    "RULES_GROUP": ("critcore.stages.loader", "RULES_GROUP", (1, 0)),
    "did_you_mean": ("critcore.stages.loader", "did_you_mean", (1, 0)),
    # what a system declares, and what passes between the stages
    "SystemInfo": ("critcore.model", "SystemInfo", (1, 0)),
    "Procedure": ("critcore.model", "Procedure", (1, 0)),
    "Param": ("critcore.model", "Param", (1, 0)),
    "Option": ("critcore.model", "Option", (1, 0)),
    "Determination": ("critcore.model", "Determination", (1, 0)),
    "Location": ("critcore.model", "Location", (1, 0)),
    "Effect": ("critcore.model", "Effect", (1, 0)),
    "Applied": ("critcore.model", "Applied", (1, 0)),
    "Event": ("critcore.model", "Event", (1, 0)),
    "Outcome": ("critcore.model", "Outcome", (1, 0)),
    "Roll": ("critcore.model", "Roll", (1, 0)),
    "Data": ("critcore.model", "Data", (1, 0)),
    "EMPTY": ("critcore.model", "EMPTY", (1, 0)),
    "freeze": ("critcore.model", "freeze", (1, 0)),
    "thaw": ("critcore.model", "thaw", (1, 0)),
    "record": ("critcore.model", "record", (1, 0)),
    "Context": ("critcore.stages.context", "Context", (1, 0)),
    "RollLookup": ("critcore.stages.hookspecs", "RollLookup", (1, 0)),
    # dice
    "Dice": ("critcore.dice.dice", "Dice", (1, 0)),
    "DiceExpr": ("critcore.dice.notation", "DiceExpr", (1, 0)),
    "parse": ("critcore.dice.notation", "parse", (1, 0)),
    # tables and data files
    "Table": ("critcore.tables.tableset", "Table", (1, 0)),
    "Row": ("critcore.tables.tableset", "Row", (1, 0)),
    "TableSet": ("critcore.tables.tableset", "TableSet", (1, 0)),
    "load_data": ("critcore.tables.resources", "load_data", (1, 0)),
    "read_bytes": ("critcore.files.reading", "read_bytes", (1, 0)),
    # what a plugin keeps between commands, the way the core keeps its parsed tables (the disk
    # cache of the speed seam: cached, digest, read_entry, store, cache_dir, writes_enabled)
    "diskcache": ("critcore._speed", "diskcache", (1, 1)),
    # examples a plugin ships (crit examples)
    "Example": ("critcore.stages.examples", "Example", (1, 0)),
    "package_examples": ("critcore.stages.examples", "package_examples", (1, 0)),
    # words
    "roll_line": ("critcore.report.render", "roll_line", (1, 0)),
    "duration": ("critcore.report.render", "duration", (1, 0)),
    # errors
    "CritcoreError": ("critcore.errors", "CritcoreError", (1, 0)),
    "InputError": ("critcore.errors", "InputError", (1, 0)),
    "ParamError": ("critcore.errors", "ParamError", (1, 0)),
    "StateError": ("critcore.errors", "StateError", (1, 0)),
    "DiceError": ("critcore.errors", "DiceError", (1, 0)),
    "TableError": ("critcore.errors", "TableError", (1, 0)),
    "ConfigError": ("critcore.errors", "ConfigError", (1, 0)),
    "PluginError": ("critcore.errors", "PluginError", (1, 0)),
}

#: name -> the face version it arrived in
SINCE: dict[str, tuple[int, int]] = {name: since for name, (_, _, since) in _FACE.items()}

__all__ = ["FACE_VERSION", "SINCE", *_FACE]


def __getattr__(name: str) -> Any:
    if name in _FACE:
        from importlib import import_module

        module, attr, _ = _FACE[name]
        value = import_module(f"{module}.{attr}") if name == "diskcache" else getattr(import_module(module), attr)
        globals()[name] = value
        return value
    raise AttributeError(f"critcore.plugin has no {name!r} (the plugin face lists: {', '.join(sorted(_FACE))})")


def __dir__() -> list[str]:
    return sorted(__all__)
