"""The apply stage: what the rows the effect stage chose do to a character."""

from __future__ import annotations

from typing import Any, Callable, Sequence

from critcore.plugin import Applied, Data, Effect, freeze

from . import character as ch
from .collapse import kills
from .determine import damage_of, rule_at
from .events import FUMBLE_TAGS, injury_tags
from .injury import blow, injury_data, plain_injury
from .reference import LOCATIONS, RULES, SECONDS, TURN_SECONDS, met_by

MINUTE = SECONDS["minutes"]
WEEK = SECONDS["weeks"]
NORMAL: dict[str, Any] = {}
NO_TAGS: frozenset[str] = frozenset()


def _done(summary: str, changes: list[str], state: dict[str, Any] | None, data: dict[str, Any] | None = None,
          effects: Sequence[Effect] = (), tags: frozenset[str] = frozenset()) -> Applied:
    if state is not None and (state["owed_rolls"] or ch.find_status(state, "dead")):
        data = dict(data or {})
        data["owed_rolls"] = [dict(o) for o in state["owed_rolls"]]  # what `crit treat gurps` must settle now
        data["dead"] = ch.find_status(state, "dead") is not None
    # every field by position: a keyword argument cost a fifth of making the Applied (38 an attack's odds)
    return Applied(summary, tuple(changes), None if state is None else freeze(state), tuple(effects), Data(data or {}),
                   tags)


# --- a blow that lands ------------------------------------------------------------------------


def apply_blow(ctx: Any, location: Any, effect: Effect | None) -> Applied | None:
    """Injury from a hit or critical hit, and the row's other consequences."""
    state = ch.state_of(ctx)
    changes: list[str] = []
    row = effect.data if effect is not None else NORMAL
    spec = damage_of(ctx)
    dtype = spec.dtype if spec is not None else None
    where = met_by(rule_at(ctx, location.id), dtype)
    if effect is not None and effect.code == "eye-hit" and where.id != "eye":
        changes.append(f"the blow meant for the {where.name} strikes an eye")
        where = met_by(rule_at(ctx, row["redirect_location"]), dtype)
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
    if spec is None:
        if row.get("major_if_penetrates") or row.get("funny_bone") or row.get("deafen_if"):
            changes.append("with --damage the injury would be worked out (this row acts on any injury that gets through)")
        summary = effect.text if effect is not None else "a hit"
        return _done(summary, changes, state, data)
    hp = ch.hp_of(ctx, state)
    before = hp if state is None else ch.current_hp(state, hp)
    inj = blow(ctx, state, changes, spec, where, row, effect.id if effect is not None else "hit", hp=hp)
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
    killed = (ch.find_status(state, "dead") is not None if state is not None
              else inj.injury > 0 and kills(before, before - inj.injury, hp))
    return _done(summary, changes, state, data, (), injury_tags(inj, before, hp, killed))


# --- a fumble ---------------------------------------------------------------------------------


def _body_part(ctx: Any) -> str:
    """The fumbler's own limb (or head) that strikes: ``unarmed-miss`` names it by ``--location``;
    on ``attack`` that option is where he aimed on his foe, so the default limb is his."""
    where = ctx.params.get("location") if ctx.procedure.name == "unarmed-miss" else None
    if where:
        return str(where)
    return "skull" if ctx.params.get("unarmed_with") == "head" else "right-arm"


class Fumble:
    """What a fumble handler works on: the row's effect and numbers, the fumbler's state (None when
    he is not the target: the outcome then only says what befalls him) and the lines said."""

    __slots__ = ("ctx", "eff", "d", "on_target", "state", "changes", "now", "who", "data")

    def __init__(self, ctx: Any, eff: Effect, on_target: bool) -> None:
        self.ctx = ctx
        self.eff = eff
        self.d = eff.data
        self.on_target = on_target
        self.state = state = ch.state_of(ctx) if on_target else None
        self.changes: list[str] = []
        self.now = 0 if state is None else ch.clock(state)  # clock(None) is 0
        self.who = "" if on_target else "the attacker: "
        self.data: dict[str, Any] = {"result": eff.id}

    def status(self, status: dict[str, Any], line: str) -> None:
        ch.add_status(self.state, self.changes, status, self.who + line)

    def say(self, line: str) -> None:
        self.changes.append(self.who + line)

    def after_turns(self, key: str) -> int:
        """The clock after the row's ``key`` turns."""
        return int(self.now + TURN_SECONDS * int(self.d[key]))

    def after_minutes(self, key: str) -> int:
        return int(self.now + MINUTE * int(self.d[key]))


def _one(n: int, noun: str) -> str:
    return f"one {noun}" if n == 1 else f"{n} {noun}s"


def _for_turns(turns: int, one: str = "next turn") -> str:
    """How long something lasts, in words: ``one`` for a single turn, else "for N turns"."""
    return one if turns == 1 else f"for {turns} turns"


def _weapon_breaks(f: Fumble) -> None:
    f.status({"id": "weapon-broken", "text": "weapon broken", "duration": "permanent"}, "weapon broken")


def _drop_weapon(f: Fumble) -> None:
    f.status({"id": "dropped-weapon", "text": "dropped his weapon", "ends_by": "ready"}, "drops the weapon")


def _weapon_flies(f: Fumble) -> None:
    yards, direction = f.d["yards"], f.d["direction"]
    share = "half" if float(f.d.get("bystander_fraction", 0.5)) == 0.5 else f"{float(f.d['bystander_fraction']):g} of"
    f.status({"id": "dropped-weapon", "text": f"weapon flew {yards} yards {direction}", "ends_by": "ready"},
             f"weapon flies {yards} yards straight {direction}; anyone there makes a DX roll or takes {share} its damage")


def _weapon_turns(f: Fumble) -> None:
    readies = _one(int(f.d["ready_maneuvers"]), "Ready maneuver")
    f.status({"id": "weapon-unready", "text": "weapon must be readied", "ends_by": "ready"},
             f"weapon turned in his hand: {readies} before using it")


def _lose_balance(f: Fumble) -> None:
    penalty = int(f.d["defense_penalty"])
    f.status({"id": "lost-balance", "until": f.after_turns("turns"), "defense": penalty,
              "text": f"no actions; active defenses {penalty}"},
             f"off balance: no actions {_for_turns(int(f.d['turns']), 'until his next turn')}, defenses {penalty}")


def _strain_shoulder(f: Fumble) -> None:
    f.status({"id": "strained", "location": f.d["location"], "until": f.after_minutes("minutes"),
              "text": "weapon arm strained: cannot attack or defend with it"},
             f"strained shoulder: weapon arm useless for {f.d['minutes']} minutes")


def _shield_unready(f: Fumble) -> None:
    f.status({"id": "shield-unready", "text": "shield must be readied", "ends_by": "ready"}, "shield must be readied")


def _fall_down(f: Fumble) -> None:
    footing = f.eff.table == "unarmed-miss" or bool(f.ctx.options["footing_on_every_fall"])
    _fall(f.ctx, f.state, f.changes, f.who, f.on_target, footing)


def _hit_self(f: Fumble) -> None:
    _self_blow(f.ctx, f.state, f.changes, f.who, f.on_target, f.d["location"], float(f.d["fraction"]), None, f.data)


def _knocked_out(f: Fumble) -> None:
    every = MINUTE * int(f.d["check_minutes"])
    f.status({"id": "knocked-out", "check": {"roll": "ht", "every": every, "next": f.now + every, "modifier": 0},
              "text": "unconscious"}, f"knocked out: HT roll every {f.d['check_minutes']} minutes to wake")


def _strain(f: Fumble) -> None:
    """A strained limb; a pulled muscle for a bite or butt; an animal of low IQ flees instead."""
    ctx, d = f.ctx, f.d
    if d.get("flees"):
        f.status({"id": "fleeing", "until": f.after_turns("flee_turns"), "text": "flees (or cowers in surrender)"},
                 f"loses its nerve: flees {_for_turns(int(d['flee_turns']))}"
                 ", or cowers if cornered")
    elif ctx.params.get("unarmed_with") == "head" and not f.on_target:
        f.say(f"pulls a muscle: moderate pain for {d['pain_base']} minus HT minutes (at least {d['pain_min_minutes']})")
    elif ctx.params.get("unarmed_with") == "head":
        ht = ch.number(ctx, f.state, "ht", ch.default(ctx, "ht")) or ch.default(ctx, "ht")
        minutes = max(int(d["pain_min_minutes"]), int(d["pain_base"]) - ht)
        f.status({"id": "pulled-muscle", "until": f.now + MINUTE * minutes, "text": "moderate pain"},
                 f"pulled muscle: moderate pain for {minutes} minutes")
    else:
        part = _body_part(ctx)
        if f.on_target:
            plain_injury(ctx, f.state, f.changes, int(d["injury"]), part, f.eff.id)
        else:
            f.say(f"takes {d['injury']} HP of injury")
        f.status({"id": "strained", "location": part, "until": f.after_minutes("minutes"),
                  "text": "strained: cannot attack or defend with it"},
                 f"strained {LOCATIONS[part].name}: useless for {d['minutes']} minutes")


def _hit_object(f: Fumble) -> None:
    """Strikes something solid (or falls on a ready impaling weapon); natural weapons may break."""
    if f.d.get("natural_weapon_breaks"):
        damage = int(f.d["natural_weapon_damage"])
        f.status({"id": "broken-natural-weapon", "damage": damage, "duration": "pending",
                  "text": f"claws or teeth broken: {damage} damage"},
                 f"natural weapons broken: {damage} damage until healed")
    else:
        _self_blow(f.ctx, f.state, f.changes, f.who, f.on_target, _body_part(f.ctx), float(f.d["fraction"]),
                   None if f.ctx.params.get("foe_impaling") else "cr", f.data)


def _stumble(f: Fumble) -> None:
    yards = _one(int(f.d["advance_yards"]), "yard")
    f.status({"id": "facing-away", "until": f.after_turns("turns"), "text": f"{yards} past the foe, back to him"},
             f"stumbles {yards} past his foe and ends facing away: the foe is behind him")


def _trip(f: Fumble) -> None:
    if "dx_modifier" not in f.d:
        f.say("keeps his feet")
    elif f.d["dx_modifier"]:
        f.say(f"owes a DX{int(f.d['dx_modifier']):+d} roll; on a failure he falls down")
    else:
        f.say("owes a DX roll; on a failure he falls down")


def _times(n: int) -> str:
    return {2: "double", 3: "triple"}.get(n, f"{n} times over")


def _multiplied(n: int) -> str:
    return {2: "doubled", 3: "tripled"}.get(n, f"multiplied by {n}")


def _drop_guard(f: Fumble) -> None:
    penalty, factor = int(f.d["defense_penalty"]), int(f.d["evaluate_feint_factor"])
    when = _for_turns(int(f.d["turns"]))
    f.status({"id": "guard-down", "until": f.after_turns("turns"), "defense": penalty,
              "text": f"defenses {penalty}; Evaluate and Feint against him count {_times(factor)}"},
             f"guard down: defenses {penalty} {when}, Evaluate bonuses and Feint penalties against him "
             f"{_multiplied(factor)}")


def _tear_muscle(f: Fumble) -> None:
    """1d-3 injury to the limb used (the neck for a bite or butt), off balance, and a lasting penalty."""
    ctx, d = f.ctx, f.d
    part = "neck" if ctx.params.get("unarmed_with") == "head" else _body_part(ctx)
    amount = ctx.dice.roll(str(d["injury_dice"]), "torn muscle: injury").total
    if f.on_target:
        plain_injury(ctx, f.state, f.changes, amount, part, f.eff.id)
    else:
        f.say(f"takes {max(0, amount)} HP of injury to the {LOCATIONS[part].name}")
    high = ch.flag(ctx, f.state, "high_pain_threshold")
    penalty = int(d["penalty_high_pain_threshold"] if high else d["penalty"])
    shaken = int(d["off_balance_penalty"])
    when = _for_turns(int(d["turns"]))
    f.status({"id": "off-balance", "until": f.after_turns("turns"), "penalty": shaken,
              "text": f"{shaken} to attacks and defenses"}, f"off balance: {shaken} to attacks and defenses {when}")
    scope = "everything" if part == "neck" else f"anything using the {LOCATIONS[part].name}"
    f.status({"id": "torn-muscle", "location": part, "penalty": penalty, "heals": "full-hp",
              "text": f"{penalty} to {scope}"}, f"torn muscle: {penalty} to {scope} until healed")


# what each effect code of the critical-miss and unarmed-miss tables does to the fumbler; a code
# not here (a house rule's own) is told in the row's words
FUMBLES: dict[str, Callable[[Fumble], None]] = {
    "weapon-breaks": _weapon_breaks,
    "drop-weapon": _drop_weapon,
    "weapon-flies": _weapon_flies,
    "weapon-turns": _weapon_turns,
    "lose-balance": _lose_balance,
    "strain-shoulder": _strain_shoulder,
    "shield-unready": _shield_unready,
    "fall-down": _fall_down,
    "hit-self": _hit_self,
    "knocked-out": _knocked_out,
    "strain": _strain,
    "hit-object": _hit_object,
    "stumble": _stumble,
    "trip": _trip,
    "drop-guard": _drop_guard,
    "tear-muscle": _tear_muscle,
}


def apply_fumble(ctx: Any, effects: Sequence[Effect], on_target: bool) -> Applied:
    """What the last row of a miss chain does to the one who fumbled. ``on_target``: he is the
    target (his file changes); otherwise the outcome only says what befalls him."""
    eff = effects[-1]
    f = Fumble(ctx, eff, on_target)
    handler = FUMBLES.get(eff.code)
    if handler is None:
        f.say(eff.text)
    else:
        handler(f)
    summary = eff.text if on_target else f"the attacker's fumble: {eff.text}"
    return _done(summary, f.changes, f.state if on_target else None, f.data, (), FUMBLE_TAGS.get(eff.code, NO_TAGS))


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
    spec = damage_of(ctx)
    if spec is None or not on_target:
        changes.append(f"{who}takes {share} damage ({'crushing, his own thrust' if force_type else 'his weapon'}) "
                       f"to the {where.name}")
        return
    if force_type and spec.dtype != force_type:
        from dataclasses import replace

        spec = replace(spec, dtype=force_type)
    where = met_by(where, spec.dtype)
    inj = blow(ctx, state, changes, spec, where, NORMAL, "own blow", fraction)
    data.update(injury_data(inj))


# --- a failed spell ---------------------------------------------------------------------------


def _spell_injury(f: Fumble) -> None:
    d = f.d
    amount = int(d["injury"]) if "injury" in d else f.ctx.dice.roll(str(d["injury_dice"]), "spell failure: injury").total
    plain_injury(f.ctx, f.state, f.changes, amount, "torso", f.eff.id)


def _stun(f: Fumble) -> None:
    every = TURN_SECONDS * int(f.d["check_turns"])
    f.status({"id": "stunned", "check": {"roll": str(f.d["stun_roll"]), "every": every, "next": f.now + every,
                                         "modifier": 0},
              "text": f"stunned (mental): Do Nothing, defenses {int(f.d['defense_penalty'])}"},
             f"stunned: an {str(f.d['stun_roll']).upper()} roll at the end of each turn to recover"
             if int(f.d["check_turns"]) == 1 else
             f"stunned: an {str(f.d['stun_roll']).upper()} roll every {f.d['check_turns']} turns to recover")


def _forget_spell(f: Fumble) -> None:
    spell = f.ctx.params.get("spell") or "the spell"
    weeks = int(f.d["check_weeks"])
    f.status({"id": "forgot-spell", "spell": spell, "check": {"roll": "iq", "every": WEEK, "next": f.now + WEEK * weeks,
                                                              "modifier": 0},
              "text": f"has forgotten {spell}"},
             f"forgets {spell}: an IQ roll after {'a week' if weeks == 1 else f'{weeks} weeks'}, then every week, "
             "to remember it")


def _misdirected(f: Fumble) -> None:
    if "harmful_lands_on" not in f.d:
        f.say(f.eff.text)
        return
    harmful = bool(f.ctx.params.get("harmful"))
    where = f.d["harmful_lands_on" if harmful else "helpful_lands_on"]
    f.say(f"the {'harmful' if harmful else 'helpful'} spell lands on {where}")


# what each effect code of the spell-failure table does to the caster; the others are told in the
# row's words
SPELL_FAILURES: dict[str, Callable[[Fumble], None]] = {
    "fail-injury": _spell_injury,
    "stun": _stun,
    "forget-spell": _forget_spell,
    "misdirected": _misdirected,
}


def apply_spell(ctx: Any, eff: Effect) -> Applied:
    """What a critically failed spell (the spell-failure row ``eff``) does to the caster."""
    f = Fumble(ctx, eff, True)
    handler = SPELL_FAILURES.get(eff.code)
    if handler is None:
        f.say(eff.text)
    else:
        handler(f)
    return _done(eff.text, f.changes, f.state)


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

