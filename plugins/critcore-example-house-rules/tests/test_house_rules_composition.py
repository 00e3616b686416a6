"""Rules together: the documented order, rules for other systems, and entry-point discovery.

The order (docs/hooks.md, docs/house-rules.md): wrappers run around everything; then ``tryfirst``
implementations; within one kind the rule enabled *later* runs first. The two small rules here
exist only for these tests.
"""

from __future__ import annotations

from dataclasses import replace

import critcore
import critcore.plugin
from critcore import hookimpl
from critcore.plugin import Determination
from critcore.plugin import RULES_GROUP, RuleInfo
from critcore.testing import Registry, scan_entry_points

BODY_2_SERIOUS = {"body": 2, "severity": "serious"}
NONE = Determination("none", False, "the GM rules there is no critical")


class GmFiat:
    """A tryfirst determine that answers without rolling: no critical, ever."""

    @hookimpl
    def critcore_rule(self):
        return RuleInfo("gm-fiat", "shadowrun2", "No criticals at all.")

    @hookimpl(tryfirst=True)
    def critcore_determine(self, ctx):
        ctx.note("no critical, by fiat", by="gm-fiat")
        return NONE


class SecondWind:
    """A wrapper around determine: a Mortal result becomes Crippling (it sees whoever answered)."""

    @hookimpl
    def critcore_rule(self):
        return RuleInfo("second-wind", "shadowrun2", "Mortal becomes Crippling.")

    @hookimpl(wrapper=True)
    def critcore_determine(self, ctx):
        found = yield
        if found is not None and found.kind == "mortal":
            ctx.note("second wind: mortal becomes crippling", by="second-wind")
            row = ctx.tables["lethality"].row("crippling")
            return replace(found, kind=row.id, summary=row.text, data=row.data)
        return found


class Tagger:
    """A wrapper that only notes, after the inner implementations answered."""

    @hookimpl
    def critcore_rule(self):
        return RuleInfo("tagger", "shadowrun2", "Notes its name.")

    @hookimpl(wrapper=True)
    def critcore_determine(self, ctx):
        found = yield
        ctx.note("tagger saw the answer", by="tagger")
        return found


def registry() -> Registry:
    return Registry.installed(extra_rules={"gm-fiat": GmFiat(), "second-wind": SecondWind(), "tagger": Tagger()})


def wound(dice: list[int], rules: list[str]) -> critcore.plugin.Outcome:
    return critcore.resolve("shadowrun2", "wound", dice=dice, rules=rules, registry=registry(), **BODY_2_SERIOUS)


def test_later_tryfirst_rule_runs_first() -> None:
    """toughness then gm-fiat: gm-fiat (enabled later) answers first, no Body check is rolled."""
    out = wound([], ["toughness", "gm-fiat"])
    assert out.rolls == () and out.determination == NONE


def test_earlier_tryfirst_rule_runs_second() -> None:
    """gm-fiat then toughness: toughness answers first with its 3-die check (6, 6, 6: no critical)."""
    out = wound([6, 6, 6], ["gm-fiat", "toughness"])
    assert out.rolls[0].notation == "3d6 vs TN 6" and out.determination.kind == "none"
    assert not any(n.by == "gm-fiat" for n in out.notes)


def test_wrapper_wraps_whoever_answers_in_either_order() -> None:
    """second-wind wraps toughness's answer whatever the order: three 1s (0 successes, Mortal)
    become Crippling; the location and critical rolls follow (3+4, 2)."""
    for rules in (["toughness", "second-wind"], ["second-wind", "toughness"]):
        out = wound([1, 1, 1, 3, 4, 2], rules)
        assert out.rolls[0].notation == "3d6 vs TN 6"
        assert out.determination.kind == "crippling"
        assert [n.by for n in out.notes if n.by] == ["toughness", "second-wind"]


def test_two_wrappers_nest_the_later_one_outside() -> None:
    """second-wind then tagger: tagger is outside, so it finishes last and sees second-wind's
    Crippling; enabled the other way round, second-wind finishes last."""
    out = wound([1, 1, 3, 4, 2], ["second-wind", "tagger"])
    assert [n.by for n in out.notes if n.by] == ["second-wind", "tagger"]
    out = wound([1, 1, 3, 4, 2], ["tagger", "second-wind"])
    assert [n.by for n in out.notes if n.by] == ["tagger", "second-wind"]
    assert out.determination.kind == "crippling"


def test_rules_for_three_systems_enabled_together_each_acts_only_on_its_own() -> None:
    """One campaign enabling all three: a BattleTech hit location sees only floating-criticals."""
    everything = ["toughness", "no-dud-criticals", "floating-criticals"]
    out = critcore.resolve("battletech", "hit-location", dice="1,1,3,2", rules=everything)
    assert out.location.id == "RL" and {n.by for n in out.notes if n.by} == {"floating-criticals"}
    out = critcore.resolve("gurps", "critical-hit", dice="4,3,3", rules=everything)
    assert {n.by for n in out.notes if n.by} == {"no-dud-criticals"}


def test_entry_points_are_discovered() -> None:
    """Installing the package lists the three rules in critcore.rules, pointing at their modules."""
    found = scan_entry_points([RULES_GROUP])[RULES_GROUP]
    for name in ("floating-criticals", "no-dud-criticals", "toughness"):
        spec = found[name]
        assert spec.dist == "critcore-example-house-rules"
        module = spec.load()
        assert module.INFO.name == name


def test_each_rule_says_its_system() -> None:
    found = scan_entry_points([RULES_GROUP])[RULES_GROUP]
    systems = {n: found[n].load().critcore_rule().system for n in ("floating-criticals", "no-dud-criticals", "toughness")}
    assert systems == {"floating-criticals": "battletech", "no-dud-criticals": "gurps", "toughness": "shadowrun2"}
