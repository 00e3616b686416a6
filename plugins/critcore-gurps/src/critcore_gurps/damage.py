"""Damage expressions (``"2d+1 cut"``, ``"6d (2) pi"``) and the injury arithmetic of GURPS:
basic damage, effective DR, wounding modifier, crippling, major wounds, shock, knockdown.

Pure functions: nothing here rolls dice or touches a target's state.
"""

from __future__ import annotations

import math
import re
from functools import cached_property
from typing import Any, Mapping

from critcore.plugin import DiceExpr, parse
from critcore.plugin import DiceError, ParamError
from critcore.plugin import record

from .reference import DAMAGE_TYPES, LEAST_BASIC, RULES, LocationRule, wounding_modifier

SHOCK = RULES["shock"]  # read once: every blow works out its shock

# compiled when first used (re's cache), not at every start-up
_DAMAGE = r"^\s*(?P<dice>[^\s(]+)\s*(?:\(\s*(?P<div>[0-9]*\.?[0-9]+)\s*\))?\s*(?P<type>\S+)?\s*$"


@record
class DamageSpec:
    """A parsed damage expression: dice, damage type and armor divisor."""

    expr: DiceExpr
    dtype: str
    divisor: float = 1.0

    @cached_property  # worked out once: the plan keeps its spec, and every damage roll is labelled with it
    def notation(self) -> str:
        div = f" ({self.divisor:g})" if self.divisor != 1 else ""
        return f"{self.expr.notation}{div} {self.dtype}"


def parse_damage(text: str, flag: str = "--damage") -> DamageSpec:
    """Read ``"2d+1 cut"``: dice through critcore's parser, then the damage type (and an
    optional armor divisor in parentheses). Raises :class:`ParamError` naming what is wrong."""
    m = re.match(_DAMAGE, text)
    if not m:
        raise ParamError(f"{flag}: cannot read {text!r}: expected dice and a damage type, e.g. \"2d+1 cut\"")
    try:
        expr = parse(m["dice"])
    except DiceError as exc:
        raise ParamError(f"{flag}: {exc}") from None
    dtype = m["type"]
    if dtype is None:
        raise ParamError(f"{flag}: {text!r} has no damage type; add one of {', '.join(DAMAGE_TYPES)}")
    if dtype not in DAMAGE_TYPES:
        raise ParamError(f"{flag}: unknown damage type {dtype!r} in {text!r}; use one of {', '.join(DAMAGE_TYPES)}")
    divisor = float(m["div"]) if m["div"] else 1.0
    from .procedures import ARMOR_DIVISOR

    if not ARMOR_DIVISOR.min <= divisor <= ARMOR_DIVISOR.max:  # type: ignore[operator]
        raise ParamError(f"{flag}: armor divisor ({m['div']}) in {text[:60]!r} is outside "
                         f"{ARMOR_DIVISOR.min:g} to {ARMOR_DIVISOR.max:g}")
    return DamageSpec(expr, dtype, divisor)


def least_basic(dtype: str) -> int:
    """The smallest basic damage a hit does (0 for crushing, 1 for the other types)."""
    return LEAST_BASIC[dtype]


def effective_dr(dr: int, location: LocationRule, divisor: float, row: Mapping[str, Any],
                 divided_round: str = "down") -> int:
    """DR at the location (plus its natural DR), divided by the armor divisor (fractions
    dropped, or rounded up with ``divided_round="up"``; a fractional divisor leaves at least
    ``fractional_least_dr``, so no DR counts as DR 1, B378), then scaled by the critical row's
    ``dr_factor`` rounded as ``dr_round`` says."""
    total = dr + location.extra_dr
    divided = total / divisor
    after_divisor = math.ceil(divided) if divided_round == "up" else math.floor(divided)
    if divisor < 1:
        after_divisor = max(after_divisor, RULES["armor_divisor"]["fractional_least_dr"])
    factor = row.get("dr_factor", 1)
    if factor == 1:
        return after_divisor
    scaled = after_divisor * factor
    return int(math.ceil(scaled) if row.get("dr_round", "down") == "up" else math.floor(scaled))


@record
class Injury:
    """What one blow does, in numbers."""

    basic: int
    dr: int
    penetrating: int
    wounding: float
    injury: int  # after the limb cap
    uncapped: int
    major: bool
    crippled: bool
    dismembered: bool
    shock: int
    shock_cap: int
    knockdown: int | None  # modifier of the owed knockdown roll, None when none is owed
    knockdown_why: str
    funny_bone_seconds: int


def cripple_least(hp: int, location: LocationRule) -> int:
    """The least injury that cripples the location (over HP / divisor)."""
    return hp // location.cripple_divisor + 1


def shock_penalty(injury: int, hp: int, factor: int, cap: int) -> int:
    """Shock points: one per point of injury; from ``large_hp`` HP one per full HP/10 points
    (HP/10 rounded down: HP 29 takes one per 2 points), times ``factor``, capped."""
    if injury <= 0 or factor <= 0:
        return 0
    rules = SHOCK
    units = injury if hp < rules["large_hp"] else injury // (hp // rules["large_hp_divisor"])
    return min(units * factor, cap)


def compute_injury(
    basic: int,
    dtype: str,
    dr: int,
    divisor: float,
    location: LocationRule,
    hp: int,
    ht: int,
    row: Mapping[str, Any],
    *,
    divided_round: str = "down",
    crippling_major: bool = True,
    male: bool = False,
    high_pain: bool = False,
    low_pain: bool = False,
    wounding: float | None = None,
    multiplier: int = 1,
    most: int | None = None,
) -> Injury:
    """The whole injury computation for one blow of ``basic`` damage (already multiplied or
    maximised by the critical row) to ``location``."""
    eff = effective_dr(dr, location, divisor, row, divided_round)
    penetrating = max(0, basic - eff)
    mod = wounding_modifier(location, dtype) if wounding is None else wounding
    raw = math.floor(penetrating * mod)
    if penetrating > 0:
        raw = max(1, raw) * multiplier  # a Vulnerability multiplies the injury (B161)
        raw = raw if most is None else min(raw, most)  # a Diffuse body's most per blow (B60)
    injury = raw
    crippled = dismembered = False
    if location.cripple_divisor and raw > 0:
        least = cripple_least(hp, location)
        crippled = raw * location.cripple_divisor > hp
        if location.cap:
            dismembered = raw >= RULES["crippling"]["dismember_factor"] * least
            injury = min(raw, least)
    major = injury * 2 > hp or (crippled and crippling_major) or (penetrating > 0 and bool(row.get("major_if_penetrates")))
    # shock
    shock_rules = SHOCK
    factor = int(row.get("shock_factor", 1))
    cap = int(row.get("shock_cap", shock_rules["cap"]))
    male_groin = male and location.male_crushing_shock_factor != 1
    if male_groin and dtype == "cr":
        factor *= location.male_crushing_shock_factor
        cap = max(cap, location.male_shock_cap)
    if low_pain:
        factor *= shock_rules["lpt_factor"]
        cap = max(cap, shock_rules["lpt_cap"])
    if high_pain:
        factor = shock_rules["hpt_factor"]
    shock = shock_penalty(injury, hp, factor, cap)
    # knockdown and stunning
    knock: int | None = None
    why = ""
    pain = RULES["knockdown"]["hpt_modifier"] if high_pain else RULES["knockdown"]["lpt_modifier"] if low_pain else 0
    if major:
        knock = location.knockdown_major + (location.male_knockdown_major if male else 0) + pain
        why = f"major wound to the {location.name}"
    elif location.knockdown_on_shock and shock_penalty(injury, hp, 1, 99) > 0:
        knock = pain
        why = f"injury to the {location.name} big enough to cause shock"
    funny = 0
    if row.get("funny_bone") and penetrating > 0 and location.limb_like and not crippled:
        funny = max(int(row["funny_bone_min"]), int(row["funny_bone_base"]) - ht)
    return Injury(basic, eff, penetrating, float(mod), injury, raw, major, crippled, dismembered, shock, cap, knock, why, funny)
