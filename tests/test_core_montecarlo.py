"""The simulation's shortcuts (roll trees, a plain determine looked up by its table) count exactly
what calling every stage every time counts, in the same order, from the same seed."""

from __future__ import annotations

from typing import Any

import pytest

import critcore.chance.montecarlo as mc
from critcore import hookimpl
from critcore.stages.context import Context
from critcore.engine.runner import Engine
from critcore.engine.params import check_params
from critcore.model import Applied, Determination, Location, Procedure, SystemInfo, freeze
from critcore.chance.montecarlo import SamplingDice, simulate
from critcore.stages.loader import Registry


def every_time(engine: Engine, procedure: str, params: dict[str, Any], n: int, seed: Any,
               target: Any = None) -> tuple[tuple[tuple[Any, ...], int], ...]:
    """The counts of ``n`` resolutions with every stage called through pluggy every time."""
    proc = engine.procedure(procedure)
    dice = SamplingDice(seed)
    ctx = Context(engine.info, proc, check_params(proc, params), engine.options, engine.tables, dice,  # type: ignore[arg-type]
                  None if target is None else freeze(target), engine.rules)
    hook = engine.pm.hook
    counts: dict[tuple[Any, ...], int] = {}
    for _ in range(n):
        det = hook.critcore_determine(ctx=ctx)
        loc = found = applied = None
        if det is None or not det.final:
            loc = hook.critcore_locate(ctx=ctx, determination=det)
            found = hook.critcore_effect(ctx=ctx, determination=det, location=loc)
            applied = hook.critcore_apply(ctx=ctx, determination=det, location=loc,
                                          effects=() if found is None else found)
        key = (det, loc, () if found is None else tuple(found), applied)
        counts[key] = counts.get(key, 0) + 1
    return tuple(counts.items())


def test_fake_attack_with_damage_counts_as_every_stage_every_time(registry):
    """Hits roll damage in apply and criticals roll on a table first: both follow roll trees."""
    engine = Engine("fake", registry=registry)
    for seed in (0, 4, "seven"):
        sim = simulate(engine, "attack", {"ac": 11, "damage": "1d8"}, 5000, seed)
        assert sim.counts == every_time(engine, "attack", {"ac": 11, "damage": "1d8"}, 5000, seed)


def test_small_batches_and_a_small_tree_count_the_same(registry, monkeypatch):
    """Entries merged after every batch and trees cut short give the same counts and order."""
    engine = Engine("fake", registry=registry)
    whole = simulate(engine, "attack", {"ac": 9, "damage": "2d6"}, 6000, 3)
    monkeypatch.setattr(mc, "FLUSH_AT", 1)
    monkeypatch.setattr(mc, "MAX_NODES", 4)
    done: list[int] = []
    batched = simulate(engine, "attack", {"ac": 9, "damage": "2d6"}, 6000, 3, progress=done.append)
    assert batched.counts == whole.counts and done[-1] == 6000


def quirky_registry(calls: list[str]) -> Registry:
    """A system whose apply rolls on every other call only: not pure, as stages should be."""
    once = Determination("once", False, "once")

    class Quirky:
        @hookimpl
        def critcore_system(self):
            return SystemInfo("quirky", "Quirky", (Procedure("go", "Go."),))

        @hookimpl
        def critcore_determine(self, ctx):
            ctx.dice.roll("1d2", "d")
            return once

        @hookimpl
        def critcore_locate(self, ctx, determination):
            return Location("here", "Here")

        @hookimpl
        def critcore_apply(self, ctx, determination, location, effects):
            calls.append("apply")
            if len(calls) % 2:
                return Applied(f"rolled {ctx.dice.roll('1d6', 'x').total}")
            return Applied("rolled nothing")

    return Registry.installed(extra_systems={"quirky": Quirky()}, discover=False)


def test_a_stage_that_does_not_retrace_its_rolls_is_run_every_time():
    """Its determination is marked and its stages run on every resolution, as they used to."""
    calls: list[str] = []
    engine = Engine("quirky", registry=quirky_registry(calls))
    sim = simulate(engine, "go", {}, 3000, 1)
    assert len(calls) == 3000
    calls.clear()
    assert sim.counts == every_time(engine, "go", {}, 3000, 1)


def test_new_determinations_each_time_count_the_same():
    """A determine that makes a new (equal) object every time: nothing is followed, counts agree."""

    class Fresh:
        @hookimpl
        def critcore_system(self):
            return SystemInfo("fresh", "Fresh", (Procedure("go", "Go."),))

        @hookimpl
        def critcore_determine(self, ctx):
            return Determination("d", False, str(ctx.dice.roll("1d3", "d").total))

        @hookimpl
        def critcore_apply(self, ctx, determination, location, effects):
            return Applied(determination.summary + str(ctx.dice.roll("1d4", "x").total))

    engine = Engine("fresh", registry=Registry.installed(extra_systems={"fresh": Fresh()}, discover=False))
    assert simulate(engine, "go", {}, 4000, 2).counts == every_time(engine, "go", {}, 4000, 2)


@pytest.mark.parametrize("system, procedure, params, rules", [
    ("gurps", "attack", {"skill": 14}, ()),
    ("gurps", "attack", {"skill": 11, "damage": "2d+1 cut", "dr": 2, "hp": 10}, ()),
    ("gurps", "attack", {"skill": 14}, ("no-dud-criticals",)),
    ("gurps", "critical-miss", {}, ()),
    ("shadowrun2", "wound", {"body": 4, "severity": "serious"}, ()),
    ("shadowrun2", "wound", {"body": 4, "severity": "serious"}, ("toughness",)),
    ("battletech", "hit-location", {}, ("floating-criticals",)),
])
def test_real_systems_count_as_every_stage_every_time(system, procedure, params, rules):
    pytest.importorskip(f"critcore_{system}")
    if rules:
        pytest.importorskip("critcore_example_house_rules")
    engine = Engine(system, rules=rules)
    sim = simulate(engine, procedure, params, 3000, 5)
    assert sim.counts == every_time(engine, procedure, params, 3000, 5)


def test_gurps_plain_determine_counts_as_calling_it(monkeypatch):
    """GURPS's determine says it is a plain 3d6 lookup (its critcore_determine_lookup hook);
    without that the loop calls it every time, and the counts are the same."""
    pytest.importorskip("critcore_gurps")
    from critcore.chance import montecarlo

    engine = Engine("gurps")
    used = []
    plain = montecarlo._plain_determine
    monkeypatch.setattr(montecarlo, "_plain_determine", lambda *a: used.append(plain(*a)) or used[-1])
    fast = simulate(engine, "attack", {"skill": 13, "damage": "1d+2 imp"}, 20_000, 8)
    assert used and used[0] is not None  # the look-up was taken
    monkeypatch.setattr(montecarlo, "_plain_determine", lambda *a: None)
    assert simulate(engine, "attack", {"skill": 13, "damage": "1d+2 imp"}, 20_000, 8).counts == fast.counts


def test_a_lookup_is_not_used_when_a_house_rule_wraps_determine():
    """The look-up is the word of the plugin holding determine: a rule's look-up is not taken,
    and with a rule replacing the stage (fakerules' keen edge) the simulation calls determine
    every run."""
    import fakerules
    import fakesystem
    from critcore.chance import montecarlo
    from critcore.dice.notation import parse
    from critcore.dice.rollers import RandomRoller
    from critcore.stages.hookspecs import RollLookup

    class Says:
        @hookimpl
        def critcore_determine_lookup(self, ctx):
            return RollLookup(parse("1d20"), "attack roll", [None] + [Determination("x", False, "x", final=True)] * 20)

    reg = Registry.installed(extra_systems={"fake": fakesystem}, extra_rules={"says": Says(), "keen": fakerules.KeenEdge()},
                             discover=False)
    alone = Engine("fake", rules=["says"], registry=reg)
    sim_dice = montecarlo.SamplingDice(1)
    ctx = alone.context(alone.procedure("attack"), check_params(alone.procedure("attack"), {"ac": 12}), RandomRoller(1))
    _, answers = montecarlo._plain_determine(alone, ctx, sim_dice)
    assert {a.kind for a in answers} == {"critical", "fumble", "hit", "miss"}  # the system's, not the rule's "x"
    both = Engine("fake", rules=["says", "keen"], registry=reg)
    assert montecarlo._plain_determine(both, ctx, sim_dice) is None  # keen edge replaces determine


def test_sampling_dice_iterate_is_a_loop():
    """Simulations run Dice.iterate as a plain loop: add d6 rolls until the total reaches 10."""
    from critcore.chance.montecarlo import SamplingDice

    d = SamplingDice(4)
    total = d.iterate(0, lambda dd, s: s + dd.roll("1d6", "add").total, lambda s: s >= 10, "to ten")
    assert 10 <= total <= 15
