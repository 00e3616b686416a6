"""critcore: resolve critical hits for tabletop games, one installable plugin per game system.

The names below are imported lazily so that ``import critcore`` (and ``crit --help``) stays
fast; plugins use ``from critcore import hookimpl``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:  # what type checkers see; at run time the names load lazily (below)
    # "x as x": exported names under mypy --strict (it cannot read the __all__ built from _LAZY)
    from critcore.api import odds as odds, resolve as resolve, simulate as simulate, systems as systems, treat as treat
    from critcore.campaign.campaign import Campaign as Campaign
    from critcore.stages.context import Context as Context
    from critcore.engine.runner import Engine as Engine
    from critcore.stages.loader import hookimpl as hookimpl
    from critcore.report.render import render as render

_LAZY = {
    "hookimpl": ("critcore.stages.loader", "hookimpl"),
    "resolve": ("critcore.api", "resolve"),
    "treat": ("critcore.api", "treat"),
    "odds": ("critcore.api", "odds"),
    "simulate": ("critcore.api", "simulate"),
    "systems": ("critcore.api", "systems"),
    "Engine": ("critcore.engine.runner", "Engine"),
    "Campaign": ("critcore.campaign.campaign", "Campaign"),
    "Context": ("critcore.stages.context", "Context"),
    "render": ("critcore.report.render", "render"),
}

__all__ = ["__version__", *_LAZY]


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        from importlib import import_module

        module, attr = _LAZY[name]
        value = getattr(import_module(module), attr)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'critcore' has no attribute {name!r}")
