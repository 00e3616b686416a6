"""Private: an outcome's JSON object for an encoder, without copying its frozen data first.

:meth:`critcore.model.Outcome.to_dict` answers plain JSON data: every ``Data`` copied into a
``dict`` and every tuple into a ``list`` (``thaw``), which a caller may change. ``crit serve``
only encodes it, and both encoders it uses (orjson, and json without it:
:mod:`critcore._speed.jsonbytes`) write a ``dict`` subclass as an object and a tuple as an array,
exactly as they write the copies. :func:`encodable` is ``to_dict`` with the frozen values kept as
they are: the same keys in the same order, the same bytes once encoded; about 6 us less for a
GURPS attack (13 against 7 us; the parameters alone are 26 values), of a request that costs about
130 us in-process (docs/architecture.md, "Speed machinery").

Frozen data holds only ``Data``, tuples and scalars (``critcore.model.freeze`` makes it so), and
anything else ``thaw`` leaves as it is, so the two differ only in the containers' types.
``tests/test_core_outcomejson.py`` holds the bytes to ``to_dict``'s on generated outcomes of every
installed system.

May import: the standard library only (the model's classes are handed in).
"""

from __future__ import annotations

from typing import Any

_SCALARS = frozenset((str, int, float, bool, type(None)))


def encodable(outcome: Any, effect_type: Any, version: int) -> dict[str, Any]:
    """``outcome.to_dict()`` with its frozen values as they are (see the module's docstring):
    ``effect_type`` is :class:`critcore.model.Effect`, ``version`` the outcome format."""
    applied = outcome.applied
    return {
        "format": version,
        "system": outcome.system,
        "procedure": outcome.procedure,
        "params": outcome.params,
        "options": outcome.options,
        "rules": outcome.rules,
        "rolls": [r.to_json() for r in outcome.rolls],
        "effects": [e.to_json() for e in outcome.all_effects],
        "determination": _stage(outcome.determination, effect_type),
        "location": _stage(outcome.location, effect_type),
        "applied": _stage(applied, effect_type),
        "steps": [s.to_json() for s in outcome.steps],
        "notes": [n.to_json() for n in outcome.notes],
        "target": outcome.target,
        "tags": sorted(outcome.tags),
    }


def _stage(value: Any, effect_type: Any) -> Any:
    """``critcore.model._stage_json`` with the frozen values as they are."""
    if value is None:
        return None
    if isinstance(value, effect_type):
        return value.to_json()
    out: dict[str, Any] = {}
    fields = type(value).__dict__.get("__dataclass_fields__")
    for name in fields if isinstance(fields, dict) else value.__match_args__:
        v = getattr(value, name)
        if v.__class__ in _SCALARS:
            out[name] = v
        elif isinstance(v, tuple) and v and isinstance(v[0], effect_type):
            out[name] = [e.to_json() for e in v]
        elif isinstance(v, frozenset):
            out[name] = sorted(v)
        else:
            out[name] = v
    return out
