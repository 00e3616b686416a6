"""Each stage's answer checked at the boundary: a plugin answering the wrong type is one line
naming the plugin, the hook and what it returned, never an ``AttributeError`` further on."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from critcore.errors import PluginError
from critcore.model import Applied, Determination, Effect, Location

#: stage -> (the record it answers with, whether it answers a sequence of them, the words for it)
EXPECTED: dict[str, tuple[type, bool, str]] = {
    "determine": (Determination, False, "a Determination or None"),
    "locate": (Location, False, "a Location or None"),
    "effect": (Effect, True, "a list of Effect records or None"),
    "apply": (Applied, False, "an Applied or None"),
    "treat": (Applied, False, "an Applied or None"),
}


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _named(plugin_name: str) -> str:
    kind, _, name = plugin_name.partition(":")  # the loader registers "system:NAME" and "rule:NAME"
    return {"system": f"system {name!r}", "rule": f"house rule {name!r}"}.get(kind, f"plugin {plugin_name!r}")


def _implementers(pm: Any, stage: str) -> str:
    caller = getattr(pm.hook, f"critcore_{stage}", None)
    names = [_named(impl.plugin_name) for impl in caller.get_hookimpls()] if caller is not None else []
    if len(names) == 1:
        return names[0]
    return "one of " + ", ".join(reversed(names))  # in the order pluggy calls them


def checked_answer(pm: Any, stage: str, answer: Any) -> Any:
    """``answer`` as it is when it has the type ``stage`` answers with, else a
    :class:`~critcore.errors.PluginError` naming the plugin(s), the hook and the value."""
    if answer is None:
        return None
    kind, many, words = EXPECTED[stage]
    if many:
        if isinstance(answer, Sequence) and not isinstance(answer, (str, bytes)):
            wrong = [x for x in answer if not isinstance(x, kind)]
            if not wrong:
                return answer
            what = f"a sequence holding {type(wrong[0]).__name__} {_shown(wrong[0])}"
        else:
            what = f"{type(answer).__name__} {_shown(answer)}"
    elif isinstance(answer, kind):
        return answer
    else:
        what = f"{type(answer).__name__} {_shown(answer)}"
    raise PluginError(f"{_implementers(pm, stage)}: critcore_{stage} returned {what}; it must return {words}")
