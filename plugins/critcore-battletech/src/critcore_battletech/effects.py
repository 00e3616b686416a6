"""What a critical hit does to the slot it strikes: which ``components`` row applies, and its
consequences (an item knocked out, an explosion, the pilot killed, ...).

:func:`classify` picks the row for a slot from its kind and the state of its item (an empty
ammunition bin, a Gauss rifle's first hit, a second slot of a weapon already knocked out).
:func:`consequences` acts on the row's effect code; the numbers come from the row.
"""

from __future__ import annotations

from typing import Any, Collection, Mapping, Protocol

from critcore.plugin import Data, Effect
from critcore.plugin import Table

from . import locations as L
from .unitview import Work

class Acting(Protocol):
    """What :func:`consequences` needs of the resolution it acts in (``resolver.Resolver``; a
    protocol, so this module does not import the one that calls it)."""

    w: Work

    def change(self, text: str) -> None: ...
    def event(self, text: str) -> None: ...
    def tag(self, name: str) -> None: ...
    def disable_item(self, item_id: str) -> None: ...
    def pilot_damage(self, amount: int, why: str) -> None: ...
    def kill_pilot(self, why: str) -> None: ...
    def destroy_unit(self, reason: str) -> None: ...
    def damage(self, code: str, amount: int, rear: bool = False, structure_only: bool = False,
               cause: str = "") -> None: ...


ITEM_KINDS = frozenset({"weapon", "equipment", "heat-sink", "jump-jet", "ammo"})
# effect codes whose act knocks out the slot's item (if not out already) and tells it, nothing more
DISABLING = frozenset({"disabled", "heat-sink", "jump-jet"})


def explosion_damage(item: Mapping[str, Any], option: str, ammunition: bool = False) -> int:
    """Damage of an exploding ammunition bin: one turn's shots (``per-turn``) or every shot left
    (``total-warfare``). A bin holding fewer shots than a turn's worth explodes with what it has.
    ``ammunition``: a shot does what the ammunition record carries where the bin keeps that apart
    from the weapon's damage (a heavy flamer's: option ``heavy_flamer_explosion``)."""
    ammo = item.get("ammo") or {}
    per = int(ammo.get("damage_per_shot", 0))
    if ammunition:
        per = int(ammo.get("ammunition_damage_per_shot", per))
    shots = int(ammo.get("shots", 0))
    if option == "total-warfare":
        return per * shots
    return per * min(shots, int(ammo.get("shots_per_turn", 1) or 1))


def classify(view: Any, code: str, index: int, known_rows: Collection[str],
             knocked_out: Collection[str] = (), second: bool = False) -> str:
    """The ``components`` row id for a critical on slot ``index`` of location ``code``.

    ``knocked_out`` names items already knocked out earlier in the same batch of criticals.
    ``second``: the second item of a superheavy's double slot (``item2``, ``kind2``).
    """
    slot = view.loc(code)["slots"][index]
    kind = slot["kind2"] if second else slot["kind"]
    item_id = slot.get("item2" if second else "item")
    item = view.item(item_id) if kind in ITEM_KINDS else None
    if item is not None and (item.get("disabled") or item_id in knocked_out):
        return "absorbed"
    if kind == "ammo" and item is not None:
        if int((item.get("ammo") or {}).get("shots", 0)) <= 0:
            return "empty-ammo-bin"
        return "ammo" if item.get("explosive", True) else "non-explosive-ammo"
    if kind in ("weapon", "equipment") and item is not None and item.get("explosive"):
        return "explosive-component"
    return kind if kind in known_rows else "equipment"


def slot_effect(components: Table, row_id: str, view: Any, code: str, index: int, option: str,
                second: bool = False, ammunition: bool = False) -> Effect:
    """The Effect for a critical on a slot (or on the second item of a double slot), with the
    numbers the engine acts on."""
    slot = view.loc(code)["slots"][index]
    row = components.row(row_id)
    item_id = slot.get("item2" if second else "item")
    name = slot.get("name", slot["kind"])
    if "item2" in slot:  # a double slot: each of its two items by its own name
        name = (view.item(item_id) or {}).get("name", name)
    extra: dict[str, Any] = {"location": code, "slot": index + 1, "component": name}
    if second:  # struck by the same critical as the slot's first item (a superheavy's double slot)
        extra["double_slot"] = True
    if item_id is not None:
        extra["item"] = item_id
    if row.code == "ammo-explosion":
        extra["explosion_damage"] = explosion_damage(view.item(item_id) or {}, option, ammunition)
    elif row.code == "component-explosion":
        extra["explosion_damage"] = int((view.item(item_id) or {}).get("explosion_damage", 0))
    return row.effect(components.id, None, **extra)


def knocked_out_text(effect: Effect) -> str:
    """What :func:`consequences` tells of a critical whose row is in :data:`DISABLING`."""
    data: Data = effect.data
    place = f"{L.name(data['location'])} slot {data['slot']}"
    name = data.get("component", "")
    return f"{name} ({place}) is knocked out" if effect.code == "disabled" else f"{name} ({place}) destroyed"


def consequences(res: Acting, effect: Effect) -> None:
    """Act on one slot's critical (the slot is already marked destroyed)."""
    code = effect.code
    data: Data = effect.data
    where = data["location"]
    name = data.get("component", "")
    item_id = data.get("item")
    place = f"{L.name(where)} slot {data['slot']}"
    if code in ("disabled", "heat-sink", "jump-jet") or (code in ("ammo-explosion", "component-explosion")):
        if item_id is not None:
            res.disable_item(item_id)
    if (code in ("ammo-explosion", "component-explosion") and res.w.loc(where).get("destroyed")
            and not data.get("double_slot")):
        # the location went earlier in this batch (another slot's explosion): what was in it is
        # lost with it and does not explode (nor through CASE into the next location). The second
        # item of a superheavy's double slot is struck by the same critical as the first, so it
        # explodes with it even when the first's explosion took the location: its damage then
        # passes inward (or is vented by CASE there)
        res.change(f"{name} ({place}) was lost with the {L.name(where)}: it does not explode")
        return
    if code == "ammo-explosion":
        res.tag("ammo-explosion")
        dmg = int(data.get("explosion_damage", 0))
        it = res.w.item(item_id) if item_id is not None else None
        if item_id is not None and it is not None and isinstance(it.get("ammo"), Mapping):
            before = it["ammo"].get("shots", 0)
            res.w.set_item(item_id, ammo=Data(it["ammo"]).replace(shots=0))
            res.change(f"{name} ({place}) explodes: {before} shots gone, {dmg} damage to internal structure")
        else:
            res.change(f"{name} ({place}) explodes: {dmg} damage to internal structure")
        res.pilot_damage(int(effect.data.get("pilot_damage", 0)), "ammunition explosion feedback")
        res.damage(where, dmg, structure_only=True, cause=f"{name} explosion")
    elif code == "component-explosion":
        dmg = int(data.get("explosion_damage", 0))
        res.change(f"{name} ({place}) explodes on its first hit: {dmg} damage to internal structure")
        res.pilot_damage(int(effect.data.get("pilot_damage", 0)), "explosion feedback")
        res.damage(where, dmg, structure_only=True, cause=f"{name} explosion")
    elif code == "cockpit":
        res.change(f"Cockpit hit ({place}): the MechWarrior is killed")
        res.kill_pilot("cockpit destroyed")
        res.destroy_unit("cockpit destroyed")
    elif code == "absorbed":
        res.change(f"{name} ({place}) takes the hit; nothing more happens")
    elif code in DISABLING:
        res.change(knocked_out_text(effect))
    elif code in ("leg-actuator", "hip"):
        res.change(f"{name} ({place}) destroyed")
        res.event(f"PSR at the end of this phase ({name}, {L.name(where)})")
    else:
        res.change(f"{name} ({place}) destroyed")
