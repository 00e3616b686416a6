"""The ready-to-use TOML house-rule files in the package (``critcore_example_house_rules/examples``):
each loads and changes what it says.

Expected values: the Shadowrun document's gentle TNs (light: no check, serious 4); GURPS
extended critical range (Compendium II: at effective skill 20 a 7 is a critical success) and the
Critical Miss table (17-18 breaks the weapon; 9-11 drops it, a cheap one breaks as on a 3);
BattleTech ammunition explosions (AC/20 ammunition: 20 damage a shot, 5 shots a ton; one turn's
worth is 20, every shot left is 100).
"""

from __future__ import annotations

import json
from pathlib import Path

import critcore
import pytest
from click.testing import CliRunner
from importlib.resources import files
from critcore.testing import cli
from critcore.testing import Engine

HERE = Path(__file__).resolve().parent
EXAMPLES = Path(str(files("critcore_example_house_rules") / "examples"))  # package data, as installed
SR_GENTLE = str(EXAMPLES / "shadowrun2-gentle.toml")
GURPS = str(EXAMPLES / "gurps-cinematic.toml")
BT_TW = str(EXAMPLES / "battletech-total-warfare.toml")
UNIT = str(HERE / "units" / "example-hr1.mtf")


@pytest.fixture(autouse=True)
def here(tmp_path, monkeypatch):
    monkeypatch.setenv("CRITCORE_CONFIG", str(tmp_path / "none.toml"))
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("path,system", [(SR_GENTLE, "shadowrun2"), (GURPS, "gurps"), (BT_TW, "battletech")])
def test_each_example_loads_for_its_system(path: str, system: str) -> None:
    engine = Engine(system, rules=[path])
    assert any(n.stage == "rules" and n.by == Path(path).stem for n in engine.rule_notes)


def test_shadowrun_gentle_tn_set() -> None:
    """Gentle TNs: a light wound is never checked; a serious one is checked against TN 4."""
    light = critcore.resolve("shadowrun2", "wound", seed=1, rules=[SR_GENTLE], body=3, severity="light")
    assert light.rolls == () and light.determination.critical is False
    serious = critcore.resolve("shadowrun2", "wound", dice="4,4,4", rules=[SR_GENTLE], body=3, severity="serious")
    assert serious.rolls[0].notation == "3d6 vs TN 4" and serious.determination.kind == "none"
    plain = critcore.resolve("shadowrun2", "wound", dice="4,4,4,3,4,2,3", body=3, severity="serious")
    assert plain.rolls[0].notation == "3d6 vs TN 6" and plain.determination.kind == "mortal"


def test_gurps_extended_critical_range() -> None:
    """Skill 20: a 7 is a critical hit with the extended range, an ordinary hit as written."""
    ruled = critcore.resolve("gurps", "attack", dice="3,2,2,4,3,3", skill=20, rules=[GURPS])
    plain = critcore.resolve("gurps", "attack", dice="3,2,2", skill=20)
    assert ruled.determination.kind == "critical-hit" and plain.determination.kind == "hit"


def test_gurps_fumble_17_18_drops_the_weapon() -> None:
    """18 on the Critical Miss table: dropped with the rule, broken as written; a cheap weapon
    still breaks (treated as a 3)."""
    ruled = critcore.resolve("gurps", "critical-miss", dice="6,6,6", rules=[GURPS])
    assert ruled.effects[-1].code == "drop-weapon" and ruled.effects[-1].data["changed_by"] == "gurps-cinematic"
    plain = critcore.resolve("gurps", "critical-miss", dice="6,6,6")
    assert plain.effects[-1].code == "weapon-breaks"
    cheap = critcore.resolve("gurps", "critical-miss", dice="6,6,6", cheap=True, rules=[GURPS])
    assert cheap.effects[-1].id == "weapon-breaks-3-4"


def test_gurps_tables_marks_the_changed_row() -> None:
    result = CliRunner().invoke(cli, ["tables", "gurps", "critical-miss", "--rule", GURPS])
    assert result.exit_code == 0
    marked = [line for line in result.output.splitlines() if line.startswith("*")]
    assert len(marked) == 1 and "17-18" in marked[0] and "changed by gurps-cinematic" in marked[0]


# Right Torso critical: 8 on Determining Critical Hits (one critical), lower half (4), slot 5 of
# 7-12 = slot 11, the AC/20 ammunition bin; then a Center Torso check (1+1 = 2: no critical).
EXPLOSION = ["resolve", "battletech", "critical", "--location", "RT", "--target", UNIT, "--dice", "4,4,4,5,1,1"]


def test_battletech_total_warfare_explosion() -> None:
    """Per turn (as written): one AC/20 shot, 20 damage. Total Warfare: all 5 shots, 100, which
    destroys the right torso (12 structure) and the centre torso behind it (16): the 'Mech dies."""
    plain = CliRunner().invoke(cli, EXPLOSION + ["--json"])
    # the 'Mech destroyed, the rule's run rolls no more after 4,4,4,5 (faces left over are refused)
    ruled = CliRunner().invoke(cli, EXPLOSION[:-1] + ["4,4,4,5", "--json", "--rule", BT_TW])
    assert plain.exit_code == 0 and ruled.exit_code == 0, ruled.output
    plain_data, ruled_data = json.loads(plain.stdout), json.loads(ruled.stdout)
    assert [e["explosion_damage"] for e in plain_data["effects"] if "explosion_damage" in e] == [20]
    assert [e["explosion_damage"] for e in ruled_data["effects"] if "explosion_damage" in e] == [100]
    assert not plain_data["target"]["destroyed"] and ruled_data["target"]["destroyed"]


def test_example_for_another_system_is_ignored() -> None:
    """A campaign may list every example: each applies only to its own system."""
    engine = Engine("gurps", rules=[SR_GENTLE, GURPS, BT_TW])
    assert engine.options["extended_critical_range"] is True
    assert {n.by for n in engine.rule_notes} == {"gurps-cinematic"}
