"""Low HP: rolls to stay conscious, rolls to avoid death, death; and the skull on `critical-hit`.

Rules checked (GURPS Basic Set, General Injury, as issue 15 states them): at 0 HP or less an HT
roll each turn to stay conscious; at -1xHP and at each further multiple (-2x, -3x, -4x) an HT
roll to avoid death; at -5xHP death. A failed roll to stay conscious knocks the character out
(at -1xHP or below: one HT roll after 12 hours to wake). The rule document sends critical hits
to the head (skull, face, eye) to the Critical Head Blow table.
"""

from __future__ import annotations

import os
from typing import Any

import critcore
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from critcore.plugin import StateError
from critcore.plugin import thaw

from critcore_gurps.collapse import owed_for
from gurps_testkit import REG, faces

LONG = bool(os.environ.get("CRITCORE_LONG"))  # .ci/run's long run draws ten times as many

BERTRAM = {"name": "Sir Bertram", "hp": 12, "ht": 11, "iq": 10, "dx": 12,
           "dr": {"torso": 4, "skull": 4, "all": 2}, "male": True}


def kinds(state: Any) -> list[str]:
    return [o.get("kind", "knockdown") for o in thaw(state)["owed_rolls"]]


def status_ids(state: Any) -> list[str]:
    return [s["id"] for s in thaw(state)["statuses"] if s["id"] != "shock"]


def treat(proc: str, dice: list[int], target: Any, **params: Any) -> Any:
    return critcore.treat("gurps", proc, dice=dice, target=target, registry=REG, **params)


@pytest.mark.parametrize(("before", "after", "expected"), [
    (10, 1, []),                                     # still above 0 HP
    (10, 0, ["consciousness"]),                      # 0 HP or less
    (10, -9, ["consciousness"]),                     # not yet -1xHP
    (10, -10, ["consciousness", "death"]),           # exactly -1xHP
    (-10, -19, []),                                  # -1xHP already passed, -2xHP not reached
    (-10, -20, ["death"]),                           # the next multiple
    (10, -49, ["consciousness", "death", "death", "death", "death"]),  # -1x to -4x
    (10, -50, ["dead"]),                             # -5xHP: dead, no roll
])
def test_thresholds_are_reached_once_each(before: int, after: int, expected: list[str]) -> None:
    """HP 10: 0 HP or less owes the consciousness roll; -10, -20, -30, -40 each a death roll; -50 kills."""
    assert [o["kind"] for o in owed_for(before, after, 10)] == expected


def test_the_issue_skull_critical_owes_rolls_and_saves_them() -> None:
    """Attack roll 5 at skill 15: a critical hit to the skull; head blow 16 doubles 2d+1 cut rolled
    4+3+1 = 8 to 16; DR 4 + 2 = 6, 10 through x4 = 40 injury: HP 12 -> -28. That reaches 0 HP
    (a consciousness roll), -12 and -24 (two death rolls), not -36, far from -60 (death)."""
    out = critcore.resolve("gurps", "attack", skill=15, location="skull", damage="2d+1 cut", target=dict(BERTRAM),
                           dice=[2, 2, 1, 5, 5, 6, 4, 3], registry=REG)
    assert out.target["current_hp"] == -28
    assert kinds(out.target) == ["consciousness", "death", "death", "knockdown"]
    assert [o["kind"] for o in out.applied.data["owed_rolls"]] == ["consciousness", "death", "death", "knockdown"]
    assert out.applied.data["dead"] is False
    lines = " | ".join(out.applied.changes)
    assert "roll to avoid death (down to -1xHP = -12 HP)" in lines
    assert "roll to avoid death (down to -2xHP = -24 HP)" in lines
    assert "each turn to stay conscious" in lines


def test_without_a_character_the_outcome_still_says_what_is_owed() -> None:
    """No file: HP 10 assumed; head blow 3 on the skull with 2d cr: maximum 12, DR ignored, x4 = 48
    injury: 10 -> -38: consciousness and death rolls at -10, -20, -30."""
    out = critcore.resolve("gurps", "critical-hit", location="skull", damage="2d cr", dice=faces(3), registry=REG)
    assert out.applied.data["injury"] == 48
    assert sum("roll to avoid death" in c for c in out.applied.changes) == 3
    assert any("stay conscious" in c for c in out.applied.changes)


def test_minus_five_times_hp_is_death() -> None:
    """HP 10: head blow 18 triples 2d cr rolled 12 to 36; skull DR 2: 34 through, x4 = 136 injury:
    -126 is below -5xHP (-50): dead at once, no roll owed, not even for knockdown."""
    out = critcore.resolve("gurps", "critical-hit", location="skull", damage="2d cr", target={"hp": 10, "ht": 10},
                           dice=faces(18) + [6, 6], registry=REG)
    assert status_ids(out.target) == ["dead"] and kinds(out.target) == []
    assert out.applied.data["dead"] is True
    assert treat("survive", [], out.target).applied.summary == "dead"


@pytest.mark.parametrize("target", [{"hp": 10, "ht": 10}, None], ids=["character", "no character"])
def test_a_blow_that_kills_says_death_alone(target: Any) -> None:
    """HP 10: a critical hit rolled 18 triples 20d cr rolled all 6s, 360 injury to the torso: past
    -5xHP (-50), dead at once. The dead roll for nothing and take no shock, so the report says
    death and the major wound, and owes no knockdown roll nor a roll to stay conscious; the
    outcome carries neither roll's event."""
    params = {"target": target} if target is not None else {"hp": 10}
    out = critcore.resolve("gurps", "critical-hit", damage="20d cr", dice=faces(18) + [6] * 20, registry=REG,
                           **params)
    lines = " | ".join(out.applied.changes)
    assert "down to -5xHP = -50 HP: dead" in lines and "a major wound" in lines
    assert "owes" not in lines and "shock" not in lines
    assert not {"knockdown-roll", "death-check"} & set(out.applied.tags)


def test_a_limb_crippled_by_a_blow_that_kills_is_rolled_for_by_no_one() -> None:
    """HP 10 at -45: a critical hit rolled 6 (maximum damage) with 1d cr to the right arm does 6,
    over HP/2, so the arm is crippled (short of 12, twice that, which would destroy it) and he is
    at -51, past -5xHP: dead. The arm is said crippled, without the roll after the fight."""
    out = critcore.resolve("gurps", "critical-hit", damage="1d cr", location="right-arm",
                           target={"hp": 10, "ht": 10, "current_hp": -45}, dice=faces(6), registry=REG)
    lines = " | ".join(out.applied.changes)
    assert "dead" in status_ids(out.target) and "crippled" in status_ids(out.target)
    assert "right arm crippled" in lines and "after the fight" not in lines


def test_fragile_unnatural_gone_at_minus_hp_says_death_alone() -> None:
    """Fragile (Unnatural) is destroyed at -1xHP with no roll (B137). HP 10, a critical hit rolled
    6 (maximum damage) to the torso: 3d cr does 18 (10 -> -8), short of -10: alive, owing the roll
    to stay conscious and the knockdown roll of a major wound; 3d+5 cr does 23 (10 -> -13), past
    it: dead, and neither roll is said or owed."""
    fragile = {"hp": 10, "ht": 10, "traits": {"fragile": ["unnatural"]}}
    alive = critcore.resolve("gurps", "critical-hit", damage="3d cr", target=fragile, dice=faces(6), registry=REG)
    assert kinds(alive.target) == ["consciousness", "knockdown"]
    gone = critcore.resolve("gurps", "critical-hit", damage="3d+5 cr", target=fragile, dice=faces(6), registry=REG)
    lines = " | ".join(gone.applied.changes)
    assert "Fragile (Unnatural): down to -1xHP = -10 HP: dead" in lines
    assert "owes" not in lines and "shock" not in lines
    assert status_ids(gone.target) == ["dead"] and kinds(gone.target) == []


def test_skull_on_critical_hit_uses_the_head_blow_table() -> None:
    """critical-hit --location skull rolls on the Critical Head Blow table (3: maximum damage, DR
    ignored); the torso stays on the Critical Hit table (3: triple damage)."""
    skull = critcore.resolve("gurps", "critical-hit", location="skull", damage="2d cr", dice=faces(3), hp=100,
                             registry=REG)
    assert [e.table for e in skull.effects] == ["head-blow"]
    assert [r.label for r in skull.rolls] == ["critical head blow table"]
    torso = critcore.resolve("gurps", "critical-hit", location="torso", damage="2d cr", dice=faces(3) + [1, 1],
                             hp=100, registry=REG)
    assert [e.table for e in torso.effects] == ["critical-hit"]
    assert torso.applied.data["injury"] == 6  # (1+1) x3, no DR


def wounded(**extra: Any) -> Any:
    """Sir Bertram after the issue's skull critical: HP -28, rolls owed."""
    out = critcore.resolve("gurps", "attack", skill=15, location="skull", damage="2d+1 cut", target=dict(BERTRAM, **extra),
                           dice=[2, 2, 1, 5, 5, 6, 4, 3], registry=REG)
    return out.target


def test_survive_death_rolls_then_consciousness() -> None:
    """HT 11: death rolls 9 and 11 succeed; the consciousness roll is at -2 (B419: -28 is two full
    multiples of HP 12 below zero), so 10 fails against 9: unconscious, and at -28 (below -1xHP) he
    wakes only on one HT roll after 12 hours. The knockdown roll stays owed; below 1/3 HP he reels."""
    out = treat("survive", faces(9) + faces(11) + faces(10), wounded())
    assert [r.label for r in out.rolls] == [
        "HT roll to avoid death (down to -1xHP = -12 HP)", "HT roll to avoid death (down to -2xHP = -24 HP)",
        "HT-2 roll to stay conscious (at 0 HP or less; -2: 2 full multiples of HP below zero)"]
    assert status_ids(out.target) == ["reeling", "unconscious"]
    assert out.target["statuses"][-1]["check"]["next"] == 12 * 3600
    assert kinds(out.target) == ["knockdown"]


def test_a_failed_death_roll_kills() -> None:
    """HT 11: the first death roll 14 fails by 3 (more than the 1 or 2 of a mortal wound, B423):
    dead; nothing else is rolled and nothing stays owed."""
    out = treat("survive", faces(14), wounded())
    assert len(out.rolls) == 1 and status_ids(out.target) == ["reeling", "dead"] and kinds(out.target) == []


def test_staying_conscious_is_rolled_again_each_turn() -> None:
    """HT 11: all three rolls made (the consciousness roll 9 against HT-2 = 9, B419): alive and
    awake, but the consciousness roll is owed next turn too; the next `survive` rolls only that one."""
    first = treat("survive", faces(9) + faces(9) + faces(9), wounded())
    assert status_ids(first.target) == ["reeling"] and kinds(first.target) == ["knockdown", "consciousness"]
    second = treat("survive", faces(10), first.target)
    assert [r.label for r in second.rolls] == [
        "HT-2 roll to stay conscious (at 0 HP or less; -2: 2 full multiples of HP below zero)"]


def test_healing_above_zero_ends_the_consciousness_rolls() -> None:
    """Back above 0 HP no roll to stay conscious is owed."""
    state = dict(thaw(treat("survive", faces(9) + faces(9) + faces(9), wounded()).target))
    healed = treat("heal", [], state, hp=30)
    assert healed.target["current_hp"] == 2 and kinds(healed.target) == ["knockdown"]


def test_old_files_without_kind_are_knockdown_rolls_and_bad_kinds_are_refused() -> None:
    """A file saved before kinds existed: its owed roll is a knockdown roll. An unknown kind is an error."""
    old = dict(BERTRAM, owed_rolls=[{"roll": "ht", "modifier": 0, "why": "major wound"}])
    assert treat("survive", [], old).applied.summary == "no rolls owed for low HP"
    assert treat("knockdown", faces(9), old).applied.summary == "no knockdown"
    with pytest.raises(StateError, match=r"owed_rolls\[1\]\.kind"):
        treat("survive", [], dict(BERTRAM, owed_rolls=[{"roll": "ht", "kind": "hunger"}]))


DEATH_TRAITS = st.fixed_dictionaries({}, optional={
    "fragile": st.just(["unnatural"]),
    "hard_to_kill": st.integers(1, 5),
    "hard_to_subdue": st.integers(1, 5),
    "supernatural_durability": st.just(True),
    "unkillable": st.integers(1, 3),
})


@settings(max_examples=1000 if LONG else 100, deadline=None)
@given(DEATH_TRAITS, st.sampled_from([{}, {"high_pain_threshold": True}, {"low_pain_threshold": True}]),
       st.integers(1, 30), st.integers(-60, 0), st.sampled_from(["skull", "torso", "neck", "right-arm"]),
       st.sampled_from(["1d cr", "3d cut", "6d+10 cr", "12d imp", "20d cr"]), st.integers(0, 10_000))
def test_whoever_a_blow_kills_owes_no_roll_and_takes_no_shock(traits: dict[str, Any], pain: dict[str, bool], hp: int,
                                                             hurt: int, where: str, damage: str, seed: int) -> None:
    """The Basic Set's rolls after a blow (to stay conscious, to avoid death, against knockdown)
    and its shock are for the living: whatever the character's traits, HP and injuries so far, a
    blow that leaves him dead says death and owes nothing, and its outcome carries neither roll's
    event; one that leaves him alive never says dead."""
    target = {"hp": hp, "ht": 10, "current_hp": max(hp + hurt, -4 * hp + 1), "traits": traits, **pain}
    out = critcore.resolve("gurps", "critical-hit", damage=damage, location=where, target=target, seed=seed,
                           registry=REG)
    lines = out.applied.changes
    if "dead" in status_ids(out.target):
        assert kinds(out.target) == []
        assert not [c for c in lines if c.startswith("owes") or c.startswith("shock")]
        assert not {"knockdown-roll", "death-check"} & set(out.applied.tags)
    else:
        assert not [c for c in lines if c.endswith(": dead")]
