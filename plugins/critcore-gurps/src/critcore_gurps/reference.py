"""GURPS reference data read once from the package's ``data/*.toml``: hit locations, wounding
modifiers, critical ranges and the other numbers the engine acts on.

Everything here is built at import time, so the stages only do dictionary look-ups.
"""

from __future__ import annotations

from typing import Any, Mapping

from critcore.plugin import record
from critcore.plugin import load_data


def _load(name: str) -> dict[str, Any]:
    return load_data("critcore_gurps.data", name)  # parsed once, then cached by critcore


RULES: dict[str, Any] = _load("rules.toml")
_LOCATIONS_RAW: dict[str, Any] = _load("locations.toml")
_WOUNDING_RAW: dict[str, Any] = _load("wounding.toml")


@record
class LocationRule:
    """One hit location and the rules the injury engine applies there."""

    id: str
    name: str
    penalty: int
    wounding: str
    aimed_only: bool = False
    aim_types: tuple[str, ...] = ()
    extra_dr: int = 0
    cripple_divisor: int = 0
    cap: bool = False
    crippled_word: str = "crippled"
    head_blow: bool = False
    knockdown_on_shock: bool = False
    knockdown_major: int = 0
    male_knockdown_major: int = 0
    male_crushing_shock_factor: int = 1
    male_shock_cap: int = 0
    exempt_types: tuple[str, ...] = ()  # damage types the location's own rules leave alone
    exempt: tuple[tuple[str, Any], ...] = ()  # ... and the values those types meet instead

    @property
    def limb_like(self) -> bool:
        """A limb or extremity: a funny-bone blow numbs it."""
        return self.wounding in ("limb", "extremity")


def _location(key: str, raw: Mapping[str, Any], **changes: Any) -> LocationRule:
    fields = dict(raw)
    exempt = dict(fields.pop("exempt", {}))
    fields["exempt_types"] = tuple(exempt.pop("types", ()))
    fields["exempt"] = tuple(sorted(exempt.items()))
    fields["aim_types"] = tuple(fields.get("aim_types", ()))
    fields.update(changes)
    return LocationRule(id=key, **fields)


LOCATIONS: dict[str, LocationRule] = {k: _location(k, v) for k, v in _LOCATIONS_RAW.items()}


def location_as(base: str, key: str, **changes: Any) -> LocationRule:
    """A location ``key`` with the rules of ``base`` (a key of :data:`LOCATIONS`) and ``changes``:
    ``replace(LOCATIONS[base], id=key, **changes)``, built from the table as LOCATIONS is (no
    ``dataclasses`` to import when a character's body type is read)."""
    return _location(key, _LOCATIONS_RAW[base], **changes)


def met_by(rule: LocationRule, dtype: str | None) -> LocationRule:
    """A location's rules as damage of type ``dtype`` meets them: a type the location exempts
    (``[X.exempt]``: toxic damage at the skull, B399) gets the exempt values instead of the
    location's own; None (no damage given) gets the usual rules."""
    if dtype is None or dtype not in rule.exempt_types:
        return rule
    from dataclasses import replace

    return replace(rule, **dict(rule.exempt))


HEAD_BLOW_LOCATIONS = tuple(k for k, v in LOCATIONS.items() if v.head_blow)

DAMAGE_TYPES: dict[str, str] = {k: v["name"] for k, v in _WOUNDING_RAW["types"].items()}
LEAST_BASIC: dict[str, int] = {k: int(v["least_basic"]) for k, v in _WOUNDING_RAW["types"].items()}


def _wounding_table() -> dict[tuple[str, str], float]:
    out: dict[tuple[str, str], float] = {}
    base = {k: float(v["modifier"]) for k, v in _WOUNDING_RAW["types"].items()}
    for column, overrides in _WOUNDING_RAW["location"].items():
        for dtype, mod in base.items():
            out[(column, dtype)] = float(overrides.get(dtype, mod))
    return out


WOUNDING: dict[tuple[str, str], float] = _wounding_table()


def wounding_modifier(location: LocationRule, dtype: str) -> float:
    """The wounding modifier of damage type ``dtype`` at ``location``."""
    return WOUNDING[(location.wounding, dtype)]


# --- critical ranges --------------------------------------------------------------------------

_CRIT = RULES["critical"]
LOWEST_SKILL: int = _CRIT["lowest_skill"]
HIGHEST_SKILL: int = _CRIT["highest_skill"]
LOWEST_DEFENSE: int = _CRIT["lowest_defense"]
HIGHEST_SUCCESS_ROLL = 16  # 17 and 18 never succeed on 3d6 (the document: 17 is at best a miss)


@record
class Bounds:
    """For one effective skill: rolls up to ``crit_success`` are critical successes, rolls of
    ``crit_failure`` or more critical failures, other rolls up to ``success`` succeed."""

    crit_success: int
    success: int
    crit_failure: int


def _success_max(skill: int, extended: bool) -> int:
    top = _CRIT["success_always"]
    for step in _CRIT["success_at"]:
        if skill >= step["skill"]:
            top = max(top, step["roll"])
    if extended:
        for step in _CRIT["extended_success_at"]:
            if skill >= step["skill"]:
                top = max(top, step["roll"])
    return int(top)


def _failure_min(skill: int, margin: bool) -> int:
    low = _CRIT["failure_always"]
    for step in _CRIT["failure_below"]:
        if skill < step["below_skill"]:
            low = min(low, step["roll"])
    if margin:
        low = min(low, skill + _CRIT["margin"])
    return int(low)


def bounds(skill: int, *, extended: bool = False, margin: bool = True) -> Bounds:
    """Critical and success bounds for ``skill`` (``margin``: a miss by 10+ is critical)."""
    return Bounds(_success_max(skill, extended), min(skill, HIGHEST_SUCCESS_ROLL), _failure_min(skill, margin))


def grade(roll: int, b: Bounds) -> str:
    """``critical-success``, ``success``, ``failure`` or ``critical-failure``."""
    if roll <= b.crit_success:
        return "critical-success"
    if roll >= b.crit_failure:
        return "critical-failure"
    if roll <= b.success:
        return "success"
    return "failure"


def success_roll(dice: Any, target: int, label: str) -> tuple[str, int]:
    """A plain 3d6 success roll against ``target`` (HT, IQ, DX...) with the usual criticals
    (a miss by 10 or more is critical). Returns (grade, margin)."""
    roll = dice.roll("3d6", label).total
    if target < LOWEST_DEFENSE:
        b = Bounds(_CRIT["success_always"], -1, min(_CRIT["failure_always"], target + _CRIT["margin"]))
    else:
        b = bounds(min(target, HIGHEST_SKILL))
    return grade(roll, b), target - roll


SECONDS = {"seconds": 1, "minutes": 60, "hours": 3600, "days": 86400, "weeks": 7 * 86400}
TURN_SECONDS = RULES["time"]["turn_seconds"]
