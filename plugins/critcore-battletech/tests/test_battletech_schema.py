"""The BattleTech unit's declared schema (critcore_battletech/data/target-schema.toml), checked
by critcore before any stage runs (issue 11, part 2).

The issue found edited saved unit JSON ending in tracebacks (``walk_mp = ""``, a slot entry
``-1``, ``items["LT-1"]`` not an object, ...). Each such edit now gives one line naming the
file, the key path and the value (exit 2 at the command line), or a correct result. The
property test mutates saved units at random and asserts exactly that, never another exception;
another checks that everything the importer and the procedures write passes the schema, so
the schema file and the unit state cannot drift apart unnoticed.
"""

from __future__ import annotations

import copy
import json
import math
import os
from pathlib import Path
from typing import Any

import hypothesis
import hypothesis.strategies as st
import pytest
from click.testing import CliRunner

import critcore_battletech.plugin as bt
from critcore import testing
from critcore.testing import cli
from critcore.testing import Engine
from critcore.plugin import StateError
from critcore.plugin import thaw
from critcore.testing import Registry
from bt_shared import SAMPLES

REG = Registry.installed(extra_systems={"battletech": bt}, discover=False)
ENGINE = Engine("battletech", registry=REG)
UNITS = Path(__file__).parent / "units"
FIXTURES = Path(__file__).parent / "fixtures"


def saved_unit() -> dict[str, Any]:
    """The test 'Mech after a few criticals and some damage, as --save leaves it."""
    state: Any = json.loads((UNITS / "testmech-tm1.json").read_text(encoding="utf-8"))
    for seed, (proc, params) in enumerate([("critical", {"location": "LT"}), ("damage", {"location": "RA", "amount": 12}),
                                           ("critical", {"location": "CT", "turn": 3})]):
        state = thaw(ENGINE.run(proc, params, seed=seed + 11, target=state).target)
    return state


SAVED = saved_unit()
AN_ITEM = next(iter(SAVED["items"]))


def check(state: Any, where: str = "unit.json") -> Any:
    return ENGINE.check_target(state, where)


def edited(path: tuple, value: Any) -> dict[str, Any]:
    return testing.edited_state(SAVED, path, value)


def test_a_saved_unit_passes_its_schema() -> None:
    assert thaw(check(SAVED)) == SAVED


# The BattleTech kinds of the issue's mutations (11 of the 23; the GURPS ones are in
# test_gurps_schema.py), each with the one line it now gives.
MUTATIONS = [
    (("walk_mp",), "", 'unit.json: walk_mp: must be a whole number, not ""'),
    (("items", AN_ITEM, "slots", 0), -1, f"unit.json: items.{AN_ITEM}.slots[1]: -1 is out of range (0 to 23)"
     if AN_ITEM.isidentifier() else f'unit.json: items["{AN_ITEM}"].slots[1]: -1 is out of range (0 to 23)'),
    (("items", AN_ITEM), 5, f'unit.json: items["{AN_ITEM}"]: must be a table, not 5'),
    (("items", AN_ITEM, "location"), "ZZ", f'unit.json: items["{AN_ITEM}"].location: "ZZ" is not one of HD, CT, '
                                           "LT, RT, LA, RA, LL, RL, CL, FLL, FRL, RLL, RRL"),
    (("locations", "LT", "slots", 0), {"name": "Hip"}, "unit.json: locations.LT.slots[1]: needs 'kind'"),
    (("locations", "LT", "slots", 0, "destroyed"), "yes",
     'unit.json: locations.LT.slots[1].destroyed: must be true or false, not "yes"'),
    (("locations", "CT", "armor"), math.nan, "unit.json: locations.CT.armor: must be a whole number, not NaN"),
    (("locations", "LA", "slots"), {}, "unit.json: locations.LA.slots: must be a list, not an empty table"),
    (("pilot", "hits"), 7, "unit.json: pilot.hits: 7 is out of range (0 to 6)"),
    (("damage", "engine_hits"), None, "unit.json: damage.engine_hits: must be a whole number, not null"),
    (("heat",), -3, "unit.json: heat: -3 is out of range (0 to 10000)"),
]


@pytest.mark.parametrize("path,value,message", MUTATIONS)
def test_each_kind_of_edit_the_issue_found_is_one_line(path: tuple, value: Any, message: str) -> None:
    with pytest.raises(StateError) as info:
        check(edited(path, value))
    assert str(info.value) == message


def test_an_item_in_a_location_the_unit_lacks_is_refused() -> None:
    """References between parts: an item's location must be one of the unit's locations."""
    state = edited(("items", AN_ITEM, "location"), "CL")  # a tripod's leg, not on this biped
    with pytest.raises(StateError, match=r"location: \"CL\" is not one of the locations \(HD, CT, "):
        check(state)


def test_a_location_typo_gets_a_did_you_mean() -> None:
    state = copy.deepcopy(SAVED)
    state["Locations"] = state.pop("locations")
    with pytest.raises(StateError, match=r"^unit.json: unknown key 'Locations' \(did you mean 'locations'\?\)$"):
        check(state)


def test_a_target_that_is_not_a_mech_is_refused() -> None:
    with pytest.raises(StateError) as info:
        check({"kind": "battletech-vehicle", "locations": {}})
    assert str(info.value) == ("unit.json: not a BattleTech 'Mech unit (expected kind = \"battletech-mech\", "
                               'found "battletech-vehicle")')


@pytest.mark.skipif("gurps" not in Registry.installed().systems, reason="GURPS plugin not installed")
def test_a_gurps_character_is_refused_by_name() -> None:
    with pytest.raises(StateError) as info:
        Engine("battletech").check_target({"name": "Sir Bertram", "hp": 12, "dr": 2}, "bertram.json")
    assert str(info.value) == "bertram.json: this looks like a gurps character, not a battletech unit"


def test_every_imported_fixture_and_every_procedure_passes_the_schema() -> None:
    """What the importer and the rules write is what the schema declares (keep them in step)."""
    from critcore.testing import read_target

    for path in sorted(FIXTURES.glob("*.mtf")) + sorted(SAMPLES.glob("*.mtf")):  # samples when ../shared is there
        unit, _ = read_target(str(path), ENGINE.read_target)
        check(unit, path.name)
        for seed, loc in enumerate(unit["locations"]):
            for proc, params in [("critical", {"location": loc, "turn": seed}),
                                 ("damage", {"location": loc, "amount": 25, "turn": seed})]:
                unit = thaw(ENGINE.run(proc, params, seed=seed, target=unit).target)
                check(unit, f"{path.name} after {proc} {loc}")


# --- the property test -----------------------------------------------------------------------------

# The BattleTech names and numbers the edits draw on: near-miss keys, locations, an item's id.
KEYS = ["Armor", "slots", "item", "x", "LT", AN_ITEM]
VALUES = [12, "LT", "ammo", AN_ITEM]


PROCEDURES = [
    ("critical", {"location": "LT"}),
    ("critical", {"location": "CT", "turn": 4}),
    ("damage", {"location": "RA", "amount": 30}),
    ("damage", {"location": "LT", "amount": 8, "rear": True}),
    ("hit-location", {}),
]


# the README's pytest draws fewer mutated states (it must finish in 90 s); .ci/run's long run
# (CRITCORE_LONG=1, step 7) many more of the same strategy
MUTATED = 2000 if os.environ.get("CRITCORE_LONG") else 80


@hypothesis.settings(max_examples=MUTATED, deadline=None, suppress_health_check=list(hypothesis.HealthCheck))
@hypothesis.given(state=testing.mutated_states(SAVED, keys=KEYS, values=VALUES), proc=st.sampled_from(PROCEDURES),
                  seed=st.integers(0, 1000))
def test_a_mutated_unit_gives_one_clean_line_or_a_correct_result(state: Any, proc: Any, seed: int) -> None:
    """Never a traceback: the check refuses the state in one line naming the file, or the
    procedure runs (or refuses in one line: a location the unit lacks ...) and leaves a unit the
    schema accepts."""
    hypothesis.event(testing.check_edited_state(ENGINE, state, proc[0], proc[1], source="atlas.json", seed=seed))


# --- the command line ------------------------------------------------------------------------------


@pytest.mark.parametrize("path,value,message", [m for m in MUTATIONS if not isinstance(m[1], float)][:6])
def test_the_cli_gives_exit_2_one_line_and_changes_nothing(tmp_path: Path, path: tuple, value: Any,
                                                            message: str) -> None:
    unit = tmp_path / "unit.json"
    unit.write_text(json.dumps(edited(path, value)), encoding="utf-8")
    before = unit.read_bytes()
    result = CliRunner().invoke(cli, ["resolve", "battletech", "critical", "--location", "LT", "--seed", "1",
                                      "--unit", str(unit), "--save"], obj=REG)
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == ["Error: " + message.replace("unit.json", str(unit), 1)]
    assert unit.read_bytes() == before
