"""The command line: exit codes (0 done, 2 bad input on one line), --json, --save, discovery."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from critcore.testing import cli
from critcore.testing import Registry, scan_entry_points

import critcore_gurps.plugin as gurps

REG = Registry.installed(extra_systems={"gurps": gurps}, discover=False)


def crit(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), obj=REG)
    return result.exit_code, result.stdout, result.stderr


def test_the_installed_entry_point_is_discovered() -> None:
    found = scan_entry_points(["critcore.systems"])["critcore.systems"]
    assert found["gurps"].value == "critcore_gurps.plugin"


def test_attack_with_scripted_dice() -> None:
    code, out, _ = crit("resolve", "gurps", "attack", "--skill", "14", "--damage", "2d+1 cut", "--dice", "1,1,2,3,3,3,3,3")
    assert code == 0
    assert "critical hit" in out and "critical hit table" in out


def test_json_output_lists_rolls_effects_and_target() -> None:
    code, out, _ = crit("resolve", "gurps", "critical-miss", "--fine", "--dice", "1,1,1,6,6,6", "--json")
    data = json.loads(out)
    assert code == 0
    assert [r["label"] for r in data["rolls"]] == ["critical miss table",
                                                    "critical miss table: roll again (breakage-resistant weapon)"]
    assert [e["id"] for e in data["effects"]] == ["weapon-breaks-3-4", "weapon-breaks-17-18"]


@pytest.mark.parametrize("args,words", [
    (["attack", "--skill", "12", "--location", "elbow"], "unknown location 'elbow'"),
    (["attack", "--skill", "12", "--damage", "2d+1 slash"], "unknown damage type 'slash'"),
    (["attack", "--skill", "12", "--damage", "two dice cut"], "--damage"),
    (["attack", "--skill", "2"], "--skill: 2 is out of range"),
    (["attack", "--skill", "120"], "--skill: 120 is out of range"),
    (["head-blow", "--location", "torso"], "head-blow cannot use location 'torso'"),
    (["attack", "--skill", "12", "--location", "eye", "--damage", "2d cr"], "cannot be aimed at the eye"),
    (["attack"], "needs --skill"),
])
def test_bad_input_is_one_line_and_exit_2(args: list[str], words: str) -> None:
    code, out, err = crit("resolve", "gurps", *args, "--dice", "3,3,3")
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and words in lines[0]
    assert "Traceback" not in err


def test_treat_without_a_target_is_exit_2() -> None:
    code, _, err = crit("treat", "gurps", "wait", "--minutes", "30")
    assert code == 2 and "needs a target" in err


def test_save_updates_the_character_file_and_bad_files_change_nothing(tmp_path: Path) -> None:
    sheet = tmp_path / "hero.json"
    sheet.write_text(json.dumps({"name": "Hero", "hp": 10, "ht": 11}))
    code, _, _ = crit("resolve", "gurps", "unarmed-miss", "--target", str(sheet), "--save", "--dice", "1,1,1")
    assert code == 0
    saved = json.loads(sheet.read_text())
    assert saved["statuses"][0]["id"] == "knocked-out"
    code, out, _ = crit("treat", "gurps", "wait", "--minutes", "30", "--target", str(sheet), "--save", "--dice", "3,3,3")
    assert code == 0 and json.loads(sheet.read_text())["statuses"] == []
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"hp": "lots"}))
    code, _, err = crit("resolve", "gurps", "critical-hit", "--target", str(bad), "--save", "--damage", "1d cr",
                        "--dice", "3,3,4,3")
    assert code == 2 and 'hp: must be a whole number, not "lots"' in err
    assert json.loads(bad.read_text()) == {"hp": "lots"}


def test_show_lists_statuses(tmp_path: Path) -> None:
    sheet = tmp_path / "hero.json"
    sheet.write_text(json.dumps({"name": "Hero", "hp": 10, "statuses": [{"id": "prone", "ends_by": "stand"}]}))
    code, out, _ = crit("show", "gurps", "--target", str(sheet))
    assert code == 0 and "Hero: HP 10/10" in out and "status: prone" in out


def test_tables_command_lists_all_six_tables() -> None:
    code, out, _ = crit("tables", "gurps", "--json")
    assert code == 0
    assert {t["id"] for t in json.loads(out)} == {"critical-hit", "critical-miss", "head-blow", "unarmed-miss",
                                                  "spell-failure", "hit-location"}


@pytest.mark.parametrize("state,words", [
    ({"statuses": [{"id": "stunned", "check": {"roll": "ht", "every": 1, "next": "soon"}}]},
     'statuses[1].check.next: must be a whole number, not "soon"'),
    ({"statuses": [{"id": "strained", "until": 1.5}]}, "statuses[1].until: must be a whole number, not 1.5"),
    ({"statuses": [{"text": "no id"}]}, "statuses[1]: needs 'id'"),
    ({"statuses": [{"id": "x", "check": {"roll": "st", "every": 1, "next": 1}}]},
     'statuses[1].check.roll: "st" is not one of ht, iq, dx'),
    ({"owed_rolls": [{"modifier": "-5"}]}, "owed_rolls[1].modifier"),
    ({"clock": "noon"}, 'clock: must be a whole number, not "noon"'),
])
def test_broken_character_files_are_one_line_exit_2(tmp_path: Path, state: dict, words: str) -> None:
    sheet = tmp_path / "broken.json"
    sheet.write_text(json.dumps(state))
    code, _, err = crit("treat", "gurps", "wait", "--seconds", "1", "--target", str(sheet), "--save")
    assert code == 2 and words in err and len(err.strip().splitlines()) == 1
    assert json.loads(sheet.read_text()) == state


def test_hp_parameter_below_one_is_refused() -> None:
    code, _, err = crit("resolve", "gurps", "critical-hit", "--hp", "0", "--damage", "1d cr", "--dice", "3,3,4,3")
    assert code == 2 and "--hp: 0 is out of range (allowed: 1 to 10,000)" in err
