"""House-rule plugins for the fake system, used by critcore's own tests."""

from __future__ import annotations

from dataclasses import replace

from critcore import hookimpl
from critcore.model import Determination
from critcore.stages.loader import RuleInfo


class KeenEdge:
    """Replaces determine (tryfirst): a natural 18 or better is a critical too."""

    @hookimpl
    def critcore_rule(self):
        return RuleInfo("keen-edge", "fake", "Criticals on 18-20.")

    @hookimpl(tryfirst=True)
    def critcore_determine(self, ctx):
        roll = ctx.dice.roll("1d20", "attack roll (keen edge)").total
        if roll >= 18:
            ctx.note("a natural 18+ is a critical under keen edge", by="keen-edge")
            return Determination("critical", True, "natural critical (keen edge)", tags={"critical"})
        if roll + ctx.param("bonus") >= ctx.param("ac"):
            return Determination("hit", False, "an ordinary hit")
        return Determination("miss", False, "a miss", final=True)


class Brutal:
    """Adjusts apply (wrapper): every hit does 1 more damage."""

    @hookimpl
    def critcore_rule(self):
        return RuleInfo("brutal", "fake", "+1 damage.")

    @hookimpl(wrapper=True)
    def critcore_apply(self, ctx, determination, location, effects):
        applied = yield
        if applied is None:
            return None
        ctx.note("+1 damage", by="brutal")
        damage = applied.data["damage"] + 1
        return replace(applied, summary=f"{damage} damage", data=applied.data.replace(damage=damage))


class OtherGame:
    """A rule for another system: never registered for 'fake'."""

    @hookimpl
    def critcore_rule(self):
        return RuleInfo("other", "gurps", "Not for fake.")

    @hookimpl(tryfirst=True)
    def critcore_determine(self, ctx):
        raise AssertionError("a rule for another system must not run")
