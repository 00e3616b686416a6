"""The command line with the BattleTech plugin: resolve with --unit and --save, treat, show,
bad input (one line, exit 2, no file changed), and the installed entry point."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from critcore.testing import cli
from bt_shared import SAMPLES

UNITS = Path(__file__).resolve().parent / "units"


@pytest.fixture
def unit_file(tmp_path):
    path = tmp_path / "u.json"
    shutil.copy(UNITS / "testmech-tm1.json", path)
    return path


def invoke(registry, *args):
    return CliRunner().invoke(cli, list(args), obj=registry)


def test_resolve_critical_and_save(bt_registry, unit_file):
    """crit resolve battletech critical --location LT --unit u.json --dice ... --save: the heat sink
    in slot 9 is destroyed and the file says so; the report shows the derived numbers."""
    res = invoke(bt_registry, "resolve", "battletech", "critical", "--location", "LT", "--unit", str(unit_file),
                 "--dice", "4,4,4,3", "--save")
    assert res.exit_code == 0, res.output
    saved = json.loads(unit_file.read_text())
    assert saved["locations"]["LT"]["slots"][8]["destroyed"]
    assert saved["damage"]["heat_sinks_destroyed"] == 1
    assert "dissipation 11" in res.output and "saved:" in res.output


def test_json_output_carries_rolls_effects_and_target(bt_registry, unit_file):
    res = invoke(bt_registry, "resolve", "battletech", "critical", "--location", "HD", "--unit", str(unit_file),
                 "--dice", "4,4,3", "--json")
    data = json.loads(res.output)
    assert [r["total"] for r in data["rolls"]] == [8, 3]
    assert [e["id"] for e in data["effects"]] == ["one", "cockpit"]
    assert data["target"]["destroyed"] is True


def test_damage_command(bt_registry, unit_file):
    res = invoke(bt_registry, "resolve", "battletech", "damage", "--location", "CT", "--amount", "10", "--rear",
                 "--unit", str(unit_file), "--dice", "1,1")
    assert res.exit_code == 0, res.output
    assert "Center Torso rear armor 8 -> 0" in res.output


def test_hit_location_command(bt_registry):
    res = invoke(bt_registry, "resolve", "battletech", "hit-location", "--side", "left", "--dice", "6,6")
    assert res.exit_code == 0 and "Head" in res.output


def test_treat_says_there_is_no_repair_procedure(bt_registry):
    """crit treat battletech: the rules have no repair procedure (said clearly, exit 0)."""
    res = invoke(bt_registry, "treat", "battletech")
    assert res.exit_code == 0
    assert "no repair" in res.output


def test_show_unit(bt_registry, unit_file):
    res = invoke(bt_registry, "show", "battletech", "--target", str(unit_file))
    assert res.exit_code == 0
    assert "Testmech TM-1" in res.output and "MP: walk 5, run 8, jump 3" in res.output


def test_unit_file_that_does_not_parse(bt_registry, tmp_path):
    """A unit file that does not parse: one line with the file and line number, exit 2."""
    bad = tmp_path / "bad.json"
    bad.write_text('{\n "kind": "battletech-mech",\n "locations": {,\n}\n')
    res = invoke(bt_registry, "resolve", "battletech", "critical", "--location", "LT", "--unit", str(bad),
                 "--dice", "4,4,1,1", "--save")
    assert res.exit_code == 2
    lines = [ln for ln in res.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and str(bad) in lines[0] and "line 3" in lines[0]
    assert "Traceback" not in res.output


def test_not_a_battletech_unit(bt_registry, tmp_path):
    other = tmp_path / "pc.json"
    other.write_text('{"hp": 10}')
    before = other.read_text()
    res = invoke(bt_registry, "resolve", "battletech", "critical", "--location", "LT", "--unit", str(other),
                 "--dice", "4,4,1,1", "--save")
    assert res.exit_code == 2 and "not a BattleTech 'Mech unit" in res.output
    assert other.read_text() == before


def test_location_the_unit_lacks(bt_registry, tmp_path):
    path = tmp_path / "q.json"
    shutil.copy(UNITS / "testquad-tq1.json", path)
    res = invoke(bt_registry, "resolve", "battletech", "critical", "--location", "LA", "--unit", str(path),
                 "--dice", "4,4,1")
    assert res.exit_code == 2 and "has no location LA" in res.output


def test_not_enough_dice_changes_nothing(bt_registry, unit_file):
    before = unit_file.read_text()
    res = invoke(bt_registry, "resolve", "battletech", "critical", "--location", "LT", "--unit", str(unit_file),
                 "--dice", "4,4", "--save")
    assert res.exit_code == 2 and unit_file.read_text() == before


def test_broken_mtf_file(bt_registry, tmp_path):
    """A broken .mtf: the importer's one line with file and line, exit 2."""
    pytest.importorskip("critcore_battletech.units")
    bad = tmp_path / "broken.mtf"
    bad.write_text("Version:1.0\nBroken\nX-1\n\nConfig:Biped\nmass:abc\n")
    res = invoke(bt_registry, "show", "battletech", "--target", str(bad))
    assert res.exit_code == 2 and str(bad) in res.output and "line" in res.output


@pytest.mark.skipif(not SAMPLES.is_dir(), reason="the shared .mtf samples are not here")
def test_worked_example_atlas(bt_registry, tmp_path):
    """The docs' worked example: an Atlas AS7-D takes a critical in the right torso (8: one
    critical; 4 then 5: slot 11, an AC/20 ammunition bin, 5 shots). The bin explodes for one
    turn's worth, 20, to internal structure (21 -> 1); the MechWarrior takes 2; the check
    rolls 5 (no critical)."""
    pytest.importorskip("critcore_battletech.units")
    res = invoke(bt_registry, "resolve", "battletech", "critical", "--location", "RT", "--unit",
                 str(SAMPLES / "Atlas AS7-D.mtf"), "--dice", "4,4,4,5,2,3", "--json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["target"]["locations"]["RT"]["structure"] == 1
    assert data["target"]["pilot"]["hits"] == 2
    assert [e["id"] for e in data["effects"]] == ["one", "ammo", "none"]


def test_entry_point_is_installed():
    """The installed distribution declares the battletech system entry point."""
    from critcore.testing import scan_entry_points

    spec = scan_entry_points(["critcore.systems"])["critcore.systems"]["battletech"]
    assert spec.value == "critcore_battletech.plugin" and spec.dist == "critcore-battletech"


@pytest.mark.skipif(not SAMPLES.is_dir(), reason="the shared .mtf samples are not here")
@pytest.mark.parametrize("options", [{}, {"explosion_damage": "total-warfare", "case": True, "slot_reroll": "both",
                                          "no_slot_left": "transfer"}])
def test_every_sample_takes_criticals_and_damage_everywhere(bt_registry, options):
    """Every real sample 'Mech takes criticals and damage in every location (seeded dice) and the
    new state keeps the unit's shape; nothing raises."""
    pytest.importorskip("critcore_battletech.units")
    from critcore.testing import Engine
    from critcore_battletech.units import unit_from_mtf

    engine = Engine("battletech", registry=bt_registry, options=options)
    for path in sorted(SAMPLES.glob("*.mtf")):
        unit = unit_from_mtf(path.read_text(encoding="utf-8"), str(path))
        for loc in unit["locations"]:
            for seed in range(5):
                out = engine.run("critical", {"location": loc}, seed=seed, target=unit)
                assert set(out.target["locations"]) == set(unit["locations"])
                out = engine.run("damage", {"location": loc, "amount": 30}, seed=seed, target=unit)
                assert out.target["locations"][loc]["structure"] <= unit["locations"][loc]["structure"]
