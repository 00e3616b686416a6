"""Equipment and ammunition recognised by family (issue 12), on names in MegaMek's many
spellings and on units we wrote (tests/fixtures): every bin's shots and damage, every explosive
weapon's explosion, unknown names as warnings, stray cp1252 bytes, superheavy 'Mechs and their
double slots. Expected numbers are the published rules' (Total Warfare, TechManual, Tactical
Operations), not the code's."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from critcore_battletech.units import unit_from_mtf
from bt_shared import kept_catalog

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def fixture(name: str) -> bytes:
    return (FIXTURES / name).read_bytes()


def item_at(u: dict[str, Any], code: str, index: int, key: str = "item") -> dict[str, Any]:
    return u["items"][u["locations"][code]["slots"][index][key]]


# --- ammunition families --------------------------------------------------------------------------

@pytest.mark.parametrize("name, tech, weapon, shots, damage, per_turn", [
    ("ISArrowIVAmmo", "Inner Sphere", "Arrow IV", 5, 20, 1),            # glued: no space before Ammo
    ("CLArrowIVHomingAmmo", "Clan", "Arrow IV", 5, 20, 1),
    ("IS Ammo MML-5 SRM", "Inner Sphere", "MML-5 (SRM)", 20, 10, 1),     # 2 a missile
    ("ISMML7 LRM Ammo", "Inner Sphere", "MML-7 (LRM)", 17, 7, 1),        # 1 a missile
    ("IS Ammo MML-9 LRM Artemis-capable", "Inner Sphere", "MML-9 (LRM)", 13, 9, 1),
    ("CLRotaryAC5 Ammo", "Clan", "Rotary AC/5", 20, 5, 6),               # Clan rotary: six shots a turn
    ("IS Ammo Extended LRM-15", "Inner Sphere", "Extended LRM-15", 6, 15, 1),
    ("ISExtended LRM10 Ammo", "Inner Sphere", "Extended LRM-10", 9, 10, 1),
    ("Clan Streak LRM 20 Ammo", "Clan", "Streak LRM-20", 6, 20, 1),
    ("IS Ammo Thunderbolt-20", "Inner Sphere", "Thunderbolt-20", 3, 20, 1),
    ("ISThunderbolt5 Ammo", "Inner Sphere", "Thunderbolt-5", 12, 5, 1),
    ("Clan Ammo iATM-12", "Clan", "iATM-12", 5, 24, 1),
    ("Clan Ammo ATM-9 HE", "Clan", "ATM-9", 7, 27, 1),                    # high-explosive: 3 a missile
    ("Clan Ammo ATM-6 ER", "Clan", "ATM-6", 10, 6, 1),                    # extended range: 1 a missile
    ("CLImpAmmoSRM6", "Clan", "SRM-6", 15, 12, 1),
    ("ClanImprovedLRM15Ammo", "Clan", "LRM-15", 8, 15, 1),
    ("Clan Ammo LRTorpedo-15 (Clan) Artemis V-capable", "Clan", "LR Torpedo-15", 8, 15, 1),
    ("IS Ammo SRTorpedo-6", "Inner Sphere", "SR Torpedo-6", 15, 12, 1),
    ("IS Ammo HVAC/10", "Inner Sphere", "Hyper Velocity AC/10", 8, 10, 1),
    ("Clan ProtoMech AC/8 Ammo", "Clan", "ProtoMech AC/8", 10, 8, 1),
    ("CLIMPAmmoAC10", "Clan", "AC/10", 10, 10, 1),                       # improved AC, not a ProtoMech AC
    ("ISMG Ammo (100)", "Inner Sphere", "Machine Gun", 100, 2, 1),       # a half-ton bin by its count
    ("ISLightMG Ammo (200)", "Inner Sphere", "Light Machine Gun", 200, 1, 1),
    ("ISiNarc Pods", "Inner Sphere", "iNarc", 4, 3, 1),               # MegaMek createISiNarcAmmo: 3 a pod
    ("ISiNarc Explosive Pods", "Inner Sphere", "iNarc", 4, 6, 1),     # createISiNarcExplosiveAmmo: 6
    ("ISNarc ExplosivePods", "Inner Sphere", "Narc", 6, 4, 1),        # createISNarcExplosiveAmmo: 4
    ("IS Ammo Heavy Rifle", "Inner Sphere", "Heavy Rifle", 6, 9, 1),  # createISHeavyRifleAmmo
    ("ISHeavy Rifle Ammo", "Inner Sphere", "Heavy Rifle", 6, 9, 1),
    ("IS Ammo Medium Rifle", "Inner Sphere", "Medium Rifle", 9, 6, 1),  # createISMediumRifleAmmo
    ("ISLightRifle Ammo", "Inner Sphere", "Light Rifle", 18, 3, 1),     # createISLightRifleAmmo
    ("CLSmallChemLaserAmmo", "Clan", "Small Chemical Laser", 60, 3, 1),    # createCLSmallChemicalLaserAmmo
    ("CLMediumChemLaserAmmo", "Clan", "Medium Chemical Laser", 30, 5, 1),  # createCLMediumChemicalLaserAmmo
    ("CLLargeChemLaserAmmo", "Clan", "Large Chemical Laser", 10, 8, 1),    # createCLLargeChemicalLaserAmmo
    ("CL Heavy Flamer Ammo", "Clan", "Heavy Flamer", 10, 4, 1),
    ("Clan Ammo SC Mortar-4", "Clan", "'Mech Mortar/4", 6, 8, 1),   # MegaMek createCLAPMortar4Ammo: 2 a shell
    ("ISSniperCannonAmmo", "Inner Sphere", "Sniper Cannon", 10, 10, 1),
])
def test_ammunition_families(name: str, tech: str, weapon: str, shots: int, damage: int, per_turn: int) -> None:
    match = kept_catalog().ammo(name, tech)
    assert match is not None and match.ammo.explosive
    assert (match.ammo.weapon, match.shots, match.damage_per_shot, match.ammo.shots_per_turn) == (
        weapon, shots, damage, per_turn)


@pytest.mark.parametrize("name", [
    "Silver Bullet Gauss Ammo", "ISSBGauss Ammo", "ISMagshotGR Ammo", "CLImpGaussAmmo", "Clan Ammo HAG/30",
    "IS Ammo Improved Heavy Gauss", "ISPlasmaRifleAmmo", "CLPlasmaCannonAmmo",
])
def test_gauss_slugs_and_plasma_never_explode(name: str) -> None:
    """Gauss ammunition of every kind and plasma charges are the rules' non-explosive bins."""
    match = kept_catalog().ammo(name, "Mixed (IS Chassis)")
    assert match is not None and match.ammo.explosive is False and match.shots > 0


def test_a_clan_ams_bin_holds_twice_the_inner_sphere_one() -> None:
    assert kept_catalog().ammo("ISAMS Ammo", "Clan").shots == 12  # the IS prefix wins over the tech base
    assert kept_catalog().ammo("CLAMS Ammo", "Inner Sphere").shots == 24


# --- explosive weapons ----------------------------------------------------------------------------

@pytest.mark.parametrize("name, tech, explosion", [
    ("ISSBGR", "Inner Sphere", 20),                     # Silver Bullet Gauss
    ("ISSBGaussRifle", "Inner Sphere", 20),
    ("CLImprovedSmallHeavyLaser", "Clan", 3),
    ("CLImprovedMediumHeavyLaser", "Clan", 5),
    ("CLImprovedHeavyLargeLaser", "Clan", 8),
    ("TSEMP Cannon", "Inner Sphere", 10),
    ("TSEMP One-Shot", "Inner Sphere", 10),
    ("ISMagshotGR", "Inner Sphere", 3),
    ("Improved Gauss Rifle", "Clan", 20),
    ("ISGaussRiflePrototype", "Inner Sphere", 20),
    ("CLHAG30", "Clan", 15),
    ("ISLightGaussRifle", "Inner Sphere", 16),
    ("ISHeavyGaussRifle", "Inner Sphere", 25),
    ("ISImprovedHeavyGaussRifle", "Inner Sphere", 30),
    ("CLAPGaussRifle", "Clan", 3),
])
def test_explosive_weapons(name: str, tech: str, explosion: int) -> None:
    entry = kept_catalog().equipment(name, tech)
    assert entry is not None and (entry.kind, entry.explosion) == ("weapon", explosion)


@pytest.mark.parametrize("name, kind", [
    ("ISDoubleHeatSinkPrototype", "heat-sink"), ("ISPrototypeJumpJet", "jump-jet"), ("Stealth Armor", "roll-again"),
    ("ISMML5", "weapon"), ("ISMediumVSPLaser", "weapon"), ("CLStreakLRM20", "weapon"), ("ISC3iUnit", "equipment"),
    ("Environmental Sealing", "equipment"), ("PPC Capacitor", "equipment"), ("ISClaw", "equipment"),
])
def test_other_equipment_families_get_their_slot_kind(name: str, kind: str) -> None:
    entry = kept_catalog().equipment(name, "Inner Sphere")
    assert entry is not None and entry.kind == kind and entry.explosion == 0


def test_a_silver_bullet_gauss_rifle_explodes_on_its_first_hit(run: Any) -> None:
    """Rule document: explosive components such as Gauss rifles explode on their first critical
    hit like ammunition; the Silver Bullet Gauss rifle for 20."""
    body = fixture("legacy-biped-fb1l.mtf").decode().replace("ISGaussRifle", "ISSBGR")
    u = unit_from_mtf(body, "fb1l.mtf", kept_catalog())
    assert item_at(u, "LT", 5)["explosive"] and item_at(u, "LT", 5)["explosion_damage"] == 20
    # 8: one critical; lower half (4), slot 8 (2): the rifle; then the check after the explosion: 2
    out = run("critical", "4,4,4,2,1,1", unit=u, location="LT")
    boom = [e for e in out.effects if e.code == "component-explosion"]
    assert [e.data["explosion_damage"] for e in boom] == [20]
    assert out.target["pilot"]["hits"] == 2


# --- unknown names -------------------------------------------------------------------------------

def test_unknown_equipment_is_a_warning_and_a_plain_component(run: Any) -> None:
    u = unit_from_mtf(fixture("legacy-biped-fb1l.mtf"), "fb1l.mtf", kept_catalog())
    assert u["unrecognised"] == ["Fixture Widget"]
    widget = item_at(u, "LA", 7)
    assert (widget["kind"], widget["explosive"]) == ("equipment", False)
    out = run("critical", "4,4,4,2", unit=u, location="LA")  # slot 8: the widget
    assert [e.code for e in out.effects if e.table == "components"] == ["disabled"]
    assert any("unrecognised equipment 'Fixture Widget'" in w for w in out.applied.data["warnings"])


def test_warnings_are_repeated_only_on_the_first_resolution(run: Any) -> None:
    u = unit_from_mtf(fixture("legacy-biped-fb1l.mtf"), "fb1l.mtf", kept_catalog())
    first = run("critical", "1,1", unit=u, location="LA")
    assert first.applied.data["warnings"]
    from critcore.plugin import thaw

    again = run("critical", "1,1", unit=thaw(first.target), location="LA")
    assert "warnings" not in again.applied.data


def test_crit_show_lists_the_unrecognised_equipment(bt_registry: Any, tmp_path: Path) -> None:
    from critcore.testing import cli

    path = tmp_path / "fb1l.mtf"
    path.write_bytes(fixture("legacy-biped-fb1l.mtf"))
    res = CliRunner().invoke(cli, ["show", "battletech", "--target", str(path)], obj=bt_registry)
    assert res.exit_code == 0, res.output
    assert "unrecognised equipment (1): Fixture Widget" in res.output


# --- stray bytes ---------------------------------------------------------------------------------

def test_stray_bytes_in_free_text_are_read_as_cp1252_then_latin1_with_a_warning() -> None:
    u = unit_from_mtf(fixture("cp1252-biped-fb1c.mtf"), "fb1c.mtf", kept_catalog())
    assert u["import_warnings"][:2] == ["line 156: bytes that are not UTF-8, read as cp1252",
                                        "line 157: bytes that are not UTF-8, read as latin-1"]
    from critcore_battletech.mtf import parse_mtf

    fluff = dict(parse_mtf(fixture("cp1252-biped-fb1c.mtf"), "fb1c.mtf").fluff)
    assert "\u2013 its description" in fluff["overview"] and "\u201cquotes\u201d" in fluff["overview"]
    assert fluff["notes"].endswith("\x81.")


def test_the_cli_reads_a_unit_file_with_stray_bytes(bt_registry: Any, tmp_path: Path) -> None:
    from critcore.testing import cli

    path = tmp_path / "fb1c.mtf"
    shutil.copy(FIXTURES / "cp1252-biped-fb1c.mtf", path)
    res = CliRunner().invoke(cli, ["resolve", "battletech", "critical", "--location", "LA", "--unit", str(path),
                                   "--dice", "2,2", "--json"], obj=bt_registry)
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert "line 156: bytes that are not UTF-8, read as cp1252" in data["applied"]["data"]["warnings"]


def test_a_json_target_with_stray_bytes_is_still_refused(bt_registry: Any, tmp_path: Path) -> None:
    from critcore.testing import cli

    path = tmp_path / "u.json"
    path.write_bytes(b'{"kind": "battletech-mech", "chassis": "\x96"}')
    res = CliRunner().invoke(cli, ["show", "battletech", "--target", str(path)], obj=bt_registry)
    assert res.exit_code == 2 and "not a text file" in res.output


# --- superheavy 'Mechs -----------------------------------------------------------------------------

def test_a_superheavy_takes_its_structure_from_the_superheavy_table() -> None:
    """135 tons (Tactical Operations): head 4, centre torso 41, side torsos 28, arms 22, legs 28."""
    u = unit_from_mtf(fixture("superheavy-fs5x.mtf"), "fs5x.mtf", kept_catalog())
    assert u["superheavy"] is True and u["tonnage"] == 135
    assert {c: loc["structure"] for c, loc in u["locations"].items()} == {
        "HD": 4, "CT": 41, "LT": 28, "RT": 28, "LA": 22, "RA": 22, "LL": 28, "RL": 28}


def test_a_double_slot_holds_two_items() -> None:
    u = unit_from_mtf(fixture("superheavy-fs5x.mtf"), "fs5x.mtf", kept_catalog())
    slot = u["locations"]["RT"]["slots"][7]
    assert (slot["name"], slot["kind"], slot["kind2"]) == ("IS Ammo SRM-6|IS Ammo LRM-10", "ammo", "ammo")
    first, second = item_at(u, "RT", 7), item_at(u, "RT", 7, "item2")
    assert (first["ammo"]["weapon"], second["ammo"]["weapon"]) == ("SRM-6", "LRM-10")
    assert second["flags"] == ["omnipod"]


def test_a_critical_on_a_double_slot_strikes_both_bins(run: Any) -> None:
    """As MegaMek resolves it: both items of the slot take the hit, so both AC/20 bins explode
    (20 each to the right torso's 28 structure, 2 for the MechWarrior each; 12 pass inward)."""
    u = unit_from_mtf(fixture("superheavy-fs5x.mtf"), "fs5x.mtf", kept_catalog())
    # 8: one critical; lower half (4), slot 7 (1); the check after the first explosion (1+1), then
    # the centre torso's check (1+1)
    out = run("critical", "4,4,4,1,1,1,1,1", unit=u, location="RT")
    boom = [e for e in out.effects if e.code == "ammo-explosion"]
    assert [(e.data["item"], e.data["explosion_damage"]) for e in boom] == [("RT-6", 20), ("RT-6b", 20)]
    assert out.target["pilot"]["hits"] == 4
    assert out.target["locations"]["RT"]["destroyed"] and out.target["locations"]["CT"]["structure"] == 41 - 12
