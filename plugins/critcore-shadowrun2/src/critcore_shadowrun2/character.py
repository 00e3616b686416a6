"""A character's state: Physical and Stun tracks, one condition monitor per critical, the clock.

The character file (TOML or JSON) looks like this::

    name = "Slot"
    body = 4
    physical = 6          # boxes, 0-10
    stun = 3              # boxes, 0-10
    clock = 0             # seconds of game time (``advance`` moves it)

    [[criticals]]
    id = 1
    lethality = "crippling"   # mortal, crippling or critical
    boxes = 6                 # boxes on this critical's own monitor, 1-10
    location = "right-arm"    # hit-location row id
    part = "arm-elbow"        # row id in the area's critical list
    ...

Optional keys are left out rather than written as null (TOML has no null).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Mapping

from critcore.plugin import StateError
from critcore.plugin import thaw


@dataclass(frozen=True)
class Critical:
    """One critical hit and its own condition monitor."""

    id: int
    lethality: str
    boxes: int
    location: str
    location_name: str
    area: str
    part_id: str
    part: str
    cause: str
    diagnosis_tn: int
    auto_if_open: bool = False
    open_wound: bool = True
    diagnosed: bool = False
    treatment: str = "none"
    death_at: int | None = None
    heals_at: int | None = None
    diagnose_retry_at: int | None = None
    wound: str = ""

    @property
    def crippled(self) -> bool:
        return self.lethality == "crippling"

    @property
    def label(self) -> str:
        return f"#{self.id} {self.part} ({self.location_name})"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id, "lethality": self.lethality, "boxes": self.boxes,
            "location": self.location, "location_name": self.location_name, "area": self.area,
            "part_id": self.part_id, "part": self.part, "cause": self.cause,
            "diagnosis_tn": self.diagnosis_tn, "auto_if_open": self.auto_if_open,
            "open_wound": self.open_wound, "diagnosed": self.diagnosed, "treatment": self.treatment,
            "crippled": self.crippled,
        }
        for key in ("death_at", "heals_at", "diagnose_retry_at"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        if self.wound:
            out["wound"] = self.wound
        return out


@dataclass(frozen=True)
class Character:
    """The whole character state the plugin reads and writes."""

    body: int
    physical: int = 0
    stun: int = 0
    clock: int = 0
    criticals: tuple[Critical, ...] = ()
    dead: bool = False
    died_at: int | None = None
    cause_of_death: str = ""
    extra: tuple[tuple[str, Any], ...] = field(default=())  # keys we do not know, kept as they were

    def critical(self, number: int | None, what: str) -> Critical:
        """The critical with this id; with ``None`` the only one there is."""
        if number is None:
            if len(self.criticals) == 1:
                return self.criticals[0]
            if not self.criticals:
                raise StateError(f"the character has no critical hit to {what}")
            ids = ", ".join(str(c.id) for c in self.criticals)
            raise StateError(f"the character has several criticals ({ids}): say which with --critical N")
        for c in self.criticals:
            if c.id == number:
                return c
        ids = ", ".join(str(c.id) for c in self.criticals) or "none"
        raise StateError(f"--critical {number}: the character has no critical #{number} (criticals: {ids})")

    def with_critical(self, new: Critical) -> Character:
        return replace(self, criticals=tuple(new if c.id == new.id else c for c in self.criticals))

    def without(self, ids: set[int]) -> Character:
        return replace(self, criticals=tuple(c for c in self.criticals if c.id not in ids))

    def next_id(self) -> int:
        return max((c.id for c in self.criticals), default=0) + 1

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = dict(self.extra)
        out.update(body=self.body, physical=self.physical, stun=self.stun, clock=self.clock, dead=self.dead)
        if self.died_at is not None:
            out["died_at"] = self.died_at
        if self.cause_of_death:
            out["cause_of_death"] = self.cause_of_death
        out["criticals"] = [c.to_dict() for c in self.criticals]
        return out


# --- reading ------------------------------------------------------------------------------
#
# critcore checks every target against target-schema.toml (keys, types, ranges, choices) before
# any stage runs, so the readers below only fill in defaults; what one key says about another
# (a Mortal critical needs death_at, ids are unique, body is needed) is checked here.

_KNOWN = {"body", "physical", "stun", "clock", "criticals", "dead", "died_at", "cause_of_death"}


def _opt_int(data: Mapping[str, Any], key: str) -> int | None:
    return data.get(key)


def _get(data: Mapping[str, Any], key: str, default: Any) -> Any:
    value = data.get(key)
    return default if value is None else value


def read_critical(raw: Mapping[str, Any], n: int) -> Critical:
    """One ``[[criticals]]`` entry of a checked target (``n``: its place, the default id)."""
    lethality = raw["lethality"]
    return Critical(
        id=_get(raw, "id", n),
        lethality=lethality,
        boxes=raw["boxes"],
        location=raw["location"],
        location_name=_get(raw, "location_name", raw["location"]),
        area=_get(raw, "area", ""),
        part_id=_get(raw, "part_id", ""),
        part=_get(raw, "part", "unknown part"),
        cause=_get(raw, "cause", ""),
        diagnosis_tn=_get(raw, "diagnosis_tn", 4),
        auto_if_open=_get(raw, "auto_if_open", False),
        open_wound=_get(raw, "open_wound", True),
        diagnosed=_get(raw, "diagnosed", False),
        treatment=_get(raw, "treatment", "none"),
        death_at=_opt_int(raw, "death_at") if lethality == "mortal" else None,
        heals_at=_opt_int(raw, "heals_at"),
        diagnose_retry_at=_opt_int(raw, "diagnose_retry_at"),
        wound=_get(raw, "wound", ""),
    )


def read_character(target: Mapping[str, Any] | None, body: int | None = None) -> Character:
    """Build a :class:`Character` from a checked target state (``body`` fills a missing Body)."""
    if target is None:
        raise StateError("this procedure needs a character file (--character FILE)")
    raw_body = target.get("body", body)
    if raw_body is None:
        raise StateError("character: needs body (the Body rating, 1 or more)")
    crits = tuple(read_critical(c, i) for i, c in enumerate(target.get("criticals", ()), 1))
    ids = [c.id for c in crits]
    if len(set(ids)) != len(ids):
        raise StateError("character: two criticals share the same id")
    for c in crits:
        if c.lethality == "mortal" and c.death_at is None:
            raise StateError(f"character: Mortal critical #{c.id} needs death_at (clock second of death)")
    return Character(
        body=raw_body,
        physical=_get(target, "physical", 0),
        stun=_get(target, "stun", 0),
        clock=_get(target, "clock", 0),
        criticals=crits,
        dead=_get(target, "dead", False),
        died_at=_opt_int(target, "died_at"),
        cause_of_death=_get(target, "cause_of_death", ""),
        extra=tuple((k, thaw(v)) for k, v in target.items() if k not in _KNOWN),
    )


def alive(char: Character) -> Character:
    """The character, or a one-line error when it is already dead."""
    if char.dead:
        raise StateError("character: is dead" + (f" ({char.cause_of_death})" if char.cause_of_death else ""))
    return char
