"""The engine's check of a target (:func:`check_target`, imported only when a target is given):
the ``system`` key, the system's declared schema (:mod:`critcore.tables.schema`) or plain JSON,
and, when a target fails, which other installed system it looks like.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from critcore.errors import CritcoreError, StateError
from critcore.model import Data
from critcore.tables.schema import Schema, load_schema
from critcore.tables.walk import Bad, Checker, Walk, check_plain, show


def schema_of(info: Any) -> Schema | None:
    """The compiled target schema a :class:`~critcore.model.SystemInfo` declares, or None."""
    declared = getattr(info, "target_schema", None)
    return None if declared is None else load_schema(declared)


def check_target(engine: Any, state: Any, where: str) -> Data:
    """What :meth:`critcore.engine.runner.Engine.check_target` does (imported only when a target is given).

    1. A ``system`` key at the top (critcore's own, allowed in every target) must name this
       system: a target saved by another system is refused by name.
    2. The state is checked against the system's schema (a system without one: plain JSON).
    3. When that fails, the other installed systems' schemas are asked whether the target is
       theirs (their ``identify`` keys and values), so a Shadowrun character given to a GURPS
       procedure is refused as such rather than by its first odd key.
    """
    info = engine.info
    name = info.name
    if isinstance(state, Mapping):
        system = state.get("system")
        if system is not None and system != name:
            if isinstance(system, str):
                raise StateError(f"{where}: this is a {show(system)[1:-1]} target (system = {show(system)}), "
                                 f"not a {name} {_noun(info)}")
            raise StateError(f"{where}: system: must be text naming the system ({name!r}), not {show(system)}")
    schema = schema_of(info)
    try:
        if schema is None:
            return check_plain(state, where)
        if not isinstance(state, Mapping):
            raise StateError(f"{where}: a {name} {schema.noun} must be a table of keys, not {show(state)}")
        for key, value in schema.mark_values.items():
            if state.get(key) != value:  # a target of ours always says so: no need to look further
                raise StateError(f"{where}: not {schema.what or f'a {name} {schema.noun}'} (expected "
                                 f"{key} = {show(value)}, found {show(state.get(key)) if key in state else 'none'})")
        frozen: Data = schema.check(state, where, _RESERVED)
        return frozen
    except StateError:
        if isinstance(state, Mapping):
            other = _whose(engine, state, schema)
            if other is not None:
                system_name, noun = other
                raise StateError(f"{where}: this looks like a {system_name} {noun}, not a {name} "
                                 f"{_noun(info)}") from None
        raise


def _noun(info: Any) -> str:
    schema = schema_of(info)
    if schema is not None and schema.noun != "target":
        return schema.noun
    noun = getattr(info, "target_noun", "") or "target"
    return noun


def _system_key(value: Any, walk: Walk) -> Any:
    if type(value) is not str:
        raise Bad(f"must be text naming the system, not {show(value)}")
    return value


_RESERVED: dict[str, Checker] = {"system": _system_key}


def _score(schema: Schema | None, state: Mapping[str, Any]) -> int:
    """How strongly ``state`` looks like a target of ``schema``: a marking value counts 10, a
    distinctive key 1, a key the schema does not know -1 (only for schemas that refuse them)."""
    if schema is None:
        return 0
    score = 0
    for key, value in schema.mark_values.items():
        if state.get(key) == value:
            score += 10
    score += sum(1 for key in schema.marks if key in state)
    return score


def _whose(engine: Any, state: Mapping[str, Any], own: Schema | None) -> tuple[str, str] | None:
    """The installed system whose target ``state`` looks like, when it is not this one's."""
    mine = _score(own, state)
    best: tuple[int, str, str] | None = None
    for info in engine.other_systems():
        try:
            schema = schema_of(info)
        except (CritcoreError, AttributeError, TypeError, ValueError):
            continue  # a broken plugin says so when it is used, not here
        score = _score(schema, state)
        if score > mine and (best is None or score > best[0]):
            best = (score, info.name, _noun(info))
    return None if best is None else (best[1], best[2])
