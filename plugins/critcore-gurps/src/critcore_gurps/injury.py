"""Turning a blow (or a plain number of injury points) into changes to a character: HP, shock,
crippling, major wounds and the knockdown rolls owed."""

from __future__ import annotations

import math
from typing import Any, Mapping

from . import character as ch
from . import collapse
from .damage import DamageSpec, Injury, compute_injury, shock_penalty
from .reference import LEAST_BASIC, LOCATIONS, RULES, TURN_SECONDS, LocationRule

NO_TERMS: Mapping[str, Any] = {}  # no traits: nothing changes compute_injury's numbers (never changed)

INJURIES_KEPT = 20
"""The latest injuries a character's state lists (what ``crit show`` and the web page show). No
rule reads them, HP and statuses carry what the rules need, and a campaign's log keeps every one,
so a character's state stays the same size however many hits he takes (issue 25; see "Where the
rules are silent" in docs/systems/gurps.md)."""


def roll_basic(ctx: Any, spec: DamageSpec, row: Mapping[str, Any], fraction: float = 1.0,
               rounding: str = "down") -> int:
    """Basic damage: rolled (or the dice's maximum), at least the type's least, times the row's
    multiplier, times ``fraction`` (half damage rounds ``rounding``)."""
    if row.get("maximum"):
        basic = spec.expr.maximum
    else:
        basic = ctx.dice.roll(spec.expr, f"damage ({spec.notation})").total
    basic = max(LEAST_BASIC[spec.dtype], basic) * int(row.get("multiplier", 1))  # the table itself: no call at every blow
    if fraction != 1:
        scaled = basic * fraction
        basic = math.ceil(scaled) if rounding == "up" else math.floor(scaled)
    return basic


def blow(
    ctx: Any,
    state: dict[str, Any] | None,
    changes: list[str],
    spec: DamageSpec,
    location: LocationRule,
    row: Mapping[str, Any],
    why: str,
    fraction: float = 1.0,
    hp: int | None = None,
) -> Injury:
    """Roll and apply one blow of ``spec`` to ``location``; return the numbers. ``hp``: the
    HP attribute (:func:`~.character.hp_of`) when the caller has read it already."""
    if hp is None:
        hp = ch.hp_of(ctx, state)
    params = ctx.params
    usual_ht = ch.default(ctx, "ht")
    ht = ch.number(ctx, state, "ht", usual_ht) or usual_ht
    divisor = params.get("armor_divisor") or spec.divisor
    basic = roll_basic(ctx, spec, row, fraction, ctx.options["half_damage_rounding"])
    opts = ctx.options
    terms: Mapping[str, Any] = NO_TERMS
    if state is not None and state.get("traits"):  # the traits module only for a character with traits
        from . import traits

        terms = traits.injury_terms(state, location, spec.dtype, changes)
    # the traits' terms by name, with compute_injury's own defaults: a call with **terms merged
    # them into a new dict of keywords at every blow, most often to add nothing
    inj = compute_injury(
        basic, spec.dtype, dr_here(ctx, state, location.id, spec.dtype), divisor, location, hp, ht, row,
        divided_round=opts["divided_dr_rounding"],
        crippling_major=bool(opts["crippling_is_major_wound"]),
        male=ch.flag(ctx, state, "male"),
        high_pain=ch.flag(ctx, state, "high_pain_threshold"),
        low_pain=ch.flag(ctx, state, "low_pain_threshold"),
        wounding=terms.get("wounding"),
        multiplier=terms.get("multiplier", 1),
        most=terms.get("most"),
    )
    if params.get("hp") is None and (state is None or "hp" not in state):
        changes.append(f"(HP {hp} assumed: give --hp or a character file)")
    wound = f"{inj.wounding:g}"
    changes.append(f"{basic} basic {spec.dtype} damage against DR {inj.dr}: {inj.penetrating} through, "
                   f"x{wound} at the {location.name} = {inj.uncapped} injury"
                   + (f", held to {inj.injury} by the limb cap" if inj.injury != inj.uncapped else ""))
    record(ctx, state, changes, inj, location, spec.dtype, why, hp)
    return inj


def record(ctx: Any, state: dict[str, Any] | None, changes: list[str], inj: Injury, location: LocationRule,
           dtype: str, why: str, hp: int) -> None:
    """Put the numbers of ``inj`` on the character: HP, statuses, owed rolls. A blow that kills
    leaves no shock and no knockdown roll (nor a numb funny bone) behind: the dead roll for nothing."""
    killed = lose_hp(state, changes, inj.injury, location.id, dtype, why, hp)
    if inj.major:
        changes.append("a major wound")
    if inj.dismembered:
        word = "severed" if dtype == "cut" else "destroyed"
        ch.add_status(state, changes, {"id": "dismembered", "location": location.id, "duration": "permanent",
                                       "text": f"{location.name} {word}"}, f"{location.name} {word} (permanent)")
    elif inj.crippled:
        line = f"{location.name} {location.crippled_word}"
        if not killed:  # the dead make no roll after the fight
            line += " (roll after the fight: crit treat gurps after-fight)"
        ch.add_status(state, changes, {"id": "crippled", "location": location.id, "duration": "pending",
                                       "text": f"{location.name} {location.crippled_word}"}, line)
    if killed:
        return
    if inj.funny_bone_seconds:
        ch.add_status(state, changes, {"id": "funny-bone", "location": location.id, "until": ch.clock(state) + inj.funny_bone_seconds,
                                       "text": f"{location.name} numb and useless"},
                      f"{location.name} numb and useless for {inj.funny_bone_seconds} seconds (funny-bone blow)")
    add_shock(state, changes, inj.shock, inj.shock_cap)
    if inj.knockdown is not None:
        owe(state, changes, inj.knockdown, inj.knockdown_why)


def lose_hp(state: dict[str, Any] | None, changes: list[str], amount: int, location: str, dtype: str, why: str,
            hp: int) -> bool:
    """Take ``amount`` HP off the character (or, with none, off ``hp``) and say what it demands;
    True when it kills (:func:`collapse.note`)."""
    if amount <= 0:
        changes.append("no injury")
        return False
    if state is None:
        changes.append(f"{amount} HP of injury")
        killed = collapse.note(None, changes, hp, hp - amount, hp)  # no character: he started unhurt
        collapse.reel(None, changes, hp, hp - amount, hp)
        return killed
    before = ch.current_hp(state, hp)
    state["current_hp"] = before - amount
    state["injuries"].append({"location": location, "injury": amount, "type": dtype, "why": why, "at": ch.clock(state)})
    del state["injuries"][:-INJURIES_KEPT]  # the latest only: the campaign's log keeps them all
    changes.append(f"HP {before} -> {before - amount}")
    killed = collapse.note(state, changes, before, before - amount, hp)
    collapse.reel(state, changes, before, before - amount, hp)
    return killed


def add_shock(state: dict[str, Any] | None, changes: list[str], shock: int, cap: int) -> None:
    """Shock for the next turn. Shock from several injuries adds up, to the largest cap among them."""
    if shock <= 0:
        return
    line = f"shock: -{shock} to DX and IQ on his next turn"
    if state is None:  # no character: the line alone (no status to make only to drop it, as add_status would)
        changes.append(line)
        return
    now = ch.clock(state)
    old = ch.find_status(state, "shock")
    if old is not None and int(old.get("until", 0)) > now:
        cap = max(cap, int(old.get("cap", cap)))
        total = min(cap, -int(old.get("penalty", 0)) + shock)
        old.update(penalty=-total, cap=cap, until=now + TURN_SECONDS,
                   text=f"-{total} to DX and IQ (not defenses) on the next turn")
        changes.append(f"shock: -{total} in all to DX and IQ on his next turn")
        return
    ch.add_status(state, changes, {"id": "shock", "penalty": -shock, "cap": cap, "until": now + TURN_SECONDS,
                                   "text": f"-{shock} to DX and IQ (not defenses) on the next turn"}, line)


def owe(state: dict[str, Any] | None, changes: list[str], modifier: int, why: str) -> None:
    item = {"roll": "ht", "kind": "knockdown", "modifier": modifier, "why": why}
    changes.append(collapse.describe(item))
    if state is not None and not any(s.get("id") == "dead" for s in state["statuses"]):
        for owed in state["owed_rolls"]:  # the same roll owed already: owed once more (``times``)
            if {k: v for k, v in owed.items() if k != "times"} == item:
                owed["times"] = int(owed.get("times", 1)) + 1
                return
        state["owed_rolls"].append(item)


def plain_injury(ctx: Any, state: dict[str, Any] | None, changes: list[str], amount: int, location: str,
                 why: str) -> None:
    """Injury that is not damage (no DR, no wounding modifier): HP, shock, a major wound's roll."""
    hp = ch.hp_of(ctx, state)
    amount = max(0, amount)
    if lose_hp(state, changes, amount, location, "injury", why, hp):
        return  # the dead take no shock and roll nothing
    high = ch.flag(ctx, state, "high_pain_threshold")
    low = ch.flag(ctx, state, "low_pain_threshold")
    rules = RULES["shock"]
    factor = rules["hpt_factor"] if high else rules["lpt_factor"] if low else 1
    cap = rules["lpt_cap"] if low else rules["cap"]
    add_shock(state, changes, shock_penalty(amount, hp, factor, cap), cap)
    if amount * 2 > hp:
        pain = RULES["knockdown"]["hpt_modifier"] if high else RULES["knockdown"]["lpt_modifier"] if low else 0
        owe(state, changes, pain, "major wound")


def injury_data(inj: Injury) -> dict[str, Any]:
    """The injury numbers as plain data (the fields of :class:`Injury`)."""
    return dict(inj.__dict__)


def dr_here(ctx: Any, state: dict[str, Any] | None, location: str, dtype: str) -> int:
    """DR at ``location`` against ``dtype``: --dr, else the body's own DR there (a GCS
    character's, as GCS computed it), else the character file's ``dr``."""
    if state is not None and "body" in state and ctx.params.get("dr") is None:
        from .bodies import body_of, dr_for

        body = body_of(ctx)
        if body is not None and location in body.parts:
            return dr_for(body.parts[location], dtype)
    return ch.dr_at(ctx, state, location)


def location_rule(location_id: str) -> LocationRule:
    return LOCATIONS[location_id]
