"""The GURPS 4th Edition system plugin: the hook implementations critcore calls.

Entry point ``gurps`` in ``critcore.systems``. The stages live in their own modules:
:mod:`.determine` (3d6 against skill, hit location), :mod:`.chains` (the tables and their
re-rolls), :mod:`.apply` (injury and statuses), :mod:`.treat` (recovery).
"""

from __future__ import annotations

from typing import Any, Sequence

from critcore import hookimpl
from critcore.plugin import Applied, Data, Procedure, SystemInfo

from . import apply as _apply
from . import chains, determine, report
from .procedures import INFO


@hookimpl
def critcore_system() -> SystemInfo:
    return INFO


@hookimpl
def critcore_prepare(procedure: Procedure, params: Data, options: Data, memo: dict[str, Any]) -> determine.Plan:
    """The plan of a procedure with its parameters (once per engine): see :mod:`.determine`.
    The plans share the engine's ``memo`` for what the tables decide whatever the parameters."""
    return determine.prepare(procedure, params, options, memo)


# The stage functions are the hook implementations themselves (no extra call on the hot path).
critcore_determine = hookimpl(determine.determine)
critcore_determine_lookup = hookimpl(determine.determine_lookup)
critcore_locate = hookimpl(determine.locate)
critcore_effect = hookimpl(chains.effect)
critcore_effect_lookup = hookimpl(chains.effect_lookup)
critcore_apply = hookimpl(_apply.apply)


@hookimpl
def critcore_treat(ctx: Any) -> Applied | None:
    from . import treat  # imported only when something is treated: `crit resolve` starts faster

    return treat.treat(ctx)


@hookimpl
def critcore_read_target(path: str, text: str) -> dict[str, Any] | None:
    """A GCS character (``.gcs``) as a GURPS target (gcs.py, imported only for such a file)."""
    if not path.lower().endswith(".gcs"):
        return None
    from . import gcs

    return gcs.read(path, text)


@hookimpl
def critcore_write_target(path: str, state: Any) -> str | None:
    """A GCS character's injuries written back into its own ``.gcs`` text (gcs.py)."""
    if not path.lower().endswith(".gcs"):
        return None
    from . import gcs

    return gcs.write(path, state)


@hookimpl
def critcore_show(ctx: Any) -> Sequence[str] | None:
    if ctx.target is None:
        return None
    from . import character

    return character.show(ctx)


@hookimpl
def critcore_examples() -> Sequence[Any]:
    """The examples `crit examples` writes: Sir Bertram, a knight: HP 12, HT 11, DR 4 on torso and skull."""
    from critcore.plugin import package_examples

    return package_examples("critcore_gurps.examples", {"bertram.json": "Sir Bertram, a knight: HP 12, HT 11, DR 4 on torso and skull"})


@hookimpl
def critcore_web_view(ctx: Any) -> Any:
    """The character on ``crit serve``'s page (webview.py, imported only when a page asks)."""
    from .webview import critcore_web_view as view

    return view(ctx)


# What an outcome did, most serious first: every report of a resolve asks, so the function is
# the hook implementation itself (an import inside a wrapper cost a tenth of the ranking)
critcore_changes = hookimpl(report.changes)


