"""A unit file that does not parse gives one StateError naming the file and the line:
``FILE, line N: what is wrong``. Each test breaks the legacy biped fixture in one way."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

import critcore_battletech.plugin
from critcore.testing import cli
from critcore.plugin import StateError
from critcore.testing import Registry
from critcore_battletech.mtf import parse_mtf
from critcore_battletech.units import unit_from_mtf
from bt_shared import kept_catalog

FIXTURES = Path(__file__).resolve().parent / "fixtures"
GOOD = (FIXTURES / "legacy-biped-fb1l.mtf").read_text(encoding="utf-8")
SOURCE = "broken.mtf"


def line_no(body: str, line: str) -> int:
    """The 1-based number of the first line of ``body`` that is exactly ``line``."""
    return body.splitlines().index(line) + 1


def broken(old: str, new: str, count: int = 1) -> str:
    assert old in GOOD
    return GOOD.replace(old, new, count)


def error_of(body: str) -> str:
    with pytest.raises(StateError) as info:
        unit_from_mtf(body, SOURCE, kept_catalog())
    message = str(info.value)
    assert "\n" not in message
    return message


def test_the_good_fixture_imports() -> None:
    assert unit_from_mtf(GOOD, SOURCE, kept_catalog())["chassis"] == "Fixture Biped"


@pytest.mark.parametrize("old, new, what", [
    ("mass:55", "mass:fifty-five", "'Mass:' needs a whole number of zero or more, not 'fifty-five'"),
    ("mass:55", "mass:55.5", "'Mass:' needs a whole number of zero or more, not '55.5'"),
    ("walk mp:5", "walk mp:-1", "'Walk MP:' needs a whole number of zero or more, not '-1'"),
    ("jump mp:3", "jump mp:three", "'Jump MP:' needs a whole number of zero or more, not 'three'"),
    ("LA armor:18", "LA armor:lots", "'LA Armor:' needs a whole number of zero or more, not 'lots'"),
    ("Weapons:8", "Weapons:eight", "'Weapons:' needs a whole number of zero or more, not 'eight'"),
])
def test_a_bad_number_names_its_line(old: str, new: str, what: str) -> None:
    body = broken(old, new)
    assert error_of(body) == f"{SOURCE}, line {line_no(body, new)}: {what}"


def test_an_engine_line_without_a_rating() -> None:
    body = broken("engine:275 Fusion Engine(IS)", "engine:Fusion Engine")
    assert error_of(body) == (f"{SOURCE}, line {line_no(body, 'engine:Fusion Engine')}: 'Engine:' should start with "
                              "the engine rating, like '300 Fusion Engine', not 'Fusion Engine'")


def test_a_heat_sink_line_without_a_count() -> None:
    body = broken("heat sinks:12 Single", "heat sinks:Single")
    assert error_of(body).startswith(f"{SOURCE}, line {line_no(body, 'heat sinks:Single')}: 'Heat Sinks:' should "
                                     "start with the number of heat sinks")


def test_an_unknown_location_header() -> None:
    body = broken("Left Arm:", "Left Wing:")
    message = error_of(body)
    assert message.startswith(f"{SOURCE}, line {line_no(body, 'Left Wing:')}: unknown location header 'Left Wing:'")


def test_a_location_of_another_configuration() -> None:
    body = broken("Right Leg:", "Rear Right Leg:")
    assert error_of(body).startswith(f"{SOURCE}, line {line_no(body, 'Rear Right Leg:')}: 'Rear Right Leg:' is not "
                                     "a location of a biped 'Mech")


def test_a_location_given_twice() -> None:
    body = broken("Right Leg:", "Left Leg:")
    second = [i + 1 for i, s in enumerate(body.splitlines()) if s == "Left Leg:"][1]
    assert error_of(body) == f"{SOURCE}, line {second}: a second 'Left Leg:' section (the first is at line " \
                             f"{line_no(body, 'Left Leg:')})"


def test_a_missing_location() -> None:
    start = GOOD.index("Head:\n")
    end = GOOD.index("Left Leg:\n")
    body = GOOD[:start] + GOOD[end:]
    last = len(body.splitlines())
    assert error_of(body) == f"{SOURCE}, line {last}: the file has no 'Head:' section (every biped 'Mech has one)"


def test_too_many_slot_lines_in_a_location() -> None:
    body = broken("ISCargo:SIZE:1.0\n-Empty-\n-Empty-\n-Empty-\n", "ISCargo:SIZE:1.0\n-Empty-\n-Empty-\n-Empty-\nFlamer\n")
    assert error_of(body) == (f"{SOURCE}, line {line_no(body, 'Flamer')}: too many slots in 'Left Arm': a location "
                              "has at most 12 slot lines, 'Flamer' would be the 13th")


def test_equipment_in_the_padding_of_a_six_slot_location() -> None:
    body = broken("Heat Sink\nJump Jet\n-Empty-\n", "Heat Sink\nJump Jet\nMedium Laser\n")
    number = line_no(body, "Right Leg:") + 7
    assert error_of(body) == (f"{SOURCE}, line {number}: too many slots: the Right Leg has 6 slots, but "
                              "'Medium Laser' would be slot 7")


def test_a_missing_mass_line() -> None:
    body = broken("mass:55\n", "")
    assert error_of(body) == (f"{SOURCE}, line {len(body.splitlines())}: the 'Mass:' line (the 'Mech's tonnage) "
                              "is missing")


def test_an_empty_mass_line() -> None:
    body = broken("mass:55", "mass:")
    assert error_of(body) == f"{SOURCE}, line {line_no(body, 'mass:')}: the 'Mass:' line (the 'Mech's tonnage) is empty"


@pytest.mark.parametrize("key", ["engine:275 Fusion Engine(IS)", "heat sinks:12 Single", "walk mp:5"])
def test_other_required_lines(key: str) -> None:
    body = broken(key + "\n", "")
    message = error_of(body)
    assert message.startswith(f"{SOURCE}, line {len(body.splitlines())}: the '") and message.endswith("is missing")


def test_a_tonnage_off_the_structure_table() -> None:
    body = broken("mass:55", "mass:57")
    assert error_of(body) == (f"{SOURCE}, line {line_no(body, 'mass:57')}: 57 tons is not on the internal structure "
                              "table (10 to 200 tons in steps of 5)")


def test_an_unknown_configuration() -> None:
    body = broken("Config:Biped", "Config:Wheeled")
    assert error_of(body).startswith(f"{SOURCE}, line {line_no(body, 'Config:Wheeled')}: unknown configuration "
                                     "'Wheeled'")


def test_an_unknown_armor_location() -> None:
    body = broken("LA armor:18", "LA armor:18\nXX armor:4")
    assert error_of(body).startswith(f"{SOURCE}, line {line_no(body, 'XX armor:4')}: unknown armor location 'XX'")


def test_a_missing_armor_line() -> None:
    body = broken("RTC armor:8\n", "")
    assert error_of(body) == (f"{SOURCE}, line {line_no(body, 'armor:Standard(Inner Sphere)')}: no 'RTC Armor:' "
                              "line (the rear armor of the Center Torso)")


def test_a_stray_line_outside_any_location() -> None:
    body = broken("Config:Biped", "this is not a key\nConfig:Biped")
    assert error_of(body) == (f"{SOURCE}, line {line_no(body, 'this is not a key')}: 'this is not a key' is not a "
                              "'key:value' line, a location header or a slot of a location")


def test_a_legacy_header_without_a_chassis() -> None:
    """The line after Version: is the chassis; here it is blank."""
    body = "Version:1.0\n" + GOOD.split("mul id:-1\n", 1)[1]
    assert body.splitlines()[1] == ""
    assert error_of(body) == f"{SOURCE}, line 2: no chassis name (a 'chassis:' line, or the line after 'Version:')"


def test_parse_mtf_raises_the_same_errors() -> None:
    with pytest.raises(StateError, match=r"^broken\.mtf, line 12: 'Mass:' needs a whole number"):
        parse_mtf(broken("mass:55", "mass:x"), SOURCE)


def test_the_cli_prints_one_line_with_file_and_line_and_exits_2(tmp_path: Path) -> None:
    """A broken .mtf given as --target: one clear line, exit code 2, nothing written."""
    path = tmp_path / "broken.mtf"
    path.write_text(broken("mass:55", "mass:x"), encoding="utf-8")
    registry = Registry.installed(extra_systems={"battletech": critcore_battletech.plugin}, discover=False)
    result = CliRunner().invoke(cli, ["show", "battletech", "--target", str(path)], obj=registry)
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and f"{path}, line 12: 'Mass:' needs a whole number" in lines[0]
    assert "Traceback" not in result.output + result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["broken.mtf"]


def test_the_cli_reads_a_good_mtf_file_as_the_unit_state(tmp_path: Path) -> None:
    path = tmp_path / "fb1l.mtf"
    path.write_text(GOOD, encoding="utf-8")
    registry = Registry.installed(extra_systems={"battletech": critcore_battletech.plugin}, discover=False)
    result = CliRunner().invoke(cli, ["show", "battletech", "--target", str(path), "--json"], obj=registry)
    assert result.exit_code == 0, result.output
    assert '"chassis": "Fixture Biped"' in result.output and '"RA-2"' in result.output
