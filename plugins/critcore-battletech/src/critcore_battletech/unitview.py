"""Reading and changing a unit's state (the shape in docs/systems/battletech.md).

:class:`Work` is a copy-on-write view of the frozen state a stage is handed: reading costs
nothing, and only the locations, items and top-level entries that change are copied. The new
state is built once at the end (:meth:`Work.result`), so a resolution on a big 'Mech stays cheap
when exact odds run it thousands of times.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Iterator, Mapping

from critcore.plugin import StateError
from critcore.plugin import EMPTY, Data, freeze

KIND = "battletech-mech"
DAMAGE_KEYS = ("engine_hits", "gyro_hits", "sensor_hits", "life_support_hit", "heat_sinks_destroyed",
               "jump_jets_destroyed")


def check_unit(state: Mapping[str, Any] | None) -> None:
    """Refuse a target that is not a BattleTech 'Mech state, with one clear line.

    critcore checks every target against ``data/target-schema.toml`` (every key, type, range
    and location code) before any stage runs; this only guards a stage called directly.
    """
    if state is not None and state.get("kind") != KIND:
        raise StateError(f"the target is not a BattleTech 'Mech unit (expected kind = {KIND!r}, "
                         f"found {state.get('kind')!r}); give a .mtf file or a saved unit .json")


def unit_name(state: Mapping[str, Any]) -> str:
    return f"{state.get('chassis', '')} {state.get('model', '')}".strip() or "the unit"


class Work:
    """A unit's state being changed: copy-on-write over the frozen original.

    Every changed part is kept frozen (a new :class:`~critcore.model.Data` per change, sharing
    what did not change), so taking a snapshot for the cascade's steps (:meth:`overlay`) and
    adopting a snapshot cost a few dictionary copies, not a walk over the unit.
    """

    def __init__(self, target: Mapping[str, Any]) -> None:
        self.base = target
        self.base_locs: Mapping[str, Mapping[str, Any]] = target.get("locations") or {}
        self.top: dict[str, Any] = {}
        self.locs: dict[str, Data] = {}
        self.items_w: dict[str, Data] = {}
        self._snap: tuple[Data, Data, Data] | None = None  # the overlay last taken or adopted, while nothing changed since
        # each of its three parts, while that part did not change (the others are taken anew)
        self._top: Data | None = None
        self._locs: Data | None = None
        self._items: Data | None = None

    # -- reading ---------------------------------------------------------------------------
    def get(self, key: str, default: Any = None) -> Any:
        top = self.top
        if key in top:
            return top[key]
        return self.base.get(key, default)

    def codes(self) -> Iterator[str]:
        return iter(self.base_locs)

    def has(self, code: str) -> bool:
        return code in self.base_locs

    def loc(self, code: str) -> Mapping[str, Any]:
        w = self.locs.get(code)
        return w if w is not None else self.base_locs[code]

    def item(self, item_id: str | None) -> Mapping[str, Any] | None:
        if item_id is None:
            return None
        w = self.items_w.get(item_id)
        if w is not None:
            return w
        found: Mapping[str, Any] | None = self.base.get("items", {}).get(item_id)
        return found

    @property
    def config(self) -> str:
        return str(self.base.get("config", "biped")).lower()

    # -- writing ---------------------------------------------------------------------------
    def set_loc(self, code: str, **changes: Any) -> None:
        """Change some keys of a location."""
        self.locs[code] = _data(self.loc(code)).replace(**changes)
        self._snap = self._locs = None

    def put_loc(self, code: str, record: Data) -> None:
        """Take ``record`` as the location's (one made before by :meth:`set_loc` or its like)."""
        self.locs[code] = record
        self._snap = self._locs = None

    def set_slot(self, code: str, index: int, **changes: Any) -> None:
        """Change some keys of one slot (the location's other slots stay shared)."""
        slots = list(self.loc(code)["slots"])
        slots[index] = _data(slots[index]).replace(**changes)
        self.set_loc(code, slots=tuple(slots))

    def set_slots(self, code: str, indexes: Iterable[int], **changes: Any) -> None:
        """:meth:`set_slot` for several slots of one location, the location copied once."""
        slots = list(self.loc(code)["slots"])
        for index in indexes:
            slots[index] = _data(slots[index]).replace(**changes)
        self.set_loc(code, slots=tuple(slots))

    def set_item(self, item_id: str, **changes: Any) -> bool:
        """Change some keys of an item; False when the unit has no such item."""
        found = self.item(item_id)
        if found is None:
            return False
        self.items_w[item_id] = _data(found).replace(**changes)
        self._snap = self._items = None
        return True

    def put_item(self, item_id: str, record: Data) -> None:
        """Take ``record`` as the item's (the unit has the item)."""
        self.items_w[item_id] = record
        self._snap = self._items = None

    def reset(self, code: str) -> None:
        """Put a location's slots, and the items in them, back as they were in the original."""
        base = self.base_locs[code]
        self.set_loc(code, slots=base["slots"])
        for s in base["slots"]:
            item_id = s.get("item")
            if item_id is not None:
                self.items_w.pop(item_id, None)
        self._snap = self._items = None

    def set_sub(self, key: str, **changes: Any) -> None:
        """Change some keys of a top-level table such as ``pilot`` or ``damage``."""
        self.top[key] = _data(self.get(key) or Data()).replace(**changes)
        self._snap = self._top = None

    def set(self, key: str, value: Any) -> None:
        self.top[key] = freeze(value)
        self._snap = self._top = None

    # -- snapshots (the cascade's states, merged by exact odds) -------------------------------
    def overlay(self) -> tuple[Data, Data, Data]:
        """What has changed so far, frozen (hashable): a key for merging equal states. The same
        object again while nothing changed (its hash is worked out once: exact odds look states
        up by it at every action of a cascade)."""
        snap = self._snap
        if snap is None:
            snap = self.overlay_with(Data)
        return snap

    def overlay_with(self, part: Callable[[dict[str, Any]], Data]) -> tuple[Data, Data, Data]:
        """:meth:`overlay`, a part that changed made by ``part`` (from the dict of its entries; it
        may give back an equal object made before). A part that did not change since the last
        snapshot is the same object (its hash worked out once): a critical's marks change the
        locations alone, an item knocked out the items alone."""
        top, locs, items = self._top, self._locs, self._items
        if top is None:
            top = self._top = part(self.top)
        if locs is None:
            locs = self._locs = part(self.locs)
        if items is None:
            items = self._items = part(self.items_w)
        snap = self._snap = (top, locs, items)
        return snap

    def adopt(self, overlay: tuple[Data, Data, Data]) -> None:
        """Take over the changes of a snapshot, as returned by :meth:`overlay`. A part this Work
        holds already (the same object, not changed since) is not copied again."""
        top, locs, items = overlay
        if self._top is not top:
            self.top = dict(top)
        if self._locs is not locs:
            self.locs = dict(locs)
        if self._items is not items:
            self.items_w = dict(items)
        self._snap = overlay
        self._top, self._locs, self._items = overlay

    def result(self) -> Data:
        """The new state as frozen data (unchanged parts are shared with the original)."""
        changes: dict[str, Any] = dict(self.top)
        if self.locs:
            changes["locations"] = _data(self.base_locs).replace(**self.locs)
        if self.items_w:
            changes["items"] = _data(self.base.get("items") or Data()).replace(**self.items_w)
        return _data(self.base).replace(**changes)  # the parts not changed are shared, not copied


def counted(state: Mapping[str, Any], turn: int | None) -> Data:
    """The state a resolution that struck nothing leaves: the same unit with one resolution more
    counted (and the turn kept, when given); everything else is shared with ``state``."""
    damage = state.get("damage") or EMPTY
    changes: dict[str, Any] = {"damage": _data(damage).replace(resolutions=int(damage.get("resolutions", 0)) + 1)}
    if turn is not None:
        changes["turn"] = turn
    return _data(state).replace(**changes)


def _data(value: Mapping[str, Any]) -> Data:
    return value if isinstance(value, Data) else Data(value)
