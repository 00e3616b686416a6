"""Healing: ``heal-magic`` (spell successes erase boxes), ``heal-natural`` (a Critical heals by
itself over weeks) and ``advance`` (time passes: deaths and finished healing)."""

from __future__ import annotations

import re
from dataclasses import replace
from math import ceil
from typing import TYPE_CHECKING

from critcore.plugin import ParamError, StateError
from critcore.plugin import Applied, Data

from .character import Character, Critical, alive, read_character
from .monitors import level_name, modifiers, pass_time, penalty, set_boxes
from .words import clock_text, successes_text

if TYPE_CHECKING:
    from critcore.plugin import Context

_ITEM = re.compile(r"^\s*(physical|#?\d+)\s*[=:]\s*(-?\d+)\s*$", re.IGNORECASE)


def parse_allocation(text: str, char: Character, successes: int) -> dict[str, int]:
    """``physical=3,1=6,2=1`` -> {"physical": 3, "1": 6, "2": 1}, checked against the character."""
    out: dict[str, int] = {}
    for item in filter(str.strip, text.split(",")):
        if item.strip().lower().startswith("stun"):
            raise ParamError("--allocate: healing magic cannot touch the Stun track")
        m = _ITEM.match(item)
        if not m:
            raise ParamError(f"--allocate: cannot read {item.strip()!r} (expected e.g. physical=3,1=6,2=1)")
        key = m[1].lower().lstrip("#")
        key = key if key == "physical" else str(int(key))
        n = int(m[2])
        if n < 0:
            raise ParamError(f"--allocate: {key}={n}: successes cannot be negative")
        if key in out:
            raise ParamError(f"--allocate: {key} is named twice")
        out[key] = n
    if not out:
        raise ParamError("--allocate: nothing allocated (expected e.g. physical=3,1=6,2=1)")
    total = sum(out.values())
    if total > successes:
        raise ParamError(f"--allocate: {total} successes allocated but the spell has only {successes}")
    for key, n in out.items():
        if key == "physical":
            if n > char.physical:
                raise ParamError(f"--allocate: physical={n} but the Physical track has only {char.physical} boxes")
            continue
        crit = char.critical(int(key), "heal")
        if not crit.diagnosed:
            raise StateError(f"--allocate: critical #{crit.id} has not been diagnosed, so the healer does not know "
                             "of it (use --split even or --split physical)")
        if n > crit.boxes:
            raise ParamError(f"--allocate: {key}={n} but critical #{crit.id} has only {crit.boxes} boxes")
    return out


def even_split(char: Character, successes: int) -> dict[str, int]:
    """Evenly between the physical wound and every critical; the remainder to the physical wound."""
    parts = 1 + len(char.criticals)
    share, rest = divmod(successes, parts)
    out = {"physical": share + rest}
    out.update({str(c.id): share for c in char.criticals})
    return out


def heal_magic(ctx: Context) -> Applied:
    char = alive(read_character(ctx.target))
    successes = ctx.params["successes"]
    if successes < 0:
        raise ParamError(f"--successes: {successes} is not a number of successes (0 or more)")
    allocate, split = ctx.params["allocate"], ctx.params["split"]
    if allocate and split:
        raise ParamError("heal-magic: give --allocate (the healer knows) or --split (he does not), not both")
    if allocate:
        plan = parse_allocation(allocate, char, successes)
    elif split == "even":
        plan = even_split(char, successes)
    elif split == "physical":
        plan = {"physical": successes}
    elif split:
        raise ParamError(f"--split: {split!r} is not a way to split (even or physical)")
    else:
        raise ParamError("heal-magic needs --allocate physical=N,1=N,... (the healer knows of the criticals) "
                         "or --split even|physical (he does not)")
    tables = ctx.tables
    gm: list[str] = ["plan: " + ", ".join(f"{'critical #' + k if k != 'physical' else k} {v}"
                                          for k, v in plan.items())]
    player: list[str] = []
    used = 0
    n = plan.get("physical", 0)
    healed_phys = min(n, char.physical)
    used += healed_phys
    if n:
        after = char.physical - healed_phys
        gm.append(f"Physical {char.physical} -> {after} boxes ({level_name(tables, after)})")
        player.append(gm[-1])
        char = replace(char, physical=after)
    gone: set[int] = set()
    for crit in char.criticals:
        n = plan.get(str(crit.id), 0)
        if not n:
            continue
        healed = min(n, crit.boxes)
        used += healed
        new = set_boxes(tables, crit, crit.boxes - healed)
        if new is None:
            gone.add(crit.id)
            gm.append(f"critical {crit.label}: {crit.boxes} -> 0 boxes: healed completely")
            if crit.diagnosed:
                player.append(f"the {crit.part} ({crit.location_name}) is healed")
            continue
        new = replace(new, treatment="magic")
        char = char.with_critical(new)
        line = f"critical {crit.label}: {crit.boxes} -> {new.boxes} boxes ({level_name(tables, new.boxes)}, " \
               f"+{penalty(tables, new.boxes)})"
        if new.lethality != crit.lethality:
            line += f"; {crit.lethality.capitalize()} -> {new.lethality.capitalize()}"
            if crit.lethality == "mortal":
                line += "; the death clock stops"
            if crit.crippled and not new.crippled:
                line += f"; the {crit.part} is no longer crippled"
        gm.append(line)
        if crit.diagnosed:
            player.append(f"the {crit.part} ({crit.location_name}) is better")
    char = char.without(gone)
    unallocated = successes - sum(plan.values())
    lost = sum(plan.values()) - used
    if unallocated:
        gm.append(f"{unallocated} success(es) not allocated: unused")
    if lost:
        gm.append(f"{lost} success(es) found no box left to erase: lost")
    if not player:
        player.append("the spell does nothing the character can feel")
    gm.append(modifiers(tables, char).text())
    summary = f"healing magic: {used} of {successes} successes erased boxes"
    return Applied(summary, tuple(gm), Data(char.to_dict()), data=Data(player=tuple(player), used=used))


# --- natural healing ----------------------------------------------------------------------

TREATMENT_ROW = {"none": "untreated", "improper": "improperly-treated", "proper": None}
STATE_TREATMENT = {"none": "none", "medic-failed": "improper", "medic": "proper", "magic": "proper"}


def _healing_candidate(char: Character, number: int | None) -> Critical:
    if number is None:
        candidates = [c for c in char.criticals if c.lethality == "critical" and c.heals_at is None]
        if len(candidates) == 1:
            return candidates[0]
    crit = char.critical(number, "heal")
    if crit.lethality != "critical":
        raise StateError(f"critical #{crit.id} is {crit.lethality.capitalize()}: only a critical of Critical "
                         "lethality heals by itself")
    if crit.heals_at is not None:
        raise StateError(f"critical #{crit.id} is already healing (done at clock {clock_text(crit.heals_at)})")
    return crit


def heal_natural(ctx: Context) -> Applied:
    char = alive(read_character(ctx.target))
    crit = _healing_candidate(char, ctx.params["critical"])
    treated = ctx.params["treatment"] or STATE_TREATMENT[crit.treatment]
    if treated not in TREATMENT_ROW:
        raise ParamError(f"--treatment: {treated!r} is not one of none, improper, proper")
    table = ctx.tables["natural-healing"]
    base = table.row("base").data
    tn = int(base["base_tn"])
    why = [f"base {tn}"]
    rows = [] if ctx.params["hospital"] else ["not-in-hospital"]
    if TREATMENT_ROW[treated]:
        rows.append(str(TREATMENT_ROW[treated]))
    for rid in rows:
        mod = int(table.row(rid).data["modifier"])
        tn += mod
        why.append(f"{rid} {mod:+d}")
    body_table = ctx.tables["natural-healing-body"]
    body = min(char.body, body_table.high)
    if body == 12 and ctx.options["body_12_healing"] == "12+":
        body = 13
    body_row = body_table.lookup(body)
    mod = int(body_row.data["modifier"])
    tn += mod
    why.append(f"Body {char.body} {mod:+d}")
    roll = ctx.dice.test(char.body, tn, f"Body to heal critical #{crit.id} (TN {tn})")
    gm = [f"natural healing of {crit.label}: TN {tn} ({', '.join(why)}), {successes_text(roll.total)}"]
    if not roll.total:
        gm.append("no success: it does not mend this time (the GM may call for a new test later)")
        player = [f"the {crit.part} is not mending" if crit.diagnosed else "the character is slow to recover"]
        return Applied("natural healing: no progress", tuple(gm), Data(char.to_dict()),
                       data=Data(player=tuple(player), seconds=0))
    seconds = ceil(int(base["base_weeks"]) * 7 * 86400 / roll.total)
    done = char.clock + seconds
    char = char.with_critical(replace(crit, heals_at=done))
    gm.append(f"heals in {clock_text(seconds)} ({base['base_weeks']} weeks / {roll.total}), at clock "
              f"{clock_text(done)}; its +{penalty(ctx.tables, crit.boxes)} "
              "lasts until then (advance the clock)")
    player = [f"the {crit.part} ({crit.location_name}) will mend in {clock_text(seconds)}" if crit.diagnosed
              else "the character is recovering"]
    return Applied(f"natural healing: {clock_text(seconds)}", tuple(gm), Data(char.to_dict()),
                   data=Data(player=tuple(player), seconds=seconds))


def advance(ctx: Context) -> Applied:
    char = read_character(ctx.target)
    units = {"minutes": 60, "hours": 3600, "days": 86400, "weeks": 604800}
    total = 0.0
    for name, size in units.items():
        value = ctx.params[name]
        if value < 0:
            raise ParamError(f"--{name}: time only runs forward ({value} is negative)")
        total += value * size
    seconds = int(round(total))
    if char.dead:
        char = replace(char, clock=char.clock + seconds)
        return Applied(f"{clock_text(seconds)} pass; the character is dead", (), Data(char.to_dict()),
                       data=Data(player=(f"{clock_text(seconds)} pass",), dead=True))
    passage = pass_time(ctx.tables, char, seconds)
    summary = f"{clock_text(seconds)} pass (clock {clock_text(passage.char.clock)})"
    if passage.char.dead:
        summary += f"; the character DIES at clock {clock_text(passage.char.died_at or 0)}"
    player = (f"{clock_text(seconds)} pass",) + passage.player
    return Applied(summary, passage.gm, Data(passage.char.to_dict()),
                   data=Data(player=player, dead=passage.char.dead))
