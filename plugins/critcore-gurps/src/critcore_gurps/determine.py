"""The determine and locate stages: the 3d6 roll against skill, and where a blow lands.

Determinations and Locations are built once at import; a stage only picks one, so equal outcomes
merge under exact odds and the hot path allocates almost nothing.
"""

from __future__ import annotations

from typing import Any

from critcore.dice import parse
from critcore.errors import ParamError
from critcore.model import Data, Determination, Location

from .damage import parse_damage
from .reference import BOUNDS, HEAD_BLOW_LOCATIONS, HIGHEST_SKILL, LOCATIONS, LOWEST_DEFENSE, LOWEST_SKILL, grade

D3 = parse("3d6")
BODY_PARTS = tuple(LOCATIONS)

ATTACK_RESULTS = {
    "critical-success": Determination("critical-hit", True, "critical hit: the target gets no active defense"),
    "success": Determination("hit", False, "hit (the target may still defend; injury assumes he did not)"),
    "failure": Determination("miss", False, "miss", final=True),
    "critical-failure": Determination("critical-miss", True, "critical miss"),
}

_DEFENSE_FAIL = {
    "dodge": "critical failure: the dodger loses his footing and falls prone",
    "block": "critical failure: the shield slips and must be readied before it blocks again",
    "parry": "critical failure: a parry that fails this badly is a critical miss for the parrier",
}
DEFENSE_RESULTS: dict[tuple[str, str], Determination] = {}
for _d, _text in _DEFENSE_FAIL.items():
    DEFENSE_RESULTS[("critical-success", _d)] = Determination(
        "critical-success", True, "critical success: the attacker must roll on a critical miss table")
    DEFENSE_RESULTS[("success", _d)] = Determination("success", False, f"the {_d} succeeds", final=True)
    DEFENSE_RESULTS[("failure", _d)] = Determination("failure", False, f"the {_d} fails", final=True)
    DEFENSE_RESULTS[("critical-failure", _d)] = Determination("critical-failure", True, _text)

SPELL_RESULTS = {
    "critical-success": Determination("critical-success", True, "critical success: the spell works as well as it can",
                                      final=True),
    "success": Determination("success", False, "the spell works", final=True),
    "failure": Determination("failure", False, "the spell fails", final=True),
    "critical-failure": Determination("critical-failure", True, "critical failure: roll on the spell failure table"),
}


def _bounds(ctx: Any, skill: int, margin: bool, lowest: int) -> Any:
    b = BOUNDS[(bool(ctx.options["extended_critical_range"]), margin)].get(skill) if skill >= lowest else None
    if b is None:
        raise ParamError(f"--skill: {skill} is out of range: effective skill must be {lowest} to {HIGHEST_SKILL}")
    return b


def check_location(ctx: Any, allowed: tuple[str, ...] | None = None) -> None:
    """Refuse an unknown --location (or one the damage type cannot aim at) with one line."""
    where = ctx.params.get("location")
    if where is None or (where == "random" and allowed is None):
        return
    rule = LOCATIONS.get(where)
    if rule is None or (allowed is not None and where not in allowed):
        from critcore.plugins import did_you_mean

        names = allowed or (*LOCATIONS, "random")
        what = "unknown location" if rule is None else f"{ctx.procedure.name} cannot use location"
        raise ParamError(f"--location: {what} {where!r}{did_you_mean(where, names)}; use one of {', '.join(names)}")
    damage = ctx.params.get("damage")
    if rule.aim_types and damage is not None and ctx.procedure.name in ("attack", "critical-hit"):
        dtype = parse_damage(damage).dtype
        if dtype not in rule.aim_types:
            raise ParamError(f"--location: a {dtype} attack cannot be aimed at the {rule.name} "
                             f"(only {', '.join(rule.aim_types)})")


def check_damage(ctx: Any) -> None:
    damage = ctx.params.get("damage")
    if damage is not None:
        parse_damage(damage)


def determine(ctx: Any) -> Determination | None:
    name = ctx.procedure.name
    p = ctx.params
    if name == "attack":
        ranged = p["ranged"]
        b = _bounds(ctx, p["skill"], not ranged or bool(ctx.options["ranged_margin_critical"]), LOWEST_SKILL)
        if p["location"] is not None:
            check_location(ctx)
        if p["damage"] is not None:
            check_damage(ctx)
        return ATTACK_RESULTS[grade(ctx.dice.roll(D3, "attack roll").total, b)]
    if name == "defense":
        b = _bounds(ctx, p["skill"], True, LOWEST_DEFENSE)
        check_damage(ctx)
        return DEFENSE_RESULTS[(grade(ctx.dice.roll(D3, f"{p['defense']} roll").total, b), p["defense"])]
    if name == "spell":
        b = _bounds(ctx, p["skill"], True, LOWEST_SKILL)
        return SPELL_RESULTS[grade(ctx.dice.roll(D3, "casting roll").total, b)]
    if name in ("critical-hit", "head-blow", "critical-miss", "unarmed-miss"):
        allowed = HEAD_BLOW_LOCATIONS if name == "head-blow" else BODY_PARTS if name == "unarmed-miss" else None
        check_location(ctx, allowed)
        check_damage(ctx)
    return None


# --- locate ---------------------------------------------------------------------------------

AIMED = {k: Location(k, r.name, f"{r.name} ({r.penalty:+d} to hit)", Data(penalty=r.penalty)) for k, r in LOCATIONS.items()}
ROLLED = {k: Location(k, r.name, f"{r.name}, rolled on the hit-location table ({r.penalty:+d} to hit when aimed)",
                      Data(penalty=r.penalty, rolled=True)) for k, r in LOCATIONS.items()}
DEFAULT_LOCATION = "torso"


def roll_location(ctx: Any) -> Location:
    table = ctx.tables["hit-location"]
    row = table.lookup(ctx.dice.roll(table.dice, "hit location").total)
    return ROLLED[row.data["location"]]


def locate(ctx: Any, determination: Determination | None) -> Location | None:
    name = ctx.procedure.name
    if name == "attack":
        if determination is None or determination.kind not in ("critical-hit", "hit"):
            return None
    elif name == "hit-location":
        return roll_location(ctx)
    elif name not in ("critical-hit", "head-blow"):
        return None
    where = ctx.params["location"]
    if where is None:
        if ctx.options["random_location"] and name == "attack":
            return roll_location(ctx)
        return AIMED[DEFAULT_LOCATION]
    if where == "random":
        return roll_location(ctx)
    return AIMED[where]
