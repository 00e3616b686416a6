"""Reading and changing a unit's state (the shape in docs/systems/battletech.md).

:class:`Work` is a copy-on-write view of the frozen state a stage is handed: reading costs
nothing, and only the locations, items and top-level entries that change are copied. The new
state is built once at the end (:meth:`Work.result`), so a resolution on a big 'Mech stays cheap
when exact odds run it thousands of times.
"""

from __future__ import annotations

from typing import Any, Iterator, Mapping

from critcore.errors import StateError
from critcore.model import Data, freeze, thaw

from . import locations as L

KIND = "battletech-mech"
DAMAGE_KEYS = ("engine_hits", "gyro_hits", "sensor_hits", "life_support_hit", "heat_sinks_destroyed",
               "jump_jets_destroyed")


def check_unit(state: Mapping[str, Any] | None) -> None:
    """Refuse a target that is not a BattleTech 'Mech state, with one clear line."""
    if state is None:
        return
    if state.get("kind") != KIND:
        raise StateError(f"the target is not a BattleTech 'Mech unit (expected kind = {KIND!r}, "
                         f"found {state.get('kind')!r}); give a .mtf file or a saved unit .json")
    locs = state.get("locations")
    if not isinstance(locs, Mapping) or not locs:
        raise StateError("the unit has no locations")
    for code, loc in locs.items():
        if code not in L.NAMES:
            raise StateError(f"the unit has an unknown location {code!r} (known: {', '.join(L.CODES)})")
        if not isinstance(loc, Mapping) or not isinstance(loc.get("slots"), (list, tuple)):
            raise StateError(f"location {code} of the unit has no slots list")
        for key in ("armor", "structure"):
            if not isinstance(loc.get(key), int) or isinstance(loc.get(key), bool):
                raise StateError(f"location {code} of the unit needs a whole number {key!r}")
    if not isinstance(state.get("items", {}), Mapping):
        raise StateError("the unit's items must be a table keyed by item id")


def unit_name(state: Mapping[str, Any]) -> str:
    return f"{state.get('chassis', '')} {state.get('model', '')}".strip() or "the unit"


class Work:
    """A unit's state being changed: copy-on-write over the frozen original."""

    def __init__(self, target: Mapping[str, Any]) -> None:
        self.base = target
        self.top: dict[str, Any] = {}
        self.locs: dict[str, dict[str, Any]] = {}
        self.items_w: dict[str, dict[str, Any]] = {}

    # -- reading ---------------------------------------------------------------------------
    def get(self, key: str, default: Any = None) -> Any:
        if key in self.top:
            return self.top[key]
        return self.base.get(key, default)

    def codes(self) -> Iterator[str]:
        return iter(self.base["locations"])

    def has(self, code: str) -> bool:
        return code in self.base["locations"]

    def loc(self, code: str) -> Mapping[str, Any]:
        w = self.locs.get(code)
        return w if w is not None else self.base["locations"][code]

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
    def wloc(self, code: str) -> dict[str, Any]:
        w = self.locs.get(code)
        if w is None:
            base = self.base["locations"][code]
            w = dict(base)
            w["slots"] = list(base["slots"])  # each slot stays shared until it changes (wslot)
            self.locs[code] = w
        return w

    def wslot(self, code: str, index: int) -> dict[str, Any]:
        """A writable copy of one slot (the rest of the location's slots stay shared)."""
        slots = self.wloc(code)["slots"]
        s = slots[index]
        if not isinstance(s, dict):
            s = slots[index] = dict(s)
        return s

    def witem(self, item_id: str) -> dict[str, Any] | None:
        w = self.items_w.get(item_id)
        if w is None:
            base = self.base.get("items", {}).get(item_id)
            if base is None:
                return None
            w = thaw(base)
            self.items_w[item_id] = w
        return w

    def wsub(self, key: str) -> dict[str, Any]:
        """A writable copy of a top-level table such as ``pilot`` or ``damage``."""
        w = self.top.get(key)
        if w is None:
            w = thaw(self.base.get(key)) or {}
            self.top[key] = w
        return w

    def set(self, key: str, value: Any) -> None:
        self.top[key] = value

    # -- exact odds ---------------------------------------------------------------------------
    def overlay(self) -> tuple[Data, Data, Data]:
        """What has changed so far, frozen (hashable): a key for merging equal states."""
        return (Data({k: freeze(v) for k, v in self.top.items()}),
                Data({k: freeze(v) for k, v in self.locs.items()}),
                Data({k: freeze(v) for k, v in self.items_w.items()}))

    def fork(self) -> Work:
        """An independent copy: changing it leaves this one as it is."""
        w = Work(self.base)
        w.top = thaw(Data(self.top)) if self.top else {}
        w.locs = {k: {**v, "slots": [dict(x) if isinstance(x, dict) else x for x in v["slots"]]}
                  for k, v in self.locs.items()}
        w.items_w = {k: dict(v) for k, v in self.items_w.items()}
        return w

    def adopt(self, overlay: tuple[Data, Data, Data]) -> None:
        """Take over the changes of a fork, as returned by :meth:`overlay`."""
        top, locs, items = overlay
        self.top = thaw(top)
        self.locs = {k: {**thaw(v)} for k, v in locs.items()}
        self.items_w = {k: thaw(v) for k, v in items.items()}

    def result(self) -> Data:
        """The new state as frozen data (unchanged parts are shared with the original)."""
        new = dict(self.base)
        if self.locs:
            new["locations"] = Data({**self.base["locations"], **{k: freeze(v) for k, v in self.locs.items()}})
        if self.items_w:
            new["items"] = Data({**self.base.get("items", {}), **{k: freeze(v) for k, v in self.items_w.items()}})
        for k, v in self.top.items():
            new[k] = freeze(v)
        return Data(new)
