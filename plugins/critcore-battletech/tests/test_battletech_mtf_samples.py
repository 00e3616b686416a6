"""Real MegaMek unit files (../shared/mtf-samples, skipped when absent): facts read from each
file come out of the importer. Structure values are the standard internal structure table;
ammunition numbers are the standard ammunition table and the rule document's examples
(machine gun 2, LRM-15 15, SRM-6 12 damage per shot)."""

from __future__ import annotations

from typing import Any

import pytest

from critcore_battletech.units import unit_from_mtf
from bt_shared import SAMPLES, kept_catalog


pytestmark = pytest.mark.skipif(not SAMPLES.is_dir(), reason="../shared/mtf-samples is not here")


def sample(name: str) -> dict[str, Any]:
    path = SAMPLES / name
    if not path.exists():
        pytest.skip(f"{name} is not in the sample folder")
    return unit_from_mtf(path.read_text(encoding="utf-8"), str(path), kept_catalog())


def item_at(unit: dict[str, Any], code: str, index: int) -> dict[str, Any]:
    return unit["items"][unit["locations"][code]["slots"][index]["item"]]


def test_no_sample_has_equipment_the_importer_does_not_know() -> None:
    """Every slot line of the ten samples is in the equipment and ammunition data."""
    for path in sorted(SAMPLES.glob("*.mtf")):
        unit = unit_from_mtf(path.read_text(encoding="utf-8"), str(path), kept_catalog())
        assert unit["import_notes"] == [], (path.name, unit["import_notes"])


def test_atlas_as7d_legacy_header_standard_engine_and_the_100_ton_structure() -> None:
    u = sample("Atlas AS7-D.mtf")
    assert (u["chassis"], u["model"], u["config"], u["tonnage"]) == ("Atlas", "AS7-D", "biped", 100)
    assert u["engine"] == {"rating": 300, "type": "fusion", "clan": False}
    assert u["heat_sinks"]["count"] == 20 and u["heat_sinks"]["type"] == "single"
    assert (u["walk_mp"], u["jump_mp"]) == (3, 0)
    structure = {code: loc["structure"] for code, loc in u["locations"].items()}
    assert structure == {"HD": 3, "CT": 31, "LT": 21, "RT": 21, "LA": 17, "RA": 17, "LL": 21, "RL": 21}
    assert u["locations"]["LA"]["armor"] == 34 and u["locations"]["CT"]["rear_armor"] == 14
    assert u["locations"]["LT"]["rear_armor"] == 10 and u["locations"]["LL"]["armor"] == 41


def test_atlas_as7d_autocannon_fills_ten_right_torso_slots_and_its_two_bins_hold_five_shots() -> None:
    u = sample("Atlas AS7-D.mtf")
    ac = item_at(u, "RT", 0)
    assert ac["name"] == "Autocannon/20" and ac["kind"] == "weapon" and ac["slots"] == list(range(10))
    for index in (10, 11):
        bin_ = item_at(u, "RT", index)
        assert bin_["kind"] == "ammo" and bin_["explosive"] is True
        assert bin_["ammo"]["weapon"] == "AC/20" and bin_["ammo"]["shots"] == 5
        assert bin_["ammo"]["damage_per_shot"] == 20 and bin_["ammo"]["shots_per_turn"] == 1
    assert item_at(u, "RT", 10) is not item_at(u, "RT", 11)
    lrm = item_at(u, "LT", 1)
    assert lrm["name"] == "LRM 20" and lrm["slots"] == [1, 2, 3, 4, 5]
    srm_bin = item_at(u, "LT", 10)
    assert srm_bin["ammo"]["weapon"] == "SRM-6" and srm_bin["ammo"]["damage_per_shot"] == 12
    assert srm_bin["ammo"]["shots"] == 15


def test_atlas_as7d_rear_lasers_are_two_items_flagged_rear() -> None:
    u = sample("Atlas AS7-D.mtf")
    ct = u["locations"]["CT"]["slots"]
    assert [s["flags"] for s in ct[10:]] == [["rear"], ["rear"]]
    assert ct[10]["item"] != ct[11]["item"]
    assert [s["kind"] for s in ct[:10]] == ["engine"] * 3 + ["gyro"] * 4 + ["engine"] * 3


def test_atlas_as7k_inner_sphere_xl_engine_has_three_slots_in_each_side_torso() -> None:
    u = sample("Atlas_AS7-K.mtf")
    assert u["engine"] == {"rating": 300, "type": "xl", "clan": False}
    for code in ("LT", "RT"):
        assert [s["kind"] for s in u["locations"][code]["slots"][:3]] == ["engine"] * 3
    assert u["locations"]["LT"]["case"] == "case" and u["locations"]["RT"]["case"] == "case"


def test_atlas_as7k_gauss_rifle_explodes_for_20_and_its_slugs_do_not() -> None:
    u = sample("Atlas_AS7-K.mtf")
    gauss = item_at(u, "RT", 3)
    assert gauss["slots"] == [3, 4, 5, 6, 7, 8, 9]
    assert gauss["explosive"] is True and gauss["explosion_damage"] == 20
    slugs = item_at(u, "RA", 8)
    assert slugs["kind"] == "ammo" and slugs["explosive"] is False and slugs["ammo"]["shots"] == 8


def test_locust_lct1v_keys_header_and_arms_without_lower_arm_or_hand_actuators() -> None:
    u = sample("Locust LCT-1V.mtf")
    assert (u["chassis"], u["model"], u["tonnage"]) == ("Locust", "LCT-1V", 20)
    kinds = [s["kind"] for s in u["locations"]["LA"]["slots"]]
    assert "lower-arm-actuator" not in kinds and "hand-actuator" not in kinds
    assert kinds[:3] == ["shoulder", "upper-arm-actuator", "weapon"]
    mg_bin = item_at(u, "CT", 11)
    assert mg_bin["ammo"]["weapon"] == "Machine Gun" and mg_bin["ammo"]["damage_per_shot"] == 2
    assert mg_bin["ammo"]["shots"] == 200
    structure = {code: loc["structure"] for code, loc in u["locations"].items()}
    assert structure == {"HD": 3, "CT": 6, "LT": 5, "RT": 5, "LA": 3, "RA": 3, "LL": 4, "RL": 4}


def test_timber_wolf_prime_clan_omnimech_with_clan_xl_engine_and_omnipods() -> None:
    u = sample("Mad Cat (Timber Wolf) Prime.mtf")
    assert u["omni"] is True and u["tech_base"] == "Clan"
    assert u["engine"] == {"rating": 375, "type": "xl", "clan": True}
    assert u["heat_sinks"]["count"] == 17 and u["heat_sinks"]["type"] == "double"
    for code in ("LT", "RT"):
        assert [s["kind"] for s in u["locations"][code]["slots"][:3]] == ["engine", "engine", "weapon"]
    er_large = item_at(u, "LA", 5)
    assert er_large["name"] == "CLERLargeLaser" and er_large["slots"] == [5] and er_large["flags"] == ["omnipod"]
    lrm = item_at(u, "LT", 2)
    assert lrm["slots"] == [2, 3, 4, 5]
    assert u["locations"]["LL"]["slots"][4]["kind"] == "roll-again"  # Clan Endo Steel
    assert u["locations"]["HD"]["slots"][3]["kind"] == "roll-again"  # Clan Ferro-Fibrous


def test_arana_quad_front_legs_use_the_leg_structure_and_turret_lasers_are_three_items() -> None:
    u = sample("Arana MilitiaMech ARA-S-1.mtf")
    assert u["config"] == "quad" and u["tonnage"] == 40
    structure = {code: loc["structure"] for code, loc in u["locations"].items()}
    assert structure == {"HD": 3, "CT": 12, "LT": 10, "RT": 10, "FLL": 10, "FRL": 10, "RLL": 10, "RRL": 10}
    assert u["locations"]["FLL"]["armor"] == 20 and u["locations"]["CT"]["rear_armor"] == 5
    lasers = [item_at(u, "RT", i) for i in range(3)]
    assert len({id(x) for x in lasers}) == 3
    assert all(x["flags"] == ["turret"] and x["slots"] == [i] for i, x in enumerate(lasers))
    assert len(u["locations"]["FLL"]["slots"]) == 6 and len(u["locations"]["HD"]["slots"]) == 6


def test_boreas_quadvee_with_unpadded_six_line_locations_and_laser_heat_sinks() -> None:
    u = sample("Boreas Prime.mtf")
    assert u["config"] == "quadvee" and u["omni"] is True and u["motive"] == "track"
    assert u["heat_sinks"] == {"count": 10, "type": "double", "variant": "laser"}
    assert [s["name"] for s in u["locations"]["FLL"]["slots"]][4:] == ["Conversion Gear", "Tracks"]
    sinks = item_at(u, "LT", 0)
    assert sinks["kind"] == "heat-sink" and sinks["slots"] == [0, 1]
    streak_bin = item_at(u, "LT", 4)
    assert streak_bin["ammo"]["weapon"] == "Streak SRM-6" and streak_bin["ammo"]["damage_per_shot"] == 12


def test_phoenix_hawk_lam_keeps_landing_gear_and_avionics_as_hittable_equipment() -> None:
    u = sample("Phoenix Hawk LAM Mk I PHX-HK1R.mtf")
    assert u["config"] == "lam" and u["lam_type"] == "standard" and u["jump_mp"] == 5
    assert item_at(u, "LT", 0)["kind"] == "equipment" and item_at(u, "LT", 0)["name"] == "Landing Gear"
    assert item_at(u, "HD", 3)["name"] == "Avionics"
    assert item_at(u, "RT", 4)["slots"] == [4, 5]  # Snub-Nose PPC, two slots
    assert [s["kind"] for s in u["locations"]["CT"]["slots"][10:]] == ["equipment", "jump-jet"]


def test_triskelion_tripod_centre_leg_clan_xl_in_mixed_tech_and_lrm15_bins() -> None:
    u = sample("Triskelion TRK-4V.mtf")
    assert u["config"] == "tripod" and u["tech_base"] == "Mixed"
    assert u["locations"]["CL"]["armor"] == 31 and u["locations"]["CL"]["structure"] == 16
    assert u["engine"] == {"rating": 375, "type": "xl", "clan": True}
    bin_ = item_at(u, "LT", 6)
    assert bin_["ammo"]["weapon"] == "LRM-15" and bin_["ammo"]["damage_per_shot"] == 15
    assert bin_["ammo"]["shots"] == 8
    assert u["locations"]["LT"]["case"] == "case-ii"
    assert item_at(u, "CT", 10)["slots"] == [10, 11]  # Guardian ECM suite


def test_highlander_gauss_in_the_arm_replaces_the_hand_and_jump_jets_sit_in_the_torsos() -> None:
    u = sample("Highlander HGN-732.mtf")
    assert u["jump_mp"] == 3
    ra = [s["kind"] for s in u["locations"]["RA"]["slots"]]
    assert "hand-actuator" not in ra and ra[3:10] == ["weapon"] * 7
    assert [u["locations"][c]["slots"][i]["kind"] for c, i in (("LT", 0), ("RT", 0), ("CT", 10))] == ["jump-jet"] * 3


def test_hunchback_small_laser_in_the_head() -> None:
    u = sample("Hunchback HBK-4G.mtf")
    assert item_at(u, "HD", 3)["name"] == "Small Laser" and item_at(u, "HD", 3)["location"] == "HD"
    assert [s["kind"] for s in u["locations"]["HD"]["slots"]] == [
        "life-support", "sensors", "cockpit", "weapon", "sensors", "life-support"]
