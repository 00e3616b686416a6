"""GURPS house rule ``no-dud-criticals``: a critical hit always does maximum damage at least.

On the Critical Hit table (and the Critical Head Blow table) a roll of 9-11 gives ordinary
damage and nothing else, so a critical hit can feel like a plain hit. Many tables upgrade those
results: the dice count as their highest faces, as on a 6 or 15. This rule adjusts the effect
stage (``wrapper=True``): it lets the GURPS plugin roll on its table as usual and, when the row
that applies is one of those ordinary-damage rows, returns it with maximum damage instead.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, Generator, Sequence

from critcore import hookimpl
from critcore.plugin import Effect
from critcore.plugin import RuleInfo

if TYPE_CHECKING:
    from critcore.plugin import Context

INFO = RuleInfo("no-dud-criticals", "gurps",
                "Critical hits never do merely ordinary damage: a 9-11 on the Critical Hit or Head Blow "
                "table does maximum damage.", changes=("effect",))


@hookimpl
def critcore_rule() -> RuleInfo:
    """What this rule is and which system it is for (critcore registers it only there)."""
    return INFO


ORDINARY_ROWS = frozenset({("critical-hit", "normal-damage-9-11"), ("head-blow", "normal-9-11")})
"""The (table, row id) pairs whose result is ordinary damage and nothing more."""
UPGRADED_TEXT = "Maximum basic damage instead of ordinary damage: the dice count as their highest faces."


def upgraded(effect: Effect) -> Effect:
    """The same row, now with maximum basic damage (the injury engine reads ``maximum``).

    Made anew each time (a few microseconds, on 3 rolls in 16 of the table): a cache here would
    be a module-level cache a plugin should not keep (issue 13)."""
    return replace(effect, text=UPGRADED_TEXT, data=effect.data.replace(maximum=True, changed_by=INFO.name))


@hookimpl(wrapper=True)
def critcore_effect(ctx: Context, determination: Any, location: Any) -> Generator[None, Any, Sequence[Effect] | None]:
    effects: Sequence[Effect] | None = yield  # the GURPS plugin rolls on its table first
    if not effects:
        return effects
    last = effects[-1]  # the row the apply stage acts on (earlier ones are re-roll steps)
    if (last.table, last.id) not in ORDINARY_ROWS:
        return effects
    ctx.note(f"{last.table} {last.id}: ordinary damage becomes maximum damage", by=INFO.name)
    better = upgraded(last)
    return [*effects[:-1], replace(better, roll=last.roll)]
