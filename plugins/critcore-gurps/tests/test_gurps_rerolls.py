"""Every re-roll and "use another result" rule of the tables, each visible in the roll record."""

from __future__ import annotations

from typing import Any

import pytest
from critcore.plugin import Outcome

from gurps_testkit import faces, run





def labels(out: Outcome) -> list[str]:
    return [r.label for r in out.rolls]


def ids(out: Outcome) -> list[str]:
    return [e.id for e in out.effects]


def statuses(out: Outcome) -> list[str]:
    return [s["id"] for s in (out.target or {}).get("statuses", [])]


RESISTANT = ["fine", "magic", "solid_crushing", "firearm"]


@pytest.mark.parametrize("kind", RESISTANT)
def test_resistant_weapon_breaks_on_a_second_broken_result(kind: str) -> None:
    """Breakage-resistant weapons roll again; a second "broken" (here 17) really breaks them."""
    out = run("critical-miss", faces(3) + faces(17), target={}, **{kind: True})
    assert labels(out) == ["critical miss table", "critical miss table: roll again (breakage-resistant weapon)"]
    assert ids(out) == ["weapon-breaks-3-4", "weapon-breaks-17-18"]
    assert "weapon-broken" in statuses(out)


@pytest.mark.parametrize("kind", RESISTANT)
def test_resistant_weapon_is_dropped_on_any_other_second_result(kind: str) -> None:
    """A second roll of anything else (here 7, lose balance) means the weapon is only dropped."""
    out = run("critical-miss", faces(18) + faces(7), target={}, **{kind: True})
    assert ids(out) == ["weapon-breaks-17-18", "lose-balance-7", "resisted-breakage"]
    assert statuses(out) == ["dropped-weapon"]


def test_plain_weapon_breaks_without_a_re_roll() -> None:
    out = run("critical-miss", faces(4), target={})
    assert labels(out) == ["critical miss table"] and statuses(out) == ["weapon-broken"]


def test_cheap_weapon_breaks_on_9_to_11() -> None:
    for roll in (9, 10, 11):
        out = run("critical-miss", faces(roll), target={}, cheap=True)
        assert ids(out) == ["drop-weapon-9-11", "weapon-breaks-3-4"] and statuses(out) == ["weapon-broken"]
        assert out.effects[-1].data["treated_from"] == roll


def test_cheap_but_solid_crushing_weapon_still_rolls_again() -> None:
    """Cheap mace: 10 means "breaks, see 3", and 3 lets a resistant weapon roll again (12: dropped)."""
    out = run("critical-miss", faces(10) + faces(12), target={}, cheap=True, solid_crushing=True)
    assert labels(out)[-1] == "critical miss table: roll again (breakage-resistant weapon)"
    assert ids(out)[-1] == "resisted-breakage"


@pytest.mark.parametrize("params", [{"damage": "1d+2 imp"}, {"damage": "2d pi"}, {"damage": "1d pi-"},
                                    {"ranged": True}, {"ranged": True, "damage": "1d+1 cr"}])
def test_hit_yourself_rolls_again_for_piercing_impaling_melee_and_ranged(params: dict[str, Any]) -> None:
    """5 with an impaling/piercing melee attack or any ranged attack: roll again; a second
    hit-yourself (6: half damage) stands, and the side roll follows."""
    out = run("critical-miss", faces(5) + faces(6) + [2] + [3, 3, 3], **params)
    assert labels(out)[:2] == ["critical miss table",
                               "critical miss table: roll again (piercing or impaling melee, or ranged)"]
    assert ids(out) == ["hit-self-5", "hit-self-half-6"]
    assert out.effects[-1].data["location"] == "right-leg"  # side roll (1d2) 2: a leg


def test_hit_yourself_second_roll_of_something_else_is_used() -> None:
    """Re-rolled 5 with an impaling weapon gives 12 (weapon turns): that result is used."""
    out = run("critical-miss", faces(6) + faces(12), target={}, damage="1d+2 imp")
    assert ids(out) == ["hit-self-half-6", "weapon-turns-12"] and statuses(out) == ["weapon-unready"]


def test_hit_yourself_without_re_roll_for_a_cutting_swing() -> None:
    out = run("critical-miss", faces(5) + [1, 3, 3], damage="2d cut")
    assert labels(out) == ["critical miss table", "hit yourself: 1 arm, 2 leg", "damage (2d6 cut)"]
    assert out.effects[-1].data["location"] == "right-arm"
    assert out.applied.data["injury"] == 6  # 3+3 = 6 basic, no DR, x1.5 = 9, limb cap on 10 HP: 6


@pytest.mark.parametrize("params", [{"attack_kind": "thrust"}, {"ranged": True}, {"parrying": True}])
def test_14_drops_the_weapon_unless_swinging(params: dict[str, Any]) -> None:
    """Thrust, ranged attack or parry: 14 is "drop the weapon, as in 9"."""
    out = run("critical-miss", faces(14), target={}, **params)
    assert ids(out) == ["weapon-flies-14", "drop-weapon-9-11"] and statuses(out) == ["dropped-weapon"]
    assert labels(out) == ["critical miss table"]


def test_14_swung_weapon_flies_1d_yards() -> None:
    out = run("critical-miss", faces(14) + [6, 1], target={})
    assert labels(out)[1:] == ["weapon flies: yards", "weapon flies: 1 straight ahead, 2 straight back"]
    assert out.effects[-1].data["yards"] == 6 and out.effects[-1].data["direction"] == "ahead"


def test_16_on_a_ranged_attack_is_treated_as_7() -> None:
    out = run("critical-miss", faces(16), target={}, ranged=True)
    assert ids(out) == ["fall-down-16", "lose-balance-7"] and statuses(out) == ["lost-balance"]


def test_head_blow_6_7_treated_as_4_when_no_eye_can_be_hit() -> None:
    """2d cr = 6 at the skull, DR 0 + 2: row 4 halves DR rounding up (1): (6-1) x 4 = 20, major."""
    for roll in (6, 7):
        out = run("head-blow", faces(roll) + [3, 3], target={"hp": 10}, damage="2d cr", eye_impossible=True)
        assert ids(out) == ["eye-hit-6-7", "half-dr-major-4-5"]
        assert out.applied.data["location"] == "skull" and out.applied.data["injury"] == 20


def test_head_blow_eye_hit_from_the_face() -> None:
    """Aimed at the face, 6-7 lands on an eye: x4 and no skull DR."""
    out = run("head-blow", faces(6) + [1, 1], location="face", damage="2d cr", target={"hp": 10})
    assert out.applied.data["location"] == "eye" and out.applied.data["injury"] == 8


@pytest.mark.parametrize("roll", [7, 14])
def test_unarmed_stumble_on_a_parry_is_a_fall(roll: int) -> None:
    out = run("unarmed-miss", faces(roll), target={}, parrying=True)
    assert ids(out) == [f"stumble-{roll}", "fall-down-8"] and statuses(out) == ["prone"]


def test_unarmed_fall_for_those_who_cannot_fall_is_1d_minus_3_injury() -> None:
    """Snake or someone already down: 1d-3 general injury (rolled 6 -> 3)."""
    out = run("unarmed-miss", faces(8) + [6], target={"hp": 10}, footing="cannot-fall")
    assert labels(out)[-1] == "cannot fall: general injury"
    assert out.target["current_hp"] == 7 and "prone" not in statuses(out)


@pytest.mark.parametrize("footing", ["flying", "swimming"])
def test_unarmed_fall_for_fliers_and_swimmers_is_an_awkward_position(footing: str) -> None:
    out = run("unarmed-miss", faces(8), target={}, footing=footing)
    awkward = out.target["statuses"][0]
    assert awkward["id"] == "awkward-position" and awkward["attack"] == -4 and awkward["defense"] == -3


def test_armed_fall_down_for_a_flier_too() -> None:
    out = run("critical-miss", faces(16), target={}, footing="flying")
    assert statuses(out) == ["awkward-position"]


@pytest.mark.parametrize("iq,flees", [(3, True), (4, True), (5, True), (2, False), (6, False), (10, False)])
def test_unarmed_17_animal_of_iq_3_to_5_flees(iq: int, flees: bool) -> None:
    out = run("unarmed-miss", faces(17), target={"hp": 10}, iq=iq)
    assert ("fleeing" in statuses(out)) == flees
    assert ("strained" in statuses(out)) == (not flees)


def test_unarmed_6_natural_weapons_break() -> None:
    out = run("unarmed-miss", faces(6), target={"hp": 10}, natural_weapon=True, damage="1d cr")
    broken = out.target["statuses"][0]
    assert broken["id"] == "broken-natural-weapon" and broken["damage"] == -1 and broken["duration"] == "pending"
    assert out.target.get("current_hp", 10) == 10


def test_unarmed_5_against_a_ready_impaling_weapon_uses_that_damage_type() -> None:
    """Falling on the foe's spear: 1d+1 imp (rolled 3 -> 4), x2 on the torso -> 8."""
    out = run("unarmed-miss", faces(5) + [3], target={"hp": 10}, foe_impaling=True, damage="1d+1 imp", location="torso")
    assert out.target["current_hp"] == 2


@pytest.mark.parametrize("params,label", [
    ({}, "DX roll to stay standing (DX 12)"),
    ({"kick": True}, "DX roll to stay standing (DX 12-4)"),
    ({"technique_penalty": -4}, "DX roll to stay standing (DX 12-8)"),
])
def test_unarmed_12_trip_rolls_dx(params: dict[str, Any], label: str) -> None:
    """DX-4 for a kick, twice the technique's usual penalty (Jump Kick -4 -> DX-8)."""
    out = run("unarmed-miss", faces(12) + faces(14), target={"dx": 12}, **params)
    assert labels(out)[-1] == label
    falls = 14 > 12 + {"kick": -4, "technique_penalty": -8}.get(next(iter(params), ""), 0)
    assert ("prone" in statuses(out)) == falls


def test_unarmed_12_trip_success_keeps_feet() -> None:
    out = run("unarmed-miss", faces(12) + faces(9), target={"dx": 12})
    assert ids(out) == ["trip-12"] and statuses(out) == []


def test_defense_critical_success_makes_the_attacker_roll() -> None:
    out = run("defense", faces(3) + faces(10), skill=12, defense="parry")
    assert labels(out) == ["parry roll", "critical miss table"]
    assert ids(out) == ["drop-weapon-9-11"] and out.applied.target is None


def test_bare_handed_parry_critical_success_may_catch_a_thrown_weapon() -> None:
    out = run("defense", faces(4) + faces(10), skill=12, defense="parry", bare_handed=True)
    assert ids(out)[0] == "catch-thrown-weapon"


def test_defense_critical_failures() -> None:
    dodge = run("defense", faces(18), target={}, skill=12, defense="dodge")
    assert statuses(dodge) == ["prone"]
    block = run("defense", faces(18), target={}, skill=12, defense="block")
    assert statuses(block) == ["shield-unready"]
    parry = run("defense", faces(18) + faces(14), target={}, skill=12, defense="parry")
    assert ids(parry) == ["weapon-flies-14", "drop-weapon-9-11"]  # parrying: 14 is a drop
    bare = run("defense", faces(18) + faces(7), target={}, skill=12, defense="parry", bare_handed=True)
    assert ids(bare) == ["stumble-7", "fall-down-8"]  # unarmed table, parry: 7 is a fall


def test_attack_critical_hit_to_the_head_uses_the_head_blow_table() -> None:
    out = run("attack", faces(3) + faces(10), skill=12, location="face")
    assert labels(out) == ["attack roll", "critical head blow table"]
    body = run("attack", faces(3) + faces(10), skill=12, location="torso")
    assert labels(body) == ["attack roll", "critical hit table"]


def test_attack_critical_miss_unarmed_uses_the_unarmed_table() -> None:
    out = run("attack", faces(18) + faces(10), skill=12, unarmed=True)
    assert labels(out) == ["attack roll", "unarmed critical miss table"]


def test_random_location_is_rolled_and_can_reach_the_head() -> None:
    out = run("attack", faces(4) + faces(4) + faces(10), skill=12, location="random")
    assert labels(out) == ["attack roll", "hit location", "critical head blow table"]
    assert out.location.id == "skull"


def test_spell_critical_failure_rolls_on_the_spell_table() -> None:
    out = run("spell", faces(18) + faces(13), skill=12)
    assert labels(out) == ["casting roll", "critical spell failure table"] and ids(out) == ["reversed-13"]


def test_attackers_fumble_does_not_read_the_victims_file() -> None:
    """In `attack` the file is the victim's: his IQ 4 must not make the attacker flee on 17."""
    out = run("attack", faces(18) + faces(17), target={"hp": 10, "iq": 4}, skill=12, unarmed=True)
    assert ids(out) == ["strain-17"] and out.applied.target is None
