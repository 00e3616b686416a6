"""The determine and locate stages: the 3d6 roll against skill, and where a blow lands.

Determinations and Locations are built once at import; a stage only picks one, so equal outcomes
merge under exact odds and the hot path allocates almost nothing.
"""

from __future__ import annotations

from typing import Any

from critcore.dice import DiceExpr, parse
from critcore.errors import ParamError
from critcore.model import Data, Determination, Location, record

from .damage import parse_damage
from .events import CRITICAL_HIT, CRITICAL_MISS
from .reference import BOUNDS, HEAD_BLOW_LOCATIONS, HIGHEST_SKILL, LOCATIONS, LOWEST_DEFENSE, LOWEST_SKILL, grade

D3 = parse("3d6")
BODY_PARTS = tuple(LOCATIONS)

ATTACK_RESULTS = {
    "critical-success": Determination("critical-hit", True, "critical hit: the target gets no active defense",
                                      tags=CRITICAL_HIT),
    "success": Determination("hit", False, "hit (the target may still defend; injury assumes he did not)"),
    "failure": Determination("miss", False, "miss", final=True),
    "critical-failure": Determination("critical-miss", True, "critical miss", tags=CRITICAL_MISS),
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


@record
class Plan:
    """What determine and locate need from one set of parameters, worked out once.

    A plan depends only on the parameters, the options and the procedure, so it is memoised
    by the (hashable) parameters; it carries nothing from one stage to the next.
    """

    procedure: str
    options: Any
    results: tuple[Determination | None, ...]  # indexed by the 3d6 total
    label: str
    location: Location | None  # the aimed location; None: roll it (or none to locate)


_PLANS: dict[Any, Plan] = {}


def _results(table: dict[str, Determination], b: Any) -> tuple[Determination | None, ...]:
    return (None, None, None) + tuple(table[grade(r, b)] for r in range(3, 19))


def _plan(ctx: Any) -> Plan:
    name = ctx.procedure.name
    p = ctx.params
    results: tuple[Determination | None, ...] = ()
    label = ""
    if name == "attack":
        b = _bounds(ctx, p["skill"], not p["ranged"] or bool(ctx.options["ranged_margin_critical"]), LOWEST_SKILL)
        check_location(ctx)
        check_damage(ctx)
        results, label = _results(ATTACK_RESULTS, b), "attack roll"
    elif name == "defense":
        b = _bounds(ctx, p["skill"], True, LOWEST_DEFENSE)
        check_damage(ctx)
        table = {g: DEFENSE_RESULTS[(g, p["defense"])] for g in ATTACK_RESULTS}
        results, label = _results(table, b), f"{p['defense']} roll"
    elif name == "spell":
        b = _bounds(ctx, p["skill"], bool(ctx.options["spell_margin_critical"]), LOWEST_SKILL)
        results, label = _results(SPELL_RESULTS, b), "casting roll"
    elif name in ("critical-hit", "head-blow", "critical-miss", "unarmed-miss"):
        allowed = HEAD_BLOW_LOCATIONS if name == "head-blow" else BODY_PARTS if name == "unarmed-miss" else None
        check_location(ctx, allowed)
        check_damage(ctx)
    where = p.get("location")
    location = None
    if name in ("attack", "critical-hit", "head-blow"):
        if where is None and not (name == "attack" and ctx.options["random_location"]):
            where = DEFAULT_LOCATION
        location = AIMED.get(where) if where is not None else None
    plan = Plan(name, ctx.options, results, label, location)
    if len(_PLANS) > 4096:
        _PLANS.clear()
    _PLANS[p] = plan
    return plan


_LAST: list[Any] = [None, None]  # the params object last asked about, and its plan


def plan_of(ctx: Any) -> Plan:
    params = ctx.params
    if _LAST[0] is params:  # the same resolution (or a simulation's reused context): no hashing
        plan: Plan = _LAST[1]
        if plan.options is ctx.options and plan.procedure == ctx.procedure.name:
            return plan
    plan = _PLANS.get(params)  # type: ignore[assignment]
    if plan is None or plan.options is not ctx.options or plan.procedure != ctx.procedure.name:
        plan = _plan(ctx)
    _LAST[0], _LAST[1] = params, plan
    return plan


def determine(ctx: Any) -> Determination | None:
    plan = plan_of(ctx)
    if plan.results:
        found: Determination | None = plan.results[ctx.dice.roll(D3, plan.label).total]
        return found
    return None


def by_total(ctx: Any) -> tuple[DiceExpr, str, tuple[Determination | None, ...]] | None:
    """``(notation, label, answers)`` when :func:`determine` is exactly ``answers[ctx.dice.roll(
    notation, label).total]`` for this context (the roll against skill), else None.

    A simulation then draws that one roll itself and picks the answer from its table, without
    calling :func:`determine` (see :mod:`critcore.montecarlo`); determine must keep doing nothing
    else (no note, no other roll) for as long as this says so.
    """
    plan = plan_of(ctx)
    return (D3, plan.label, plan.results) if plan.results else None


determine.by_total = by_total  # type: ignore[attr-defined]


# --- locate ---------------------------------------------------------------------------------

AIMED = {k: Location(k, r.name, f"{r.name} ({r.penalty:+d} to hit)", Data(penalty=r.penalty)) for k, r in LOCATIONS.items()}
ROLLED = {k: Location(k, r.name, f"{r.name}, rolled on the hit-location table ({r.penalty:+d} to hit when aimed)",
                      Data(penalty=r.penalty, rolled=True)) for k, r in LOCATIONS.items()}
DEFAULT_LOCATION = "torso"


def roll_location(ctx: Any) -> Location:
    table = ctx.tables["hit-location"]
    row = table.lookup(ctx.dice.roll(table.dice, "hit location").total)
    return ROLLED[row.data["location"]]


HITS = (ATTACK_RESULTS["critical-success"], ATTACK_RESULTS["success"])


def locate(ctx: Any, determination: Determination | None) -> Location | None:
    name = ctx.procedure.name
    if name == "attack":
        if determination is not HITS[0] and determination is not HITS[1]:
            return None
    elif name == "hit-location":
        return roll_location(ctx)
    elif name != "critical-hit" and name != "head-blow":
        return None
    found = plan_of(ctx).location
    return found if found is not None else roll_location(ctx)
