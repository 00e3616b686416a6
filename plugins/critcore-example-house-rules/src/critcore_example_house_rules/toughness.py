"""Shadowrun 2e house rule ``toughness``: a tough character rolls one more die on the Body check.

Many tables borrow the Toughness edge of later Shadowrun editions: the character adds one die
whenever Body resists damage. Under critcore's Shadowrun critical-hit layer that is the GM's
secret Body check of the ``wound`` procedure, so this rule replaces the determine stage
(``tryfirst=True``): it rolls the same check with Body + Combat Pool + 1 dice and reads the
lethality from the same table. Every other step (target numbers, options, the character file)
is the Shadowrun plugin's own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from critcore import hookimpl
from critcore.plugin import Determination  # noqa: F401 (the stage's answer type)
from critcore.plugin import RuleInfo
from critcore_shadowrun2 import wound

if TYPE_CHECKING:
    from critcore.plugin import Context

INFO = RuleInfo("toughness", "shadowrun2", "Toughness: one extra die on the Body check against a critical.",
                changes=("determine",))


@hookimpl
def critcore_rule() -> RuleInfo:
    """What this rule is and which system it is for (critcore registers it only there)."""
    return INFO
EXTRA_DICE = 1


@hookimpl(tryfirst=True)
def critcore_determine(ctx: Context) -> Determination | None:
    if ctx.procedure.name != "wound":
        return None  # not ours: the system answers as usual
    plan = wound.plan_of(ctx)  # the target number and lethality table the Shadowrun plugin chose
    dice = wound.body_dice(ctx)
    if ctx.target is not None:
        from critcore_shadowrun2.character import alive, read_character

        alive(read_character(ctx.target))
    if plan.tn == "auto":
        return wound.AUTO_NONE  # no check is rolled, so there is nothing for the extra die to do
    ctx.note(f"Body check with {dice} + {EXTRA_DICE} dice (toughness)", by=INFO.name)
    roll = ctx.dice.test(dice + EXTRA_DICE, plan.tn, "Body check (the GM rolls in secret; toughness +1 die)")
    return wound.lethality(ctx, plan.table.lookup(roll.total))  # the Shadowrun plugin's own answer (and event tag)
