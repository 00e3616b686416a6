"""The catalog's frame: the importer's data files read, checked and indexed into plain data
(what :mod:`marshal` keeps), from which :func:`critcore_battletech.data.catalog.from_frame` makes
the catalog. Kept between commands in critcore's cache folder
(:func:`critcore_battletech.unitcache.kept_frame`), so this runs once after an install or an edit
of the importer, not on every unit file never imported.
"""

from __future__ import annotations

import os
from typing import Any, Iterable

from critcore.plugin import load_data

from ..needs import filter_of
from ..records import SLOT_KINDS, TECHS, norm

FRAME_FORMAT = 1  # what a frame holds (the fingerprint of the importer's files covers this module too)

# what a frame is made of, as paths in the package: the data files frame() reads and the modules
# that read and index them (the shipped frame holds their bytes: unitcache.shipped_frame,
# tools/battletech_frame.py)
DATA_FILES = ("structure.toml", "configs.toml", "engines.toml", "heat_sinks.toml", "equipment.toml", "ammo.toml",
              "families.toml")
SOURCES = (*(os.path.join("data", n) for n in DATA_FILES), os.path.join("data", "frame.py"), "needs.py", "records.py")


def _read(name: str) -> dict[str, Any]:
    return load_data("critcore_battletech.data", name)  # parsed once, then cached by critcore


def _keys(n: str, tech: str) -> tuple[list[str], list[str]]:
    """(strong, weak) look-up keys of one spelling (as :func:`norm` gives it) of an item of ``tech``."""
    if tech == "is":
        return [n, "is" + n], []
    if tech == "clan":
        return ["cl" + n, "clan" + n, n + "clan"], [n]
    return [n, "is" + n, "cl" + n, "clan" + n, n + "clan"], []


def _index(entries: Iterable[tuple[int, Iterable[str], str]], what: str) -> tuple[dict[str, int], dict[str, int]]:
    """(strong, weak) look-up keys of every spelling, each to the row number of its entry."""
    strong: dict[str, int] = {}
    weak: dict[str, int] = {}
    norms: dict[str, str] = {}  # a spelling is often given to the Inner Sphere and the Clan entry: normalised once
    for row, names, tech in entries:
        if tech not in TECHS:
            raise ValueError(f"{what}: {names!r} has tech {tech!r} (use is, clan or any)")
        for spelling in names:
            n = norms.get(spelling)
            if n is None:
                n = norms[spelling] = norm(spelling)
            s_keys, w_keys = _keys(n, tech)
            for key in s_keys:
                if key in strong and strong[key] != row:
                    raise ValueError(f"{what}: the name {spelling!r} ({key}) is given to two entries")
                strong[key] = row
            for key in w_keys:
                weak.setdefault(key, row)
    return strong, weak


def _equipment_frame() -> dict[str, Any]:
    data = _read("equipment.toml")
    items: list[tuple[Any, ...]] = []
    rows: list[tuple[int, Iterable[str], str]] = []
    seen: dict[tuple[Any, ...], int] = {}
    for group in data["group"]:
        for item in group["items"]:
            kind = item.get("kind", group["kind"])
            if kind not in SLOT_KINDS:
                raise ValueError(f"equipment.toml: {item['name']!r} has unknown kind {kind!r}")
            entry = (item["name"], kind, item["tech"], int(item["slots"]), int(item.get("explosion", 0)),
                     int(item.get("heat_sinks", 1)))
            row = seen.get(entry)
            if row is None:  # equal entries are one entry (as equal records compare equal)
                row = seen[entry] = len(items)
                items.append(entry)
            rows.append((row, [item["name"], *item.get("aliases", [])], item["tech"]))
    strong, weak = _index(rows, "equipment.toml")
    return {"equipment": items, "strong": strong, "weak": weak}


def _ammo_frame() -> dict[str, Any]:
    data = _read("ammo.toml")
    return {
        "ammo_families": [
            (f["id"], f["label"], f["match"], {int(k): int(v) for k, v in f.get("shots", {}).items()},
             int(f.get("shots_per_ton", 0)), int(f.get("clan_shots_per_ton", 0)), int(f.get("damage_per_shot", 0)),
             int(f.get("damage_per_unit", 0)), int(f.get("shots_per_turn", 1)), bool(f.get("explosive", True)),
             int(f.get("ammunition_damage_per_shot", 0)))
            for f in data["family"]
        ],
        "ammo_strip": list(data["strip"]),
        "ammo_half": data["half_pattern"],
        "ammo_count": data["count_pattern"],
        "prefix": data["prefix_pattern"],
        "ammo_variants": [(v["name"], v["match"], float(v["shots_factor"]), float(v.get("damage_factor", 1.0)))
                          for v in data["variant"]],
        "unknown_damage": int(data["unknown_damage"]),
    }


def _families_frame() -> list[tuple[Any, ...]]:
    data = _read("families.toml")
    out = []
    for f in data["family"]:
        if f["kind"] not in SLOT_KINDS:
            raise ValueError(f"families.toml: {f['label']!r} has unknown kind {f['kind']!r}")
        out.append((f["label"], f["match"], f["kind"], int(f.get("slots", 0)), int(f.get("clan_slots", 0)),
                    int(f.get("explosion", 0)), {int(k): int(v) for k, v in f.get("slots_by_size", {}).items()},
                    {int(k): int(v) for k, v in f.get("explosion_by_size", {}).items()}))
    return out


def frame() -> dict[str, Any]:
    """Everything the catalog holds, as plain data (what :mod:`marshal` keeps): the data files
    read and checked, the names indexed. :func:`from_frame` makes the catalog of it."""
    structure = _read("structure.toml")
    rows = {
        int(r[0]): {"head": int(head), "center_torso": int(r[1]), "side_torso": int(r[2]), "arm": int(r[3]),
                    "leg": int(r[4])}
        for head, table in ((structure["head"], structure["rows"]),
                            (structure["superheavy_head"], structure["superheavy_rows"]))
        for r in table
    }
    cfg = _read("configs.toml")
    eng = _read("engines.toml")
    hs = _read("heat_sinks.toml")
    made = {
        "format": FRAME_FORMAT,
        "structure_head": int(structure["head"]),
        "structure_rows": rows,
        "configs": [(c["id"], c["match"], c["locations"]) for c in cfg["config"]],
        "headers": sorted({h.lower() for c in cfg["config"] for loc in c["locations"]
                           for h in (loc["name"], *loc.get("aliases", ()))}),
        "omni_pattern": cfg["omni_pattern"],
        "rear_armor_keys": dict(cfg["rear_armor_keys"]),
        "engines": [(e["type"], e["match"], int(e["ct_slots"]), int(e["side_slots_is"]), int(e["side_slots_clan"]))
                    for e in eng["engine"]],
        "engine_clan_pattern": eng["clan_pattern"],
        "engine_is_pattern": eng["is_pattern"],
        "largest_checked_rating": int(eng["largest_checked_rating"]),
        "heat_sinks": [(h["variant"], h["match"], h["type"], int(h["dissipation"])) for h in hs["heat_sink"]],
        **_equipment_frame(),
        **_ammo_frame(),
        "equipment_families": _families_frame(),
    }
    # the filter of each pattern (needs.filter_of), worked out here, not in every process: the
    # patterns matched with the case ignored, and those (the families, the prefix) where it counts
    lower = [made["omni_pattern"], made["engine_clan_pattern"], made["engine_is_pattern"], made["ammo_half"],
             made["ammo_count"], *made["ammo_strip"]]
    lower += [c[1] for c in made["configs"]] + [e[1] for e in made["engines"]] + [h[1] for h in made["heat_sinks"]]
    lower += [v[1] for v in made["ammo_variants"]]
    exact = [made["prefix"], *(a[2] for a in made["ammo_families"]), *(e[1] for e in made["equipment_families"])]
    made["filters"] = {t: filter_of(t, True) for t in lower}
    made["exact_filters"] = {t: filter_of(t, False) for t in exact}
    return made
