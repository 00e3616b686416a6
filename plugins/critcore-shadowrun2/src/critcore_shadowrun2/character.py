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

from critcore.errors import StateError
from critcore.model import thaw


LETHALITIES = ("mortal", "crippling", "critical")
TREATMENTS = ("none", "medic", "medic-failed", "magic")
TRACK_MAX = 10


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


# --- reading and checking ----------------------------------------------------------------

_KNOWN = {"body", "physical", "stun", "clock", "criticals", "dead", "died_at", "cause_of_death"}


def _int(data: Mapping[str, Any], key: str, where: str, default: int | None = None,
         low: int | None = None, high: int | None = None) -> int:
    value = data.get(key, default)
    if value is None:
        raise StateError(f"{where}: needs {key} (a whole number)")
    if isinstance(value, bool) or not isinstance(value, int):
        raise StateError(f"{where}: {key} must be a whole number, not {value!r}")
    if low is not None and value < low or high is not None and value > high:
        span = f"{low} to {high}" if high is not None else f"at least {low}"
        raise StateError(f"{where}: {key} must be {span}, not {value}")
    return value


def _opt_int(data: Mapping[str, Any], key: str, where: str) -> int | None:
    if data.get(key) is None:
        return None
    return _int(data, key, where)


def _str(data: Mapping[str, Any], key: str, where: str, default: str | None = None,
         choices: tuple[str, ...] = ()) -> str:
    value = data.get(key, default)
    if not isinstance(value, str):
        raise StateError(f"{where}: {key} must be text, not {value!r}" if value is not None else f"{where}: needs {key}")
    if choices and value not in choices:
        raise StateError(f"{where}: {key} must be one of {', '.join(choices)}, not {value!r}")
    return value


def _bool(data: Mapping[str, Any], key: str, where: str, default: bool) -> bool:
    value = data.get(key, default)
    if not isinstance(value, bool):
        raise StateError(f"{where}: {key} must be true or false, not {value!r}")
    return value


def read_critical(raw: Any, n: int) -> Critical:
    where = f"character: criticals entry {n}"
    if not isinstance(raw, Mapping):
        raise StateError(f"{where} must be a table of keys")
    lethality = _str(raw, "lethality", where, choices=LETHALITIES)
    return Critical(
        id=_int(raw, "id", where, n, low=1),
        lethality=lethality,
        boxes=_int(raw, "boxes", where, low=1, high=TRACK_MAX),
        location=_str(raw, "location", where),
        location_name=_str(raw, "location_name", where, str(raw.get("location", ""))),
        area=_str(raw, "area", where, ""),
        part_id=_str(raw, "part_id", where, ""),
        part=_str(raw, "part", where, "unknown part"),
        cause=_str(raw, "cause", where, ""),
        diagnosis_tn=_int(raw, "diagnosis_tn", where, 4, low=0),
        auto_if_open=_bool(raw, "auto_if_open", where, False),
        open_wound=_bool(raw, "open_wound", where, True),
        diagnosed=_bool(raw, "diagnosed", where, False),
        treatment=_str(raw, "treatment", where, "none", TREATMENTS),
        death_at=_opt_int(raw, "death_at", where) if lethality == "mortal" else None,
        heals_at=_opt_int(raw, "heals_at", where),
        diagnose_retry_at=_opt_int(raw, "diagnose_retry_at", where),
        wound=_str(raw, "wound", where, ""),
    )


def read_character(target: Mapping[str, Any] | None, body: int | None = None) -> Character:
    """Check a target state and build a :class:`Character` (``body`` fills a missing Body)."""
    if target is None:
        raise StateError("this procedure needs a character file (--character FILE)")
    where = "character"
    raw_body = target.get("body", body)
    if raw_body is None:
        raise StateError("character: needs body (the Body rating, 1 or more)")
    crits_raw = target.get("criticals", ())
    if not isinstance(crits_raw, (list, tuple)):
        raise StateError("character: criticals must be a list of [[criticals]] tables")
    crits = tuple(read_critical(c, i) for i, c in enumerate(crits_raw, 1))
    ids = [c.id for c in crits]
    if len(set(ids)) != len(ids):
        raise StateError("character: two criticals share the same id")
    for c in crits:
        if c.lethality == "mortal" and c.death_at is None:
            raise StateError(f"character: Mortal critical #{c.id} needs death_at (clock second of death)")
    cause = target.get("cause_of_death", "")
    return Character(
        body=_int({"body": raw_body}, "body", where, low=1),
        physical=_int(target, "physical", where, 0, 0, TRACK_MAX),
        stun=_int(target, "stun", where, 0, 0, TRACK_MAX),
        clock=_int(target, "clock", where, 0, low=0),
        criticals=crits,
        dead=_bool(target, "dead", where, False),
        died_at=_opt_int(target, "died_at", where),
        cause_of_death=cause if isinstance(cause, str) else "",
        extra=tuple((k, thaw(v)) for k, v in target.items() if k not in _KNOWN),
    )


def alive(char: Character) -> Character:
    """The character, or a one-line error when it is already dead."""
    if char.dead:
        raise StateError("character: is dead" + (f" ({char.cause_of_death})" if char.cause_of_death else ""))
    return char
