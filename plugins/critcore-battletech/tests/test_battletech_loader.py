"""The public .mtf loader (issue 15): critcore_battletech.load_mtf(path) -> dict, the same unit
data the CLI reads from an .mtf, usable straight away as a target; a broken file is a StateError."""

from __future__ import annotations

from pathlib import Path

import critcore
import pytest
from critcore.plugin import StateError
from critcore.testing import read_target

import critcore_battletech
import critcore_battletech.plugin as battletech
from critcore.testing import Registry

FIXTURES = Path(__file__).resolve().parent / "fixtures"
REG = Registry.installed(extra_systems={"battletech": battletech}, discover=False)


def test_load_mtf_gives_the_unit_the_cli_reads() -> None:
    path = FIXTURES / "legacy-biped-fb1l.mtf"
    unit = critcore_battletech.load_mtf(path)
    assert isinstance(unit, dict)
    same, fmt = read_target(str(path), lambda p, t: battletech.critcore_read_target(path=p, text=t, memo={}))
    assert fmt == "other" and unit == same
    assert critcore_battletech.loads_mtf(path.read_bytes(), str(path)) == unit


def test_a_loaded_unit_is_a_target() -> None:
    unit = critcore_battletech.load_mtf(str(FIXTURES / "legacy-biped-fb1l.mtf"))
    out = critcore.resolve("battletech", "critical", location="LT", target=unit, dice=[1, 1], registry=REG)
    assert out.target is not None and out.target["chassis"] == unit["chassis"]


def test_a_broken_file_is_a_state_error_naming_it(tmp_path: Path) -> None:
    bad = tmp_path / "broken.mtf"
    bad.write_text("this is no unit\n")
    with pytest.raises(StateError, match="broken.mtf"):
        critcore_battletech.load_mtf(bad)
