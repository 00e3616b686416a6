"""The treat procedures: time passing, recovery rolls, knockdown rolls, the roll after the fight
for crippling injuries, and healing. Each one changes the character's statuses."""

from __future__ import annotations

from typing import Any

from critcore.plugin import ParamError, StateError
from critcore.plugin import Applied, freeze
from critcore.plugin import duration

from . import character as ch
from .reference import RULES, SECONDS, TURN_SECONDS, success_roll

MAX_ROLLS = 1000  # periodic rolls made by one `wait`, per status, before giving up
SUCCESS = ("success", "critical-success")
PENDING = ("crippled", "deafened", "broken-natural-weapon")


def _attribute(ctx: Any, state: dict[str, Any], roll: str) -> int:
    value = ch._int(state, roll, ch.default(ctx, "ht") if roll == "ht" else ch.DEFAULT_ATTRIBUTE)
    assert value is not None
    return value


def _check(ctx: Any, state: dict[str, Any], status: dict[str, Any], changes: list[str], extra: int = 0) -> bool:
    """One recovery roll for ``status``; True when it ends the status."""
    check = status["check"]
    roll = str(check.get("roll", "ht"))
    target = _attribute(ctx, state, roll) + int(check.get("modifier", 0)) + extra
    what = status.get("id")
    label = f"{roll.upper()} roll to recover from {what}" + (f" ({status['spell']})" if status.get("spell") else "")
    result, _ = success_roll(ctx.dice, target, label)
    if result in SUCCESS:
        changes.append(f"{what}: {roll.upper()} roll made, it ends")
        return True
    changes.append(f"{what}: {roll.upper()} roll failed, it goes on")
    return False


def wait(ctx: Any, state: dict[str, Any]) -> tuple[str, list[str]]:
    p = ctx.params
    step = sum(int(p[unit]) * SECONDS[unit] for unit in SECONDS)
    if step <= 0:
        raise ParamError("wait needs some time: --seconds, --minutes, --hours, --days or --weeks")
    start = ch.clock(state)
    end = start + step
    changes: list[str] = [f"game time {duration(start)} -> {duration(end)}"]
    ended = []
    for s in list(state["statuses"]):
        until = s.get("until")
        if isinstance(until, int) and until <= end:
            ended.append(s)
            changes.append(f"{s.get('id')} ({s.get('location', '')}) wears off".replace(" ()", ""))
            continue
        check = s.get("check")
        if isinstance(check, dict):
            n = 0
            while int(check["next"]) <= end and n < MAX_ROLLS:
                n += 1
                state["clock"] = int(check["next"])
                if _check(ctx, state, s, changes):
                    ended.append(s)
                    break
                check["next"] = int(check["next"]) + int(check["every"])
    ch.remove(state, ended)
    state["clock"] = end
    span = duration(step)
    return f"{span} {'passes' if span.startswith('1 ') and span.count(' ') == 1 else 'pass'}", changes


MANEUVERS = {"ready": "a Ready maneuver", "stand": "a Change Posture maneuver to get up"}


def recover(ctx: Any, state: dict[str, Any]) -> tuple[str, list[str]]:
    wanted = ctx.params["status"]
    status = ch.find_status(state, wanted)
    if status is None:
        have = sorted({str(s.get("id")) for s in state["statuses"]})
        raise ParamError(f"--status: the character has no status {wanted!r} (has: {', '.join(have) or 'none'})")
    changes: list[str] = []
    if isinstance(status.get("check"), dict):
        if _check(ctx, state, status, changes, int(ctx.params["modifier"])):
            ch.remove(state, [status])
        else:
            status["check"]["next"] = ch.clock(state) + int(status["check"]["every"])
        return f"recovery roll for {wanted}", changes
    ends_by = status.get("ends_by")
    if ends_by in MANEUVERS:
        ch.remove(state, [status])
        changes.append(f"{wanted} ends: he takes {MANEUVERS[ends_by]}")
        return f"{wanted} ends", changes
    if status.get("duration") == "pending":
        raise ParamError(f"--status: {wanted} is settled by the roll after the fight: crit treat gurps after-fight")
    if "until" in status:
        left = int(status["until"]) - ch.clock(state)
        raise ParamError(f"--status: {wanted} wears off by itself in {duration(max(0, left))}: crit treat gurps wait")
    raise ParamError(f"--status: {wanted} does not end by a roll or a maneuver")


def _is_knockdown(item: dict[str, Any]) -> bool:
    return bool(item.get("kind", "knockdown") == "knockdown")  # files saved before kinds existed: knockdown


def knockdown(ctx: Any, state: dict[str, Any]) -> tuple[str, list[str]]:
    owed = [o for o in state["owed_rolls"] if _is_knockdown(o)]
    if not owed:
        return "no knockdown rolls owed", ["nothing owed"]
    changes: list[str] = []
    ht = _attribute(ctx, state, "ht")
    hp = ch.hp_of(ctx, state)
    now = ch.clock(state)
    worst = "none"
    for item in [o for o in owed for _ in range(int(o.get("times", 1)))]:  # a roll owed N times: N rolls
        mod = int(item.get("modifier", 0))
        result, margin = success_roll(ctx.dice, ht + mod, f"HT{mod:+d} roll against knockdown and stunning ({item.get('why', '')})"
                                      if mod else f"HT roll against knockdown and stunning ({item.get('why', '')})")
        if result in SUCCESS:
            changes.append("stays on his feet")
            continue
        if result == "critical-failure" or -margin >= RULES["knockdown"]["unconscious_margin"]:
            worst = "unconscious"
        elif worst == "none":
            worst = "stunned"
    state["owed_rolls"] = [o for o in state["owed_rolls"] if not _is_knockdown(o)]
    if worst == "none":
        return "no knockdown", changes
    if not ch.find_status(state, "prone"):
        ch.add_status(state, changes, {"id": "prone", "ends_by": "stand", "text": "knocked down"}, "knocked down: prone")
    ch.add_status(state, changes, {"id": "dropped-held", "ends_by": "ready", "text": "dropped what he held"},
                  "drops what he held")
    if worst == "stunned":
        ch.add_status(state, changes, {"id": "stunned", "check": {"roll": "ht", "every": TURN_SECONDS,
                                                                  "next": now + TURN_SECONDS, "modifier": 0},
                                       "text": "stunned: Do Nothing, defenses -4"},
                      "stunned: Do Nothing, defenses -4; HT roll at the end of each turn to recover")
        return "knocked down and stunned", changes
    ch.add_status(state, changes, *unconscious(state, hp, "knocked out"))
    return "knocked out", changes


def unconscious(state: dict[str, Any], hp: int, how: str) -> tuple[dict[str, Any], str]:
    """The ``unconscious`` status for a character at his current HP, and its line: awake by
    himself with HP left, an HT roll each hour at 0 HP or below, one roll after 12 hours at -HP."""
    now = ch.clock(state)
    rules = RULES["unconscious"]
    current = ch.current_hp(state, hp)
    if current >= 1:
        status = {"id": "unconscious", "until": now + rules["wake_minutes_positive_hp"] * SECONDS["minutes"],
                  "text": "unconscious: wakes by himself"}
        line = f"{how}: wakes by himself in {rules['wake_minutes_positive_hp']} minutes"
    elif current > -hp:
        every = rules["roll_minutes_down"] * SECONDS["minutes"]
        status = {"id": "unconscious", "check": {"roll": "ht", "every": every, "next": now + every, "modifier": 0},
                  "text": "unconscious"}
        line = f"{how}: HT roll every {rules['roll_minutes_down']} minutes to wake"
    else:
        later = rules["roll_hours_deep"] * SECONDS["hours"]
        status = {"id": "unconscious", "check": {"roll": "ht", "every": 10**9, "next": now + later, "modifier": 0},
                  "text": "unconscious: one HT roll after 12 hours, then only medical help"}
        line = f"{how}: one HT roll after {rules['roll_hours_deep']} hours"
    return status, line


def survive(ctx: Any, state: dict[str, Any]) -> tuple[str, list[str]]:
    """The HT rolls low HP left owing: one to avoid death for each multiple of -HP reached (a
    failure kills), then this turn's roll to stay conscious at 0 HP or less (a failure: he falls
    unconscious; a success: he acts, and rolls again next turn while still at 0 HP or less)."""
    if ch.find_status(state, "dead"):
        return "dead", ["he is dead: no roll can help"]
    owed = [o for o in state["owed_rolls"] if o.get("kind") in ("death", "consciousness")]
    if not owed:
        return "no rolls owed for low HP", ["nothing owed"]
    ht = _attribute(ctx, state, "ht")
    hp = ch.hp_of(ctx, state)
    changes: list[str] = []
    keep = [o for o in state["owed_rolls"] if o not in owed]
    ordered = [o for o in owed if o["kind"] == "death"] + [o for o in owed if o["kind"] == "consciousness"]
    summary = "survives"
    for item in ordered:
        mod = int(item.get("modifier", 0))
        ht_text = f"HT{mod:+d}" if mod else "HT"
        if item["kind"] == "death":
            result, _ = success_roll(ctx.dice, ht + mod, f"{ht_text} roll to avoid death ({item.get('why', '')})")
            if result in SUCCESS:
                changes.append(f"{ht_text} roll to avoid death made ({item.get('why', '')}): still alive")
                continue
            state["owed_rolls"] = []  # the dead roll for nothing
            ch.add_status(state, changes, {"id": "dead", "duration": "permanent", "text": "dead"},
                          f"{ht_text} roll to avoid death failed ({item.get('why', '')}): dead")
            return "dead", changes
        if any(s.get("id") in ("unconscious", "knocked-out") for s in state["statuses"]):
            changes.append("already unconscious: no roll to stay conscious")
            continue
        result, _ = success_roll(ctx.dice, ht + mod, f"{ht_text} roll to stay conscious ({item.get('why', '')})")
        if result in SUCCESS:
            keep.append(item)
            changes.append(f"{ht_text} roll made: stays conscious this turn (rolls again next turn)")
            continue
        status, line = unconscious(state, hp, f"{ht_text} roll failed: falls unconscious")
        ch.add_status(state, changes, status, line)
        summary = "falls unconscious"
    state["owed_rolls"] = keep
    return summary, changes


def after_fight(ctx: Any, state: dict[str, Any]) -> tuple[str, list[str]]:
    changes: list[str] = []
    now = ch.clock(state)
    rules = RULES["crippling"]
    ht = _attribute(ctx, state, "ht")
    tl = ctx.params.get("physician_tl")
    relief = 0
    if tl is not None:
        for step in rules["physician_relief"]:
            if tl >= step["tl"]:
                relief = step["months"]
    pending = [s for s in state["statuses"] if s.get("duration") == "pending"]
    if not pending:
        return "nothing to roll for", ["no crippling injury awaits its roll"]
    for s in pending:
        what = f"{s.get('id')}" + (f" ({s['location']})" if s.get("location") else "")
        result, _ = success_roll(ctx.dice, ht, f"HT roll: how long {what} lasts")
        if result == "critical-failure":
            s["duration"] = "permanent"
            changes.append(f"{what}: permanent")
        elif result in SUCCESS:
            s["duration"] = "temporary"
            s["heals"] = "full-hp"
            changes.append(f"{what}: temporary, heals once HP are back to full")
        else:
            months = ctx.dice.roll(rules["lasting_months_dice"], f"months {what} lasts").total
            months = max(rules["least_months"], months - relief)
            s["duration"] = "lasting"
            s["until"] = now + months * int(ctx.options["month_days"]) * SECONDS["days"]
            changes.append(f"{what}: lasting, {months} month{'s' if months != 1 else ''}")
    _heal_if_full(state, ch.hp_of(ctx, state), changes)
    return "the roll after the fight", changes


def _heal_if_full(state: dict[str, Any], hp: int, changes: list[str]) -> None:
    if ch.current_hp(state, hp) < hp:
        return
    healed = [s for s in state["statuses"] if s.get("heals") == "full-hp"]
    for s in healed:
        changes.append(f"{s.get('id')} ({s.get('location', '')}) heals".replace(" ()", ""))
    ch.remove(state, healed)


def heal(ctx: Any, state: dict[str, Any]) -> tuple[str, list[str]]:
    hp = ch._int(state, "hp", ch.default(ctx, "hp")) or ch.default(ctx, "hp")
    before = ch.current_hp(state, hp)
    after = min(hp, before + int(ctx.params["hp"]))
    state["current_hp"] = after
    changes = [f"HP {before} -> {after}"]
    if after > 0 and any(o.get("kind") == "consciousness" for o in state["owed_rolls"]):
        state["owed_rolls"] = [o for o in state["owed_rolls"] if o.get("kind") != "consciousness"]
        changes.append("above 0 HP: no more rolls to stay conscious")
    _heal_if_full(state, hp, changes)
    return f"{after - before} HP restored", changes


PROCEDURES = {"wait": wait, "recover": recover, "knockdown": knockdown, "after-fight": after_fight, "heal": heal,
              "survive": survive}


def treat(ctx: Any) -> Applied | None:
    fn = PROCEDURES.get(ctx.procedure.name)
    if fn is None:
        return None
    state = ch.state_of(ctx)
    if state is None:
        raise StateError(f"gurps {ctx.procedure.name} needs a character (--target FILE)")
    summary, changes = fn(ctx, state)
    return Applied(summary, tuple(changes), freeze(state))
