"""``crit odds --compare`` on each example house rule: each event with and without the rule,
side by side, and the exact difference, worked out by hand from the rule documents.

Plugin rules: toughness (one more Body die), floating criticals (a hit-location 2 rolled again),
no dud criticals (9-11 on the Critical Hit table does maximum damage). Rule files: the gentle
Shadowrun TNs, the cinematic GURPS critical range, Total Warfare ammunition explosions.
"""

from __future__ import annotations

import json
from fractions import Fraction
from importlib.resources import files
from pathlib import Path

import pytest
from click.testing import CliRunner

from critcore.testing import cli

EXAMPLES = Path(str(files("critcore_example_house_rules") / "examples"))
ATLAS = Path(__file__).resolve().parents[3].parent / "shared" / "mtf-samples" / "Atlas AS7-D.mtf"
D = Fraction(1, 216)


def compare(*args):
    result = CliRunner().invoke(cli, ["odds", *args, "--compare", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["kind"] == "odds-comparison"
    return {e["name"]: tuple(Fraction(e[k]["fraction"]) for k in ("with", "without", "difference"))
            for e in data["events"]}


def test_toughness_one_more_die_against_a_mortal_critical():
    """Body 3, a serious wound (TN 6): Mortal needs every die to fail, (5/6)^3 = 125/216; with
    toughness four dice, (5/6)^4 = 625/1296: 125/1296 less."""
    found = compare("shadowrun2", "wound", "--body", "3", "--severity", "serious", "--rule", "toughness")
    assert found["mortal"] == (Fraction(625, 1296), Fraction(125, 216), Fraction(-125, 1296))


def test_floating_criticals_move_the_through_armor_chance_without_changing_it():
    """A 2 (1/36) is rolled again; it floats unless the new roll is a 2 too: 1/36 x 35/36. The
    chance of a critical through the armor stays 1/36 either way."""
    found = compare("battletech", "hit-location", "--rule", "floating-criticals")
    assert found["floating-critical"] == (Fraction(35, 1296), 0, Fraction(35, 1296))
    assert found["through-armor-critical"] == (Fraction(1, 36), Fraction(1, 36), 0)


def test_no_dud_criticals_make_more_major_wounds():
    """Skill 16, 1d crushing to the torso of a 10 HP man: a major wound needs more than 5 injury,
    a 6 on the die. A critical hit (20/216) rolling 9-11 on the Critical Hit table (79/216) now
    does the maximum, 6: the major wounds grow by 20/216 x 79/216 x 5/6."""
    found = compare("gurps", "attack", "--skill", "16", "--damage", "1d cr", "--hp", "10",
                    "--rule", "no-dud-criticals")
    assert found["major-wound"][2] == 20 * D * 79 * D * Fraction(5, 6)
    assert found["critical-hit"] == (20 * D, 20 * D, 0)


def test_gentle_shadowrun_target_numbers():
    """Serious wound: TN 4 instead of 6, so a die succeeds half the time: Mortal (1/2)^3 = 1/8
    against 125/216."""
    found = compare("shadowrun2", "wound", "--body", "3", "--severity", "serious",
                    "--rule", str(EXAMPLES / "shadowrun2-gentle.toml"))
    assert found["mortal"] == (Fraction(1, 8), Fraction(125, 216), Fraction(1, 8) - Fraction(125, 216))


def test_cinematic_gurps_widens_the_critical_range():
    """At effective skill 20 a 7 is a critical success too: 3-7 is 1+3+6+10+15 = 35 of 216,
    against 20 of 216."""
    found = compare("gurps", "attack", "--skill", "20", "--rule", str(EXAMPLES / "gurps-cinematic.toml"))
    assert found["critical-hit"] == (35 * D, 20 * D, 15 * D)


@pytest.mark.skipif(not ATLAS.is_file(), reason="../shared/mtf-samples is not here")
def test_total_warfare_ammunition_explosions_destroy_the_atlas():
    """A bin of AC/20 ammunition holds 5 shots of 20: 100 damage instead of 20. In the Atlas's
    right torso (structure 21) it destroys the torso and passes 79 to the centre torso (31):
    the 'Mech is destroyed whenever a bin explodes, 53/540 (worked out in the BattleTech
    plugin's tests), against almost never."""
    found = compare("battletech", "critical", "--location", "RT", "--unit", str(ATLAS),
                    "--rule", str(EXAMPLES / "battletech-total-warfare.toml"))
    assert found["ammo-explosion"] == (Fraction(53, 540), Fraction(53, 540), 0)
    assert found["mech-destroyed"][0] == Fraction(53, 540)
    assert found["location-destroyed"][0] == Fraction(53, 540)
    assert found["mech-destroyed"][1] < Fraction(1, 10_000)
