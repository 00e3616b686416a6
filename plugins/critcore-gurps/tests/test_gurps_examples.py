"""The example fighter GURPS ships (issue 15): Sir Bertram as docs/systems/gurps.md describes him,
read by the plugin as a character file."""

from __future__ import annotations

import json

import critcore

from critcore_gurps.plugin import critcore_examples
from gurps_testkit import REG, faces


def test_bertram_is_the_documented_knight() -> None:
    (example,) = critcore_examples()
    assert example.name == "bertram.json"
    bertram = json.loads(example.text)
    assert (bertram["hp"], bertram["ht"], bertram["dr"]["torso"], bertram["dr"]["skull"]) == (12, 11, 4, 4)


def test_bertram_takes_a_critical() -> None:
    """Critical Hit table 10 (normal damage), 1d cr rolled 6 against DR 4 on the torso: 2 injury."""
    bertram = json.loads(critcore_examples()[0].text)
    out = critcore.resolve("gurps", "critical-hit", damage="1d cr", target=bertram, dice=faces(10) + [6], registry=REG)
    assert out.target["current_hp"] == 10
