"""The effect stage: roll on the right table and follow its re-roll and "treat as" rules.

Every re-roll is a labelled roll in the record; a row replaced by another shows as an effect
with an ``outcome`` saying why, followed by the row that applies. The last effect of a chain
is the one the apply stage acts on.
"""

from __future__ import annotations

from typing import Any, Callable

from critcore.plugin import parse
from critcore.plugin import Effect, RollLookup

from .determine import damage_of, plan_of, rule_at
from .fumble import Fumble, fumble_of
from .reference import RULES, success_roll

COIN = parse("1d2")  # an even chance either way
D6 = parse("1d6")

OUTCOMES = {key: Effect(v["table"], key, v["effect"], v["text"]) for key, v in RULES["outcomes"].items()}


def fumble_from(ctx: Any, *, ranged: bool, parrying: bool, own_file: bool) -> Fumble:
    """``own_file``: the character file is the fumbler's (else it is his foe's and is not read,
    and the plan's :attr:`~.determine.Plan.foe_fumble`, read once from the parameters, is the one)."""
    if not own_file:
        found = getattr(plan_of(ctx), "foe_fumble", None)  # a plan of this plugin's own
        if found is not None and found.ranged == bool(ranged) and found.parrying == bool(parrying):
            return found  # type: ignore[no-any-return]
    return fumble_of(ctx.params, damage_of(ctx), (ctx.target or {}) if own_file else {}, ranged=ranged,
                     parrying=parrying)


# --- the armed Critical Miss table -------------------------------------------------------------


def armed_miss(ctx: Any, f: Fumble) -> list[Effect]:
    t = ctx.tables["critical-miss"]
    r = ctx.dice.roll(t.dice, "critical miss table").total
    return _armed(ctx, t, r, f, True)


def _broken(row: Any, f: Fumble) -> bool:
    return row.code == "weapon-breaks" or (row.code == "drop-weapon" and f.cheap)


def _treated(ctx: Any, t: Any, row: Any, r: int, new: int, why: str, f: Fumble, reroll_self: bool) -> list[Effect]:
    if t.lookup(new) is row:
        # a (house-rule) row that says "treat as" a roll it covers itself would never end
        from critcore.plugin import TableError

        raise TableError(f"{t.source}: row {row.id!r} is treated as roll {new}, which is the same row")
    first = row.effect(t.id, r, outcome=f"{why}: use result {new}")
    rest = _armed(ctx, t, new, f, reroll_self, treated_from=r)
    return [first, *rest]


def _armed_settled(t: Any, row: Any, r: int, f: Fumble, extra: dict[str, Any]) -> tuple[Effect, ...] | None:
    """The armed Critical Miss table's answer for row ``row`` at roll ``r`` when it rolls nothing
    more and is not treated as another row; None when it does (shared by :func:`_armed` and
    the look-up exact odds read, :func:`effect_lookup`). Reads only ``f.resistant``,
    ``f.cheap`` and ``f.ranged`` of the fumble (the look-up is kept by those)."""
    code = row.code
    if code == "weapon-breaks":
        return None if f.resistant else (row.effect(t.id, r, broken=True, **extra),)
    if (code == "hit-self" or (code == "drop-weapon" and f.cheap) or code == "weapon-flies"
            or (code == "fall-down" and f.ranged)):
        return None
    return (row.effect(t.id, r, **extra),)


def _armed(ctx: Any, t: Any, r: int, f: Fumble, reroll_self: bool, treated_from: int | None = None) -> list[Effect]:
    row = t.lookup(r)
    code = row.code
    extra: dict[str, Any] = {} if treated_from is None else {"treated_from": treated_from}
    settled = _armed_settled(t, row, r, f, extra)
    if settled is not None:
        return list(settled)
    if code == "weapon-breaks":
        r2 = ctx.dice.roll(t.dice, "critical miss table: roll again (breakage-resistant weapon)").total
        row2 = t.lookup(r2)
        first = row.effect(t.id, r, outcome="breakage-resistant weapon: roll again", **extra)
        if _broken(row2, f):
            return [first, row2.effect(t.id, r2, outcome="broken a second time: the weapon breaks", broken=True)]
        return [first, row2.effect(t.id, r2, outcome="not broken again: the weapon is only dropped"),
                OUTCOMES["resisted-breakage"]]
    if code == "hit-self":
        if reroll_self and f.self_reroll:
            r2 = ctx.dice.roll(t.dice, "critical miss table: roll again (piercing or impaling melee, or ranged)").total
            row2 = t.lookup(r2)
            first = row.effect(t.id, r, outcome="impaling or piercing melee attack, or ranged attack: roll again", **extra)
            if row2.code == "hit-self":
                return [first, _hit_self(ctx, t, row2, r2, {"outcome": "hit yourself again: it stands"})]
            return [first, *_armed(ctx, t, r2, f, False)]
        return [_hit_self(ctx, t, row, r, extra)]
    if code == "drop-weapon" and f.cheap:
        return _treated(ctx, t, row, r, int(row.data["cheap_treat_as"]), "cheap weapon", f, reroll_self)
    if code == "weapon-flies":
        if f.swinging and not f.ranged and not f.parrying:
            yards = ctx.dice.roll(D6, "weapon flies: yards").total
            way = ctx.dice.roll(COIN, "weapon flies: 1 straight ahead, 2 straight back").total
            return [_flown(t, row, r, yards, way, extra)]
        from dataclasses import replace  # rarely needed: not imported at start-up

        keep = f if ctx.options["cheap_breaks_when_dropped"] else replace(f, cheap=False)
        return _treated(ctx, t, row, r, int(row.data["unless_swinging_treat_as"]),
                        "not a swung melee attack", keep, reroll_self)
    return _treated(ctx, t, row, r, int(row.data["ranged_treat_as"]), "ranged attack", f, reroll_self)  # fall-down


def _hit_self(ctx: Any, t: Any, row: Any, r: int, extra: dict[str, Any]) -> Effect:
    side = ctx.dice.roll(COIN, "hit yourself: 1 arm, 2 leg").total
    return _struck(t, row, r, side, extra)


def _struck(t: Any, row: Any, r: int, side: int, extra: dict[str, Any]) -> Effect:
    """The "hit yourself" row after the coin (1 arm, 2 leg)."""
    found: Effect = row.effect(t.id, r, location="right-arm" if side == 1 else "right-leg", **extra)
    return found


def _flown(t: Any, row: Any, r: int, yards: int, way: int, extra: dict[str, Any]) -> Effect:
    """The "weapon flies" row after its yards and its coin (1 ahead, 2 back)."""
    found: Effect = row.effect(t.id, r, yards=yards, direction="ahead" if way == 1 else "back", **extra)
    return found


# --- the Unarmed Critical Miss table -----------------------------------------------------------


def unarmed_miss(ctx: Any, f: Fumble) -> list[Effect]:
    t = ctx.tables["unarmed-miss"]
    r = ctx.dice.roll(t.dice, "unarmed critical miss table").total
    return _unarmed(ctx, t, r, f)


def _unarmed(ctx: Any, t: Any, r: int, f: Fumble, treated_from: int | None = None) -> list[Effect]:
    row = t.lookup(r)
    code = row.code
    d = row.data
    extra: dict[str, Any] = {} if treated_from is None else {"treated_from": treated_from}
    if code == "stumble" and f.parrying:
        new = int(d["parry_treat_as"])
        return [row.effect(t.id, r, outcome=f"on a parry: use result {new}", **extra), *_unarmed(ctx, t, new, f, r)]
    if code == "strain" and "animal_iq_max" in d and f.iq is not None and d["animal_iq_min"] <= f.iq <= d["animal_iq_max"]:
        return [row.effect(t.id, r, outcome="an animal of IQ 3-5: it loses its nerve and flees", flees=True, **extra)]
    if code == "hit-object" and "natural_weapon_damage" in d and f.natural:
        return [row.effect(t.id, r, outcome="natural weapons break", natural_weapon_breaks=True, **extra)]
    if code == "trip":
        mod = f.trip_modifier(d)
        if f.dx is None:
            return [row.effect(t.id, r, outcome="DX roll owed", dx_modifier=mod, **extra)]
        label = f"DX roll to stay standing (DX {f.dx}{mod:+d})" if mod else f"DX roll to stay standing (DX {f.dx})"
        result, _ = success_roll(ctx.dice, f.dx + mod, label)
        if result in ("success", "critical-success"):
            return [row.effect(t.id, r, outcome="kept his feet", fell=False, **extra)]
        fall = t.row("fall-down-8")
        return [row.effect(t.id, r, outcome="failed the DX roll: he falls", fell=True, **extra),
                fall.effect(t.id, fall.low, treated_from=r)]
    return [row.effect(t.id, r, **extra)]


# --- the stage ----------------------------------------------------------------------------------


def miss_effects(ctx: Any, *, unarmed: bool, ranged: bool, parrying: bool, own_file: bool = True) -> list[Effect]:
    f = fumble_from(ctx, ranged=ranged, parrying=parrying, own_file=own_file)
    return unarmed_miss(ctx, f) if unarmed else armed_miss(ctx, f)


def _eye_possible(ctx: Any) -> bool:
    from .bodies import has_eye

    return has_eye(ctx)


def head_effects(ctx: Any) -> list[Effect]:
    t = ctx.tables["head-blow"]
    r = ctx.dice.roll(t.dice, "critical head blow table").total
    row = t.lookup(r)
    if row.code == "eye-hit" and (ctx.params.get("eye_impossible") or not _eye_possible(ctx)):
        new = int(row.data["fallback_roll"])
        return [row.effect(t.id, r, outcome=f"no eye can be hit: use result {new}"),
                t.lookup(new).effect(t.id, new, treated_from=r)]
    return [row.effect(t.id, r)]


def _head_blow(ctx: Any, location_id: str) -> bool:
    """A critical hit here rolls on the Critical Head Blow table (not for toxic damage to the skull)."""
    from .reference import met_by

    damage = damage_of(ctx)
    return met_by(rule_at(ctx, location_id), damage.dtype if damage is not None else None).head_blow


def hit_effects(ctx: Any, head: bool) -> list[Effect]:
    if head:
        return head_effects(ctx)
    return [ctx.tables["critical-hit"].roll_on(ctx.dice, "critical hit table")]


def _route(ctx: Any, determination: Any, location: Any) -> tuple[str, Any] | None:
    """Which table an ``attack``, ``critical-hit`` or ``critical-miss`` rolls on, read the same
    way by the stage (:func:`effect`) and its look-up (:func:`effect_lookup`): ``("hit", head)``
    (the Critical Hit table, or the Critical Head Blow table when ``head``), ``("miss", how)``
    (a Critical Miss table, ``how`` the keywords of :func:`miss_effects`), or None (no table)."""
    name = ctx.procedure.name
    p = ctx.params
    kind = determination.kind if determination is not None else None
    if name == "attack":
        if kind == "critical-hit":
            return "hit", _head_blow(ctx, location.id)
        if kind == "critical-miss":
            return "miss", {"unarmed": bool(p["unarmed"]), "ranged": bool(p["ranged"]), "parrying": False,
                            "own_file": False}
        return None
    if name == "critical-hit":
        return "hit", location is not None and _head_blow(ctx, location.id)
    return "miss", {"unarmed": False, "ranged": bool(p["ranged"]), "parrying": bool(p["parrying"])}  # critical-miss


_ROUTED = frozenset(("attack", "critical-hit", "critical-miss"))  # the procedures :func:`_route` reads


def effect(ctx: Any, determination: Any, location: Any) -> list[Effect] | None:
    if determination is not None and not determination.critical:
        return None  # an ordinary hit, miss, success or failure rolls on no table
    name = ctx.procedure.name
    p = ctx.params
    if name in _ROUTED:
        route = _route(ctx, determination, location)
        if route is None:
            return None
        return hit_effects(ctx, route[1]) if route[0] == "hit" else miss_effects(ctx, **route[1])
    kind = determination.kind if determination is not None else None
    if name == "defense":
        if kind == "critical-success":
            found = miss_effects(ctx, unarmed=bool(p["attacker_unarmed"]), ranged=bool(p["ranged"]), parrying=False,
                                 own_file=False)
            if p["defense"] == "parry" and p["bare_handed"]:
                found.insert(0, OUTCOMES["catch-thrown-weapon"])
            return found
        if kind == "critical-failure":
            if p["defense"] == "dodge":
                return [OUTCOMES["dodge-falls"]]
            if p["defense"] == "block":
                return [OUTCOMES["shield-unready"]]
            return miss_effects(ctx, unarmed=bool(p["bare_handed"]), ranged=False, parrying=True)
        return None
    if name == "spell":
        if kind == "critical-failure":
            return [ctx.tables["spell-failure"].roll_on(ctx.dice, "critical spell failure table")]
        return None
    if name == "head-blow":
        from .bodies import headless

        if headless(ctx):  # a body with no skull, face, eye or brain: the Critical Hit table instead
            ctx.note(headless(ctx))
            return hit_effects(ctx, False)
        return head_effects(ctx)
    if name == "unarmed-miss":
        return miss_effects(ctx, unarmed=True, ranged=False, parrying=bool(p["parrying"]))
    if name == "spell-failure":
        return [ctx.tables["spell-failure"].roll_on(ctx.dice, "critical spell failure table")]
    return None



# --- the look-up exact odds read instead of running the stage for every total -----------------


def _rows_lookup(ctx: Any, t: Any, why: tuple[Any, ...],
                 answer: Callable[[Any, int], Any]) -> RollLookup:
    """The table's roll, and ``answer(row, roll)`` for every total it can show; ``why`` names
    everything ``answer`` reads besides the table. Kept with the plan (once per engine and
    parameters: the same for every question asked with them)."""
    kept = getattr(plan_of(ctx), "kept", None)
    lookups = kept.lookups if kept is not None else {}
    key = (t.id, *why)
    found = lookups.get(key)
    if found is not None and found[0] is t:
        return found[1]  # type: ignore[no-any-return]
    made = RollLookup(t.dice, t.title, (None,) * t.low + tuple(answer(t.lookup(r), r) for r in range(t.low, t.high + 1)))
    lookups[key] = (t, made)
    return made


def _hit_lookup(ctx: Any, head: bool) -> RollLookup:
    t = ctx.tables["head-blow" if head else "critical-hit"]
    if head:  # an eye hit may be treated as another row: run as usual
        return _rows_lookup(ctx, t, ("head",), lambda row, r: None if row.code == "eye-hit" else (row.effect(t.id, r),))
    return _rows_lookup(ctx, t, ("hit",), lambda row, r: (row.effect(t.id, r),))


def _miss_lookup(ctx: Any, *, unarmed: bool, ranged: bool, parrying: bool, own_file: bool = True) -> RollLookup | None:
    if unarmed:
        return None
    f = fumble_from(ctx, ranged=ranged, parrying=parrying, own_file=own_file)
    t = ctx.tables["critical-miss"]
    # _armed_answer reads these of the fumble, and nothing else of it
    why = ("miss", f.resistant, f.cheap, f.ranged, f.swinging, f.parrying, f.piercing)
    return _rows_lookup(ctx, t, why, lambda row, r: _armed_answer(t, row, r, f))


def _armed_answer(t: Any, row: Any, r: int, f: Fumble) -> Any:
    """What the look-up says of the armed Critical Miss table's row ``row`` at the first roll
    ``r`` (as :func:`armed_miss` goes on from it): the effects when it rolls nothing more, the
    next roll's look-up when that roll settles it (the coin of "hit yourself", the yards and
    coin of a weapon that flies), else None."""
    settled = _armed_settled(t, row, r, f, {})
    if settled is not None:
        return settled
    code = row.code
    if code == "hit-self" and not f.self_reroll:
        return RollLookup(COIN, "hit yourself: 1 arm, 2 leg", (None, (_struck(t, row, r, 1, {}),),
                                                               (_struck(t, row, r, 2, {}),)))
    if code == "weapon-flies" and f.swinging and not f.ranged and not f.parrying:
        def coin(yards: int) -> RollLookup:
            return RollLookup(COIN, "weapon flies: 1 straight ahead, 2 straight back",
                              (None, (_flown(t, row, r, yards, 1, {}),), (_flown(t, row, r, yards, 2, {}),)))

        return RollLookup(D6, "weapon flies: yards", (None, *(coin(y) for y in range(1, 7))))
    return None


def effect_lookup(ctx: Any, determination: Any, location: Any) -> RollLookup | None:
    """The ``critcore_effect_lookup`` hook: where :func:`effect` is a roll on the Critical Hit,
    Critical Head Blow or (armed) Critical Miss table, that roll and the effects of each total
    that ends there (the rows that roll again or are treated as another row: None, run by exact
    odds as usual). The same code decides both (:func:`_armed_settled`); exact odds check the
    look-up against a run, and under ``checking_keys`` against every total."""
    if determination is not None and not determination.critical:
        return None  # as effect(): an ordinary result rolls on no table; the table procedures have none
    if ctx.procedure.name not in _ROUTED:
        return None
    route = _route(ctx, determination, location)
    if route is None:
        return None
    return _hit_lookup(ctx, route[1]) if route[0] == "hit" else _miss_lookup(ctx, **route[1])
