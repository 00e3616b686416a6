"""Basic Set rules behind the injury a blow does and what low HP demands (issue 28), each with
scripted dice and the page it comes from. Expected values are worked out here from the rule,
not read back from the plugin.
"""

from __future__ import annotations

import subprocess
import sys
from types import SimpleNamespace
from typing import Any

import pytest
from click.testing import CliRunner
from critcore.plugin import Outcome
from critcore.testing import Registry, cli

import critcore_gurps.plugin as gurps

from gurps_testkit import run

NORMAL = [4, 3, 3]  # 10 on the Critical Hit table: ordinary damage


def hit(dice: list[int], target: dict[str, Any] | None = None, **params: Any) -> Outcome:
    """A critical hit whose table roll is 10 (ordinary damage), then ``dice`` for the damage."""
    return run("critical-hit", NORMAL + dice, target, **params)


def crit_process(*args: str) -> subprocess.CompletedProcess[str]:
    """The installed ``crit`` command, as a user runs it, in a process of its own."""
    return subprocess.run([sys.executable, "-m", "critcore", *args], capture_output=True, text=True, check=False)


def crit(*args: str) -> Any:
    """``crit`` in this process (click's runner, the GURPS system registered), answering as
    :func:`crit_process` does: ``returncode``, ``stdout``, ``stderr``. The rules checked here do
    not depend on the process boundary; test_the_cli_reads_2d_2_pi runs the installed command."""
    result = CliRunner().invoke(cli, list(args), obj=Registry.installed(extra_systems={"gurps": gurps}, discover=False))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return SimpleNamespace(returncode=result.exit_code, stdout=result.stdout, stderr=result.stderr)


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
    done = crit_process("resolve", "gurps", "critical-hit", "--damage", "2d(2) pi", "--dr", "5", "--hp", "20",
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


# --- B419: the roll to stay conscious, and Do Nothing ----------------------------------------------


def at_low_hp(current: int, hp: int = 10, ht: int = 10, **extra: Any) -> dict[str, Any]:
    """A character at ``current`` HP who owes this turn's roll to stay conscious."""
    return {"hp": hp, "ht": ht, "current_hp": current,
            "owed_rolls": [{"roll": "ht", "kind": "consciousness", "modifier": 0, "why": "at 0 HP or less"}], **extra}


def ids(out: Outcome) -> list[str]:
    return [s["id"] for s in out.target["statuses"]]


@pytest.mark.parametrize("current,penalty", [(0, 0), (-9, 0), (-10, -1), (-19, -1), (-20, -2), (-26, -2), (-49, -4)])
def test_consciousness_roll_is_at_minus_1_per_full_multiple_of_hp_below_zero(current: int, penalty: int) -> None:
    """B419: at 0 HP or less, the HT roll to stay conscious is at -1 per full multiple of HP below
    zero. HP 10, HT 10: a roll of exactly 10 + penalty stays conscious, one more falls unconscious."""
    from gurps_testkit import faces

    made = run("survive", faces(10 + penalty), at_low_hp(current))
    assert "unconscious" not in ids(made)
    failed = run("survive", faces(11 + penalty), at_low_hp(current))
    assert "unconscious" in ids(failed)


def test_the_issue_hp_10_at_minus_26_fails_a_roll_of_10() -> None:
    """The issue's case (B419): HP 10 at -26 rolls 10 against HT 10 - 2 = 8: unconscious."""
    out = run("survive", [4, 3, 3], at_low_hp(-26))
    assert out.rolls[0].label.startswith("HT-2 roll to stay conscious")
    assert "unconscious" in ids(out)


def test_do_nothing_needs_no_roll_to_stay_conscious() -> None:
    """B419: a character at 0 HP or less who takes only Do Nothing need not roll to stay conscious;
    the roll stays owed for the next turn. A roll to avoid death is made all the same (faces 3,3,3
    for it; none for consciousness)."""
    target = at_low_hp(-12)
    target["owed_rolls"].append({"roll": "ht", "kind": "death", "modifier": 0, "why": "down to -1xHP = -10 HP"})
    out = run("survive", [3, 3, 3], target, do_nothing=True)
    assert [r.label for r in out.rolls] == ["HT roll to avoid death (down to -1xHP = -10 HP)"]
    assert [o["kind"] for o in out.target["owed_rolls"]] == ["consciousness"]
    assert "unconscious" not in ids(out)
    assert any("Do Nothing" in line for line in out.applied.changes)


# --- B423: mortal wounds ---------------------------------------------------------------------------


def owes_death(ht: int = 10) -> dict[str, Any]:
    return {"hp": 10, "ht": ht, "current_hp": -10,
            "owed_rolls": [{"roll": "ht", "kind": "death", "modifier": 0, "why": "down to -1xHP = -10 HP"}]}


@pytest.mark.parametrize("roll,result", [(10, None), (11, "mortal-wound"), (12, "mortal-wound"), (13, "dead")])
def test_a_death_roll_failed_by_1_or_2_is_a_mortal_wound(roll: int, result: str | None) -> None:
    """B423: HT 10. 10 succeeds; 11 and 12 fail by 1 and 2: mortally wounded, not dead; 13 fails by 3: dead."""
    from gurps_testkit import faces

    out = run("survive", faces(roll), owes_death())
    found = [s for s in ids(out) if s in ("mortal-wound", "dead")]
    assert found == ([] if result is None else [result])


def test_a_critical_failure_on_the_death_roll_kills_even_by_2() -> None:
    """HT 16: 17 fails by 1 (an ordinary failure at 16): mortal wound; 18 fails by 2 but is a
    critical failure: dead (our reading, docs/systems/gurps.md)."""
    assert "mortal-wound" in ids(run("survive", [6, 6, 5], owes_death(16)))
    assert "dead" in ids(run("survive", [6, 6, 6], owes_death(16)))


def mortally_wounded() -> Any:
    return run("survive", [5, 3, 3], owes_death()).target  # 11: failed by 1


def test_a_mortal_wound_rolls_ht_every_half_hour_and_a_failure_kills() -> None:
    """B423: an HT roll every 30 minutes: 10 (made) and he lingers; 11 (failed) and he dies."""
    out = run("wait", [4, 3, 3, 5, 3, 3], mortally_wounded(), minutes=60)
    assert [r.label for r in out.rolls] == ["HT roll to avoid death (mortal-wound)"] * 2
    assert ids(out) == ["dead"]


def test_a_mortal_wound_ends_on_a_critical_success() -> None:
    """B423: a critical success (3 or 4) on the half-hourly roll: no longer mortally wounded."""
    out = run("wait", [1, 1, 2], mortally_wounded(), minutes=30)
    assert "mortal-wound" not in ids(out) and "dead" not in ids(out)
    lingers = run("wait", [3, 3, 3], mortally_wounded(), minutes=30)
    assert "mortal-wound" in ids(lingers)


# --- B419: reeling below 1/3 HP ------------------------------------------------------------------


@pytest.mark.parametrize("injury,reeling", [(7, False), (8, False), (9, True)])
def test_reeling_below_one_third_hp(injury: int, reeling: bool) -> None:
    """B419: with less than 1/3 of his HP left a character reels (Move and Dodge halved). HP 12:
    4 left is exactly 1/3 (not reeling); 3 left is less."""
    out = hit([1], {"hp": 12, "ht": 10}, damage=f"1d+{injury - 1} cr", dr=0)
    assert out.target["current_hp"] == 12 - injury
    assert ("reeling" in ids(out)) == reeling
    assert any("Move and Dodge halved" in c for c in out.applied.changes) == reeling


def test_healing_to_one_third_ends_reeling() -> None:
    """B419: back to 1/3 of the HP (4 of 12) he no longer reels."""
    hurt = hit([1], {"hp": 12, "ht": 10}, damage="1d+8 cr", dr=0).target  # 3 HP left
    one = run("heal", [], hurt, hp=1)
    assert one.target["current_hp"] == 4 and "reeling" not in ids(one)


def test_reeling_without_a_character_file_is_said() -> None:
    """No file: HP 10 assumed; 7 injury leaves 3 < 10/3: the outcome says he reels."""
    out = hit([1], damage="1d+6 cr", dr=0)
    assert "reeling: Move and Dodge halved (round up)" in out.applied.changes


# --- a dead character ---------------------------------------------------------------------------


def test_a_dead_character_is_refused(tmp_path: Any) -> None:
    """Dead is final (B423): the corpse is not struck again (as Shadowrun refuses "is dead"), and
    is not healed or rolled for; one line, exit 2, the file unchanged. Time still passes."""
    import json

    corpse = tmp_path / "corpse.json"
    text = json.dumps({"name": "Ned", "hp": 10, "current_hp": -126,
                       "statuses": [{"id": "dead", "duration": "permanent", "text": "dead"}]})
    corpse.write_text(text)
    for args in (("resolve", "gurps", "critical-hit", "--damage", "1d cr", "--dice", "3,3,3,3"),
                 ("resolve", "gurps", "attack", "--skill", "12", "--dice", "3,3,3"),
                 ("treat", "gurps", "heal", "--hp", "5")):
        done = crit(*args, "--target", str(corpse), "--save")
        assert done.returncode == 2 and done.stdout == "", args
        assert done.stderr.strip().splitlines() == [
            "Error: character: Ned is dead: a dead character is not struck, rolled for or treated again"]
    assert corpse.read_text() == text
    assert crit("treat", "gurps", "wait", "--minutes", "1", "--target", str(corpse)).returncode == 0
