"""The importer on unit files we wrote (tests/fixtures): both header styles, every
configuration, the slot suffixes, multi-slot and split items, ammunition bins, engine and heat
sink types. Expected values are read from the fixture files and the standard tables."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from critcore_battletech.mtf import parse_mtf
from critcore_battletech.units import SlotName, parse_slot_name, unit_from_mtf
from bt_shared import kept_catalog

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def text(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def unit(name: str, body: str | None = None) -> dict[str, Any]:
    return unit_from_mtf(text(name) if body is None else body, name, kept_catalog())


def item_at(u: dict[str, Any], code: str, index: int) -> dict[str, Any]:
    return u["items"][u["locations"][code]["slots"][index]["item"]]


# --- header styles and odd spellings -----------------------------------------------------------

def test_legacy_header_takes_chassis_and_model_from_the_lines_after_version() -> None:
    m = parse_mtf(text("legacy-biped-fb1l.mtf"), "fb1l")
    assert (m.header_style, m.version, m.chassis, m.model) == ("legacy", "1.0", "Fixture Biped", "FB-1L")


def test_keys_header_takes_chassis_and_model_from_their_keys() -> None:
    m = parse_mtf(text("keys-quad-fq2.mtf"), "fq2")
    assert (m.header_style, m.chassis, m.model) == ("keys", "Fixture Quad", "FQ-2 Prime")


def test_version_line_followed_by_chassis_and_model_keys_is_read_as_the_keys_style() -> None:
    body = "Version:1.3\n" + text("keys-quad-fq2.mtf")
    m = parse_mtf(body, "fq2")
    assert (m.header_style, m.chassis, m.model) == ("keys", "Fixture Quad", "FQ-2 Prime")


def test_legacy_header_with_a_generator_line_and_a_blank_model() -> None:
    body = text("legacy-biped-fb1l.mtf").replace("Version:1.0\nFixture Biped\nFB-1L\n",
                                                 "Version:1.0\nGenerator:some tool\nFixture Biped\n\n")
    m = parse_mtf(body, "fb1l")
    assert (m.chassis, m.model, m.get("generator")) == ("Fixture Biped", "", "some tool")


def test_odd_keys_file_bom_crlf_comments_and_keys_in_any_case() -> None:
    raw = (FIXTURES / "odd-keys-tripod-ft3x.mtf").read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf") and b"\r\n" in raw  # the fixture really is odd
    m = parse_mtf(raw.decode("utf-8"), "ft3x")
    assert (m.header_style, m.version, m.chassis, m.model) == ("legacy", "1.2", "Fixture Tripod", "FT-3X")
    assert m.get("generator") == "critcore fixture writer 0.1"
    assert (m.mass, m.engine_rating, m.walk_mp, m.jump_mp) == (80, 320, 4, 0)
    assert m.armor_for("CL") is not None and m.armor_for("CL").points == 30  # type: ignore[union-attr]


def test_unknown_keys_are_kept_as_written_and_do_not_stop_the_import() -> None:
    m = parse_mtf(text("odd-keys-tripod-ft3x.mtf"), "ft3x")
    extra = {v.key: v.value for v in m.extra}
    assert extra == {"nickname": "Three Legs", "paint scheme": "grey: with red stripes"}


def test_weapon_summary_lines_with_colons_are_skipped_by_their_count() -> None:
    m = parse_mtf(text("odd-keys-tripod-ft3x.mtf"), "ft3x")
    assert m.weapons == ("1 ISERPPC, Left Arm, Ammo:0", "1 ISUltraAC5, Right Arm, Ammo:20",
                         "1 ISLRM20, Left Torso (R), Ammo:6")


def test_fluff_text_goes_on_over_the_following_lines() -> None:
    m = parse_mtf(text("odd-keys-tripod-ft3x.mtf"), "ft3x")
    fluff = dict(m.fluff)
    assert fluff["overview"].splitlines() == ["A slow tripod, written to test the importer.",
                                              "It has a second line of overview text: which: has colons."]
    assert fluff["history"] == "Built for tests only."


def test_a_blank_line_and_a_comment_inside_a_location_do_not_end_it() -> None:
    u = unit("odd-keys-tripod-ft3x.mtf", text("odd-keys-tripod-ft3x.mtf"))
    ppc = item_at(u, "LA", 4)
    assert ppc["name"] == "ISERPPC" and ppc["slots"] == [4, 5, 6]
    assert [s["kind"] for s in u["locations"]["LA"]["slots"][7:]] == ["empty"] * 5


# --- configurations ----------------------------------------------------------------------------

def test_biped_locations_and_structure_for_55_tons() -> None:
    u = unit("legacy-biped-fb1l.mtf")
    assert u["config"] == "biped" and u["omni"] is False
    assert {c: loc["structure"] for c, loc in u["locations"].items()} == {
        "HD": 3, "CT": 18, "LT": 13, "RT": 13, "LA": 9, "RA": 9, "LL": 13, "RL": 13}


def test_quad_omnimech_has_four_legs_with_the_leg_structure() -> None:
    u = unit("keys-quad-fq2.mtf")
    assert u["config"] == "quad" and u["omni"] is True and u["tech_base"] == "Clan"
    assert {c: loc["structure"] for c, loc in u["locations"].items()} == {
        "HD": 3, "CT": 14, "LT": 11, "RT": 11, "FLL": 11, "FRL": 11, "RLL": 11, "RRL": 11}
    assert u["locations"]["FLL"]["name"] == "Front Left Leg"
    assert [s["kind"] for s in u["locations"]["FLL"]["slots"]] == [
        "hip", "upper-leg-actuator", "lower-leg-actuator", "foot-actuator", "roll-again", "roll-again"]


def test_quad_file_may_name_its_legs_like_megamek_does_arms_and_legs() -> None:
    body = (text("keys-quad-fq2.mtf").replace("Front Left Leg:", "Left Arm:").replace("FLL Armor:18", "LA Armor:17"))
    u = unit("fq2", body)
    assert u["locations"]["FLL"]["armor"] == 17
    assert u["locations"]["FLL"]["slots"][0]["kind"] == "hip"


def test_tripod_has_a_centre_leg() -> None:
    u = unit("odd-keys-tripod-ft3x.mtf", text("odd-keys-tripod-ft3x.mtf"))
    assert u["config"] == "tripod" and u["locations"]["CL"]["name"] == "Center Leg"
    assert u["locations"]["CL"]["structure"] == 17 and u["locations"]["CL"]["armor"] == 30


def test_lam_records_its_type_and_keeps_its_systems() -> None:
    u = unit("lam-fl4.mtf")
    assert u["config"] == "lam" and u["lam_type"] == "bimodal" and u["jump_mp"] == 4
    assert [item_at(u, "LT", i)["name"] for i in (0, 1)] == ["Landing Gear", "Avionics"]
    assert item_at(u, "CT", 7)["kind"] == "equipment"


def test_quadvee_records_its_motive_type() -> None:
    u = unit("quadvee-fv5.mtf")
    assert u["config"] == "quadvee" and u["motive"] == "wheel" and u["omni"] is False
    assert [s["name"] for s in u["locations"]["RRL"]["slots"]][4:] == ["Conversion Gear", "Wheels"]


# --- slots and suffixes ------------------------------------------------------------------------

@pytest.mark.parametrize("line, expected", [
    ("Medium Laser", SlotName("Medium Laser")),
    ("Machine Gun (R)", SlotName("Machine Gun", ("rear",))),
    ("CLERMediumLaser (T)", SlotName("CLERMediumLaser", ("turret",))),
    ("CLLRM15 (omnipod)", SlotName("CLLRM15", ("omnipod",))),
    ("Foot Actuator (ARMORED)", SlotName("Foot Actuator", ("armored",))),
    ("ISMediumLaser (R) (OMNIPOD)", SlotName("ISMediumLaser", ("rear", "omnipod"))),
    ("ISCargo:SIZE:2.5", SlotName("ISCargo", (), 2.5)),
    ("ISCargo:size:1 (ARMORED)", SlotName("ISCargo", ("armored",), 1.0)),
    ("ISLBXAC20 (Split)", SlotName("ISLBXAC20", (), None, True)),
    ("Clan Ammo LRM-15 (Clan) Artemis V-capable", SlotName("Clan Ammo LRM-15 (Clan) Artemis V-capable")),
])
def test_slot_suffixes_become_flags_and_size(line: str, expected: SlotName) -> None:
    assert parse_slot_name(line) == expected


def test_suffix_flags_reach_slots_and_items() -> None:
    biped = unit("legacy-biped-fb1l.mtf")
    assert biped["locations"]["CT"]["slots"][11]["flags"] == ["rear"]
    assert item_at(biped, "CT", 11)["flags"] == ["rear"]
    assert biped["locations"]["LA"]["slots"][2] == {"name": "Lower Arm Actuator", "kind": "lower-arm-actuator",
                                                     "item": "LA-2", "destroyed": False, "flags": ["armored"]}
    cargo = item_at(biped, "LA", 8)
    assert cargo["name"] == "ISCargo" and cargo["size"] == 1.0
    quad = unit("keys-quad-fq2.mtf")
    assert quad["locations"]["RT"]["slots"][2]["flags"] == ["turret"]
    assert item_at(quad, "LT", 2)["flags"] == ["omnipod"]
    tripod = unit("odd-keys-tripod-ft3x.mtf", text("odd-keys-tripod-ft3x.mtf"))
    assert tripod["locations"]["CL"]["slots"][3]["flags"] == ["armored"]
    assert item_at(tripod, "LT", 2)["flags"] == ["rear"] and item_at(tripod, "LT", 2)["slots"] == [2, 3, 4, 5, 6]


def test_six_slot_locations_padded_to_twelve_lines_keep_six_slots() -> None:
    u = unit("legacy-biped-fb1l.mtf")
    for code in ("HD", "LL", "RL"):
        assert len(u["locations"][code]["slots"]) == 6
    assert [s["name"] for s in u["locations"]["RL"]["slots"]] == [
        "Hip", "Upper Leg Actuator", "Lower Leg Actuator", "Foot Actuator", "Heat Sink", "Jump Jet"]


def test_missing_arm_actuators_are_simply_absent() -> None:
    """The right arm of FB-1L has no lower arm or hand actuator: the AC/20 starts at slot 3."""
    u = unit("legacy-biped-fb1l.mtf")
    kinds = [s["kind"] for s in u["locations"]["RA"]["slots"]]
    assert kinds[:2] == ["shoulder", "upper-arm-actuator"]
    assert "lower-arm-actuator" not in kinds and "hand-actuator" not in kinds


def test_identical_single_slot_lines_are_separate_items() -> None:
    u = unit("legacy-biped-fb1l.mtf")
    assert item_at(u, "LA", 4) != item_at(u, "LA", 5)
    assert item_at(u, "LA", 4)["slots"] == [4] and item_at(u, "LA", 5)["slots"] == [5]
    assert item_at(u, "RT", 6)["slots"] == [6] and item_at(u, "RT", 7)["slots"] == [7]


def test_multi_slot_lines_are_cut_into_items_of_their_slot_count() -> None:
    quad = unit("keys-quad-fq2.mtf")
    assert item_at(quad, "LT", 5)["slots"] == [5, 6] and item_at(quad, "LT", 7)["slots"] == [7, 8]
    assert item_at(quad, "LT", 5)["kind"] == "heat-sink"
    tripod = unit("odd-keys-tripod-ft3x.mtf", text("odd-keys-tripod-ft3x.mtf"))
    assert item_at(tripod, "RT", 3)["slots"] == [3, 4, 5]  # one Inner Sphere double heat sink
    biped = unit("legacy-biped-fb1l.mtf")
    assert item_at(biped, "LT", 1)["slots"] == [1, 2]  # LRM 10
    assert item_at(biped, "LT", 5)["slots"] == list(range(5, 12))  # Gauss rifle


def test_a_weapon_split_between_arm_and_side_torso_is_one_item() -> None:
    """FB-1L's AC/20 has 4 slots in the right arm and 6 in the right torso: one weapon."""
    u = unit("legacy-biped-fb1l.mtf")
    ac = item_at(u, "RA", 2)
    assert ac["name"] == "Autocannon/20" and ac["location"] == "RA" and ac["slots"] == [2, 3, 4, 5]
    assert ac["split"] == {"RT": [0, 1, 2, 3, 4, 5]}
    assert {u["locations"]["RT"]["slots"][i]["item"] for i in range(6)} == {"RA-2"}
    assert u["import_notes"] == []  # the split is not an odd part
    assert len(u["import_warnings"]) == 1  # the unknown widget


def test_a_short_run_without_a_neighbour_to_complete_it_is_noted() -> None:
    body = text("legacy-biped-fb1l.mtf").replace("LRM 10\nLRM 10\n", "LRM 10\n-Empty-\n", 1)
    u = unit("fb1l", body)
    assert item_at(u, "LT", 1)["slots"] == [1]
    assert any("'LRM 10' fills 1 slot(s) in the Left Torso, but one needs 2" in n for n in u["import_notes"])


def test_slot_kinds_of_system_and_roll_again_slots() -> None:
    u = unit("legacy-biped-fb1l.mtf")
    assert [s["kind"] for s in u["locations"]["HD"]["slots"]] == [
        "life-support", "sensors", "cockpit", "weapon", "sensors", "life-support"]
    assert [s["kind"] for s in u["locations"]["LA"]["slots"][:4]] == [
        "shoulder", "upper-arm-actuator", "lower-arm-actuator", "hand-actuator"]
    assert u["locations"]["LA"]["slots"][6]["kind"] == "roll-again"  # IS Endo Steel
    assert u["locations"]["RT"]["slots"][8]["kind"] == "roll-again"  # ISCASE
    assert u["locations"]["RT"]["case"] == "case" and u["locations"]["LT"]["case"] == "none"


def test_unknown_equipment_is_kept_by_name_as_hittable_equipment() -> None:
    u = unit("legacy-biped-fb1l.mtf")
    widget = item_at(u, "LA", 7)
    assert (widget["name"], widget["kind"], widget["disabled"]) == ("Fixture Widget", "equipment", False)
    assert u["import_warnings"] == [
        "line 52: unrecognised equipment 'Fixture Widget' in the Left Arm: kept as a plain component that a "
        "critical hit knocks out (it does not explode)"]
    assert u["unrecognised"] == ["Fixture Widget"]


# --- ammunition --------------------------------------------------------------------------------

def test_ammo_bins_carry_the_standard_table_numbers() -> None:
    u = unit("legacy-biped-fb1l.mtf")
    lrm = item_at(u, "LT", 3)["ammo"]
    assert (lrm["weapon"], lrm["shots"], lrm["damage_per_shot"], lrm["shots_per_turn"]) == ("LRM-10", 12, 10, 1)
    slugs = item_at(u, "CT", 10)
    assert slugs["ammo"]["weapon"] == "Gauss Rifle" and slugs["explosive"] is False


def test_half_ton_bins_hold_half_the_shots_rounded_down() -> None:
    mg = item_at(unit("legacy-biped-fb1l.mtf"), "LT", 4)["ammo"]
    assert (mg["weapon"], mg["shots"], mg["shots_per_ton"], mg["tons"]) == ("Machine Gun", 100, 200, 0.5)
    srm = item_at(unit("keys-quad-fq2.mtf"), "RT", 5)["ammo"]
    assert (srm["weapon"], srm["shots"], srm["shots_per_ton"], srm["tons"]) == ("SRM-6", 7, 15, 0.5)


def test_ultra_autocannon_ammo_fires_two_shots_a_turn() -> None:
    u = unit("odd-keys-tripod-ft3x.mtf", text("odd-keys-tripod-ft3x.mtf"))
    uac = item_at(u, "RA", 8)["ammo"]
    assert (uac["weapon"], uac["shots"], uac["damage_per_shot"], uac["shots_per_turn"]) == ("Ultra AC/5", 20, 5, 2)
    assert item_at(u, "LT", 7)["ammo"]["weapon"] == "LRM-20"  # "Artemis-capable" is not another weapon


@pytest.mark.parametrize("name, tech, weapon, shots, damage", [
    ("IS Ammo AC/20", "Inner Sphere", "AC/20", 5, 20),
    ("Clan Ammo LRM-15", "Clan", "LRM-15", 8, 15),
    ("Clan Ammo LRM-15 (Clan) Artemis V-capable", "Mixed (IS Chassis)", "LRM-15", 8, 15),
    ("ISLRM20 Ammo", "Inner Sphere", "LRM-20", 6, 20),
    ("IS Ammo SRM-6", "Inner Sphere", "SRM-6", 15, 12),
    ("IS Ammo MG - Full", "Inner Sphere", "Machine Gun", 200, 2),
    ("Clan Machine Gun Ammo - Half", "Clan", "Machine Gun", 100, 2),
    ("ISAMS Ammo", "Inner Sphere", "AMS", 12, 2),
    ("CLAMS Ammo", "Clan", "AMS", 24, 2),
    ("AMS Ammo", "Clan", "AMS", 24, 2),
    ("IS Ammo AC/10 Precision", "Inner Sphere", "AC/10", 5, 10),
    ("ISNarc Pods", "Inner Sphere", "Narc", 6, 2),
])
def test_ammunition_names_in_their_many_spellings(name: str, tech: str, weapon: str, shots: int, damage: int) -> None:
    match = kept_catalog().ammo(name, tech)
    assert match is not None
    assert (match.ammo.weapon, match.shots, match.ammo.damage_per_shot) == (weapon, shots, damage)


def test_rule_document_examples_of_one_shots_damage() -> None:
    """The rule document: a machine gun slot 2, an LRM-15 15, an SRM-6 12."""
    cat = kept_catalog()
    assert [cat.ammo(n, "Inner Sphere").ammo.damage_per_shot  # type: ignore[union-attr]
            for n in ("IS Ammo MG - Full", "IS Ammo LRM-15", "IS Ammo SRM-6")] == [2, 15, 12]


def test_unknown_ammunition_without_a_number_explodes_with_the_smallest_damage() -> None:
    """The issue: unknown ammunition explodes with what its name tells, or the smallest damage
    (1, a light machine gun round), and a warning says so."""
    body = text("legacy-biped-fb1l.mtf").replace("IS Gauss Ammo", "IS Ammo Fixture Rifle")
    u = unit("fb1l", body)
    bin_ = item_at(u, "CT", 10)
    assert bin_["kind"] == "ammo" and bin_["explosive"] is True
    assert (bin_["ammo"]["shots"], bin_["ammo"]["damage_per_shot"], bin_["ammo"]["unrecognised"]) == (1, 1, True)
    assert any("unrecognised ammunition 'IS Ammo Fixture Rifle'" in n and "the smallest any bin does" in n
               for n in u["import_warnings"])
    assert u["unrecognised"] == ["IS Ammo Fixture Rifle", "Fixture Widget"]


def test_unknown_ammunition_with_a_number_explodes_with_that_number() -> None:
    body = text("legacy-biped-fb1l.mtf").replace("IS Gauss Ammo", "IS Ammo Fixture Cannon-35")
    bin_ = item_at(unit("fb1l", body), "CT", 10)
    assert (bin_["ammo"]["shots"], bin_["ammo"]["damage_per_shot"], bin_["explosive"]) == (1, 35, True)


# --- engines and heat sinks --------------------------------------------------------------------

@pytest.mark.parametrize("fixture, rating, kind, clan, side", [
    ("legacy-biped-fb1l.mtf", 275, "fusion", False, 0),
    ("keys-quad-fq2.mtf", 270, "xl", True, 2),
    ("odd-keys-tripod-ft3x.mtf", 320, "light", False, 2),
    ("lam-fl4.mtf", 175, "compact", False, 0),
    ("quadvee-fv5.mtf", 280, "xxl", True, 4),
])
def test_engine_type_and_its_side_torso_slots(fixture: str, rating: int, kind: str, clan: bool, side: int) -> None:
    u = unit(fixture, text(fixture))
    assert u["engine"] == {"rating": rating, "type": kind, "clan": clan}
    for code in ("LT", "RT"):
        assert sum(s["kind"] == "engine" for s in u["locations"][code]["slots"]) == side
    assert not any("engine" in n for n in u["import_notes"])


def test_compact_engine_has_only_three_centre_torso_slots() -> None:
    u = unit("lam-fl4.mtf")
    assert [s["kind"] for s in u["locations"]["CT"]["slots"][:7]] == ["engine"] * 3 + ["gyro"] * 4


def test_engine_slots_that_do_not_match_the_engine_type_are_kept_and_noted() -> None:
    body = text("legacy-biped-fb1l.mtf").replace("engine:275 Fusion Engine(IS)", "engine:275 XL Engine(IS)")
    u = unit("fb1l", body)
    assert u["engine"]["type"] == "xl"
    assert any("an Inner Sphere xl engine has 6 slots in the centre torso and 3 in each side torso, but the "
               "file has CT 6, LT 0, RT 0" in n for n in u["import_notes"])
    assert u["locations"]["LT"]["slots"][0]["kind"] == "jump-jet"


@pytest.mark.parametrize("fixture, count, kind, variant", [
    ("legacy-biped-fb1l.mtf", 12, "single", "single"),
    ("keys-quad-fq2.mtf", 12, "double", "double"),
    ("odd-keys-tripod-ft3x.mtf", 10, "double", "double"),
    ("lam-fl4.mtf", 10, "single", "compact"),
    ("quadvee-fv5.mtf", 14, "double", "laser"),
])
def test_heat_sink_types_laser_counts_as_double_and_compact_as_single(fixture: str, count: int, kind: str,
                                                                      variant: str) -> None:
    assert unit(fixture, text(fixture))["heat_sinks"] == {"count": count, "type": kind, "variant": variant}


def test_a_compact_heat_sink_pair_slot_holds_two_heat_sinks() -> None:
    u = unit("lam-fl4.mtf")
    assert item_at(u, "LT", 4)["heat_sinks"] == 2 and item_at(u, "RT", 4)["heat_sinks"] == 1


# --- the structure table -----------------------------------------------------------------------

@pytest.mark.parametrize("tons, ct, side, arm, leg", [
    (10, 4, 3, 1, 2), (20, 6, 5, 3, 4), (25, 8, 6, 4, 6), (35, 11, 8, 6, 8), (50, 16, 12, 8, 12),
    (65, 21, 15, 10, 15), (70, 22, 15, 11, 15), (85, 27, 18, 14, 18), (100, 31, 21, 17, 21),
])
def test_standard_internal_structure_table(tons: int, ct: int, side: int, arm: int, leg: int) -> None:
    assert kept_catalog().structure(tons) == {"head": 3, "center_torso": ct, "side_torso": side, "arm": arm, "leg": leg}


def test_structure_table_covers_10_to_200_tons_in_steps_of_5() -> None:
    """Standard 'Mechs 10-100 tons, superheavies 105-200 (Tactical Operations)."""
    cat = kept_catalog()
    assert sorted(cat.structure_rows) == list(range(10, 201, 5))
    assert cat.structure(37) is None and cat.structure(205) is None


@pytest.mark.parametrize("tons, ct, side, arm, leg", [
    (105, 32, 22, 17, 22), (125, 38, 26, 21, 26), (135, 41, 28, 22, 28), (150, 45, 32, 25, 32),
    (200, 60, 42, 33, 42),
])
def test_superheavy_internal_structure_table(tons: int, ct: int, side: int, arm: int, leg: int) -> None:
    """A superheavy's head has 4 points (Tactical Operations' superheavy table)."""
    assert kept_catalog().structure(tons) == {"head": 4, "center_torso": ct, "side_torso": side, "arm": arm, "leg": leg}
    assert kept_catalog().superheavy(tons) and not kept_catalog().superheavy(100)


# --- notes on odd but readable files -----------------------------------------------------------

def test_keys_the_importer_does_not_use_are_noted() -> None:
    u = unit("odd-keys-tripod-ft3x.mtf", text("odd-keys-tripod-ft3x.mtf"))
    assert [n for n in u["import_notes"] if "not one this importer uses" in n] == [
        "line 9: the key 'nickname' is not one this importer uses: ignored",
        "line 35: the key 'paint scheme' is not one this importer uses: ignored",
    ]


def test_walk_mp_that_does_not_follow_from_engine_and_tonnage_is_kept_and_noted() -> None:
    """Walking MP is the engine rating divided by the tonnage: 275 / 55 = 5."""
    body = text("legacy-biped-fb1l.mtf").replace("walk mp:5", "walk mp:6")
    u = unit("fb1l", body)
    assert u["walk_mp"] == 6
    assert "line 18: Walk MP 6, but a 275-rated engine in a 55-ton 'Mech gives 5: the file's value is kept" \
        in u["import_notes"]


def test_more_weapon_summary_lines_than_the_count_are_still_summary_lines() -> None:
    body = text("legacy-biped-fb1l.mtf").replace("Weapons:8", "Weapons:7")
    m = parse_mtf(body, "fb1l")
    assert len(m.weapons) == 8 and m.weapons[-1] == "Fixture Widget, Left Arm"
    assert m.notes == ("line 42: more weapon lines than 'Weapons:' says: 'Fixture Widget, Left Arm' is read as "
                       "one of them",)


def test_a_second_line_for_the_same_key_replaces_the_first_with_a_note() -> None:
    body = text("legacy-biped-fb1l.mtf").replace("jump mp:3", "jump mp:3\njump mp:2")
    m = parse_mtf(body, "fb1l")
    assert m.jump_mp == 2 and m.notes == ("line 20: a second 'jump mp:' line replaces line 19",)


def test_a_comment_inside_the_weapon_summary_does_not_end_it() -> None:
    body = text("legacy-biped-fb1l.mtf").replace("AC/20, Right Arm\n", "AC/20, Right Arm\n# missiles next\n")
    m = parse_mtf(body, "fb1l")
    assert len(m.weapons) == 8 and m.notes == ()
