"""The checks of critcore.testing on BattleTech: every table row can be rolled, every hook is one
critcore documents, and exact odds agree with simulation."""

from __future__ import annotations

from typing import Any

import pytest
from critcore import testing

import critcore_battletech.plugin as plugin


def test_every_battletech_table_row_comes_up_on_its_dice() -> None:
    """Hit location and Determining Critical Hits on 2d6, the slot half on 1d6, components on 1d30."""
    assert sorted(testing.check_tables_reachable(plugin)) == ["components", "critical-slot-half",
                                                              "determining-critical-hits", "hit-location"]


def test_battletech_implements_only_documented_hooks() -> None:
    assert "critcore_read_target" in testing.check_hooks_documented(plugin)


def by_row(branch: Any) -> Any:
    """An outcome by its rows and result: under exact odds a hit on one of several equal slots (an
    engine's six, say) is counted on the first of them, so which slot a state marks may differ
    from a simulated run while what it does does not."""
    applied = branch.applied
    return (branch.determination, branch.location, tuple(e.id for e in branch.effects),
            None if applied is None else (applied.summary, applied.tags))


@pytest.mark.parametrize("side", ["front", "rear", "left", "right"])
def test_hit_location_odds_agree_with_simulation(side: str) -> None:
    """Every outcome of the 2d6 hit location roll, whole, within 5 sigma."""
    assert testing.check_odds_agree(plugin, "hit-location", n=10_000, seed=1, side=side).checked == 11


@pytest.mark.parametrize("procedure, params", [("critical", {"location": "LT"}),
                                               ("damage", {"location": "CT", "amount": 30})])
def test_odds_on_a_unit_agree_with_simulation(mech: dict[str, Any], procedure: str, params: dict[str, Any]) -> None:
    """A critical check in the Testmech's left torso and 30 points into its centre torso."""
    agreement = testing.check_odds_agree(plugin, procedure, n=10_000, seed=2, key=by_row, target=mech, **params)
    assert agreement.checked > 5


def test_whole_outcomes_of_a_cascade_agree_with_simulation(mech: dict[str, Any]) -> None:
    """A simulation keeps of each state what exact odds keep (the cascade's and the slot choice's
    merge), so whole outcomes, state and all, are compared, not only their rows and result:
    30 points into the Testmech's centre torso, its explosions and checks."""
    agreement = testing.check_odds_agree(plugin, "damage", n=2_000, seed=3, target=mech, location="CT", amount=30)
    assert agreement.checked > 5
