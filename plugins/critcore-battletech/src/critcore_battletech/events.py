"""The events BattleTech players ask about ("will my ammo cook off?", "do I lose the torso?",
"is the 'Mech dead?"), as outcome tags the apply stage sets by comparing the unit before and
after the resolution: only what changed is looked at, so it costs little under exact odds."""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from critcore.plugin import Event

ON_A_UNIT = ("critical", "damage")

EVENTS = (
    Event("ammo-explosion", "ammunition explosion", ON_A_UNIT),
    Event("location-destroyed", "a location destroyed", ON_A_UNIT),
    Event("mech-destroyed", "'Mech destroyed", ON_A_UNIT),
    Event("mechwarrior-hit", "MechWarrior hit", ON_A_UNIT),
    Event("mechwarrior-killed", "MechWarrior killed", ON_A_UNIT),
    Event("engine-hit", "engine hit", ON_A_UNIT),
    Event("gyro-hit", "gyro hit", ON_A_UNIT),
    Event("weapon-lost", "a weapon lost", ON_A_UNIT),
    Event("through-armor-critical", "a critical chance through the armor (hit location 2)", ("hit-location",)),
)

LOCATION_DESTROYED = frozenset({"location-destroyed"})
THROUGH_ARMOR = frozenset({"through-armor-critical"})


def _more(after: Mapping[str, Any] | None, before: Mapping[str, Any] | None, key: str) -> bool:
    return after is not None and int(after.get(key) or 0) > int((before or {}).get(key) or 0)


def _newly(after: Mapping[str, Any] | None, before: Mapping[str, Any] | None, key: str) -> bool:
    return after is not None and bool(after.get(key)) and not (before or {}).get(key)


def _working(loc: Mapping[str, Any], item: Mapping[str, Any]) -> bool:
    """A weapon still works: not knocked out, its location standing, none of its slots struck."""
    if item.get("disabled") or loc.get("destroyed"):
        return False
    slots = loc["slots"]
    return not any(slots[i]["destroyed"] for i in item.get("slots", ()) if 0 <= i < len(slots))


def unit_tags(work: Any, applied: Iterable[str] = ()) -> frozenset[str]:
    """The events of one resolution on a unit: ``work`` (a :class:`~.unitview.Work`) holds the
    state it started from (``base``) and what changed; ``applied`` are the events the rules set
    as they were applied (an ammunition explosion, tagged where a bin explodes: its bin emptied
    says nothing once exact odds put a destroyed location back as it was). The others are read
    off the changes."""
    base = work.base
    top = work.top
    tags: set[str] = set(applied)
    if _newly(top, base, "destroyed"):
        tags.add("mech-destroyed")
    pilot, was = top.get("pilot"), base.get("pilot")
    if _more(pilot, was, "hits"):
        tags.add("mechwarrior-hit")
    if _newly(pilot, was, "dead"):
        tags.add("mechwarrior-killed")
    damage, had = top.get("damage"), base.get("damage")
    if _more(damage, had, "engine_hits"):
        tags.add("engine-hit")
    if _more(damage, had, "gyro_hits"):
        tags.add("gyro-hit")
    old_locs = base["locations"]
    old_items = base.get("items") or {}
    weapons: set[str] = set()
    for code, loc in work.locs.items():
        old_loc = old_locs[code]
        gone = _newly(loc, old_loc, "destroyed")
        if gone:
            tags.add("location-destroyed")
        slots, old_slots = loc["slots"], old_loc["slots"]
        if slots is old_slots and not gone:
            continue
        # a weapon can only have stopped working where one of its slots changed or its location
        # went (a record that changed, such as a weapon disabled, is looked at below)
        weapons.update(s["item"] for i, s in enumerate(slots)
                       if (gone or s is not old_slots[i]) and s.get("kind") == "weapon" and s.get("item") is not None)
    for item_id, item in work.items_w.items():
        if item.get("kind") == "weapon":
            weapons.add(item_id)
    for item_id in weapons:
        old = old_items.get(item_id)
        new = work.item(item_id)
        if old is None or new is None or new.get("location") not in old_locs:
            continue
        where = new["location"]
        if _working(old_locs[where], old) and not _working(work.loc(where), new):
            tags.add("weapon-lost")
            break
    return frozenset(tags)
