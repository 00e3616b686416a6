"""Kept outcomes (critcore/replay.py): an engine run again with random dice hands back what the
stages answered before when the dice come up the same, and a seed gives the same outcomes, roll
by roll, as an engine that runs the stages every time."""

from __future__ import annotations

import types
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import fakesystem
from critcore import hookimpl
from critcore.engine import replay
from critcore.chance import rolltree
from critcore.dice.dice import RandomRoller, ScriptedRoller
from critcore.engine.runner import Engine
from critcore.engine.model import Applied, Determination, Procedure, SystemInfo
from critcore.engine.loader import Registry


def fake_engine(keep: bool = True, plugin: Any = fakesystem) -> Engine:
    name = plugin.critcore_system().name
    engine = Engine(name, registry=Registry.installed(extra_systems={name: plugin}, discover=False))
    engine.keep_outcomes = keep
    return engine


def counting(plugin: Any) -> tuple[Any, list[int]]:
    """``plugin`` with the calls of its first stages counted (determine for a resolution,
    treat for a treat procedure: every run calls one of them)."""
    calls = [0]
    module = types.ModuleType("counted_" + plugin.__name__)
    for name in dir(plugin):
        if name.startswith("critcore_"):
            setattr(module, name, getattr(plugin, name))

    @hookimpl
    def critcore_determine(ctx: Any) -> Any:
        calls[0] += 1
        return plugin.critcore_determine(ctx)

    @hookimpl
    def critcore_treat(ctx: Any) -> Any:
        calls[0] += 1
        return plugin.critcore_treat(ctx)

    module.critcore_determine = critcore_determine  # type: ignore[attr-defined]
    module.critcore_treat = critcore_treat  # type: ignore[attr-defined]
    return module, calls


# what a run asks: the procedure, a few parameters (so the same ones come back), and which target
ATTACK = st.fixed_dictionaries({  # few combinations, so that questions come back and trees are followed
    "ac": st.sampled_from([5, 20]), "bonus": st.sampled_from([0, 3]),
    "damage": st.sampled_from(["2d6+1", "3d6"]), "where": st.sampled_from([None, "head"]),
})
STEP = st.one_of(
    st.tuples(st.just("attack"), ATTACK, st.sampled_from(["none", "start", "last"])),
    st.tuples(st.just("rest"), st.just({}), st.sampled_from(["start", "last"])),
)


def run_both(steps: list[tuple[str, dict[str, Any], str]], seed: int) -> None:
    """The same steps on two engines, one keeping outcomes and one not: equal outcomes, and
    the two seeded generators at the same place afterwards."""
    engines = [fake_engine(True), fake_engine(False)]
    rollers = [RandomRoller(seed), RandomRoller(seed)]
    starts = [e.check_target({"hp": 30}) for e in engines]
    lasts = list(starts)
    for proc, params, which in steps:
        outs = []
        for i, engine in enumerate(engines):
            target = None if which == "none" else starts[i] if which == "start" else lasts[i]
            out = engine.run(proc, params, roller=rollers[i], target=target)
            if out.target is not None:
                lasts[i] = out.target
            outs.append(out)
        assert outs[0].to_dict() == outs[1].to_dict()
    assert rollers[0]._next() == rollers[1]._next()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(STEP, min_size=30, max_size=120), st.integers(0, 2**32))
def test_a_seed_gives_the_same_outcomes_with_kept_outcomes_as_without(steps: list[Any], seed: int) -> None:
    run_both(steps, seed)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(STEP, min_size=30, max_size=80), st.integers(0, 2**32),
       st.integers(1, 6), st.integers(1, 4), st.integers(0, 3))
def test_the_same_when_the_trees_are_forgotten_again_and_again(steps: list[Any], seed: int, nodes: int,
                                                                 roots: int, faces: int) -> None:
    """Tiny bounds: trees forgotten every few runs, leaves full at once; still the same outcomes."""
    with mock.patch.multiple(replay, MAX_NODES=nodes, MAX_ROOTS=roots, MAX_SEEN=roots, MAX_FACES=faces):
        run_both(steps, seed)


def test_a_repeated_run_does_not_call_the_stages_again() -> None:
    """Attack at AC 12 on no target with 1d8 damage: once a path has been met, a run that meets
    it again does not call the stages. The fake game's paths are the d20's 20 totals, a critical's
    confirmation die and the damage die: at most 20 + 6 x 8 leaves, so after 3,000 runs (a leaf
    unmet by then has a chance under 0.1% a run, seed 1) 2,000 more call them at most a few times."""
    plugin, calls = counting(fakesystem)
    engine = fake_engine(True, plugin)
    roller = RandomRoller(1)
    for _ in range(3_000):
        engine.run("attack", {"ac": 12}, roller=roller)
    calls[0] = 0
    for _ in range(2_000):
        engine.run("attack", {"ac": 12}, roller=roller)
    assert calls[0] <= 5


def test_a_kept_outcome_shows_the_faces_rolled_this_time() -> None:
    """Damage 3d6: its total has many ways to come up (a total of 10 has 27), and a kept outcome
    must show the faces of this run, not those of the run it was first worked out on: the same
    outcomes, faces and all, as the stages run every time, over 3,000 runs of one question."""
    engines = [fake_engine(True), fake_engine(False)]
    rollers = [RandomRoller(11), RandomRoller(11)]
    faces = set()
    for _ in range(3_000):
        kept, plain = (e.run("attack", {"ac": 2, "damage": "3d6"}, roller=r) for e, r in zip(engines, rollers))
        assert kept.to_dict() == plain.to_dict()
        faces.add(kept.rolls[-1].faces)
    assert len(faces) > 150  # most of 3d6's 216 ways came up, each shown as rolled


def test_typed_or_scripted_dice_always_run_the_stages() -> None:
    """Only random dice follow kept outcomes: faces typed in (--dice, a test's script) run the
    stages every time."""
    plugin, calls = counting(fakesystem)
    engine = fake_engine(True, plugin)
    for _ in range(5):
        engine.run("attack", {"ac": 12}, roller=ScriptedRoller("7"))
    assert calls[0] == 5


def test_off_runs_the_stages_every_time() -> None:
    plugin, calls = counting(fakesystem)
    engine = fake_engine(True, plugin)
    engine.keep_outcomes = False
    roller = RandomRoller(3)
    for _ in range(50):
        engine.run("attack", {"ac": 12}, roller=roller)
    assert calls[0] == 50


def test_a_kept_outcomes_target_is_taken_back_unchecked() -> None:
    """The state a kept outcome hands back is trusted by the engine again, even after the engine
    forgot it (its bound trims what it trusts): passed in again it is not checked again. Resting
    rolls one 1d4, so after 200 rests every answer has a kept outcome, and the next rest calls no
    stage."""
    plugin, calls = counting(fakesystem)
    engine = fake_engine(True, plugin)
    start = engine.check_target({"hp": 30})
    roller = RandomRoller(5)
    for _ in range(200):
        engine.run("rest", roller=roller, target=start)
    for key in [k for k, state in engine._trusted.items() if state is not start]:
        del engine._trusted[key]  # the engine forgot every state it handed back
    before = calls[0]
    out = engine.run("rest", roller=roller, target=start)
    assert calls[0] == before  # a kept outcome: no stage ran
    assert engine._trusted.get(id(out.target)) is out.target


def test_a_state_read_afresh_for_every_run_keeps_nothing() -> None:
    """A campaign reads its target from the database for every run: a new object each time,
    never asked about twice. Such runs keep no tree and hold no state (memory stays flat)."""
    engine = fake_engine()
    roller = RandomRoller(4)
    for _ in range(2_000):
        engine.run("rest", roller=roller, target={"hp": 30})
    assert engine._replays is None or (not engine._replays.roots and not engine._replays.seen)


def test_states_met_once_are_noted_only_among_the_last_few() -> None:
    """Each outcome's state passed back in (a unit taking hit after hit): every question is new,
    so no tree grows, and the questions noted as met once stay within their bound."""
    engine = fake_engine()
    roller = RandomRoller(6)
    state = engine.check_target({"hp": 30})
    for _ in range(2_000):
        state = engine.run("rest", roller=roller, target=state).target
    assert engine._replays is not None and not engine._replays.roots
    assert 0 < len(engine._replays.seen) <= replay.MAX_SEEN


# -- a stage that is not pure ------------------------------------------------------------------

class Impure:
    """Rolls 1d6, except every third call, which rolls 1d8: not pure."""

    def __init__(self) -> None:
        self.calls = 0

    @hookimpl
    def critcore_system(self) -> SystemInfo:
        return SystemInfo("impure", "Impure", (Procedure("roll", "Roll something."),))

    @hookimpl
    def critcore_determine(self, ctx: Any) -> Determination:
        self.calls += 1
        total = ctx.dice.roll("1d8" if self.calls % 3 == 0 else "1d6", "die").total
        return Determination(str(total), False, f"rolled {total}")

    @hookimpl
    def critcore_apply(self, ctx: Any, determination: Any, location: Any, effects: Any) -> Applied:
        total = ctx.dice.roll("1d6", "again").total
        return Applied(f"{determination.summary}, then {total}")


def test_a_stage_that_is_not_pure_turns_the_tree_off_and_still_answers() -> None:
    """The stages asking for another roll than the kept path makes the tree opaque: from then on
    every run calls the stages, and every answer is a real roll of what the stage asked."""
    plugin = Impure()
    engine = fake_engine(True, plugin)
    roller = RandomRoller(2)
    outs = []
    for _ in range(200):
        outs.append(engine.run("roll", roller=roller))
        if engine._replays is not None and [e[3] for e in engine._replays.roots.values()] == [rolltree.OPAQUE]:
            break
    else:
        pytest.fail("the tree never found out that the stage is not pure")
    before = plugin.calls
    outs += [engine.run("roll", roller=roller) for _ in range(30)]
    assert plugin.calls == before + 30
    for out in outs:
        die = out.rolls[0]
        assert die.notation in ("1d6", "1d8") and 1 <= die.total <= (8 if die.notation == "1d8" else 6)
        assert die.faces == (die.total,) and out.determination.kind == str(die.total)


# -- the shipped systems --------------------------------------------------------------------------

SYSTEM_RUNS = {
    "gurps": [("attack", {"skill": 14}), ("attack", {"skill": 9}), ("attack", {"skill": 18})],
    "shadowrun2": [("wound", {"body": 4, "severity": "serious"}), ("wound", {"body": 2, "severity": "deadly"})],
    "battletech": [("critical", {"location": code}) for code in ("LT", "CT", "HD", "LA", "RL")]
                  + [("hit-location", {"side": "front"})],
}


@pytest.mark.parametrize("system", sorted(SYSTEM_RUNS))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_shipped_system_gives_the_same_outcomes_with_kept_outcomes(system: str, data: Any) -> None:
    """On each installed system, runs drawn from a few procedures (repeated, so kept outcomes
    are met), on the same target or the one the last outcome handed back: the same outcomes and
    the same generator state with kept outcomes as without."""
    if system not in Registry.installed().systems:
        pytest.skip(f"{system} is not installed")
    target: Any = None
    if system == "battletech":
        from importlib.resources import files

        from critcore_battletech.units import unit_from_mtf

        example = files("critcore_battletech.examples") / "quillback.mtf"  # shipped: an SRM-4 bin in a torso
        target = unit_from_mtf(example.read_bytes(), "quillback.mtf")
    steps = data.draw(st.lists(st.tuples(st.sampled_from(SYSTEM_RUNS[system]), st.booleans()), min_size=1, max_size=150))
    seed = data.draw(st.integers(0, 2**32))
    engines = [Engine(system), Engine(system)]
    engines[1].keep_outcomes = False
    rollers = [RandomRoller(seed), RandomRoller(seed)]
    starts = [None if target is None else e.check_target(target) for e in engines]
    lasts = list(starts)
    for (proc, params), chain in steps:
        outs = []
        for i, engine in enumerate(engines):
            out = engine.run(proc, params, roller=rollers[i], target=lasts[i] if chain else starts[i])
            if chain and out.target is not None:
                lasts[i] = out.target
            outs.append(out)
        assert outs[0].to_dict() == outs[1].to_dict()
    assert rollers[0]._next() == rollers[1]._next()


SAMPLES = Path(__file__).resolve().parents[2] / "shared" / "mtf-samples"


@pytest.mark.skipif(not SAMPLES.is_dir(), reason="needs ../shared/mtf-samples")
def test_kept_outcomes_on_the_sample_mechs_are_the_outcomes_of_running_the_stages() -> None:
    """Every sample 'Mech, criticals in every location in turn, 1,000 seeded runs each (the torsos'
    ammunition explodes, checks follow in the next location): the same outcomes, roll by roll,
    with kept outcomes as with the stages run every time."""
    if "battletech" not in Registry.installed().systems:
        pytest.skip("battletech is not installed")
    from critcore_battletech.units import unit_from_mtf

    for path in sorted(SAMPLES.glob("*.mtf")):
        engines = [Engine("battletech"), Engine("battletech")]
        engines[1].keep_outcomes = False
        units = [e.check_target(unit_from_mtf(path.read_bytes(), str(path))) for e in engines]
        rollers = [RandomRoller(7), RandomRoller(7)]
        codes = list(units[0]["locations"])
        for i in range(1_000):
            kept, plain = (e.run("critical", {"location": codes[i % len(codes)]}, roller=r, target=u)
                           for e, r, u in zip(engines, rollers, units))
            assert kept.to_dict() == plain.to_dict(), (path.name, i)  # every field, as --json shows it
        assert engines[0]._replays is not None and engines[0]._replays.nodes > 0  # the trees did grow
