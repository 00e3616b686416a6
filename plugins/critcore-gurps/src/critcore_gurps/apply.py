"""The apply stage: what the rows the effect stage chose do to a character."""

from __future__ import annotations

from typing import Any, Sequence

from critcore.model import Applied, Data, Effect, freeze

from . import character as ch
from .damage import parse_damage
from .events import FUMBLE_TAGS, injury_tags
from .injury import blow, injury_data, plain_injury
from .reference import LOCATIONS, RULES, SECONDS, TURN_SECONDS

MINUTE = SECONDS["minutes"]
WEEK = SECONDS["weeks"]
NORMAL: dict[str, Any] = {}


def _done(summary: str, changes: list[str], state: dict[str, Any] | None, data: dict[str, Any] | None = None,
          effects: Sequence[Effect] = (), tags: frozenset[str] = frozenset()) -> Applied:
    if state is not None and (state["owed_rolls"] or ch.find_status(state, "dead")):
        data = dict(data or {})
        data["owed_rolls"] = [dict(o) for o in state["owed_rolls"]]  # what `crit treat gurps` must settle now
        data["dead"] = ch.find_status(state, "dead") is not None
    return Applied(summary, tuple(changes), None if state is None else freeze(state), tuple(effects), Data(data or {}),
                   tags=tags)


# --- a blow that lands ------------------------------------------------------------------------


def apply_blow(ctx: Any, location: Any, effect: Effect | None) -> Applied | None:
    """Injury from a hit or critical hit, and the row's other consequences."""
    state = ch.state_of(ctx)
    changes: list[str] = []
    row = effect.data if effect is not None else NORMAL
    where = LOCATIONS[location.id]
    if effect is not None and effect.code == "eye-hit" and where.id != "eye":
        changes.append(f"the blow meant for the {where.name} strikes an eye")
        where = LOCATIONS[row["redirect_location"]]
    damage = ctx.params.get("damage")
    data: dict[str, Any] = {"location": where.id}
    if row.get("drop_held"):
        ch.add_status(state, changes, {"id": "dropped-held", "text": "let go of everything he held", "ends_by": "ready"},
                      "drops everything he holds")
    if row.get("off_balance_turns"):
        ch.add_status(state, changes, {"id": "off-balance", "until": ch.clock(state) + TURN_SECONDS * int(row["off_balance_turns"]),
                                       "text": "must Do Nothing next turn (may defend)"},
                      "knocked off balance: must Do Nothing next turn, may still defend")
    if row.get("drop_weapon"):
        which = ""
        if ctx.params.get("two_weapons"):
            which = " (right-hand one)" if ctx.dice.roll("1d2", "which weapon drops: 1 right hand, 2 left hand").total == 1 else " (left-hand one)"
        ch.add_status(state, changes, {"id": "dropped-weapon", "text": "dropped his weapon" + which, "ends_by": "ready"},
                      "drops his weapon" + which)
    if damage is None:
        if row.get("major_if_penetrates") or row.get("funny_bone") or row.get("deafen_if"):
            changes.append("with --damage the injury would be worked out (this row acts on any injury that gets through)")
        summary = effect.text if effect is not None else "a hit"
        return _done(summary, changes, state, data)
    spec = parse_damage(damage)
    hp = ch.hp_of(ctx, state)
    before = hp if state is None else ch.current_hp(state, hp)
    inj = blow(ctx, state, changes, spec, where, row, effect.id if effect is not None else "hit")
    if row.get("deafen_if") and inj.penetrating > 0:
        if spec.dtype == row["deafen_if"]:
            ch.add_status(state, changes, {"id": "deafened", "duration": "pending", "text": "deaf"},
                          "deafened (roll after the fight, as for crippling)")
        else:
            levels = int(row["scar_levels_burn_cor"] if spec.dtype in ("burn", "cor") else row["scar_levels"])
            ch.add_status(state, changes, {"id": "scarred", "appearance": -levels, "duration": "permanent",
                                           "text": f"scarred: appearance -{levels}"},
                          f"scarred: loses {levels} appearance level{'s' if levels > 1 else ''}")
    data.update(injury_data(inj))
    summary = f"{inj.injury} injury to the {where.name}" + (" (major wound)" if inj.major else "")
    return _done(summary, changes, state, data, tags=injury_tags(inj, before, hp))


# --- a fumble ---------------------------------------------------------------------------------


def _body_part(ctx: Any) -> str:
    where = ctx.params.get("location")
    if where:
        return str(where)
    return "skull" if ctx.params.get("unarmed_with") == "head" else "right-arm"


def apply_fumble(ctx: Any, effects: Sequence[Effect], on_target: bool) -> Applied:
    """What the last row of a miss chain does to the one who fumbled. ``on_target``: he is the
    target (his file changes); otherwise the outcome only says what befalls him."""
    state = ch.state_of(ctx) if on_target else None
    changes: list[str] = []
    eff = effects[-1]
    d = eff.data
    code = eff.code
    now = ch.clock(state)
    who = "" if on_target else "the attacker: "
    data: dict[str, Any] = {"result": eff.id}

    def status(s: dict[str, Any], line: str) -> None:
        ch.add_status(state, changes, s, who + line)

    if code == "weapon-breaks":
        status({"id": "weapon-broken", "text": "weapon broken", "duration": "permanent"}, "weapon broken")
    elif code == "drop-weapon":
        status({"id": "dropped-weapon", "text": "dropped his weapon", "ends_by": "ready"}, "drops the weapon")
    elif code == "weapon-flies":
        status({"id": "dropped-weapon", "text": f"weapon flew {d['yards']} yards {d['direction']}", "ends_by": "ready"},
               f"weapon flies {d['yards']} yards straight {d['direction']}; anyone there makes a DX roll or takes half its damage")
    elif code == "weapon-turns":
        status({"id": "weapon-unready", "text": "weapon must be readied", "ends_by": "ready"},
               "weapon turned in his hand: one Ready maneuver before using it")
    elif code == "lose-balance":
        status({"id": "lost-balance", "until": now + TURN_SECONDS * int(d["turns"]), "defense": int(d["defense_penalty"]),
                "text": "no actions; active defenses -2"}, "off balance: no actions until his next turn, defenses -2")
    elif code == "strain-shoulder":
        status({"id": "strained", "location": d["location"], "until": now + MINUTE * int(d["minutes"]),
                "text": "weapon arm strained: cannot attack or defend with it"},
               f"strained shoulder: weapon arm useless for {d['minutes']} minutes")
    elif code == "shield-unready":
        status({"id": "shield-unready", "text": "shield must be readied", "ends_by": "ready"}, "shield must be readied")
    elif code == "fall-down":
        _fall(ctx, state, changes, who, on_target, eff.table == "unarmed-miss" or bool(ctx.options["footing_on_every_fall"]))
    elif code == "hit-self":
        _self_blow(ctx, state, changes, who, on_target, d["location"], float(d["fraction"]), None, data)
    elif code == "knocked-out":
        every = MINUTE * int(d["check_minutes"])
        status({"id": "knocked-out", "check": {"roll": "ht", "every": every, "next": now + every, "modifier": 0},
                "text": "unconscious"}, f"knocked out: HT roll every {d['check_minutes']} minutes to wake")
    elif code == "strain":
        if d.get("flees"):
            status({"id": "fleeing", "until": now + TURN_SECONDS, "text": "flees (or cowers in surrender)"},
                   "loses its nerve: flees next turn, or cowers if cornered")
        elif ctx.params.get("unarmed_with") == "head" and not on_target:
            changes.append(f"{who}pulls a muscle: moderate pain for {d['pain_base']} minus HT minutes "
                           f"(at least {d['pain_min_minutes']})")
        elif ctx.params.get("unarmed_with") == "head":
            ht = ch.number(ctx, state, "ht", ch.default(ctx, "ht")) or ch.default(ctx, "ht")
            minutes = max(int(d["pain_min_minutes"]), int(d["pain_base"]) - ht)
            status({"id": "pulled-muscle", "until": now + MINUTE * minutes, "text": "moderate pain"},
                   f"pulled muscle: moderate pain for {minutes} minutes")
        else:
            part = _body_part(ctx)
            if on_target:
                plain_injury(ctx, state, changes, int(d["injury"]), part, eff.id)
            else:
                changes.append(f"{who}takes {d['injury']} HP of injury")
            status({"id": "strained", "location": part, "until": now + MINUTE * int(d["minutes"]),
                    "text": "strained: cannot attack or defend with it"},
                   f"strained {LOCATIONS[part].name}: useless for {d['minutes']} minutes")
    elif code == "hit-object":
        if d.get("natural_weapon_breaks"):
            status({"id": "broken-natural-weapon", "damage": int(d["natural_weapon_damage"]), "duration": "pending",
                    "text": "claws or teeth broken: -1 damage"}, "natural weapons broken: -1 damage until healed")
        else:
            _self_blow(ctx, state, changes, who, on_target, _body_part(ctx), float(d["fraction"]),
                       None if ctx.params.get("foe_impaling") else "cr", data)
    elif code == "stumble":
        status({"id": "facing-away", "until": now + TURN_SECONDS, "text": "one yard past the foe, back to him"},
               "stumbles one yard past his foe and ends facing away: the foe is behind him")
    elif code == "trip":
        if "dx_modifier" in d:
            changes.append(f"{who}owes a DX{int(d['dx_modifier']):+d} roll; on a failure he falls down" if d["dx_modifier"]
                           else f"{who}owes a DX roll; on a failure he falls down")
        else:
            changes.append(f"{who}keeps his feet")
    elif code == "drop-guard":
        status({"id": "guard-down", "until": now + TURN_SECONDS * int(d["turns"]), "defense": int(d["defense_penalty"]),
                "text": "defenses -2; Evaluate and Feint against him count double"},
               "guard down: defenses -2 next turn, Evaluate bonuses and Feint penalties against him doubled")
    elif code == "tear-muscle":
        part = "neck" if ctx.params.get("unarmed_with") == "head" else _body_part(ctx)
        amount = ctx.dice.roll(str(d["injury_dice"]), "torn muscle: injury").total
        if on_target:
            plain_injury(ctx, state, changes, amount, part, eff.id)
        else:
            changes.append(f"{who}takes {max(0, amount)} HP of injury to the {LOCATIONS[part].name}")
        high = ch.flag(ctx, state, "high_pain_threshold")
        penalty = int(d["penalty_high_pain_threshold"] if high else d["penalty"])
        status({"id": "off-balance", "until": now + TURN_SECONDS * int(d["turns"]), "penalty": int(d["off_balance_penalty"]),
                "text": "-1 to attacks and defenses"}, "off balance: -1 to attacks and defenses next turn")
        scope = "everything" if part == "neck" else f"anything using the {LOCATIONS[part].name}"
        status({"id": "torn-muscle", "location": part, "penalty": penalty, "heals": "full-hp",
                "text": f"{penalty} to {scope}"}, f"torn muscle: {penalty} to {scope} until healed")
    else:
        changes.append(f"{who}{eff.text}")
    summary = eff.text if on_target else f"the attacker's fumble: {eff.text}"
    return _done(summary, changes, state if on_target else None, data, tags=FUMBLE_TAGS.get(code, frozenset()))


def _fall(ctx: Any, state: dict[str, Any] | None, changes: list[str], who: str, on_target: bool,
          use_footing: bool) -> None:
    footing = (ctx.params.get("footing") or "standing") if use_footing else "standing"
    if footing == "cannot-fall":
        amount = max(0, ctx.dice.roll(RULES["fall"]["cannot_fall_injury"], "cannot fall: general injury").total)
        if on_target:
            plain_injury(ctx, state, changes, amount, "torso", "fall-down (cannot fall)")
        else:
            changes.append(f"{who}cannot fall: takes {amount} HP of general injury instead")
    elif footing in ("flying", "swimming"):
        f = RULES["fall"]
        ch.add_status(state, changes, {"id": "awkward-position", "attack": f["awkward_attack"], "defense": f["awkward_defense"],
                                       "ends_by": "stand", "text": f"awkward {footing} position"},
                      f"{who}tumbles into an awkward {footing} position: {f['awkward_attack']} to attack, "
                      f"{f['awkward_defense']} to defend until he recovers")
    else:
        ch.add_status(state, changes, {"id": "prone", "ends_by": "stand", "text": "lying on the ground"}, f"{who}falls down")


def _self_blow(ctx: Any, state: dict[str, Any] | None, changes: list[str], who: str, on_target: bool, part: str,
               fraction: float, force_type: str | None, data: dict[str, Any]) -> None:
    share = "half" if fraction < 1 else "full"
    where = LOCATIONS[part]
    damage = ctx.params.get("damage")
    if damage is None or not on_target:
        changes.append(f"{who}takes {share} damage ({'crushing, his own thrust' if force_type else 'his weapon'}) "
                       f"to the {where.name}")
        return
    spec = parse_damage(damage)
    if force_type and spec.dtype != force_type:
        from dataclasses import replace

        spec = replace(spec, dtype=force_type)
    inj = blow(ctx, state, changes, spec, where, NORMAL, "own blow", fraction)
    data.update(injury_data(inj))


# --- a failed spell ---------------------------------------------------------------------------


def apply_spell(ctx: Any, eff: Effect) -> Applied:
    state = ch.state_of(ctx)
    changes: list[str] = []
    d = eff.data
    now = ch.clock(state)
    if eff.code == "fail-injury":
        amount = int(d["injury"]) if "injury" in d else ctx.dice.roll(str(d["injury_dice"]), "spell failure: injury").total
        plain_injury(ctx, state, changes, amount, "torso", eff.id)
    elif eff.code == "stun":
        ch.add_status(state, changes, {"id": "stunned", "check": {"roll": str(d["stun_roll"]), "every": TURN_SECONDS,
                                                                  "next": now + TURN_SECONDS, "modifier": 0},
                                       "text": "stunned (mental): Do Nothing, defenses -4"},
                      "stunned: an IQ roll at the end of each turn to recover")
    elif eff.code == "forget-spell":
        spell = ctx.params.get("spell") or "the spell"
        every = WEEK * int(d["check_weeks"])
        ch.add_status(state, changes, {"id": "forgot-spell", "spell": spell, "check": {"roll": "iq", "every": WEEK,
                                                                                      "next": now + every, "modifier": 0},
                                       "text": f"has forgotten {spell}"},
                      f"forgets {spell}: an IQ roll after a week, then every week, to remember it")
    elif eff.code == "misdirected" and "harmful_lands_on" in d:
        key = "harmful_lands_on" if ctx.params.get("harmful") else "helpful_lands_on"
        changes.append(f"the {'harmful' if ctx.params.get('harmful') else 'helpful'} spell lands on {d[key]}")
    else:
        changes.append(eff.text)
    return _done(eff.text, changes, state)


def apply(ctx: Any, determination: Any, location: Any, effects: Sequence[Effect]) -> Applied | None:
    name = ctx.procedure.name
    kind = determination.kind if determination is not None else None
    if name == "attack":
        if kind == "critical-hit":
            return apply_blow(ctx, location, effects[-1])
        if kind == "hit":
            return apply_blow(ctx, location, None) if ctx.params["damage"] is not None else None
        if kind == "critical-miss":
            return apply_fumble(ctx, effects, False)
        return None
    if name == "defense":
        if kind == "critical-success":
            return apply_fumble(ctx, effects, False)
        if kind == "critical-failure":
            return apply_fumble(ctx, effects, True)
        return None
    if name == "spell":
        return apply_spell(ctx, effects[-1]) if kind == "critical-failure" else None
    if name in ("critical-hit", "head-blow"):
        return apply_blow(ctx, location, effects[-1])
    if name in ("critical-miss", "unarmed-miss"):
        return apply_fumble(ctx, effects, True)
    if name == "spell-failure":
        return apply_spell(ctx, effects[-1])
    return None

