"""The unit state the importer builds keeps to the shared contract (docs/systems/battletech.md):
the keys, their types, 6 or 12 slots per location, one item per item id, slot kinds from the
contract's list. Checked on every fixture we wrote and every real sample file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from critcore_battletech.data.catalog import SLOT_KINDS
from critcore_battletech.units import unit_from_mtf
from bt_shared import SAMPLES, kept_catalog

FIXTURES = Path(__file__).resolve().parent / "fixtures"

LOCATIONS = {
    "biped": {"HD", "CT", "LT", "RT", "LA", "RA", "LL", "RL"},
    "lam": {"HD", "CT", "LT", "RT", "LA", "RA", "LL", "RL"},
    "tripod": {"HD", "CT", "LT", "RT", "LA", "RA", "LL", "RL", "CL"},
    "quad": {"HD", "CT", "LT", "RT", "FLL", "FRL", "RLL", "RRL"},
    "quadvee": {"HD", "CT", "LT", "RT", "FLL", "FRL", "RLL", "RRL"},
}
SIX_SLOTS = {"HD", "LL", "RL", "CL", "FLL", "FRL", "RLL", "RRL"}
TORSOS = {"LT", "RT", "CT"}


def unit_files() -> list[Path]:
    files = sorted(FIXTURES.glob("*.mtf"))
    if SAMPLES.is_dir():
        files += sorted(SAMPLES.glob("*.mtf"))
    return files


def load(path: Path) -> dict[str, Any]:
    return unit_from_mtf(path.read_bytes(), str(path), kept_catalog())


def check_contract(unit: dict[str, Any]) -> None:
    assert unit["kind"] == "battletech-mech" and unit["format"] == 1
    assert isinstance(unit["chassis"], str) and unit["chassis"]
    assert isinstance(unit["model"], str)
    assert unit["config"] in LOCATIONS
    assert isinstance(unit["omni"], bool)
    assert unit["tech_base"] in ("Inner Sphere", "Clan", "Mixed")
    assert isinstance(unit["tonnage"], int)
    assert set(unit["engine"]) >= {"rating", "type", "clan"}
    assert unit["engine"]["type"] in {"fusion", "xl", "xxl", "light", "compact", "ice", "fuel-cell", "fission", "other"}
    assert unit["heat_sinks"]["type"] in ("single", "double") and unit["heat_sinks"]["count"] >= 0
    assert isinstance(unit["walk_mp"], int) and isinstance(unit["jump_mp"], int)
    assert set(unit["locations"]) == LOCATIONS[unit["config"]]
    items = unit["items"]
    seen: dict[str, list[tuple[str, int]]] = {}
    for code, loc in unit["locations"].items():
        assert set(loc) >= {"name", "armor", "max_armor", "rear_armor", "max_rear_armor", "structure",
                            "max_structure", "destroyed", "blown_off", "slots"}
        assert loc["armor"] == loc["max_armor"] and loc["structure"] == loc["max_structure"] > 0
        if code in TORSOS:
            assert isinstance(loc["rear_armor"], int) and loc["rear_armor"] == loc["max_rear_armor"]
        else:
            assert loc["rear_armor"] is None and loc["max_rear_armor"] is None
        assert loc["destroyed"] is False and loc["blown_off"] is False
        assert len(loc["slots"]) == (6 if code in SIX_SLOTS else 12)
        for index, slot in enumerate(loc["slots"]):
            double = {"item2", "kind2"} if unit.get("superheavy") and "item2" in slot else set()
            assert set(slot) == {"name", "kind", "item", "destroyed", "flags"} | double
            if double:
                assert slot["item2"] in items and slot["kind2"] in SLOT_KINDS
                seen.setdefault(slot["item2"], []).append((code, index))
            assert slot["kind"] in SLOT_KINDS and slot["destroyed"] is False
            assert set(slot["flags"]) <= {"rear", "omnipod", "armored", "turret"}
            if slot["kind"] == "empty":
                assert slot["item"] is None
            else:
                assert slot["item"] in items, (code, index, slot)
                seen.setdefault(slot["item"], []).append((code, index))
    assert set(seen) == set(items)
    for item_id, item in items.items():
        assert set(item) >= {"name", "kind", "location", "slots", "disabled", "explosive", "explosion_damage"}
        where = [(item["location"], i) for i in item["slots"]]
        where += [(code, i) for code, idx in item.get("split", {}).items() for i in idx]
        assert sorted(where) == sorted(seen[item_id])
        assert item_id in (f"{item['location']}-{item['slots'][0]}", f"{item['location']}-{item['slots'][0]}b")
        if item["kind"] == "ammo":
            assert set(item["ammo"]) >= {"weapon", "shots", "shots_per_ton", "damage_per_shot", "shots_per_turn"}
            assert item["ammo"]["shots"] <= item["ammo"]["shots_per_ton"]
    assert unit["pilot"] == {"hits": 0, "dead": False, "conscious": True}
    assert unit["heat"] == 0
    assert unit["damage"] == {"engine_hits": 0, "gyro_hits": 0, "sensor_hits": 0, "life_support_hit": False,
                              "heat_sinks_destroyed": 0, "jump_jets_destroyed": 0}
    assert unit["destroyed"] is False and unit["destroyed_reason"] == ""


@pytest.mark.parametrize("path", unit_files(), ids=lambda p: p.name)
def test_every_unit_file_imports_in_the_contract_shape(path: Path) -> None:
    check_contract(load(path))


def test_the_sample_folder_is_used_when_present() -> None:
    """The real MegaMek files are checked whenever ../shared/mtf-samples exists."""
    if not SAMPLES.is_dir():
        pytest.skip("../shared/mtf-samples is not here")
    assert len(list(SAMPLES.glob("*.mtf"))) >= 10


def test_slot_kinds_in_the_data_are_the_contracts_kinds() -> None:
    """equipment.toml only uses the slot kinds the rules engine knows."""
    cat = kept_catalog()
    assert {e.kind for e in cat.equipment_strong.values()} <= SLOT_KINDS
