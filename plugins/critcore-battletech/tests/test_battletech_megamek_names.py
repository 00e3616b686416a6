"""MegaMek's equipment names (critcore_battletech/data/megamek-names.toml, written by
tools/megamek_names.py from MegaMek's weapon classes and AmmoType/MiscType factories): every
entry names the MegaMek class or factory it comes from; every name of an entry resolves to the
entry's kind and numbers; a unit naming such equipment is recognised; and the file is read only
for a name the plugin's own tables lack."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from typing import Any

import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

import critcore_battletech
from critcore_battletech.data.catalog import SLOT_KINDS, catalog, norm
from critcore_battletech.examples import __file__ as _examples
from critcore_battletech.units import unit_from_mtf
from bt_shared import kept_catalog

NAMES = Path(critcore_battletech.__file__).resolve().parent / "data" / "megamek-names.toml"
TOOL = Path(__file__).resolve().parents[1] / "tools" / "megamek_names.py"
QUILLBACK = Path(_examples).resolve().parent / "quillback.mtf"


def classes() -> list[dict[str, Any]]:
    return list(tomllib.loads(NAMES.read_text(encoding="utf-8"))["class"])


def _tech_base(entry: dict[str, Any]) -> str:
    return "Clan" if entry["tech"] == "clan" else "Inner Sphere"


def _tabled(cat: Any, name: str, tech_base: str) -> bool:
    """Whether equipment.toml itself knows the name (not only a family's guess)."""
    item = cat.equipment(name, tech_base, megamek_names=False)
    return item is not None and item != cat.equipment_family(name, tech_base)


def test_battletech_every_entry_names_its_megamek_class() -> None:
    data = tomllib.loads(NAMES.read_text(encoding="utf-8"))
    entries = data["class"]
    assert data["classes"] == len(entries)
    assert data["names"] == sum(len(e["names"]) for e in entries)
    for e in entries:
        assert e["megamek"] and e["defined_in"] in ("WeaponType", "AmmoType", "MiscType"), e
        if e["defined_in"] != "WeaponType":
            assert e["megamek"].startswith(e["defined_in"] + ".create"), e
        assert e["names"] and e["source"].startswith("MegaMek/megamek"), e
        assert e["kind"] in SLOT_KINDS, e


def test_battletech_every_megamek_name_resolves_to_its_entry() -> None:
    """Each name of each class: a weapon or piece of equipment is that kind with the entry's
    slots and explosion; a bin holds the entry's shots and damage and explodes as it says. A
    class that is not 'Mech equipment (``mek = false``: MegaMek's battle-armour "Medium Laser")
    gives way to a 'Mech class or table item of the same name, so its shared names are not its."""
    cat = kept_catalog()
    mech_names = {norm(n) for e in classes() if e.get("mek", True) for n in e["names"]}
    bad = []
    for e in classes():
        for name in e["names"]:
            if e.get("mek", True) is False and (norm(name) in mech_names or _tabled(cat, name, _tech_base(e))):
                continue
            if e["kind"] == "ammo":
                m = cat.ammo(name, _tech_base(e))
                got = m and (m.ammo.weapon, m.shots, m.damage_per_shot, m.ammo.explosive)
                want = (e["weapon"], e["shots"], e["damage_per_shot"], e["explosive"])
            else:
                item = cat.equipment(name, _tech_base(e))
                got = item and (item.kind, item.slots, item.explosion)
                want = (e["kind"], e["slots"], e["explosion"])
            if got != want:
                bad.append(f"{e['megamek']}: {name!r} gives {got}, the entry {want}")
    assert not bad, bad


@pytest.mark.parametrize("name, tech_base, want", [
    # weapons: MegaMek's class states the slots and the explosion (ISRISCHyperLaser:
    # criticals 6, explosive, explosionDamage 10; ISBombastLaser: criticalSlots 3)
    ("ISRISCHyperLaser", "Inner Sphere", ("weapon", 6, 10)),
    ("RISC Hyper Laser", "Inner Sphere", ("weapon", 6, 10)),
    ("IS Bombast Laser", "Inner Sphere", ("weapon", 3, 0)),
    ("Clan Improved Large Heavy Laser", "Clan", ("weapon", 3, 8)),
    ("Clan ER Medium Laser", "Clan", ("weapon", 1, 0)),
    # MiscType factories (equipment.toml names them)
    ("ClanGroundMobileHPG", "Clan", ("equipment", 0, 0)),
    ("ISAPod", "Inner Sphere", ("equipment", 1, 0)),
    # createISSuperCharger: criticalSlots 1 (critcore had 0, "a run of lines is one item")
    ("Supercharger", "Inner Sphere", ("equipment", 1, 0)),
    ("CL Super Charger", "Clan", ("equipment", 1, 0)),
    # createJumpBooster: the table's mechanical jump booster, its size varies
    ("Jump Booster", "Inner Sphere", ("equipment", 0, 0)),
    # createISPartialWing states 8 slots in all, spread over two locations: a run of lines in
    # one location stays one item
    ("IS Partial Wing", "Inner Sphere", ("equipment", 0, 0)),
    # createQVWheels: a QuadVee's wheels, one slot a leg like the table's "Wheels"
    ("QuadVee Wheels", "Clan", ("equipment", 1, 0)),
    # createImprovedJumpJet: MegaMek's spellings of the improved jump jet
    ("ISImprovedJump Jet", "Inner Sphere", ("jump-jet", 2, 0)),
    # createModularArmor: 1 slot a module (critcore read "IS Modular Armor" as any equipment, 0)
    ("IS Modular Armor", "Inner Sphere", ("equipment", 1, 0)),
    # an infantry armor kit (createISSLDFInfArmor): no critical slots on a 'Mech
    ("SLDFKit", "Inner Sphere", ("equipment", 0, 0)),
    # createChainWhip: 2 slots, createISFlail: 4 (critcore's family of physical weapons says 0,
    # "a run of lines is one item")
    ("Chain Whip", "Inner Sphere", ("equipment", 2, 0)),
    ("IS Flail", "Inner Sphere", ("equipment", 4, 0)),
    # createISSmallShield: 3 slots; createISMediumVibroblade: 2; createSpikes: 1 a location
    ("ISSmallShield", "Inner Sphere", ("equipment", 3, 0)),
    ("Medium Vibroblade", "Inner Sphere", ("equipment", 2, 0)),
    ("Spikes", "Inner Sphere", ("equipment", 1, 0)),
    # createC3SBS: the boosted C3 slave fills 2 slots (critcore's electronics family said 0)
    ("ISC3BoostedSystemSlaveUnit", "Inner Sphere", ("equipment", 2, 0)),
    # createCLCASE: Clan CASE fills no slot; createCASEPrototype: not hittable, 1 slot
    ("CASE", "Clan", ("roll-again", 0, 0)),
    ("ISCASE", "Clan", ("roll-again", 1, 0)),
    ("Prototype CASE", "Inner Sphere", ("roll-again", 1, 0)),
    # createISMASS, createISDroneOperatingSystem: 1 slot each (critcore's families said 0)
    ("ISMASS", "Inner Sphere", ("equipment", 1, 0)),
    ("ISDroneOperatingSystem", "Inner Sphere", ("equipment", 1, 0)),
    # createBattleMekNeuralInterfaceUnit: no slot, not hittable (critcore did not know it)
    ("BABattleMechNIU", "Inner Sphere", ("roll-again", 0, 0)),
    # createISUMU: an underwater maneuvering unit, 1 slot
    ("IS Underwater Maneuvering Unit", "Inner Sphere", ("equipment", 1, 0)),
    # weapon classes (issue 28's fourth pass): ISVariableSpeedPulseLaserMedium criticalSlots 2 (a
    # family of lasers said 0: four lines in an arm were one laser, the unit files list two)
    ("ISMediumVSPLaser", "Inner Sphere", ("weapon", 2, 0)),
    ("Medium VSP Laser", "Inner Sphere", ("weapon", 2, 0)),
    # CLLRT5 criticalSlots 1, ISLRT10 2: torpedo launchers one a slot group, not a run
    ("CLLRT5", "Clan", ("weapon", 1, 0)),
    ("LRT 10", "Inner Sphere", ("weapon", 2, 0)),
    # CLRAC5 criticalSlots 8, CLRAC2 4 (the table had only the Inner Sphere 6 and 3)
    ("CLRotaryAC5", "Clan", ("weapon", 8, 0)),
    ("Clan Rotary AC/2", "Inner Sphere", ("weapon", 4, 0)),
    # ISGaussRiflePrototype extends GaussWeapon (explosive): criticalSlots 8, explosionDamage 20
    ("ISGaussRiflePrototype", "Inner Sphere", ("weapon", 8, 20)),
    # LongTomCannon criticalSlots 15, its Clan spellings among its lookup names
    ("ISLongTomCannon", "Clan", ("weapon", 15, 0)),
    # BPodWeapon / MPodWeapon: explosive, explosionDamage 2 and 5 (Total Warfare: an unused B-Pod 2)
    ("ISBPod", "Inner Sphere", ("weapon", 1, 2)),
    ("CLBPod", "Clan", ("weapon", 1, 2)),
    ("ISMPod", "Inner Sphere", ("weapon", 1, 5)),
    # ACWeapon and RACWeapon say explosive (incendiary ammunition, a jam), every PPC too (a charged
    # capacitor): none of these is an explosive component by the rule document
    ("Light Auto Cannon/5", "Inner Sphere", ("weapon", 2, 0)),
    ("ISHVAC10", "Inner Sphere", ("weapon", 6, 0)),
    ("ISRAC5", "Inner Sphere", ("weapon", 6, 0)),
    ("ISPPC", "Inner Sphere", ("weapon", 3, 0)),
    # ISTSEMPOneShot extends TSEMPWeapon (explosive, 10): 3 slots; "TSEMP_OS" is its "ISTSEMPOS"
    ("TSEMP_OS", "Inner Sphere", ("weapon", 3, 10)),
    # createISPrototypeImprovedJumpJet: 1 slot ("Prototype Improved Jump Jet", found without the IS)
    ("ISPrototypeImprovedJumpJet", "Inner Sphere", ("jump-jet", 1, 0)),
    # createWatchdogECM: 2 slots, hittable (a family read its "Composite" as a structure slot)
    ("Watchdog Composite Electronic Warfare System (CEWS)", "Clan", ("equipment", 2, 0)),
    # createIndustrialTSM: MegaMek says not hittable; the document lets a critical strike any
    # equipment, so the table keeps it equipment of variable size
    ("Industrial TSM", "Inner Sphere", ("equipment", 0, 0)),
    # createLAMBombBay 1 slot, createISHeadTurret 1 slot
    ("Bomb Bay", "Inner Sphere", ("equipment", 1, 0)),
    ("ISHeadTurret", "Inner Sphere", ("equipment", 1, 0)),
])
def test_battletech_megamek_weapon_and_equipment_names(name: str, tech_base: str, want: tuple[str, int, int]) -> None:
    item = kept_catalog().equipment(name, tech_base)
    assert item is not None and (item.kind, item.slots, item.explosion) == want


@pytest.mark.parametrize("name, want", [
    # AmmoType factories: shots a ton, damagePerShot x rackSize, explosive
    ("Clan Ammo ProtoMech LRTorpedo-1", (100, 1, True)),  # createCLLRT1Ammo
    ("CLLRTorpedo9 Ammo", (100, 9, True)),  # createCLLRT9Ammo
    ("ISNarc ExplosivePods", (6, 4, True)),  # createISNarcExplosiveAmmo
    ("IS Narc Missile Beacon Ammo", (6, 2, True)),  # createISNarcAmmo
    ("Clan Ammo iATM-12 ER", (5, 12, True)),  # createCLIATM12ERAmmo: 1 a missile
    ("CLATM9 HE Ammo", (7, 27, True)),  # createCLATM9HEAmmo: 3 a missile
    ("Clan Ammo iATM-12 IMP", (5, 12, True)),  # createCLIATM12IMPAmmo: 1 a missile
    ("Clan Machine Gun Ammo (1/2 ton)", (100, 2, True)),  # createCLMGAmmoHalf: 100 shots
    ("Clan Anti-Personnel Gauss Rifle Ammo", (40, 3, False)),  # createCLAPGaussRifleAmmo, not light Gauss
    ("CLLongTomArtilleryCannon Ammo", (5, 20, True)),  # createISLongTomCannonAmmo, not the Long Tom
    ("CLFluidGun Ammo", (20, 0, False)),  # createCLFluidGunAmmo: its 2 counts only for critical slots
    ("NAC20 Ammo", (1, 20, True)),  # createNAC20Ammo: a naval autocannon, not the AC/20
    ("Ammo Light N-Gauss", (1, 15, True)),  # createLightNGaussAmmo: not the Gauss rifle; explosive not set false
    ("IS Ammo AC/2 Primitive", (34, 2, True)),  # createISAC2pAmmo: a primitive bin, not the AC/2's 45
    ("ISAC20p Ammo", (4, 20, True)),  # createISAC20pAmmo
    ("Primitive Prototype LRM 20 Ammo", (5, 20, True)),  # createISLRM20pAmmo: not the Extended LRM ("...pe LRM")
    ("ISSRM6p Ammo", (11, 12, True)),  # createISSRM6pAmmo: 2 a missile
    ("ProtoTypeArrowIVAmmo", (4, 20, True)),  # createPrototypeArrowIVAmmo: 4 shells, not 5
    ("ISPrimitiveLongTomAmmo", (4, 25, True)),  # createISPrimitiveLongTomAmmo
    ("ISTBolt15 Ammo", (4, 15, True)),  # createISThunderbolt15Ammo: damagePerShot 15 x rackSize 1
    ("CL Ammo Nail/Rivet - Half", (150, 0, False)),  # createISNailRivetGunAmmoHalf: a fill, its 1 never counts
    ("Clan Streak LRM 7 Ammo", (1, 7, True)),  # createCLStreakLRM7Ammo: a ProtoMech size, 1 shot
    ("ISC3Sensors", (4, 0, False)),  # createISC3RemoteSensorAmmo: no "ammo" in the name, explosive = false
    ("IS BA Ammo LRM-5", (1, 5, True)),  # createBAISLRM5Ammo: a battle-armour slot holds 1 volley, not 24
    ("BASRM-2 Ammo", (1, 4, True)),  # createBASRM2Ammo
    ("CLTorpedoLRM5 Ammo", (1, 5, True)),  # createCLTorpedoLRM5Ammo: not the LRM-5's 24
    ("BACompactNarc Ammo", (1, 8, False)),  # createBACompactNarcAmmo: 2 x 4, explosive = false
    ("Advanced SRM 2 Ammo", (1, 4, True)),  # createAdvancedSRM2Ammo: a battle-armour slot, not the SRM-2's 50
])
def test_battletech_megamek_ammunition_names(name: str, want: tuple[int, int, bool]) -> None:
    m = kept_catalog().ammo(name, "Clan")
    assert m is not None and (m.shots, m.damage_per_shot, m.ammo.explosive) == want


def test_battletech_a_unit_naming_megamek_equipment_is_recognised() -> None:
    """The Quillback with a RISC hyper laser and a ProtoMech LR torpedo bin, names no family
    knows: nothing unrecognised, the laser explodes for MegaMek's 10, the bin holds 100 shots."""
    text = QUILLBACK.read_text(encoding="utf-8")
    text = text.replace("Large Laser\nLarge Laser\n", "ISRISCHyperLaser\nISRISCHyperLaser\n", 1)
    text = text.replace("IS Ammo SRM-4", "Clan Ammo ProtoMech LRTorpedo-1", 1)
    u = unit_from_mtf(text, "quillback-risc.mtf", kept_catalog())
    assert u["unrecognised"] == []
    items = {i["name"]: i for i in u["items"].values()}
    assert (items["ISRISCHyperLaser"]["explosive"], items["ISRISCHyperLaser"]["explosion_damage"]) == (True, 10)
    assert items["Clan Ammo ProtoMech LRTorpedo-1"]["ammo"]["shots"] == 100


def test_battletech_the_names_file_is_read_only_for_a_name_the_tables_lack() -> None:
    cat = catalog()
    assert cat.equipment("Medium Laser", "Inner Sphere") is not None
    assert cat.ammo("IS Ammo SRM-4", "Inner Sphere") is not None
    assert "_megamek" not in cat.__dict__
    assert cat.equipment("ISRISCHyperLaser", "Inner Sphere") is not None
    assert "_megamek" in cat.__dict__


def test_battletech_the_script_reads_a_weapon_class_and_a_factory(tmp_path: Path) -> None:
    """The script on Java text of MegaMek's shape (written here, not MegaMek's): a class's name,
    internal name and lookup names, its slots and explosion; a factory's bin."""
    spec = importlib.util.spec_from_file_location("megamek_names", TOOL)
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    (tmp_path / "ISPretendCannon.java").write_text(
        "// MegaMek/megamek a test class\npublic class ISPretendCannon extends Weapon {\n"
        "    public ISPretendCannon() {\n        name = \"Pretend Cannon\";\n        setInternalName(name);\n"
        "        addLookupName(\"IS Pretend Cannon\");\n        criticalSlots = 4;\n        explosive = true;\n"
        "        explosionDamage = 7;\n    }\n}\n", encoding="utf-8")
    (tmp_path / "Ammo.java").write_text(
        "// MegaMek/megamek a test factory\n    private static AmmoType createISPretendAmmo() {\n"
        "        ammo.name = \"Pretend Ammo\";\n        ammo.setInternalName(\"IS Ammo Pretend\");\n"
        "        ammo.damagePerShot = 3;\n        ammo.rackSize = 2;\n        ammo.shots = 9;\n        return ammo;\n    }\n",
        encoding="utf-8")
    # the same factory saved from another MegaMek version: one entry, the names of both
    (tmp_path / "AmmoOlder.java").write_text(
        "// MegaMek/megamek an older factory\n    private static AmmoType createISPretendAmmo() {\n"
        "        ammo.name = \"Pretend Ammo\";\n        ammo.addLookupName(\"IS Pretend Ammo\");\n"
        "        ammo.damagePerShot = 3;\n        ammo.rackSize = 2;\n        ammo.shots = 9;\n    }\n",
        encoding="utf-8")
    data = tomllib.loads(tool.build(tmp_path))
    by = {e["megamek"]: e for e in data["class"]}
    cannon = by["ISPretendCannon"]
    assert cannon["names"] == ["Pretend Cannon", "IS Pretend Cannon"]
    assert (cannon["kind"], cannon["tech"], cannon["slots"], cannon["explosion"]) == ("weapon", "is", 4, 7)
    ammo = by["AmmoType.createISPretendAmmo"]
    assert ammo["names"] == ["Pretend Ammo", "IS Ammo Pretend", "IS Pretend Ammo"]
    assert ammo["source"] == "MegaMek/megamek a test factory; MegaMek/megamek an older factory"
    assert data["classes"] == 2
    assert (ammo["kind"], ammo["shots"], ammo["damage_per_shot"], ammo["explosive"]) == ("ammo", 9, 6, True)


def test_battletech_the_script_keeps_the_mech_item_of_a_name_the_tables_know(tmp_path: Path) -> None:
    """A ProtoMek's factory named "Jump Jet" (0 slots, no F_MEK_EQUIPMENT flag) does not make a
    'Mech's jump jet 0 slots; an item spread over locations keeps the tables' 0 however many
    slots MegaMek states in all; a 'Mech item the tables know takes MegaMek's stated slots; a
    slot that is not hittable is one a critical hit rolls again on."""
    spec = importlib.util.spec_from_file_location("megamek_names", TOOL)
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    (tmp_path / "Misc.java").write_text(
        "// MegaMek/megamek test factories\n"
        "    public static MiscType createPretendProtoJumpJet() {\n        misc.name = \"Jump Jet\";\n"
        "        misc.criticalSlots = 0;\n        misc.flags = misc.flags.or(F_JUMP_JET).or(F_PROTOMEK_EQUIPMENT);\n    }\n"
        "    public static MiscType createISPretendWing() {\n        misc.name = \"Partial Wing\";\n"
        "        misc.criticalSlots = 8;\n        misc.spreadable = true;\n"
        "        misc.flags = misc.flags.or(F_PARTIAL_WING)\n              .or(F_MEK_EQUIPMENT);\n    }\n"
        "    public static MiscType createPretendWideThing() {\n        misc.name = \"Pretend Wide Thing\";\n"
        "        misc.criticalSlots = 5;\n        misc.spreadable = true;\n    }\n"
        "    public static MiscType createPretendVault() {\n        misc.name = \"Pretend Vault\";\n"
        "        misc.criticalSlots = 1;\n        misc.hittable = false;\n"
        "        misc.flags = misc.flags.or(F_BA_EQUIPMENT).andNot(F_MEK_EQUIPMENT);\n    }\n"
        "    public static MiscType createPretendUMU() {\n        misc.name = \"UMU\";\n"
        "        misc.criticalSlots = 2;\n        misc.flags = misc.flags.or(F_UMU).or(F_MEK_EQUIPMENT);\n    }\n",
        encoding="utf-8")
    by = {e["megamek"]: e for e in tomllib.loads(tool.build(tmp_path))["class"]}
    got = {k.removeprefix("MiscType.create"): (e["kind"], e["label"], e["slots"]) for k, e in by.items()}
    assert got == {
        "PretendProtoJumpJet": ("jump-jet", "Jump Jet", 1),
        "ISPretendWing": ("equipment", "Partial Wing", 0),
        "PretendWideThing": ("equipment", "Pretend Wide Thing", 0),
        "PretendUMU": ("equipment", "UMU", 2),
        "PretendVault": ("roll-again", "Pretend Vault", 1),
    }


def _tool() -> Any:
    spec = importlib.util.spec_from_file_location("megamek_names", TOOL)
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    return tool


def _excerpt(folder: Path, where: str, header: str, *statements: str) -> None:
    """Save a weapon class's excerpt as the name script reads one: its source line, its header
    (``public class X extends Y``), its statements; the file is named for the class."""
    name = where.rsplit("/", 1)[-1]
    body = "".join(f"    {s};\n" for s in statements)
    (folder / name).write_text(f"// MegaMek/megamek {where} @ 00000000\n{header} {{\n{body}}}\n", encoding="utf-8")


def test_battletech_the_script_reads_weapon_classes_through_their_parents(tmp_path: Path) -> None:
    """Weapon classes of MegaMek's shape (written here, not MegaMek's), in two folders: a class
    takes the explosion and slots it does not state from the nearest saved class it extends
    (abstract parents with no names are no entries); what it states itself wins; the chain stops
    at a class not saved; tech is the class's IS/CL prefix, else its names', else its folder."""
    tool = _tool()
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    _excerpt(a, "weapons/gauss/PretendGaussWeapon.java", "public abstract class PretendGaussWeapon extends AmmoWeapon",
             "explosive = true")
    _excerpt(a, "weapons/gauss/PretendHeavyGaussWeapon.java",
             "public abstract class PretendHeavyGaussWeapon extends PretendGaussWeapon", "criticalSlots = 11",
             "explosionDamage = 25")
    _excerpt(b, "weapons/gauss/ISPretendHeavyGauss.java", "public class ISPretendHeavyGauss extends PretendHeavyGaussWeapon",
             'name = "Pretend Heavy Gauss"', "setInternalName(this.name)", 'addLookupName("ISPretendHeavyGauss")')
    _excerpt(b, "weapons/gauss/clan/PretendLightGauss.java", "public class PretendLightGauss extends PretendHeavyGaussWeapon",
             'name = "Pretend Light Gauss"', "criticals = 5", "explosionDamage = 16")
    _excerpt(b, "weapons/other/PretendCannon.java", "public class PretendCannon extends UnsavedCannonWeapon",
             'name = "Pretend Cannon"', 'setInternalName("CLPretendCannon")', "criticalSlots = 3")
    data = tomllib.loads(tool.build([a, b]))
    got = {e["megamek"]: (e["kind"], e["tech"], e["slots"], e["explosion"], e.get("extends")) for e in data["class"]}
    assert got == {
        "ISPretendHeavyGauss": ("weapon", "is", 11, 25, ["PretendHeavyGaussWeapon", "PretendGaussWeapon", "AmmoWeapon"]),
        "PretendLightGauss": ("weapon", "clan", 5, 16, ["PretendHeavyGaussWeapon", "PretendGaussWeapon", "AmmoWeapon"]),
        "PretendCannon": ("weapon", "clan", 3, 0, ["UnsavedCannonWeapon"]),
    }
    assert data["classes"] == 3 and data["names"] == 5


def test_battletech_the_script_keeps_the_entries_whose_java_text_is_gone(tmp_path: Path) -> None:
    """Run on new Java text with the file as it is: an entry of a class not in the folders stays
    word for word; a class read again is written from its Java text."""
    tool = _tool()
    (tmp_path / "ISRISCHyperLaser.java").write_text(
        "// MegaMek/megamek a test class\npublic class ISRISCHyperLaser extends Weapon {\n"
        "    name = \"RISC Hyper Laser\";\n    criticalSlots = 6;\n    explosive = true;\n"
        "    explosionDamage = 10;\n}\n", encoding="utf-8")
    old = NAMES.read_text(encoding="utf-8")
    new = tomllib.loads(tool.build([tmp_path], old))
    before = {e["megamek"]: e for e in classes()}
    after = {e["megamek"]: e for e in new["class"]}
    assert set(after) == set(before)
    assert after["ISRISCHyperLaser"]["source"] == "MegaMek/megamek a test class"
    assert after["ISRISCHyperLaser"]["names"] == ["RISC Hyper Laser"]
    assert all(after[k] == e for k, e in before.items() if k != "ISRISCHyperLaser")
    # with no Java text at all the file is written back as it is (its header aside)
    again = tool.build([tmp_path / "nothing-here"], old)
    assert again.split("\nclasses = ")[1] == old.split("\nclasses = ")[1]


def test_battletech_the_script_refuses_a_missing_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tool = _tool()
    before = NAMES.read_bytes()
    assert tool.main([str(tmp_path / "absent")]) == 2
    assert tool.main([str(tmp_path), "--chek"]) == 2
    assert capsys.readouterr().err.count("usage:") == 2
    assert NAMES.read_bytes() == before


EQUIPMENT = NAMES.parent / "equipment.toml"

_SYSTEM = "a 'Mech's system slot: MegaMek writes it from its Mek class's own slots, not from an equipment class"
#: The entries of equipment.toml that name no MegaMek class of megamek-names.toml, and why.
NO_CLASS = {
    **{(n, "any"): _SYSTEM for n in (
        "Shoulder", "Upper Arm Actuator", "Lower Arm Actuator", "Hand Actuator", "Hip", "Upper Leg Actuator",
        "Lower Leg Actuator", "Foot Actuator", "Fusion Engine", "Gyro", "Cockpit", "Life Support", "Sensors")},
    ("Landing Gear", "any"): "a Land-Air 'Mech's system slot (MegaMek's LandAirMek), not an equipment class",
    ("Avionics", "any"): "a Land-Air 'Mech's system slot (MegaMek's LandAirMek), not an equipment class",
    ("Conversion Gear", "any"): "a QuadVee's system slot (MegaMek's QuadVee), not an equipment class",
    ("Command Console", "any"): "a cockpit type in MegaMek (a second cockpit slot), not an equipment class",
    ("Ferro-Fibrous", "any"): "MegaMek defines armour in its armour types, which no pass has read",
}


def test_battletech_every_table_entry_names_the_megamek_class_it_comes_from() -> None:
    """Each entry of equipment.toml names (``megamek``) a class or factory of megamek-names.toml,
    one of whose names (its name, internal name or a lookup name) the catalog reads as that very
    entry; the entries MegaMek has no class for are listed in NO_CLASS with the reason, and none
    of them names one."""
    cat = kept_catalog()
    by = {e["megamek"]: e for e in classes()}
    bad = []
    listed = set()
    for group in tomllib.loads(EQUIPMENT.read_text(encoding="utf-8"))["group"]:
        for item in group["items"]:
            key = (item["name"], item["tech"])
            if key in NO_CLASS:
                listed.add(key)
                if "megamek" in item:
                    bad.append(f"{key} is listed as having no class, yet names {item['megamek']}")
                continue
            entry = by.get(item.get("megamek", ""))
            if entry is None:
                bad.append(f"{key} names {item.get('megamek')!r}, which megamek-names.toml lacks")
                continue
            tech_base = "Clan" if item["tech"] == "clan" else "Inner Sphere"
            read = [cat.equipment(n, tech_base, megamek_names=False) for n in entry["names"]]
            if not any(got is not None and (got.name, got.tech) == key for got in read):
                bad.append(f"{key}: no name of {entry['megamek']} ({entry['names']}) is read as this entry")
    assert not bad, bad
    assert listed == set(NO_CLASS)


def test_battletech_every_generated_entry_names_its_class_and_source() -> None:
    """Every entry: the MegaMek class (a weapon class's simple name, a factory as
    ``AmmoType.createX``/``MiscType.createX``), where MegaMek defines it, and the MegaMek file its
    names were read from (a weapon class: its path under megamek/common/weapons/ and the commit);
    a weapon class's parents are named when it has saved ones."""
    for e in classes():
        assert re.fullmatch(r"(?:(?:AmmoType|MiscType)\.create)?\w+", e["megamek"]), e["megamek"]
        assert e["source"].startswith("MegaMek/megamek "), e["megamek"]
        if e["defined_in"] == "WeaponType":
            assert re.search(rf"megamek/common/weapons/\S*/{e['megamek']}\.java @ [0-9a-f]{{8}}\b", e["source"]), e
            assert all(isinstance(p, str) and p for p in e.get("extends", [])), e["megamek"]
        else:
            assert f"{e['defined_in']}.java" in e["source"], e["megamek"]


def test_battletech_identical_weapons_side_by_side_are_each_one_weapon() -> None:
    """The Quillback with four medium VSP lasers' lines in its left arm (MegaMek's class: 2 slots
    each): two lasers, each of two slots, not one item of four; and a B-Pod in its torso explodes
    for 2 (BPodWeapon's explosionDamage)."""
    text = QUILLBACK.read_text(encoding="utf-8")
    text = text.replace("Medium Laser\nMedium Laser\n-Empty-\n-Empty-\n",
                        "ISMediumVSPLaser\nISMediumVSPLaser\nISMediumVSPLaser\nISMediumVSPLaser\n", 1)
    text = text.replace("SRM 4\nIS Ammo SRM-4\n-Empty-\n", "SRM 4\nIS Ammo SRM-4\nISBPod\n", 1)
    u = unit_from_mtf(text, "quillback-vsp.mtf", kept_catalog())
    assert u["unrecognised"] == []
    lasers = [i for i in u["items"].values() if i["name"] == "ISMediumVSPLaser"]
    assert [(i["location"], i["slots"]) for i in lasers] == [("LA", [4, 5]), ("LA", [6, 7])]
    pod = next(i for i in u["items"].values() if i["name"] == "ISBPod")
    assert (pod["kind"], pod["explosive"], pod["explosion_damage"]) == ("weapon", True, 2)


def test_battletech_the_script_gives_no_explosion_to_what_the_facts_say_does_not_explode(tmp_path: Path) -> None:
    """A class extending one of megamek-facts.toml's ``not_explosive`` classes (``ACWeapon``) does
    not explode, though it and its parent say ``explosive = true``; a battle-armour class (its
    MegaMek folder) is no 'Mech weapon, so a name it shares with the tables keeps the tables'."""
    tool = _tool()
    folder = "megamek/src/megamek/common/weapons/"
    _excerpt(tmp_path, folder + "autocannons/ACWeapon.java", "public abstract class ACWeapon extends AmmoWeapon",
             "explosive = true")
    _excerpt(tmp_path, folder + "autocannons/ISPretendAC.java", "public class ISPretendAC extends ACWeapon",
             'name = "Pretend AC"', "criticalSlots = 4", "explosive = true", "explosionDamage = 9")
    _excerpt(tmp_path, folder + "battlearmor/innerSphere/ISBAPretendLaser.java",
             "public class ISBAPretendLaser extends LaserWeapon", 'name = "Medium Laser"',
             'setInternalName("ISBAPretendLaser")', "criticalSlots = 3")
    by = {e["megamek"]: e for e in tomllib.loads(tool.build([tmp_path]))["class"]}
    assert (by["ISPretendAC"]["slots"], by["ISPretendAC"]["explosion"]) == (4, 0)
    laser = by["ISBAPretendLaser"]
    assert (laser["mek"], laser["slots"], laser["tech"]) == (False, 1, "is")
