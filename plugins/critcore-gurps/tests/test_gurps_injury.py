"""Worked injury examples, each checked by hand (the arithmetic is in the docstring).

Rules used (GURPS Basic Set, Injury): basic damage minus DR (DR divided by the armor divisor,
fractions dropped) is the penetrating damage; times the wounding modifier of the damage type at
that location, rounded down, is the injury, at least 1 when anything got through. A limb is
crippled by injury over HP/2, an extremity over HP/3, an eye over HP/10; limbs and extremities
lose injury beyond the least amount that cripples them. A major wound is injury over HP/2.
Shock is -1 per point (per full HP/10 points, HP/10 rounded down, from 20 HP), at most -4.
"""

from __future__ import annotations

from typing import Any

import critcore
import pytest
from critcore.plugin import ParamError
from critcore.plugin import Outcome
from critcore.testing import Registry

import critcore_gurps.plugin as gurps
from critcore_gurps.damage import parse_damage

REG = Registry.installed(extra_systems={"gurps": gurps}, discover=False)
NORMAL = [4, 3, 3]  # 10 on the Critical Hit table: ordinary damage


def hit(dice: list[int], target: dict[str, Any] | None = None, **params: Any) -> Outcome:
    return critcore.resolve("gurps", "critical-hit", dice=NORMAL + dice, target=target, registry=REG, **params)


def owed(out: Outcome) -> list[int]:
    """Modifiers of the knockdown rolls owed (rolls for low HP are checked in test_gurps_collapse)."""
    return [o["modifier"] for o in out.target["owed_rolls"] if o.get("kind", "knockdown") == "knockdown"]


def test_cutting_blow_to_the_arm_is_capped_and_severs() -> None:
    """2d+1 cut rolled 6+6+1 = 13 against DR 2 on the right arm, HP 12:
    13 - 2 = 11 through, x1.5 = 16.5 -> 16. Crippling needs over 12/2 = 6, so the least is 7 and
    the arm takes 7 (the rest is lost). 16 >= 2 x 7 = 14: the arm is severed. HP 12 -> 5.
    Crippling is a major wound: an HT roll against knockdown, unmodified on an arm. Shock -4."""
    out = hit([6, 6], {"hp": 12, "ht": 11, "dr": 2}, damage="2d+1 cut", location="right-arm")
    d = out.applied.data
    assert (d["basic"], d["dr"], d["penetrating"], d["uncapped"], d["injury"]) == (13, 2, 11, 16, 7)
    assert d["crippled"] and d["dismembered"] and d["major"] and d["shock"] == 4
    assert out.target["current_hp"] == 5
    assert [s["id"] for s in out.target["statuses"]] == ["dismembered", "shock"]
    assert owed(out) == [0]


def test_impaling_arrow_to_the_vitals() -> None:
    """1d+2 imp rolled 4 -> 6, DR 1: 5 through, x3 at the vitals = 15 injury on HP 10: a major
    wound, knockdown roll at -5 (vitals). HP 10 -> -5."""
    out = hit([4], {"hp": 10, "ht": 10, "dr": 1}, damage="1d+2 imp", location="vitals")
    assert out.applied.data["injury"] == 15 and out.applied.data["major"]
    assert out.target["current_hp"] == -5 and owed(out) == [-5]


def test_armor_divisor_drops_fractions() -> None:
    """3d (2) pi rolled 4+4+4 = 12 against DR 5: 5 / 2 = 2.5 -> 2; 10 through, x1 = 10."""
    out = hit([4, 4, 4], {"hp": 10, "dr": 5}, damage="3d (2) pi")
    assert out.applied.data["dr"] == 2 and out.applied.data["injury"] == 10


def test_armor_divisor_parameter() -> None:
    """--armor-divisor 3: DR 9 -> 3; 2d cut rolled 3+3 = 6: 3 through, x1.5 = 4.5 -> 4."""
    out = hit([3, 3], {"hp": 10, "dr": 9}, damage="2d cut", armor_divisor=3)
    assert out.applied.data["dr"] == 3 and out.applied.data["injury"] == 4


def test_critical_hit_half_dr_rounds_down_after_the_divisor() -> None:
    """Critical hit 4: 2d (2) cut rolled 3+3 = 6 against DR 7: 7 / 2 = 3.5 -> 3, halved 1.5 -> 1;
    5 through, x1.5 = 7.5 -> 7."""
    out = critcore.resolve("gurps", "critical-hit", dice=[1, 1, 2, 3, 3], registry=REG, damage="2d (2) cut", dr=7)
    assert out.effects[0].id == "half-dr-4"
    assert out.applied.data["dr"] == 1 and out.applied.data["injury"] == 7


def test_head_blow_half_dr_rounds_up_after_the_divisor() -> None:
    """Head blow 17 at the skull: 2d (2) cut rolled 3+3 = 6, DR 7 + skull 2 = 9: 9 / 2 = 4.5 -> 4,
    halved rounding up = 2; 4 through, x4 at the skull = 16."""
    out = critcore.resolve("gurps", "head-blow", dice=[6, 6, 5, 3, 3], registry=REG, damage="2d (2) cut", dr=7)
    assert out.effects[0].id == "half-dr-17"
    assert out.applied.data["dr"] == 2 and out.applied.data["injury"] == 16


def test_small_piercing_that_gets_through_does_at_least_one() -> None:
    """1d pi- rolled 2 against DR 1: 1 through, x0.5 = 0.5 -> 0, but anything through does 1."""
    out = hit([2], {"hp": 10, "dr": 1}, damage="1d pi-")
    assert out.applied.data["penetrating"] == 1 and out.applied.data["injury"] == 1


def test_nothing_through_means_no_injury() -> None:
    out = hit([1, 1], {"hp": 10, "dr": 5}, damage="2d cut")
    assert out.applied.data["injury"] == 0 and "current_hp" not in out.target


def test_crushing_can_do_zero_basic_damage_other_types_at_least_one() -> None:
    """1d-3 rolled 1 is -2: crushing counts 0 basic, cutting 1 (x1.5 = 1.5 -> 1)."""
    assert hit([1], damage="1d-3 cr").applied.data["basic"] == 0
    cut = hit([1], damage="1d-3 cut")
    assert cut.applied.data["basic"] == 1 and cut.applied.data["injury"] == 1


@pytest.mark.parametrize("dtype,torso,neck,skull,face,limb", [
    # 1d rolled 4 -> 4 through (no DR; skull DR 2 leaves 2), HP 30 so the limb cap (16) never bites
    ("cr", 4, 6, 8, 4, 4),       # neck x1.5; skull x4 of 2
    ("cut", 6, 8, 8, 6, 6),      # cut x1.5 (6), neck x2 (8), skull x4 of 2 (8)
    ("imp", 8, 8, 8, 8, 4),      # imp x2; limbs cap imp at x1
    ("pi-", 2, 2, 8, 2, 2),      # x0.5 everywhere but the skull
    ("pi", 4, 4, 8, 4, 4),
    ("pi+", 6, 6, 8, 6, 4),      # x1.5; limbs x1
    ("pi++", 8, 8, 8, 8, 4),     # x2; limbs x1
    ("burn", 4, 4, 8, 4, 4),
    ("cor", 4, 6, 8, 6, 4),      # neck and face x1.5
    ("tox", 4, 4, 4, 4, 4),      # toxic: x1 even on the skull, and no skull DR 2 (B399)
])
def test_wounding_modifiers_by_type_and_location(dtype: str, torso: int, neck: int, skull: int, face: int,
                                                 limb: int) -> None:
    for where, want in (("torso", torso), ("neck", neck), ("skull", skull), ("face", face), ("left-leg", limb)):
        out = hit([4], {"hp": 30}, damage=f"1d {dtype}", location=where)
        assert out.applied.data["injury"] == want, (dtype, where)


def test_vitals_and_eye_multipliers() -> None:
    """1d pi rolled 4: vitals x3 = 12; eye x4 = 16 (no skull DR)."""
    assert hit([4], {"hp": 30}, damage="1d pi", location="vitals").applied.data["injury"] == 12
    assert hit([4], {"hp": 30}, damage="1d pi", location="eye").applied.data["injury"] == 16


def test_eye_is_blinded_over_hp_over_10() -> None:
    """1d pi- rolled 4: 4 through, x4 at the eye (its modifier replaces pi-'s x0.5) = 16.
    HP 20: over 20/10 = 2 blinds it; a major wound, knockdown at -10 (eye).
    HP 200: it takes over 20, so 16 does not blind it."""
    out = hit([4], {"hp": 20}, damage="1d pi-", location="eye")
    assert out.applied.data["injury"] == 16
    assert out.applied.data["crippled"] and owed(out) == [-10]
    big = hit([4], {"hp": 200}, damage="1d pi-", location="eye")
    assert not big.applied.data["crippled"]


def test_only_piercing_or_impaling_attacks_can_aim_at_eye_or_vitals() -> None:
    with pytest.raises(ParamError, match="cannot be aimed at the vitals"):
        hit([4], damage="1d cr", location="vitals")


def test_extremity_crippled_over_a_third_of_hp_and_capped() -> None:
    """HP 12, hand: over 12/3 = 4 cripples, so the least is 5. 2d cr rolled 5+4 = 9 -> capped at
    5, crippled (9 < 2 x 5: not destroyed). 5 is not over HP/2 = 6, but crippling is a major wound."""
    out = hit([5, 4], {"hp": 12}, damage="2d cr", location="hand")
    d = out.applied.data
    assert (d["uncapped"], d["injury"], d["crippled"], d["dismembered"], d["major"]) == (9, 5, True, False, True)


def test_major_wound_is_over_half_hp() -> None:
    """HP 12: 6 injury is not a major wound, 7 is."""
    assert not hit([3, 3], {"hp": 12}, damage="2d cr").applied.data["major"]
    assert hit([4, 3], {"hp": 12}, damage="2d cr").applied.data["major"]


def test_shock_caps_at_4_and_scales_from_20_hp() -> None:
    """HP 10: 9 injury -> -4. HP 25 (B419): -1 per HP/10 = 2 points (rounded down), so 7 injury
    -> 7 // 2 = 3 -> -3; 3 injury -> -1."""
    assert hit([5, 4], {"hp": 10}, damage="2d cr").applied.data["shock"] == 4
    assert hit([4, 3], {"hp": 25}, damage="2d cr").applied.data["shock"] == 3
    assert hit([2, 1], {"hp": 25}, damage="2d cr").applied.data["shock"] == 1


def test_critical_8_doubles_shock_to_minus_8_and_numbs_a_limb() -> None:
    """Row 8: 1d cr rolled 3 to the left leg, HP 10, HT 12: 3 injury, shock 3 x 2 = 6; the leg is
    numb for 16 - 12 = 4 seconds. HT 15: 16 - 15 = 1, but at least 2 seconds. 6 injury: 12 -> 8."""
    out = critcore.resolve("gurps", "critical-hit", dice=[2, 3, 3, 3], target={"hp": 10, "ht": 12}, registry=REG,
                           damage="1d cr", location="left-leg")
    assert out.applied.data["shock"] == 6 and out.applied.data["funny_bone_seconds"] == 4
    numb = [s for s in out.target["statuses"] if s["id"] == "funny-bone"][0]
    assert numb["until"] == 4 and numb["location"] == "left-leg"
    tough = critcore.resolve("gurps", "critical-hit", dice=[2, 3, 3, 3], target={"hp": 10, "ht": 15}, registry=REG,
                             damage="1d cr", location="left-leg")
    assert tough.applied.data["funny_bone_seconds"] == 2
    big = critcore.resolve("gurps", "critical-hit", dice=[2, 3, 3, 6, 6, 6], target={"hp": 10, "ht": 12}, registry=REG,
                           damage="3d cr", location="left-leg")
    assert big.applied.data["shock"] == 8 and big.applied.data["funny_bone_seconds"] == 0  # truly crippled


def test_critical_7_any_penetration_is_a_major_wound() -> None:
    """Row 7: 1 point through on a 10-HP torso is a major wound: an HT roll against knockdown."""
    out = critcore.resolve("gurps", "critical-hit", dice=[1, 3, 3, 1], target={"hp": 10}, registry=REG,
                           damage="1d cr", dr=0)
    assert out.applied.data["injury"] == 1 and out.applied.data["major"] and owed(out) == [0]


def test_head_and_vitals_shock_calls_for_a_knockdown_roll() -> None:
    """Face, 1 injury (not major) causes shock: an unmodified knockdown roll; torso: none."""
    face = hit([1], {"hp": 10}, damage="1d cr", location="face")
    assert owed(face) == [0]
    torso = hit([1], {"hp": 10}, damage="1d cr")
    assert owed(torso) == []


def test_major_wounds_to_face_skull_groin() -> None:
    """Major wound knockdown modifiers: skull -10, face -5, groin of a male -5, torso 0."""
    assert owed(hit([6, 6], {"hp": 10}, damage="2d cr", location="skull")) == [-10]
    assert owed(hit([6, 6], {"hp": 10}, damage="2d cr", location="face")) == [-5]
    assert owed(hit([6, 6], {"hp": 10, "male": True}, damage="2d cr", location="groin")) == [-5]
    assert owed(hit([6, 6], {"hp": 10}, damage="2d cr", location="groin")) == [0]


def test_male_groin_takes_double_crushing_shock() -> None:
    """2d cr rolled 3+2 = 5 to a male groin: shock 5 x 2 = 10, capped at 8."""
    assert hit([3, 2], {"hp": 10, "male": True}, damage="2d cr", location="groin").applied.data["shock"] == 8


def test_pain_thresholds() -> None:
    """High Pain Threshold: no shock, +3 to the knockdown roll. Low: double shock (to -8), -4."""
    high = hit([6, 6], {"hp": 10, "high_pain_threshold": True}, damage="2d cr")
    assert high.applied.data["shock"] == 0 and owed(high) == [3]
    low = hit([2, 1], {"hp": 10, "low_pain_threshold": True}, damage="2d cr")
    assert low.applied.data["shock"] == 6


def test_dr_per_location_from_the_target_file() -> None:
    out = hit([4, 4], {"hp": 10, "dr": {"torso": 5, "all": 1}}, damage="2d cr")
    assert out.applied.data["dr"] == 5
    arm = hit([4, 4], {"hp": 10, "dr": {"torso": 5, "all": 1}}, damage="2d cr", location="left-arm")
    assert arm.applied.data["dr"] == 1


@pytest.mark.parametrize("text,dice,dtype,divisor", [
    ("2d+1 cut", "2d6+1", "cut", 1.0), ("1d-1 cr", "1d6-1", "cr", 1.0), ("6d (2) pi", "6d6", "pi", 2.0),
    ("3d(0.5) pi++", "3d6", "pi++", 0.5), ("d imp", "1d6", "imp", 1.0),
])
def test_damage_expressions(text: str, dice: str, dtype: str, divisor: float) -> None:
    spec = parse_damage(text)
    assert (spec.expr.notation, spec.dtype, spec.divisor) == (dice, dtype, divisor)


@pytest.mark.parametrize("text", ["2d+1", "2d+1 slash", "lots cut", "2d (0) cut", "2d+1 cut extra"])
def test_bad_damage_expressions(text: str) -> None:
    with pytest.raises(ParamError, match="--damage"):
        hit([3, 3], damage=text)


def test_shock_from_several_blows_adds_up_to_the_cap() -> None:
    """Two blows in the same turn: 3 then 2 injury on 10 HP: -3, then -5 capped at -4."""
    first = hit([3], {"hp": 10}, damage="1d cr")
    second = hit([2], dict(first.target), damage="1d cr")
    shock = [s for s in second.target["statuses"] if s["id"] == "shock"]
    assert len(shock) == 1 and shock[0]["penalty"] == -4
