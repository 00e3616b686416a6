"""Every real unit of ../shared/mtf-corpus/units (MegaMek's data, skipped when absent): each file
imports; every ammunition bin the rules let explode is explosive with shots and damage; every
explosive weapon explodes with its damage; nothing is unrecognised. The figures are in
docs/systems/battletech.md ("Real units")."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest

from bt_shared import CORPUS, kept_catalog


pytestmark = pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/mtf-corpus/units is not here")

# Weapon families whose first critical hit is an explosion (the rule document: "certain items or
# weapons, such as Gauss rifles"; the published rules add HAGs, improved heavy lasers, TSEMP).
EXPLOSIVE_WORDS = ("gauss", "hag", "improvedheavy", "improvedmediumheavy", "improvedsmallheavy",
                   "improvedlargeheavy", "tsemp", "sbgr", "magshot")
# Bins the published rules make inert: Gauss slugs of every kind, plasma, and fills that do no
# damage (fluid guns, nail/rivet guns, coolant); taser charges explode (MegaMek createISMekTaserAmmo).
INERT_WORDS = ("gauss", "hag", "sbg", "silverbullet", "magshot", "plasma", "fluid", "nail", "coolant",
               "sprayer")


@lru_cache(maxsize=None)  # the corpus repeats its names many times over
def _norm(name: str) -> str:
    return "".join(ch for ch in name.lower() if ch.isalnum())


@pytest.fixture
def corpus(corpus_units: list[tuple[Path, dict[str, Any]]]) -> list[tuple[Path, dict[str, Any]]]:
    return corpus_units  # conftest.py: every file imported once a test process (a refused file fails there)


def test_the_corpus_is_the_size_its_readme_says(corpus: list[tuple[Path, dict[str, Any]]]) -> None:
    assert len(corpus) >= 2000


def test_every_file_imports_with_nothing_unrecognised(corpus: list[tuple[Path, dict[str, Any]]]) -> None:
    unknown = {name for _, u in corpus for name in u["unrecognised"]}
    assert not unknown


def test_every_ammunition_bin_that_can_explode_is_explosive_with_shots_and_damage(
        corpus: list[tuple[Path, dict[str, Any]]]) -> None:
    bad = []
    bins = 0
    for path, u in corpus:
        for item in u["items"].values():
            if item["kind"] != "ammo":
                continue
            bins += 1
            inert = any(w in _norm(item["name"]) for w in INERT_WORDS)
            a = item["ammo"]
            if inert:
                ok = item["explosive"] is False and a["shots"] > 0
            else:
                ok = item["explosive"] is True and a["shots"] > 0 and a["damage_per_shot"] > 0
            if not ok:
                bad.append(f"{path.name}: {item['name']} {a}")
    assert bins > 4000
    assert not bad, bad[:20]


def test_every_explosive_weapon_explodes(corpus: list[tuple[Path, dict[str, Any]]]) -> None:
    bad = []
    weapons = 0
    for path, u in corpus:
        for item in u["items"].values():
            if item["kind"] == "ammo" or not any(w in _norm(item["name"]) for w in EXPLOSIVE_WORDS):
                continue
            weapons += 1
            if not (item["explosive"] and item["explosion_damage"] > 0):
                bad.append(f"{path.name}: {item['name']}")
    assert weapons > 500
    assert not bad, bad[:20]


def test_superheavies_and_stray_bytes_are_read(corpus: list[tuple[Path, dict[str, Any]]]) -> None:
    superheavy = [u for _, u in corpus if u["superheavy"]]
    assert superheavy and all(u["locations"]["HD"]["structure"] == 4 for u in superheavy)
    assert any("not UTF-8" in w for _, u in corpus for w in u["import_warnings"])


_CONSTANT = "its MegaMek internal name is a constant the saved text does not spell out"
#: Slot names of the development half that MegaMek's names read so far do not hold: a family of
#: families.toml reads them (by what the name means), and why no MegaMek class does yet.
FAMILY_ONLY = {
    **{n: _CONSTANT + " (EquipmentTypeLookup.COOLANT_POD), so no saved excerpt holds it"
       for n in ("Coolant Pod", "IS Coolant Pod", "Clan Coolant Pod")},
    "ISElectronicWarfareEquipment": _CONSTANT + " (createISEWEquipment: Sensor.EW_EQUIPMENT)",
    "MechSprayer": _CONSTANT + " (createMekSprayer: EquipmentTypeLookup.SPRAYER_MEK)",
    "ISPrototypeJumpJet": "createISPrototypeJumpJet's only name read is \"Primitive Prototype Jump Jet\"",
    "ISC3Sensors": "MegaMek's AmmoType factory createISC3RemoteSensorAmmo; the name does not say ammunition, so "
                   "electronics equipment (it cannot explode: a critical hit only loses it either way)",
    "Stealth Armor": "MegaMek defines armour in its armour types, which no pass has read",
}


def test_the_development_half_is_read_from_megameks_names(corpus: list[tuple[Path, dict[str, Any]]]) -> None:
    """The development half is ../shared/mtf-corpus/units, the units the plugin was built from
    (every test of this file reads all of it). Nothing in it is unrecognised, and each
    weapon's and piece of equipment's slot name is one of MegaMek's names: an entry of
    megamek-names.toml has it, or it reads as an entry of equipment.toml, which names its MegaMek
    class or why it has none (tests/test_battletech_megamek_names.py checks both). The names only a
    family reads are FAMILY_ONLY, each with why; a name that leaves that list must leave it here."""
    import sys

    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib

    cat = kept_catalog()
    data = Path(__file__).resolve().parents[1] / "src" / "critcore_battletech" / "data" / "equipment.toml"
    tabled = {(item["name"], item["tech"]) for group in tomllib.loads(data.read_text(encoding="utf-8"))["group"]
              for item in group["items"]}
    unknown = {name for _, u in corpus for name in u["unrecognised"]}
    assert not unknown
    family_only: set[str] = set()
    names = 0
    for _, u in corpus:
        for item in u["items"].values():
            if item["kind"] not in ("weapon", "equipment", "heat-sink", "jump-jet", "roll-again"):
                continue
            names += 1
            name, tech_base = item["name"], u["tech_base"]
            if cat.megamek_class(name, tech_base, ammo=False) is not None:
                continue
            entry = cat.equipment(name, tech_base, megamek_names=False)
            if entry is not None and (entry.name, entry.tech) in tabled and entry != cat.equipment_family(name, tech_base):
                continue
            family_only.add(name)
    assert names > 20000
    assert family_only == set(FAMILY_ONLY)
