"""Small synthetic GCS characters (format version 5) for the GURPS tests: our own, written the
way GCS writes its files (tab indentation), with the `calc` values GCS would compute."""

from __future__ import annotations

import json
from typing import Any

HUMANOID = [  # (id, table name, slots, penalty, dr bonus)
    ("eye", "Eyes", 0, -9, 0), ("skull", "Skull", 2, -7, 2), ("face", "Face", 1, -5, 0),
    ("leg", "Right Leg", 2, -2, 0), ("arm", "Right Arm", 1, -2, 0), ("torso", "Torso", 2, 0, 0),
    ("groin", "Groin", 1, -3, 0), ("arm", "Left Arm", 1, -2, 0), ("leg", "Left Leg", 2, -2, 0),
    ("hand", "Hand", 1, -4, 0), ("foot", "Foot", 1, -4, 0), ("neck", "Neck", 2, -5, 0),
    ("vitals", "Vitals", 0, -3, 0),
]
WINGED_QUADRUPED = [
    ("eye", "Eyes", 0, -9, 0), ("skull", "Skull", 2, -7, 2), ("face", "Face", 1, -5, 0), ("neck", "Neck", 1, -5, 0),
    ("leg", "Foreleg", 2, -2, 0), ("torso", "Torso", 3, 0, 0), ("wing", "Wing", 1, -2, 0),
    ("leg", "Hindleg", 2, -2, 0), ("foot", "Foot", 2, -4, 0), ("tail", "Tail", 2, -3, 0),
    ("vitals", "Vitals", 0, -3, 0),
]
ARACHNOID = [
    ("eye", "Eyes", 0, -9, 0), ("brain", "Brain", 2, -7, 1), ("neck", "Neck", 1, -5, 0), ("face", "Face", 1, -5, 0),
    ("leg", "Leg 1-2", 2, -2, 0), ("torso", "Torso", 3, 0, 0), ("groin", "Groin", 1, -3, 0),
    ("leg", "Leg 3-4", 2, -2, 0), ("leg", "Leg 5-6", 2, -2, 0), ("leg", "Leg 7-8", 2, -2, 0),
    ("vitals", "Vitals", 0, -3, 0),
]
ICHTHYOID = [
    ("eye", "Eyes", 0, -8, 0), ("skull", "Skull", 2, -7, 2), ("face", "Face", 1, -5, 0), ("fin", "Fin", 1, -4, 0),
    ("torso", "Torso", 6, 0, 0), ("fin", "Fin", 4, -4, 0), ("tail", "Tail", 2, -3, 0),
    ("vitals", "Vitals", 0, -3, 0),
]
BLOB = [("torso", "Torso", 10, 0, 0)]


def body(name: str, rows: list[tuple[str, str, int, int, int]], dr: int = 0,
         dr_at: dict[str, dict[str, int]] | None = None) -> dict[str, Any]:
    locations = []
    start = 3
    for lid, table, slots, penalty, bonus in rows:
        rng = "-" if slots == 0 else str(start) if slots == 1 else f"{start}-{start + slots - 1}"
        start += slots
        drs = dict((dr_at or {}).get(lid, {"all": dr}))
        drs["all"] = drs.get("all", dr) + bonus
        loc: dict[str, Any] = {"id": lid, "choice_name": table, "table_name": table}
        if slots:
            loc["slots"] = slots
        if penalty:
            loc["hit_penalty"] = penalty
        if bonus:
            loc["dr_bonus"] = bonus
        loc["calc"] = {"roll_range": rng, "dr": drs}
        locations.append(loc)
    return {"name": name, "roll": "3d", "locations": locations}


def trait(name: str, levels: int | None = None, modifiers: tuple[str, ...] = (), off: tuple[str, ...] = ()) -> dict[str, Any]:
    out: dict[str, Any] = {"id": "t" + format(sum(map(ord, name)), "016d"), "name": name}
    mods = [{"id": f"m{n:016d}", "name": m, "cost_adj": "10%"} for n, m in enumerate(modifiers)]
    mods += [{"id": f"m{n + 50:016d}", "name": m, "cost_adj": "10%", "disabled": True} for n, m in enumerate(off)]
    if mods:
        out["modifiers"] = mods
    if levels is not None:
        out.update(can_level=True, levels=levels)
    out["calc"] = {"points": 0}
    return out


def sheet(name: str = "Wren", *, hp: int = 12, hp_damage: int = 0, fp: int | None = 11, ht: int = 11,
          iq: int = 10, dx: int = 12, gender: str = "Female", body_type: dict[str, Any] | None = None,
          traits: list[dict[str, Any]] | None = None, version: int = 5, notes: bool = True) -> str:
    """The text of a .gcs file."""
    attrs: list[dict[str, Any]] = []
    for aid, value in (("st", hp), ("dx", dx), ("iq", iq), ("ht", ht)):
        attrs.append({"attr_id": aid, "adj": 0, "calc": {"value": value, "points": 0}})
    if fp is not None:
        attrs.append({"attr_id": "fp", "adj": 0, "calc": {"value": fp, "current": fp, "points": 0}})
    hp_attr: dict[str, Any] = {"attr_id": "hp", "adj": 0}
    if hp_damage:
        hp_attr["damage"] = hp_damage
    hp_attr["calc"] = {"value": hp, "current": hp - hp_damage, "points": 0}
    attrs.append(hp_attr)
    doc: dict[str, Any] = {
        "version": version, "id": "AWren0000000000001", "total_points": 150,
        "profile": {"name": name, "gender": gender, "portrait": "UklGRg<&>"},
        "settings": {"body_type": body_type or body("Humanoid", HUMANOID, dr=2)},
        "attributes": attrs,
        "traits": traits or [],
    }
    if notes:
        doc["notes"] = [{"id": "n0000000000000001", "markdown": "Likes plums & pears."}]
    doc.update({"created_date": "2024-01-01T10:00:00Z", "modified_date": "2024-01-02T10:00:00Z",
                "calc": {"swing": "1d+2", "thrust": "1d", "basic_lift": "29 lb"}})
    text = json.dumps(doc, indent="\t", ensure_ascii=False)
    return text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e") + "\n"
