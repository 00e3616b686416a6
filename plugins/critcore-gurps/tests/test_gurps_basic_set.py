"""Basic Set rules behind the injury a blow does and what low HP demands (issue 28), each with
scripted dice and the page it comes from. Expected values are worked out here from the rule,
not read back from the plugin.
"""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest
from critcore.model import Outcome

from gurps_testkit import run

NORMAL = [4, 3, 3]  # 10 on the Critical Hit table: ordinary damage


def hit(dice: list[int], target: dict[str, Any] | None = None, **params: Any) -> Outcome:
    """A critical hit whose table roll is 10 (ordinary damage), then ``dice`` for the damage."""
    return run("critical-hit", NORMAL + dice, target, **params)


def crit(*args: str) -> subprocess.CompletedProcess[str]:
    """The installed ``crit`` command, as a user runs it."""
    return subprocess.run([sys.executable, "-m", "critcore", *args], capture_output=True, text=True, check=False)


# --- B419: shock ---------------------------------------------------------------------------------


def b419_shock(hp: int, injury: int) -> int:
    """B419, written out: -1 per point of injury; with 20 HP or more, -1 per full HP/10 points
    (HP/10 rounded down); never worse than -4."""
    if hp >= 20:
        per = hp // 10
        return min(4, injury // per)
    return min(4, injury)


def damage_for(injury: int) -> str:
    """Crushing damage whose one die, rolled 1, is exactly ``injury`` against DR 0 at the torso (x1)."""
    return "1d cr" if injury == 1 else f"1d+{injury - 1} cr"


@pytest.mark.parametrize("hp", range(10, 41))
def test_shock_follows_b419_for_every_hp_and_injury(hp: int) -> None:
    """HP 10-40 x injury 1-40: shock is B419's -1 per point, or per full HP/10 points from HP 20."""
    for injury in range(1, 41):
        out = hit([1], {"hp": hp}, damage=damage_for(injury), dr=0)
        assert out.applied.data["injury"] == injury, (hp, injury)
        assert out.applied.data["shock"] == b419_shock(hp, injury), (hp, injury)


def test_shock_hp_29_takes_minus_1_per_2_points() -> None:
    """The issue's case (B419): HP 29, HP/10 = 2.9 rounded down to 2, so 4 injury is -2 (not -1)."""
    out = hit([4], {"hp": 29}, damage="1d cr", dr=0)
    assert out.applied.data["shock"] == 2
    shock = [s for s in out.target["statuses"] if s["id"] == "shock"]
    assert shock[0]["penalty"] == -2


# --- B378: a fractional armor divisor against no DR --------------------------------------------


def test_fractional_divisor_gives_dr_0_a_dr_of_1() -> None:
    """B378: against an armor divisor of (0.5) a target with no DR counts as DR 1. 3d+10 cr
    rolled 4+3+3 = 10 + 10 = 20 against DR 0 at (0.5): 20 - 1 = 19 through, x1 at the torso = 19."""
    out = hit([4, 3, 3], {"hp": 50}, damage="3d+10 (0.5) cr", dr=0)
    assert (out.applied.data["dr"], out.applied.data["injury"]) == (1, 19)


def test_fractional_divisor_parameter_against_dr_0() -> None:
    """B378 with --armor-divisor 0.2: DR 0 still counts as DR 1. 2d cr rolled 3+3 = 6: 5 injury."""
    out = hit([3, 3], {"hp": 20}, damage="2d cr", dr=0, armor_divisor=0.2)
    assert (out.applied.data["dr"], out.applied.data["injury"]) == (1, 5)


def test_fractional_divisor_multiplies_dr_above_0() -> None:
    """B378: (0.5) doubles DR. DR 3 -> 6; 2d cr rolled 5+5 = 10: 4 injury. The least DR of 1 does
    not touch a DR that is already there."""
    out = hit([5, 5], {"hp": 20}, damage="2d (0.5) cr", dr=3)
    assert (out.applied.data["dr"], out.applied.data["injury"]) == (6, 4)


def test_a_divisor_of_2_leaves_dr_0_at_0() -> None:
    """The least DR is for fractional divisors only (B378): 2d (2) pi against DR 0 rolled 3+3: 6 injury."""
    out = hit([3, 3], {"hp": 20}, damage="2d (2) pi", dr=0)
    assert (out.applied.data["dr"], out.applied.data["injury"]) == (0, 6)


# --- how players write damage; what --help promises ---------------------------------------------


@pytest.mark.parametrize("text", ["2d(2) pi", "2d (2) pi", "2d( 2 )pi"])
def test_an_armor_divisor_may_follow_the_dice_with_no_space(text: str) -> None:
    """Players write "2d(2) pi" (B378's notation): DR 5 / 2 = 2.5 -> 2; 2d rolled 4+4 = 8: 6 injury."""
    out = hit([4, 4], {"hp": 20}, damage=text, dr=5)
    assert (out.applied.data["dr"], out.applied.data["injury"]) == (2, 6)


def test_the_cli_reads_2d_2_pi() -> None:
    done = crit("resolve", "gurps", "critical-hit", "--damage", "2d(2) pi", "--dr", "5", "--hp", "20",
                "--dice", "4,3,3,4,4")
    assert done.returncode == 0, done.stderr
    assert "against DR 2: 6 through" in done.stdout


@pytest.mark.parametrize("procedure,extra,low", [("attack", (), 3), ("spell", (), 3),
                                                 ("defense", ("--defense", "dodge"), 1)])
def test_skill_range_in_help_is_the_range_checked(procedure: str, extra: tuple[str, ...], low: int) -> None:
    """Attacks and spells need effective skill 3 or more (below 3 GURPS allows no roll), active
    defenses 1 or more: --help shows exactly the range that is then accepted and refused."""
    shown = crit("resolve", "gurps", procedure, "--help").stdout
    assert f"[range: {low} to 99]" in " ".join(shown.split())
    below = crit("resolve", "gurps", procedure, *extra, "--skill", str(low - 1), "--dice", "3,3,3")
    assert below.returncode == 2 and below.stdout == ""
    assert below.stderr.strip().splitlines() == [f"Error: --skill: {low - 1} is out of range (allowed: {low} to 99)"]
    lowest = crit("resolve", "gurps", procedure, *extra, "--skill", str(low), "--dice", "4,3,3")  # 10: misses by 7-9, no table
    assert lowest.returncode == 0, lowest.stderr


# --- B399: toxic damage to the skull -------------------------------------------------------------


def test_toxic_damage_to_the_skull_gets_none_of_the_skulls_rules() -> None:
    """B399: the skull's extra DR 2, its x4, its -10 to knockdown and the Critical Head Blow table
    do not apply to toxic damage. Critical hit roll 10 (the Critical Hit table, ordinary damage);
    3d tox rolled 6+6+6 = 18 against DR 2 (no +2): 16 through, x1 = 16 injury on HP 10, a major
    wound: a knockdown roll with no -10."""
    out = run("critical-hit", [4, 3, 3, 6, 6, 6], {"hp": 10, "ht": 10}, location="skull", damage="3d tox", dr=2)
    assert [r.label for r in out.rolls][0] == "critical hit table"
    assert out.effects[-1].table == "critical-hit"
    d = out.applied.data
    assert (d["dr"], d["wounding"], d["injury"], d["major"]) == (2, 1.0, 16, True)
    knock = [o["modifier"] for o in out.target["owed_rolls"] if o.get("kind") == "knockdown"]
    assert knock == [0]


def test_crushing_damage_to_the_skull_keeps_them() -> None:
    """The same blow as crushing (B399): the Critical Head Blow table (10: ordinary head damage),
    DR 2 + 2 = 4, 14 through x4 = 56, knockdown at -10."""
    out = run("critical-hit", [4, 3, 3, 6, 6, 6], {"hp": 10, "ht": 10}, location="skull", damage="3d cr", dr=2)
    assert out.effects[-1].table == "head-blow"
    d = out.applied.data
    assert (d["dr"], d["wounding"], d["injury"]) == (4, 4.0, 56)
    assert [o["modifier"] for o in out.target["owed_rolls"] if o.get("kind") == "knockdown"] == [-10]


def test_an_attack_with_toxic_damage_to_the_skull_rolls_on_the_critical_hit_table() -> None:
    """B399 in an attack: a critical hit (attack roll 3) on the skull with toxic damage rolls on the
    Critical Hit table: 3 there is triple damage. 1d tox rolled 2: 6, against DR 0: 6 injury."""
    out = run("attack", [1, 1, 1, 1, 1, 1, 2], {"hp": 10}, skill=12, location="skull", damage="1d tox", dr=0)
    assert out.effects[-1].table == "critical-hit" and out.effects[-1].id.startswith("triple")
    assert out.applied.data["injury"] == 6


def test_head_blow_refuses_toxic_damage_to_the_skull() -> None:
    """head-blow is the Critical Head Blow table; toxic damage to the skull never rolls on it (B399)."""
    done = crit("resolve", "gurps", "head-blow", "--damage", "1d tox", "--dice", "3,3,3,3")
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1 and "use critical-hit" in done.stderr
