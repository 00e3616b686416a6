"""The effects issue 28 found wrong, with scripted dice (``one_crit``: 2d6 = 8, one critical, then
the half and slot dice). Every expected number comes from the rule document (an explosion does
one turn's worth of shots to internal structure, the MechWarrior takes 2, and the damaged
location gets a critical check) applied to MegaMek's equipment facts, named in each test.

The units are our own fixture (tests/fixtures/legacy-biped-fb1l.mtf: 55 tons, arms 9 internal
structure, side torsos 13) with one location's slots replaced, and the superheavy fixture."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from critcore_battletech.units import unit_from_mtf
from bt_shared import SHARED, kept_catalog

FIXTURES = Path(__file__).resolve().parent / "fixtures"
NO_CRIT = "1,1"  # a critical check that rolls 2: no critical


def unit_with(header: str, slots: list[str], fixture: str = "legacy-biped-fb1l.mtf") -> dict[str, Any]:
    """The fixture with the slots of the location under ``header`` ("Left Arm:") replaced."""
    lines = (FIXTURES / fixture).read_text(encoding="utf-8").splitlines()
    at = lines.index(header) + 1
    lines[at:at + 12] = (slots + ["-Empty-"] * 12)[:12]
    return unit_from_mtf("\n".join(lines) + "\n", "fixture.mtf", kept_catalog())


ARM = ["Shoulder", "Upper Arm Actuator", "Lower Arm Actuator", "Hand Actuator"]
TORSO = ["Jump Jet"]  # slot 1; the slot under test is slot 2
# 2d6 = 8: one critical; slots 7-12 of the torso hold nothing, so only the slot die is rolled
# (the rows of critical-slot-half are not needed): 2, the slot under test
TORSO_SLOT_2 = "4,4,2"


def explosions(out: Any) -> list[tuple[str, int]]:
    """The explosions of a resolution: the slots its criticals struck, then those of cascades."""
    return [(e.code, e.data["explosion_damage"]) for e in (*out.effects, *out.applied.effects)
            if e.code in ("ammo-explosion", "component-explosion")]


def checks(out: Any) -> list[int]:
    """The totals of the critical checks rolled while applying (after the stage's own roll)."""
    return [r.total for r in out.rolls if r.label.startswith("Determining Critical Hits")][1:]


def test_a_mek_taser_explodes_for_6_on_its_first_critical(run: Any, bt: Any) -> None:
    """MegaMek ISMekTaser: explosive, explosionDamage 6 (issue 28: it was only knocked out). A
    critical on its first slot (left arm slot 5): 6 to the arm's structure (9 -> 3), 2 for the
    MechWarrior, then the arm's critical check (2: nothing)."""
    u = unit_with("Left Arm:", ARM + ["ISMekTaser"] * 3)
    out = run("critical", bt.one_crit("LA", 5) + "," + NO_CRIT, unit=u, location="LA")
    assert explosions(out) == [("component-explosion", 6)]
    after = bt.state(out)
    assert after["locations"]["LA"]["structure"] == 9 - 6
    assert after["pilot"]["hits"] == 2
    assert checks(out) == [2]


def test_a_mek_taser_hit_again_on_another_slot_does_not_explode_again(run: Any, bt: Any) -> None:
    """An explosive component explodes on its FIRST critical only (the rule document); its other
    slots then only absorb hits. Slot 6 after slot 5: nothing more."""
    u = unit_with("Left Arm:", ARM + ["ISMekTaser"] * 3)
    first = run("critical", bt.one_crit("LA", 5) + "," + NO_CRIT, unit=u, location="LA")
    second = run("critical", bt.one_crit("LA", 6), unit=bt.state(first), location="LA")
    assert explosions(second) == []
    assert bt.state(second)["locations"]["LA"]["structure"] == 3


@pytest.mark.parametrize("name, damage, source", [
    ("IS Ammo Heavy Rifle", 9, "AmmoType.createISHeavyRifleAmmo: 1 x rackSize 9, 6 shots"),
    ("ISHeavy Rifle Ammo", 9, "the same bin by its lookup name"),
    ("IS Ammo Medium Rifle", 6, "createISMediumRifleAmmo: 1 x 6, 9 shots"),
    ("IS Ammo Light Rifle", 3, "createISLightRifleAmmo: 1 x 3, 18 shots"),
    ("CLMediumChemLaserAmmo", 5, "createCLMediumChemicalLaserAmmo: 1 x 5, 30 shots"),
    ("CLSmallChemLaserAmmo", 3, "createCLSmallChemicalLaserAmmo: 1 x 3, 60 shots"),
    ("CLLargeChemLaserAmmo", 8, "createCLLargeChemicalLaserAmmo: 8 x 1, 10 shots"),
    ("ISiNarc Pods", 3, "createISiNarcAmmo: 3 a pod (it was 2)"),
    ("ISiNarc Explosive Pods", 6, "createISiNarcExplosiveAmmo: 6 a pod"),
    ("IS Heavy Flamer Ammo", 4, "the rule document: one turn's shots of a heavy flamer, its damage value 4"),
    ("Clan Ammo SC Mortar-4", 8, "createCLAPMortar4Ammo: 2 a shell x 4 tubes (it was 4)"),
    ("Taser Ammo", 6, "createISMekTaserAmmo: 6 a shot, explosive (it was an inert fill)"),
    ("ISAPDS Ammo", 2, "createISAPDSAmmo: 1 x rackSize 2, 12 shots (it was unrecognised)"),
])
def test_an_ammunition_bin_explodes_for_one_turn_of_its_shots(run: Any, bt: Any, name: str, damage: int,
                                                             source: str) -> None:
    """One turn's worth of shots (one shot of these weapons) to the left torso's internal
    structure (13), 2 for the MechWarrior; then the torso's check (2: nothing)."""
    u = unit_with("Left Torso:", TORSO + [name])
    assert name not in u["unrecognised"], source
    out = run("critical", TORSO_SLOT_2 + "," + NO_CRIT, unit=u, location="LT")
    assert explosions(out) == [("ammo-explosion", damage)], source
    after = bt.state(out)
    assert after["locations"]["LT"]["structure"] == 13 - damage
    assert after["pilot"]["hits"] == 2


def test_a_heavy_flamer_bin_with_option_ammunition_explodes_for_megameks_2(run: Any, bt: Any) -> None:
    """Option heavy_flamer_explosion = ammunition: MegaMek's heavy flamer ammunition carries 2 a
    shot (createISHeavyFlamerAmmo: 1 x rackSize 2), so the bin does 2 (13 -> 11); with
    total-warfare explosions, 2 x its 10 shots = 20 (the torso's 13 gone, 7 pass inward)."""
    u = unit_with("Left Torso:", TORSO + ["IS Heavy Flamer Ammo"])
    out = run("critical", TORSO_SLOT_2 + "," + NO_CRIT, unit=u, location="LT",
              options={"heavy_flamer_explosion": "ammunition"})
    assert explosions(out) == [("ammo-explosion", 2)]
    assert bt.state(out)["locations"]["LT"]["structure"] == 11
    out = run("critical", TORSO_SLOT_2 + "," + NO_CRIT, unit=u, location="LT",
              options={"heavy_flamer_explosion": "ammunition", "explosion_damage": "total-warfare"})
    assert explosions(out) == [("ammo-explosion", 20)]
    after = bt.state(out)
    assert after["locations"]["LT"]["destroyed"] and after["locations"]["CT"]["structure"] == 18 - 7


def test_the_heavy_flamer_option_leaves_other_bins_alone(run: Any, bt: Any) -> None:
    """The option replaces only a heavy flamer's shot: an LRM-10 bin still does 10."""
    u = unit_with("Left Torso:", TORSO + ["IS Ammo LRM-10"])
    out = run("critical", TORSO_SLOT_2 + "," + NO_CRIT, unit=u, location="LT",
              options={"heavy_flamer_explosion": "ammunition"})
    assert explosions(out) == [("ammo-explosion", 10)]


def test_both_bins_of_a_superheavy_double_slot_explode_when_the_first_destroys_the_location(
        run: Any, bt: Any) -> None:
    """A critical on a superheavy's double slot strikes both items (Tactical Operations, as MegaMek
    resolves it), so both bins explode even when the first alone takes the location (issue 28:
    the second was "lost with the Left Arm"). Two MRM-30 bins in one slot of the left arm (135 t:
    arm 22, side torso 28, centre torso 41; 30 a bin, one volley): the first destroys the arm and
    passes 8 to the left torso (28 -> 20), whose check rolls 2; the second explodes in the arm
    already gone, so all 30 pass inward: the left torso goes (20) and 10 reach the centre torso
    (41 -> 31), whose check rolls 2. The MechWarrior takes 2 a bin: 4."""
    u = unit_with("Left Arm:", ARM + ["IS MRM 30 Ammo|IS MRM 30 Ammo"], "superheavy-fs5x.mtf")
    out = run("critical", "4,4,5," + NO_CRIT + "," + NO_CRIT, unit=u, location="LA")  # one die: slots 7-12 empty
    assert explosions(out) == [("ammo-explosion", 30), ("ammo-explosion", 30)]
    after = bt.state(out)
    assert after["locations"]["LA"]["destroyed"] and after["locations"]["LT"]["destroyed"]
    assert after["locations"]["CT"]["structure"] == 31
    assert after["pilot"]["hits"] == 4
    assert not any("lost with the Left Arm" in c for c in out.applied.changes)
    assert checks(out) == [2, 2]  # the left torso's, then the centre torso's


def test_a_double_slot_explosion_in_a_location_gone_is_vented_by_case_there(run: Any, bt: Any) -> None:
    """With option case = true and CASE in the arm (CASE II: a superheavy's arm may carry it), the
    first MRM-30 bin destroys the arm and CASE vents the other 8; the second bin's 30, exploding
    in the arm already gone, is vented by the same CASE: the left torso is untouched (28)."""
    u = unit_with("Left Arm:", ARM + ["IS MRM 30 Ammo|IS MRM 30 Ammo", "ISCASEII"], "superheavy-fs5x.mtf")
    assert u["locations"]["LA"]["case"] == "case-ii"
    out = run("critical", "4,4,5", unit=u, location="LA", options={"case": True})
    assert explosions(out) == [("ammo-explosion", 30), ("ammo-explosion", 30)]
    after = bt.state(out)
    assert after["locations"]["LA"]["destroyed"] and after["locations"]["LT"]["structure"] == 28
    assert sum("vented" in c for c in out.applied.changes) == 2


@pytest.mark.parametrize("name, kind, slots, megamek", [
    # the class's name, internal name and addLookupName names, as MegaMek defines them
    ("ISMekTaser", "weapon", 3, "ISMekTaser"), ("ISBattleMechTaser", "weapon", 3, "ISMekTaser"),
    ("Mek Taser", "weapon", 3, "ISMekTaser"),
    ("Rifle (Cannon, Heavy)", "weapon", 3, "ISRifleHeavy"), ("ISHeavyRifle", "weapon", 3, "ISRifleHeavy"),
    ("IS Heavy Rifle", "weapon", 3, "ISRifleHeavy"), ("Heavy Rifle", "weapon", 3, "ISRifleHeavy"),
    ("Rifle (Cannon, Medium)", "weapon", 2, "ISRifleMedium"), ("ISMediumRifle", "weapon", 2, "ISRifleMedium"),
    ("Rifle (Cannon, Light)", "weapon", 1, "ISRifleLight"), ("ISLightRifle", "weapon", 1, "ISRifleLight"),
    ("ISAPDS", "weapon", 2, "ISAPDS"),
    ("ISAntiPersonnelPod", "equipment", 1, "MiscType.createISAPPod"), ("ISAPod", "equipment", 1, "MiscType.createISAPPod"),
    ("IS A-Pod", "equipment", 1, "MiscType.createISAPPod"), ("IS AP Pod", "equipment", 1, "MiscType.createISAPPod"),
    ("CLAntiPersonnelPod", "equipment", 1, "MiscType.createISAPPod"), ("Clan A-Pod", "equipment", 1, "MiscType.createISAPPod"),
    ("ClanGroundMobileHPG", "equipment", 0, "MiscType.createISGroundMobileHPG"),
    ("ISGroundMobileHPG", "equipment", 0, "MiscType.createISGroundMobileHPG"),
    ("ISMobileHPG", "equipment", 0, "MiscType.createISMobileHPG"),
])
def test_megameks_lookup_names_are_known_with_their_class(name: str, kind: str, slots: int, megamek: str) -> None:
    """Names issue 28 found unrecognised on units beyond the corpus, and their MegaMek lookup
    names: each is the catalog entry that names the MegaMek class or factory it comes from."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib

    entry = kept_catalog().equipment(name, "Inner Sphere" if not name.startswith(("CL", "Clan")) else "Clan")
    assert entry is not None and (entry.kind, entry.slots) == (kind, slots), name
    data = tomllib.loads((Path(__file__).resolve().parents[1] / "src" / "critcore_battletech" / "data"
                          / "equipment.toml").read_text(encoding="utf-8"))
    rows = [item for group in data["group"] for item in group["items"]
            if item["name"] == entry.name and item["tech"] == entry.tech]
    assert [row.get("megamek") for row in rows] == [megamek], name


DAO = SHARED / "mtf-corpus" / "units" / "XTRs" / "Liao" / "Vindicator Dao.mtf"


@pytest.mark.skipif(not DAO.is_file(), reason="../shared/mtf-corpus is not here")
def test_the_vindicator_daos_mek_taser_explodes(run: Any, bt: Any) -> None:
    """Issue 28's case, on MegaMek's own file: the Vindicator VND-3LD (Dao), left arm slot 5 (the
    taser): it explodes for 6 (ISMekTaser's explosionDamage), the arm's structure 7 -> 1, the
    MechWarrior takes 2; the arm's check then rolls 2."""
    from critcore_battletech import load_mtf

    out = run("critical", "4,4,1,5,1,1", unit=load_mtf(DAO), location="LA")
    assert explosions(out) == [("component-explosion", 6)]
    after = bt.state(out)
    assert after["locations"]["LA"]["structure"] == 1 and after["pilot"]["hits"] == 2
