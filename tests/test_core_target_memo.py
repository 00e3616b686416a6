"""The per-target memo (critcore.stages.targetmemo, docs/hooks.md): ``ctx.memo`` is one dict per target
object, owned by the engine, for a system that declares ``SystemInfo.target_memo``; it is dropped
as soon as a run is handed another target, unless a stage handed it on to that target."""

from __future__ import annotations

from typing import Any

import pytest

from critcore import hookimpl
from critcore.dice.rollers import RandomRoller
from critcore.engine.runner import Engine
from critcore.model import Applied, Data, Determination, Procedure, SystemInfo
from critcore.stages.loader import Registry
from critcore.stages.targetmemo import TargetMemo


class MemoSystem:
    """A system whose apply stage records the memo it was handed and counts runs in it; with
    ``hand_on`` it passes its memo on to the state it hands back."""

    def __init__(self, declare: bool = True, hand_on: bool = False) -> None:
        self.declare = declare
        self.hand_on = hand_on
        self.seen: list[Any] = []

    @hookimpl
    def critcore_system(self) -> SystemInfo:
        schema = {"format": 1, "root": "thing", "types": {"thing": {
            "type": "table", "extra": "keep", "fields": {"hp": {"type": "int", "required": True}}}}}
        return SystemInfo("memo", "Memo test", (Procedure("poke", "Roll 1d2 and poke the target."),),
                          target_schema=schema, target_memo=self.declare)

    @hookimpl
    def critcore_determine(self, ctx: Any) -> Determination:
        return Determination("poke", False, f"poked for {ctx.dice.roll('1d2', 'poke').total}")

    @hookimpl
    def critcore_apply(self, ctx: Any, determination: Any, location: Any, effects: Any) -> Applied:
        memo = ctx.memo
        self.seen.append(memo)
        if memo is not None:
            memo["runs"] = memo.get("runs", 0) + 1
        if ctx.target is None:
            return Applied(determination.summary)
        new = Data(hp=ctx.target["hp"] - 1)
        if self.hand_on and memo is not None:
            ctx.hand_on(new, memo)
        return Applied(determination.summary, target=new)


def _engine(system: MemoSystem) -> Engine:
    engine = Engine("memo", registry=Registry.installed(extra_systems={"memo": system}, discover=False))
    engine.keep_outcomes = False  # these tests count what the stages see on each run: every run calls them
    return engine


def test_the_same_target_object_gets_the_same_memo_and_another_target_a_new_one() -> None:
    """One dict for every run on one target; a new target drops it, so going back to the first
    target starts from an empty memo again (what it held belonged to a target no longer in use)."""
    system = MemoSystem()
    engine = _engine(system)
    one, two = Data(hp=5), Data(hp=5)  # equal, but another object: another target
    for _ in range(3):
        engine.run("poke", roller=RandomRoller(1), target=one)
    assert system.seen[0] is system.seen[1] is system.seen[2]
    assert system.seen[0] == {"runs": 3}
    engine.run("poke", roller=RandomRoller(1), target=two)
    assert system.seen[3] is not system.seen[0] and system.seen[3] == {"runs": 1}
    engine.run("poke", roller=RandomRoller(1), target=one)
    assert system.seen[4] is not system.seen[0] and system.seen[4] == {"runs": 1}


def test_no_target_no_memo_and_a_system_that_does_not_declare_it_gets_none() -> None:
    system = MemoSystem()
    _engine(system).run("poke", roller=RandomRoller(1))
    quiet = MemoSystem(declare=False)
    _engine(quiet).run("poke", roller=RandomRoller(1), target=Data(hp=3))
    assert system.seen == [None] and quiet.seen == [None]


def test_a_memo_handed_on_is_the_memo_of_the_next_run_on_that_state_only() -> None:
    """A stage hands its memo on to the state it returns: a run on that state (the outcome's
    target, frozen by the engine) starts with it; a run on any other target does not."""
    system = MemoSystem(hand_on=True)
    engine = _engine(system)
    out = engine.run("poke", roller=RandomRoller(1), target=Data(hp=5))
    out = engine.run("poke", roller=RandomRoller(1), target=out.target)
    assert system.seen[1] is system.seen[0] and system.seen[0]["runs"] == 2
    engine.run("poke", roller=RandomRoller(1), target=Data(hp=9))  # not the state handed on
    assert system.seen[2] is not system.seen[0] and system.seen[2] == {"runs": 1}
    engine.run("poke", roller=RandomRoller(1), target=out.target)  # handed on earlier, dropped since
    assert system.seen[3] is not system.seen[0]


def test_clear_forgets_the_memo_in_use_and_the_one_handed_on() -> None:
    """After ``clear`` (crit serve, done with a request's target), a run on the same target and a
    run on the state handed on both start from an empty memo; the one held before is untouched."""
    system = MemoSystem(hand_on=True)
    engine = _engine(system)
    unit = Data(hp=5)
    out = engine.run("poke", roller=RandomRoller(1), target=unit)
    assert engine.memos is not None
    engine.memos.clear()
    engine.run("poke", roller=RandomRoller(1), target=out.target)  # handed on before the clear
    engine.run("poke", roller=RandomRoller(1), target=unit)
    assert system.seen[0] == {"runs": 1}  # what a run held is left as it was
    assert system.seen[1] is not system.seen[0] and system.seen[1] == {"runs": 1}
    assert system.seen[2] is not system.seen[0] and system.seen[2] == {"runs": 1}


def test_two_engines_never_share_a_memo() -> None:
    system = MemoSystem()
    unit = Data(hp=4)
    _engine(system).run("poke", roller=RandomRoller(1), target=unit)
    _engine(system).run("poke", roller=RandomRoller(1), target=unit)
    assert system.seen[0] is not system.seen[1]


@pytest.mark.parametrize("how", ["odds", "simulate"])
def test_every_run_of_exact_odds_or_a_simulation_sees_the_memo_of_its_target(how: str) -> None:
    from critcore.chance.exact import exact_odds
    from critcore.chance.montecarlo import simulate

    system = MemoSystem()
    engine = _engine(system)
    unit = Data(hp=4)
    if how == "odds":
        exact_odds(engine, "poke", target=unit)
    else:
        simulate(engine, "poke", n=50, target=unit)
    assert system.seen and all(m is system.seen[0] for m in system.seen)
    assert system.seen[0]["runs"] == len(system.seen)


def test_a_handed_on_memo_is_met_once_and_a_target_met_again_starts_afresh() -> None:
    """TargetMemo keeps (target, memo) pairs: a memo handed on to a state is that state's when a
    run is handed it (once: the hand-on is then used up), and a target met again after another
    gets a new, empty memo."""
    memos = TargetMemo()
    a, b = object(), object()
    first = memos.of(a)
    assert memos.current == (a, first)
    memos.hand_on(b, first)
    assert memos.of(b) is first and memos.handed is None
    assert memos.of(a) is not first and memos.of(None) is None


@pytest.mark.parametrize("mode", ["odds", "simulate"])
def test_crit_serve_forgets_a_campaign_targets_memo_after_an_odds_or_simulate_request(tmp_path, mode) -> None:
    """A web odds or simulate request on a campaign target reads the target afresh (a new object,
    so a new memo) and, done with it, leaves no memo on the engine (a long question's memo is
    large and would only linger until another target came)."""
    pytest.importorskip("starlette")
    from critcore.campaign.campaign import Campaign
    from critcore.web.service import Service

    system = MemoSystem()
    registry = Registry.installed(extra_systems={"memo": system}, discover=False)
    path = str(tmp_path / "memo.db")
    with Campaign.new(path, registry=registry) as camp:
        camp.add("memo", "dummy", {"hp": 7})
    service = Service(path, registry=registry)
    try:
        body = {"target": "dummy", "procedure": "poke", **({"runs": 50, "seed": 1} if mode == "simulate" else {})}
        result, _ = service.odds(mode, body)
        engine = service.engine("memo")
        assert system.seen and system.seen[-1] is not None and system.seen[-1]["runs"] >= 1
        assert engine.memos is not None and engine.memos.current == (None, {}) and engine.memos.handed is None
    finally:
        service.close()
