"""The example 'Mech BattleTech ships (issue 15): an original design in MegaMek's .mtf format that
the plugin's importer reads, with the structure a 45-ton 'Mech has (Total Warfare's internal
structure table: head 3, centre torso 14, side torsos 11, arms 7, legs 11)."""

from __future__ import annotations

import critcore
import critcore_battletech.plugin as battletech
from critcore.testing import Registry

from critcore_battletech import loads_mtf

REG = Registry.installed(extra_systems={"battletech": battletech}, discover=False)


def test_the_example_mech_imports() -> None:
    (example,) = battletech.critcore_examples()
    assert example.name == "quillback.mtf"
    unit = loads_mtf(example.text, example.name)
    assert (unit["chassis"], unit["model"], unit["tonnage"]) == ("Quillback", "QBK-3", 45)
    structure = {loc: unit["locations"][loc]["structure"] for loc in ("HD", "CT", "LT", "RT", "LA", "RA", "LL", "RL")}
    assert structure == {"HD": 3, "CT": 14, "LT": 11, "RT": 11, "LA": 7, "RA": 7, "LL": 11, "RL": 11}


def test_the_example_mech_takes_a_critical() -> None:
    unit = loads_mtf(battletech.critcore_examples()[0].text, "quillback.mtf")
    out = critcore.resolve("battletech", "critical", location="LT", target=unit, seed=7, registry=REG)
    assert out.target is not None and out.target["chassis"] == "Quillback"
