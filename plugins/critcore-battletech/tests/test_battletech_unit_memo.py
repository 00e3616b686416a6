"""The plugin keeps numbers of a unit state (tallies, item counts, derived numbers by key) in the
engine's per-target memo (unitmemo.py), never a stage's answer: the same state and the same dice
must give the same outcome whatever the engine resolved on that unit object before."""

from __future__ import annotations

from typing import Any

import pytest

from critcore.testing import ScriptedRoller
from critcore.testing import Engine

# Testmech TM-1 (tests/units): LT slot 6 holds an LRM-10 bin (10 damage: the left torso's
# structure 12 -> 2, then a critical check on it), RT slot 5 a Gauss rifle (20: the torso goes),
# RL slot 5 a jump jet and CT slot 1 the engine (no dice after them).
def scripts(one_crit: Any) -> list[tuple[str, str]]:
    return [
    ("LT", one_crit("LT", 6) + ",1,1"),  # the explosion's check rolls 2: no critical
    ("LT", one_crit("LT", 6) + ",4,4,1,2"),  # the same critical; its check rolls 8: slot 2 struck
    ("LT", one_crit("LT", 6) + ",1,1"),
    ("RT", one_crit("RT", 5)),
    ("RL", one_crit("RL", 5)),
    ("RL", one_crit("RL", 5)),
    ("CT", one_crit("CT", 1)),
    ("CT", "1,1"),  # no critical
    ("CT", "1,1"),
    ("LT", one_crit("LT", 6) + ",4,4,1,2"),
    ]


def _run(engine: Engine, unit: Any, code: str, dice: str) -> dict[str, Any]:
    out = engine.run("critical", {"location": code}, roller=ScriptedRoller(dice), target=unit)
    return out.to_dict()


def test_the_same_state_and_dice_give_the_outcome_a_fresh_engine_gives(bt_registry: Any, bt: Any,
                                                                     mech: dict[str, Any]) -> None:
    """Every script run on one engine and one unit object (so kept answers are met) gives
    exactly the outcome of a new engine that never resolved anything on that unit."""
    engine = Engine("battletech", registry=bt_registry)
    unit = engine.check_target(mech)
    for code, dice in scripts(bt.one_crit):
        fresh = Engine("battletech", registry=bt_registry)
        assert _run(engine, unit, code, dice) == _run(fresh, fresh.check_target(mech), code, dice), (code, dice)


def test_an_answer_after_a_critical_check_is_not_given_again(bt_registry: Any, bt: Any, mech: dict[str, Any]) -> None:
    """The same critical on the same state, its explosion's check rolled 2 and then 8: the
    second outcome has the check's critical, the first not (the first answer rolled dice, so
    it was never kept)."""
    engine = Engine("battletech", registry=bt_registry)
    unit = engine.check_target(mech)
    quiet = _run(engine, unit, *scripts(bt.one_crit)[0])
    loud = _run(engine, unit, *scripts(bt.one_crit)[1])
    assert quiet["target"]["locations"]["LT"]["structure"] == loud["target"]["locations"]["LT"]["structure"] == 2
    assert quiet["target"]["locations"]["LT"]["slots"][1]["destroyed"] is False
    assert loud["target"]["locations"]["LT"]["slots"][1]["destroyed"] is True


def test_a_kept_answer_belongs_to_its_engine(bt_registry: Any, bt: Any, mech: dict[str, Any]) -> None:
    """Two engines with different options on one unit object: the LRM-10 bin explodes for one
    turn's shots (10) by default and for every shot left with explosion_damage = total-warfare,
    whichever engine resolved first."""
    per_turn = Engine("battletech", registry=bt_registry)
    total = Engine("battletech", registry=bt_registry, options={"explosion_damage": "total-warfare"})
    unit = per_turn.check_target(mech)
    jump_jet = ("RL", bt.one_crit("RL", 5))
    a = _run(per_turn, unit, *jump_jet)
    b = _run(total, unit, *jump_jet)
    assert a == _run(per_turn, unit, *jump_jet)
    assert a["effects"] == b["effects"]  # a jump jet: the option changes nothing here
    lrm = [e for e in _run(per_turn, unit, *scripts(bt.one_crit)[0])["effects"] if e.get("explosion_damage")]
    lrm_total = [e for e in _run(total, unit, *scripts(bt.one_crit)[0])["effects"] if e.get("explosion_damage")]
    assert lrm[0]["explosion_damage"] == 10
    assert lrm_total[0]["explosion_damage"] > 10


@pytest.mark.parametrize("code, slot", [("RL", 5), ("RT", 4)], ids=["RL jump jet", "RT Gauss rifle destroys the torso"])
def test_exact_odds_after_real_dice_on_the_same_unit_are_the_fresh_engines(bt_registry: Any, bt: Any, mech: dict[str, Any],
                                                                          code: str, slot: int) -> None:
    """Exact odds on a unit object on which real dice resolved before give the outcomes of an
    engine that never resolved anything. The jump jet's critical in RL rolls no check: its
    answer is kept with the story real dice told, and exact odds tell none (damage.told). The
    Gauss rifle in RT explodes and takes the torso with it, no check rolled either: exact odds
    forget the hits of a location lost on the way (Resolver.merged), so that answer is not the
    state's alone and is never kept. A real-dice run after the odds still tells the whole story."""
    from critcore.testing import exact_odds

    dice = bt.one_crit(code, slot)
    engine = Engine("battletech", registry=bt_registry)
    unit = engine.check_target(mech)
    told = _run(engine, unit, code, dice)
    assert told["applied"]["changes"], "real dice tell what the critical did"
    fresh = Engine("battletech", registry=bt_registry)
    expected = exact_odds(fresh, "critical", {"location": code}, target=fresh.check_target(mech)).to_json()
    found = exact_odds(engine, "critical", {"location": code}, target=unit)
    assert found.to_json() == expected
    assert all(not b.applied.changes for b in found.branches if b.applied is not None)
    assert _run(engine, unit, code, dice) == told


def test_a_kept_step_is_told_apart_by_the_row_its_check_read(bt_registry: Any, mech: dict[str, Any]) -> None:
    """13 damage to the right arm (armour 12): 1 reaches the structure, so its critical check is
    rolled. On one unit object, a check of 2 (no critical) and then one of 12 on the same state:
    neither strikes a slot, but a 12 blows a limb off (Determining Critical Hits), so the second
    must not be given the first one's kept step. Both are what a fresh engine gives."""

    def damage(engine: Engine, unit: Any, dice: str) -> dict[str, Any]:
        out = engine.run("damage", {"location": "RA", "amount": 13}, roller=ScriptedRoller(dice), target=unit)
        return out.to_dict()

    engine = Engine("battletech", registry=bt_registry)
    unit = engine.check_target(mech)
    for dice in ("1,1", "6,6", "1,2", "6,6"):
        fresh = Engine("battletech", registry=bt_registry)
        got = damage(engine, unit, dice)
        assert got == damage(fresh, fresh.check_target(mech), dice)
        assert got["target"]["locations"]["RA"]["blown_off"] is (dice == "6,6")
