"""The determine and locate stages: the 3d6 roll against skill, and where a blow lands.

Determinations and Locations are built once at import; a stage only picks one, so equal outcomes
merge under exact odds and the hot path allocates almost nothing.
"""

from __future__ import annotations

from typing import Any

from critcore.plugin import parse
from critcore.plugin import ParamError
from critcore.plugin import RollLookup
from critcore.plugin import Data, Determination, Location, Procedure, record

from .aims import DEFERRED, check_location
from .collapse import dead, refuse_dead
from .damage import DamageSpec, parse_damage
from .events import CRITICAL_HIT, CRITICAL_MISS
from .reference import (HEAD_BLOW_LOCATIONS, HIGHEST_SKILL, LOCATIONS, LOWEST_DEFENSE, LOWEST_SKILL, LocationRule,
                        bounds, grade, met_by)

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


def _bounds(options: Data, skill: int, margin: bool, lowest: int) -> Any:
    if not (isinstance(skill, int) and lowest <= skill <= HIGHEST_SKILL):
        raise ParamError(f"--skill: {skill} is out of range: effective skill must be {lowest} to {HIGHEST_SKILL}")
    return bounds(skill, extended=bool(options["extended_critical_range"]), margin=margin)


@record
class Plan:
    """What the stages need from one set of parameters, worked out once per engine by
    :func:`prepare` (the ``critcore_prepare`` hook) and handed to them as ``ctx.prepared``.

    A plan depends only on the procedure, the parameters and the options; it carries nothing
    from one stage to the next.
    """

    procedure: str
    results: tuple[Determination | None, ...]  # indexed by the 3d6 total
    label: str
    location: Location | None  # the aimed location; None: roll it (or none to locate)
    damage: DamageSpec | None  # --damage, read
    aim: str | None = None  # the location aimed at, by name (a body type's own part is looked up by locate)
    aim_given: bool = False  # --location was given (not the default torso)
    deferred: bool = False  # aim is none of the humanoid's locations: checked against the target's body
    # the foe's fumble of an attack or defense (fumble.Fumble, read from the parameters alone):
    # the miss tables' stage reads it here instead of once per enumerated run
    foe_fumble: Any = None
    # what exact odds read of the effect stage, made when first asked (chains.effect_lookup)
    kept: Any = None


class Kept:
    """What is worked out when first needed and kept for the engine's life, shared by all its
    plans (in ``critcore_prepare``'s memo: a question with new parameters finds it made): the
    effect stage's look-ups (:func:`.chains.effect_lookup`) by table and the weapon facts they
    read, which is all they depend on. The tables' rows by total, never answers. Compared and
    hashed by identity."""

    __slots__ = ("lookups",)

    def __init__(self) -> None:
        self.lookups: dict[Any, Any] = {}



def _results(table: dict[str, Determination], b: Any) -> tuple[Determination | None, ...]:
    return (None, None, None) + tuple(table[grade(r, b)] for r in range(3, 19))


def prepare(procedure: Procedure, params: Data, options: Data, memo: dict[str, Any] | None = None) -> Plan:
    """The plan of one procedure with these parameters; a bad --skill, --location or --damage
    is refused here, before any roll."""
    name = procedure.name
    p = params
    damage = parse_damage(p["damage"]) if p.get("damage") is not None else None
    results: tuple[Determination | None, ...] = ()
    label = ""
    if name == "attack":
        b = _bounds(options, p["skill"], not p["ranged"] or bool(options["ranged_margin_critical"]), LOWEST_SKILL)
        check_location(name, p, damage)
        results, label = _results(ATTACK_RESULTS, b), "attack roll"
    elif name == "defense":
        b = _bounds(options, p["skill"], True, LOWEST_DEFENSE)
        table = {g: DEFENSE_RESULTS[(g, p["defense"])] for g in ATTACK_RESULTS}
        results, label = _results(table, b), f"{p['defense']} roll"
    elif name == "spell":
        b = _bounds(options, p["skill"], bool(options["spell_margin_critical"]), LOWEST_SKILL)
        results, label = _results(SPELL_RESULTS, b), "casting roll"
    elif name in ("critical-hit", "head-blow", "critical-miss", "unarmed-miss"):
        allowed = HEAD_BLOW_LOCATIONS if name == "head-blow" else BODY_PARTS if name == "unarmed-miss" else None
        check_location(name, p, damage, allowed)
        if name == "head-blow" and damage is not None:
            base = LOCATIONS.get(p.get("location") or DEFAULT_HEAD)
            aimed = met_by(base, damage.dtype) if base is not None else None
            if aimed is not None and not aimed.head_blow:
                raise ParamError(f"--damage: {damage.dtype} damage to the {aimed.name} does not use the Critical Head "
                                 "Blow table (none of the skull's rules apply to it): use critical-hit")
    where = p.get("location")
    location = None
    if name in ("attack", "critical-hit", "head-blow"):
        if where is None and not (name == "attack" and options["random_location"]):
            where = DEFAULT_LOCATION
        location = AIMED.get(where) if where is not None else None
    aim = where if where not in (None, "random") else None
    foe_fumble = None
    if name in ("attack", "defense"):
        from .fumble import fumble_of

        foe_fumble = fumble_of(p, damage, {}, ranged=bool(p.get("ranged")), parrying=False)
    return Plan(name, results, label, location, damage, aim, p.get("location") not in (None, "random"),
                aim is not None and aim not in LOCATIONS, foe_fumble, _kept(memo))


def _kept(memo: dict[str, Any] | None) -> Kept:
    """The engine's :class:`Kept` (``critcore_prepare``'s memo, the same for every plan of the
    engine: the look-ups are by table and the weapon facts they read, never by parameters), or
    a plan's own when made without one."""
    if memo is None:
        return Kept()
    kept = memo.get("gurps-kept")
    if kept is None:
        kept = memo["gurps-kept"] = Kept()
    return kept


def plan_of(ctx: Any) -> Plan:
    """The context's plan (made by the engine through ``critcore_prepare``; made here for a
    context built by hand, as some tests do)."""
    plan = ctx.prepared
    if plan is None:
        plan = prepare(ctx.procedure, ctx.params, ctx.options)
    return plan  # type: ignore[no-any-return]


def rule_at(ctx: Any, key: str) -> LocationRule:
    """The hit-location rule at ``key`` (:func:`critcore_gurps.bodies.rule_at`); the body types and
    traits are imported only for a character that has a body type or traits of its own."""
    target = getattr(ctx, "target", None)
    if target is None or ("body" not in target and not target.get("traits")):
        found = LOCATIONS.get(key)
        if found is not None:
            return found
    from .bodies import rule_at as on_body

    return on_body(ctx, key)


def damage_of(ctx: Any) -> DamageSpec | None:
    """``--damage`` as read once by the plan (None when not given)."""
    return plan_of(ctx).damage


def check_aim(ctx: Any, plan: Plan) -> None:
    """A --location that is none of the humanoid's, checked against the target's own body
    before any roll (a wing of a winged quadruped); without such a body, the usual refusal."""
    if ctx.target is not None and "body" in ctx.target:
        from .bodies import aimed_part

        aimed_part(ctx, plan)
    else:
        check_location("hit", Data(location=plan.aim), None)


def determine(ctx: Any) -> Determination | None:
    if ctx.target is not None:
        refuse_dead(ctx.target)  # a dead character is refused before any roll
    plan = plan_of(ctx)
    if plan.deferred or (plan.aim is not None and ctx.target is not None and "body" in ctx.target):
        check_aim(ctx, plan)
    if plan.results:
        found: Determination | None = plan.results[ctx.dice.roll(D3, plan.label).total]
        return found
    return None


def determine_lookup(ctx: Any) -> RollLookup | None:
    """The ``critcore_determine_lookup`` hook: :func:`determine` is exactly
    ``plan.results[ctx.dice.roll(D3, plan.label).total]`` when the plan has results (the roll
    against skill), so a simulation may draw that roll itself. determine must keep doing
    nothing else (no note, no other roll) for as long as this says so.
    """
    plan = plan_of(ctx)
    if not plan.results or (ctx.target is not None and dead(ctx.target)):
        return None  # determine refuses a dead character (a look-up cannot)
    return RollLookup(D3, plan.label, plan.results)


# --- locate ---------------------------------------------------------------------------------

AIMED = {k: Location(k, r.name, f"{r.name} ({r.penalty:+d} to hit)", Data(penalty=r.penalty)) for k, r in LOCATIONS.items()}
ROLLED = {k: Location(k, r.name, f"{r.name}, rolled on the hit-location table ({r.penalty:+d} to hit when aimed)",
                      Data(penalty=r.penalty, rolled=True)) for k, r in LOCATIONS.items()}
DEFAULT_LOCATION = "torso"
DEFAULT_HEAD = "skull"  # head-blow's --location when none is given (procedures.HEAD_BLOW)


def roll_location(ctx: Any) -> Location:
    table = ctx.tables["hit-location"]
    row = table.lookup(ctx.dice.roll(table.dice, "hit location").total)
    return ROLLED[row.data["location"]]


HIT_KINDS = frozenset({ATTACK_RESULTS["critical-success"].kind, ATTACK_RESULTS["success"].kind})
"""Determinations of an attack that land (by kind, never by identity: a house rule may answer
with its own copy of one)."""


def locate(ctx: Any, determination: Determination | None) -> Location | None:
    name = ctx.procedure.name
    if name == "attack":
        if determination is None or determination.kind not in HIT_KINDS:
            return None
    elif name == "hit-location":
        if ctx.target is not None and "body" in ctx.target:
            from .bodies import locate_on_body

            return locate_on_body(ctx, plan_of(ctx))
        return roll_location(ctx)
    elif name != "critical-hit" and name != "head-blow":
        return None
    plan = plan_of(ctx)
    if ctx.target is not None and "body" in ctx.target:
        from .bodies import locate_on_body

        return locate_on_body(ctx, plan)
    found = plan.location
    if found is None and plan.aim is not None:
        check_location("hit", Data(location=plan.aim), None)  # raises the usual line
    return found if found is not None else roll_location(ctx)

