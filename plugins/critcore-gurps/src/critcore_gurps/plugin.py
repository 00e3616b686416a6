"""The GURPS 4th Edition system plugin: the hook implementations critcore calls.

Entry point ``gurps`` in ``critcore.systems``. The stages live in their own modules:
:mod:`.determine` (3d6 against skill, hit location), :mod:`.chains` (the tables and their
re-rolls), :mod:`.apply` (injury and statuses), :mod:`.treat` (recovery).
"""

from __future__ import annotations

from typing import Any, Sequence

from critcore import hookimpl
from critcore.model import Applied, Determination, Effect, Location, SystemInfo

from . import apply as _apply
from . import chains, character, determine, treat
from .procedures import INFO


@hookimpl
def critcore_system() -> SystemInfo:
    return INFO


@hookimpl
def critcore_determine(ctx: Any) -> Determination | None:
    return determine.determine(ctx)


@hookimpl
def critcore_locate(ctx: Any, determination: Determination | None) -> Location | None:
    return determine.locate(ctx, determination)


@hookimpl
def critcore_effect(ctx: Any, determination: Determination | None, location: Location | None) -> Sequence[Effect] | None:
    return chains.effect(ctx, determination, location)


@hookimpl
def critcore_apply(ctx: Any, determination: Determination | None, location: Location | None,
                   effects: Sequence[Effect]) -> Applied | None:
    return _apply.apply(ctx, determination, location, effects)


@hookimpl
def critcore_treat(ctx: Any) -> Applied | None:
    return treat.treat(ctx)


@hookimpl
def critcore_show(ctx: Any) -> Sequence[str] | None:
    if ctx.target is None:
        return None
    return character.show(ctx.target)
