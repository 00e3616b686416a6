"""Every ammunition bin and explosive weapon of the MTF corpus (../shared/mtf-corpus/units,
MegaMek's unit files; skipped without it) against the table of MegaMek's own facts in the
plugin's data (critcore_battletech/data/megamek-facts.toml, the source named per family): shots
a ton, damage a shot, whether it explodes, and each explosive weapon's explosion. A bin whose
weapon no family of the table names fails too, so every family the corpus holds is covered.
The figures are in docs/systems/battletech.md ("Measured on the corpus")."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

import critcore_battletech

FACTS = Path(critcore_battletech.__file__).resolve().parent / "data" / "megamek-facts.toml"

Fact = dict[str, Any]


def facts() -> tuple[dict[str, Fact], dict[str, int]]:
    """(weapon label -> what a bin of it holds, explosive weapon label -> its explosion)."""
    data = tomllib.loads(FACTS.read_text(encoding="utf-8"))
    bins: dict[str, Fact] = {}
    for fid, fam in data["family"].items():
        sizes = fam["shots"] if isinstance(fam["shots"], dict) else {None: fam["shots"]}
        for size, shots in sizes.items():
            label = fam["label"].replace("{size}", str(size)) if size is not None else fam["label"]
            damage = fam["damage_per_unit"] * int(size) if "damage_per_unit" in fam else fam["damage"]
            bins[label] = {
                "family": fid, "source": fam["source"], "read": fam.get("read", True), "shots": shots,
                "clan_shots": fam.get("clan_shots", shots), "damage": damage,
                "ours": (fam.get("departs") or {}).get("damage", damage), "explosive": fam.get("explosive", True),
            }
    explosive = {k: v for k, v in data["explosive"].items() if k != "source"}
    return bins, explosive


def test_battletech_every_family_of_the_facts_names_its_source() -> None:
    """The table itself: each family names the MegaMek factory it comes from, and a departure
    from MegaMek says why."""
    data = tomllib.loads(FACTS.read_text(encoding="utf-8"))
    assert len(data["family"]) > 50
    for fid, fam in data["family"].items():
        assert "create" in fam["source"], fid
        if "departs" in fam:
            assert fam["departs"]["why"], fid
    assert data["explosive"]["source"]


@pytest.fixture
def corpus(corpus_units: list[tuple[Path, dict[str, Any]]]) -> list[tuple[Path, dict[str, Any]]]:
    return corpus_units  # conftest.py: every file imported once a test process (skipped without the corpus)


def test_battletech_every_ammunition_bin_of_the_corpus_matches_megamek(
        corpus: list[tuple[Path, dict[str, Any]]]) -> None:
    """Shots a ton, damage a shot (where no munition changes it) and whether the bin explodes, as
    MegaMek has them (or as critcore departs from them, with the reason in the table)."""
    bins, _ = facts()
    bad: list[str] = []
    seen: dict[str, int] = {}
    for path, u in corpus:
        for item in u["items"].values():
            if item["kind"] != "ammo":
                continue
            ammo = item["ammo"]
            fact = bins.get(ammo["weapon"])
            if fact is None:
                bad.append(f"{path.name}: {item['name']}: no family of megamek-facts.toml names {ammo['weapon']!r}")
                continue
            seen[fact["family"]] = seen.get(fact["family"], 0) + 1
            got = (ammo["shots_per_ton"] in (fact["shots"], fact["clan_shots"]), item["explosive"])
            if got != (True, fact["explosive"]):
                bad.append(f"{path.name}: {item['name']}: {ammo} against {fact}")
            if fact["explosive"] and "munition" not in ammo and ammo["damage_per_shot"] != fact["ours"]:
                bad.append(f"{path.name}: {item['name']}: {ammo['damage_per_shot']} a shot, {fact['source']} "
                           f"gives {fact['ours']}")
    assert sum(seen.values()) > 4000
    assert len(seen) >= 40  # families the corpus holds (docs/systems/battletech.md lists them)
    assert not bad, bad[:20]


def test_battletech_every_explosive_weapon_of_the_corpus_matches_megamek(
        corpus: list[tuple[Path, dict[str, Any]]]) -> None:
    """An item the table lists explodes for its explosionDamage; an item that explodes is listed."""
    _, explosive = facts()
    bad: list[str] = []
    weapons = 0
    for path, u in corpus:
        for item in u["items"].values():
            if item["kind"] == "ammo":
                continue
            label = item["label"].removesuffix(" (Clan)")
            if label in explosive or item["explosive"]:
                weapons += 1
                if (item["explosive"], item["explosion_damage"]) != (True, explosive.get(label)):
                    bad.append(f"{path.name}: {item['name']} ({label}): {item['explosion_damage']}")
    assert weapons > 500
    assert not bad, bad[:20]
