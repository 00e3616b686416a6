"""The critcore hooks of the Shadowrun 2nd Edition critical-hit system (entry point ``shadowrun2``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Sequence

from critcore import hookimpl
from critcore.plugin import Applied, Data, Outcome, Procedure, SystemInfo

from . import wound
from .info import INFO

if TYPE_CHECKING:
    from critcore.plugin import Context
    from critcore.plugin import TableSet

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


# wound is the only resolve procedure (the others are treat procedures, which go to
# critcore_treat), so the stage hooks are the wound functions themselves: no extra call per stage.
if [p.name for p in INFO.procedures if p.verb == "resolve"] != ["wound"]:  # pragma: no cover
    raise ImportError("shadowrun2: a resolve procedure other than wound needs its own stage hooks")
@hookimpl
def critcore_prepare(procedure: Procedure, params: Data, options: Data, tables: TableSet) -> wound.WoundPlan | None:
    """The wound's Body check, worked out once per engine and parameters (see :mod:`.wound`)."""
    return wound.prepare(params, options, tables) if procedure.name == "wound" else None


critcore_determine = hookimpl(wound.determine)
critcore_locate = hookimpl(wound.locate)
critcore_effect = hookimpl(wound.effect)
critcore_apply = hookimpl(wound.apply)


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


@hookimpl
def critcore_examples() -> Sequence[object]:
    """The examples `crit examples` writes: Ghost, a street samurai with Body 4, unhurt."""
    from critcore.plugin import package_examples

    return package_examples("critcore_shadowrun2.examples", {"runner.toml": "Ghost, a street samurai with Body 4, unhurt"})


@hookimpl
def critcore_web_view(ctx: Any) -> Any:
    """The character on ``crit serve``'s page (webview.py, imported only when a page asks)."""
    from .webview import critcore_web_view as view

    return view(ctx)


@hookimpl
def critcore_changes(outcome: Outcome, view: str) -> Sequence[tuple[str, str]] | None:
    """What an outcome did, most serious first (report.py)."""
    if outcome.system != INFO.name:
        return None
    from . import report

    return report.changes(outcome, view)
