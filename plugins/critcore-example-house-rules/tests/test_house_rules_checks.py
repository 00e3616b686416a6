"""The checks of critcore.testing on the example rule plugins: every hook they implement is one
critcore documents, and with each rule enabled exact odds still agree with simulation (a rule
that rolled outside ctx.dice, or kept state between runs, would fail here)."""

from __future__ import annotations

import importlib

import pytest
from critcore import testing

RULES = {
    "floating-criticals": ("critcore_example_house_rules.floating_criticals", "critcore_locate"),
    "no-dud-criticals": ("critcore_example_house_rules.no_dud_criticals", "critcore_effect"),
    "toughness": ("critcore_example_house_rules.toughness", "critcore_determine"),
}


@pytest.mark.parametrize("name", sorted(RULES))
def test_rule_implements_only_documented_hooks(name: str) -> None:
    module, hook = RULES[name]
    assert hook in testing.check_hooks_documented(importlib.import_module(module))


@pytest.mark.parametrize("name, system, procedure, params", [
    ("floating-criticals", "critcore_battletech", "hit-location", {"side": "front"}),
    ("no-dud-criticals", "critcore_gurps", "critical-hit", {"damage": "1d cut"}),
    ("toughness", "critcore_shadowrun2", "wound", {"body": 3, "severity": "serious"}),
])
def test_odds_agree_with_simulation_with_the_rule(name: str, system: str, procedure: str,
                                                  params: dict[str, object]) -> None:
    plugin = pytest.importorskip(f"{system}.plugin")
    rule = importlib.import_module(RULES[name][0])
    agreement = testing.check_odds_agree(plugin, procedure, n=10_000, seed=4, rules={name: rule}, **params)
    assert agreement.checked > 0
