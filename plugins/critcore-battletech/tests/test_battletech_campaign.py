"""A 'Mech in a campaign and in a saved file: the damage stays, undo restores the slots, and a
unit's own .mtf is never saved over the state saved from it earlier.

The Quillback (the example 'Mech we ship) carries an SRM 4 in left torso slot 1 and its ammunition
in slot 2. With the dice 5,5 on Determining Critical Hits (10: two critical hits), the slot rolls
3 (an empty slot: rolled again), 2 (the ammunition) and 1 (the SRM 4) knock out the launcher and
explode the bin: one turn of SRM-4 fire is 4 missiles x 2 = 8 damage to internal structure (the
rule document's 'Damage Value of one turn's worth of shots'), so the left torso's 11 structure
points fall to 3, and the MechWarrior takes 2 from the feedback. That damage asks for another
critical roll: 4,3 = 7, none.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import critcore_battletech.plugin as battletech
from critcore.testing import Campaign
from critcore.testing import cli
from critcore.testing import Registry

REG = Registry.installed(extra_systems={"battletech": battletech}, discover=False)
DICE = "5,5,3,2,1,4,3"


@pytest.fixture
def quillback(tmp_path: Path) -> Path:
    (example,) = battletech.critcore_examples()
    path = tmp_path / example.name
    path.write_text(example.text, encoding="utf-8")
    return path


def crit(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args), obj=REG)
    return result.exit_code, result.output


def left_torso(state: dict) -> tuple[int, list[bool], int]:
    lt = state["locations"]["LT"]
    return lt["structure"], [s["destroyed"] for s in lt["slots"][:2]], state["pilot"]["hits"]


def test_an_ammunition_explosion_stays_in_the_campaign_and_undo_restores_the_slots(quillback: Path,
                                                                                   tmp_path: Path) -> None:
    with Campaign.new(str(tmp_path / "critcore.db"), registry=REG) as camp:
        camp.add("battletech", "quillback", str(quillback))
        camp.resolve("quillback", "critical", location="LT", dice=DICE)
        assert left_torso(camp.state("quillback")) == (3, [True, True], 2)
        camp.undo("quillback")
        assert left_torso(camp.state("quillback")) == (11, [False, False], 0)
        camp.redo("quillback")
        assert left_torso(camp.state("quillback")) == (3, [True, True], 2)


def test_saving_the_mtf_twice_never_replaces_the_saved_damage(quillback: Path) -> None:
    code, out = crit("resolve", "battletech", "critical", "--location", "LT", "--unit", str(quillback),
                     "--dice", DICE, "--save")
    assert code == 0, out
    saved = quillback.with_suffix(".json")
    assert left_torso(json.loads(saved.read_text())) == (3, [True, True], 2)
    code, out = crit("resolve", "battletech", "critical", "--location", "LT", "--unit", str(quillback),
                     "--seed", "1", "--save")
    assert code == 2 and "already holds a saved state" in out and f"--target {saved}" in out
    assert left_torso(json.loads(saved.read_text())) == (3, [True, True], 2)
