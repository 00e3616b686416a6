"""The critcore hooks of the Shadowrun 2nd Edition critical-hit system (entry point ``shadowrun2``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Sequence

from critcore import hookimpl
from critcore.model import Applied, Determination, Effect, Location, Outcome, SystemInfo

from . import wound
from .info import INFO

if TYPE_CHECKING:
    from critcore.engine import Context

TREATMENTS: dict[str, tuple[str, str]] = {  # procedure -> (module, function), imported when used
    "diagnose": ("medicine", "diagnose"),
    "medic": ("medicine", "medic"),
    "heal-magic": ("healing", "heal_magic"),
    "heal-natural": ("healing", "heal_natural"),
    "advance": ("healing", "advance"),
}


@hookimpl
def critcore_system() -> SystemInfo:
    return INFO


@hookimpl
def critcore_determine(ctx: Context) -> Determination | None:
    if ctx.procedure.name != "wound":
        return None
    return wound.determine(ctx)


@hookimpl
def critcore_locate(ctx: Context, determination: Determination | None) -> Location | None:
    if ctx.procedure.name != "wound":
        return None
    return wound.locate(ctx, determination)


@hookimpl
def critcore_effect(ctx: Context, determination: Determination | None, location: Location | None) -> Sequence[Effect] | None:
    if ctx.procedure.name != "wound":
        return None
    return wound.effect(ctx, determination, location)


@hookimpl
def critcore_apply(ctx: Context, determination: Determination | None, location: Location | None,
                   effects: Sequence[Effect]) -> Applied | None:
    if ctx.procedure.name != "wound":
        return None
    return wound.apply(ctx, determination, location, effects)


@hookimpl
def critcore_treat(ctx: Context) -> Applied | None:
    where = TREATMENTS.get(ctx.procedure.name)
    if where is None:
        return None
    from importlib import import_module

    handler: Callable[[Context], Applied] = getattr(import_module(f"{__package__}.{where[0]}"), where[1])
    return handler(ctx)


@hookimpl
def critcore_show(ctx: Context) -> Sequence[str] | None:
    if ctx.target is None:
        return None
    from . import report
    from .character import read_character

    name = ctx.target.get("name", "")
    return report.show_lines(ctx.tables, read_character(ctx.target), name if isinstance(name, str) else "")


@hookimpl
def critcore_report(outcome: Outcome, view: str) -> Sequence[str] | None:
    if outcome.system != INFO.name:
        return None
    from . import report

    return report.report(outcome, view)
