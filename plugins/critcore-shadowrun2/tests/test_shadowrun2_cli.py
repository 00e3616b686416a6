"""The command line: bad input is one line and exit 2 with the character file unchanged; the
player's view keeps the GM's secrets; a whole session (wound, diagnose, treat, heal) works."""

from __future__ import annotations

import json
from pathlib import Path

import critcore_shadowrun2.plugin as sr2
import pytest
from click.testing import CliRunner, Result
from critcore.testing import cli
from critcore.testing import Registry, scan_entry_points

REG = Registry.installed(extra_systems={"shadowrun2": sr2}, discover=False)

SLOT = """name = "Slot"
body = 4
physical = 6
stun = 3
clock = 0

[[criticals]]
id = 1
lethality = "crippling"
boxes = 6
location = "chest"
location_name = "chest"
part = "lung"
cause = "IB"
diagnosis_tn = 4
diagnosed = true
"""


def crit(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args), obj=REG)


@pytest.fixture
def slot(tmp_path: Path) -> Path:
    path = tmp_path / "slot.toml"
    path.write_text(SLOT, encoding="utf-8")
    return path


@pytest.mark.parametrize("args,message", [
    (["resolve", "shadowrun2", "wound", "--body", "0", "--severity", "serious", "--dice", "6"], "--body: 0"),
    (["resolve", "shadowrun2", "wound", "--severity", "grave", "--dice", "6,6,6,6"], "'--severity': 'grave' is not one of"),
    (["treat", "shadowrun2", "heal-magic", "--successes", "10", "--allocate", "physical=6,1=6"],
     "12 successes allocated"),
    (["treat", "shadowrun2", "heal-magic", "--successes", "3", "--split", "half"], "--split"),
    (["treat", "shadowrun2", "medic", "--biotech", "3", "--dice", "6,6,6"], "Crippling"),
    (["treat", "shadowrun2", "advance", "--minutes", "-5"], "--minutes: -5.0 is out of range (allowed: 0 to"),
    (["treat", "shadowrun2", "advance", "--weeks", "inf"], "--weeks: 'inf' is not a valid finite number"),
    (["treat", "shadowrun2", "advance", "--weeks", "nan"], "--weeks: 'nan' is not a valid finite number"),
    (["treat", "shadowrun2", "advance", "--weeks", "1e308"], "--weeks: 1e+308 is out of range (allowed: 0 to 520)"),
])
def test_bad_input_one_line_exit_2_file_unchanged(slot: Path, args: list[str], message: str) -> None:
    """Body 0, an unknown severity, more successes allocated than rolled (and friends): one line
    on stderr, exit code 2, no traceback, and --save leaves the character file as it was."""
    before = slot.read_bytes()
    result = crit(*args, "--character", str(slot), "--save")
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0]
    assert "Traceback" not in result.output
    assert slot.read_bytes() == before


def test_broken_character_file_is_one_line(tmp_path: Path) -> None:
    """A character file that does not fit (boxes out of range) is named in one line, exit 2."""
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"body": 4, "physical": 12}), encoding="utf-8")
    before = path.read_bytes()
    result = crit("treat", "shadowrun2", "advance", "--minutes", "1", "--character", str(path), "--save")
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [f"Error: {path}: physical: 12 is out of range (0 to 10)"]
    assert path.read_bytes() == before


def test_player_view_hides_the_critical(slot: Path) -> None:
    """Secrecy: the GM sees lethality, location and time before death; the player only the wound."""
    args = ["resolve", "shadowrun2", "wound", "--severity", "serious", "--dice", "1,2,3,4,3,4,5,3",
            "--character", str(slot)]
    gm = crit(*args, "--view", "gm")
    player = crit(*args, "--view", "player")
    assert gm.exit_code == 0 and player.exit_code == 0, gm.output + player.output
    assert "MORTAL" in gm.output and "heart" in gm.output and "1 min" in gm.output
    for secret in ("ortal", "heart", "chest", "TN", "success", "min", "death"):
        assert secret not in player.stdout
    assert "serious wound" in player.stdout


def test_player_view_of_a_medic_shows_no_lethality(slot: Path) -> None:
    """The player learns the treatment worked, not what lethality it had."""
    text = slot.read_text().replace('"crippling"', '"mortal"').replace("boxes = 6", "boxes = 10\ndeath_at = 3600")
    slot.write_text(text)
    result = crit("treat", "shadowrun2", "medic", "--biotech", "3", "--dice", "6,6,6", "--character", str(slot),
                  "--view", "player")
    assert result.exit_code == 0, result.output
    assert "ortal" not in result.stdout and "rippl" not in result.stdout and "lung" in result.stdout


def test_worked_session(tmp_path: Path) -> None:
    """Wound, diagnose, treat, heal with magic, let time pass: the file follows along."""
    path = tmp_path / "ghost.json"
    path.write_text(json.dumps({"name": "Ghost", "body": 5}), encoding="utf-8")
    base = ["--character", str(path), "--save"]
    # Body 5 vs serious (TN 6): one success -> Crippling; 2d6 = 10 left arm; 1d6 = 2 upper arm.
    r = crit("resolve", "shadowrun2", "wound", "--severity", "serious", "--dice", "6,1,2,3,4,4,6,2", *base)
    assert r.exit_code == 0, r.output
    state = json.loads(path.read_text())
    assert state["physical"] == 6
    assert state["criticals"][0]["part"] == "upper arm" and state["criticals"][0]["crippled"] is True
    # Open wound, 4*: the medic finds it on sight.
    r = crit("treat", "shadowrun2", "diagnose", "--biotech", "3", *base)
    assert r.exit_code == 0, r.output
    assert json.loads(path.read_text())["criticals"][0]["diagnosed"] is True
    # A medic cannot treat a Crippling critical.
    r = crit("treat", "shadowrun2", "medic", "--biotech", "3", "--dice", "6,6,6", *base)
    assert r.exit_code == 2
    # A shaman's 8 successes: 6 to the arm, 2 to the wound.
    r = crit("treat", "shadowrun2", "heal-magic", "--successes", "8", "--allocate", "1=6,physical=2", *base)
    assert r.exit_code == 0, r.output
    state = json.loads(path.read_text())
    assert state["physical"] == 4 and state["criticals"] == []
    r = crit("show", "shadowrun2", "--target", str(path))
    assert r.exit_code == 0 and "Physical 4/10 (moderate)" in r.output


def test_show_lists_criticals_and_modifiers(slot: Path) -> None:
    """`crit show` prints the tracks, each critical and the total modifier."""
    r = crit("show", "shadowrun2", "--target", str(slot))
    assert r.exit_code == 0, r.output
    assert "critical #1 lung (chest): Crippling" in r.output
    assert "total modifier +8 (Physical +3, Stun +2, critical #1 +3)" in r.output


def test_save_keeps_toml(slot: Path) -> None:
    """A TOML character stays TOML after --save."""
    r = crit("treat", "shadowrun2", "advance", "--minutes", "2", "--character", str(slot), "--save")
    assert r.exit_code == 0, r.output
    assert "clock = 120" in slot.read_text()


def test_entry_point_is_installed() -> None:
    """The installed distribution registers the entry point critcore.systems: shadowrun2."""
    found = scan_entry_points(["critcore.systems"])["critcore.systems"]
    assert "shadowrun2" in found
    assert found["shadowrun2"].value.strip() == "critcore_shadowrun2.plugin"
