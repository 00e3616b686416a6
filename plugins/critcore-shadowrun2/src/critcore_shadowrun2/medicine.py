"""Treatment by a medic: ``diagnose`` (find a critical) and ``medic`` (treat a diagnosed one)."""

from __future__ import annotations

from dataclasses import replace
from math import ceil
from typing import TYPE_CHECKING

from critcore.plugin import ParamError, StateError
from critcore.plugin import Applied, Data

from .character import Character, Critical, alive, read_character
from .monitors import level_name, modifiers, pass_time, penalty
from .words import clock_text, successes_text

if TYPE_CHECKING:
    from critcore.plugin import Context

CAUSE_WORDS = {"IB": "internal bleeding", "brain": "a brain injury", "heart": "heart damage",
               "suffo": "trouble breathing", "art": "a cut artery"}
RETRY_SECONDS = 60  # a watching medic may try again to find a critical every minute
NOTHING_FOUND = "the medic finds nothing beyond the visible wound"


def dice_param(ctx: Context, name: str) -> int:
    value = ctx.params[name]
    if value < 1:
        raise ParamError(f"--{name}: {value} dice cannot make a test (1 or more; when defaulting, "
                         "give the dice you default to and the penalty as --modifier)")
    return int(value)


def found_line(crit: Critical) -> str:
    """What the medic (and so the player) learns about a diagnosed critical."""
    return f"the medic finds {CAUSE_WORDS.get(crit.cause, crit.cause)}: the {crit.part} ({crit.location_name})"


def diagnose(ctx: Context) -> Applied:
    char = alive(read_character(ctx.target))
    dice = dice_param(ctx, "biotech")
    tn_mod = ctx.params["modifier"] - (2 if ctx.params["assensing"] else 0)
    number = ctx.params["critical"]
    if number is not None:
        chosen = [char.critical(number, "diagnose")]
    else:
        chosen = [c for c in char.criticals if not c.diagnosed]
    gm: list[str] = []
    player: list[str] = []
    found = 0
    for crit in chosen:
        if crit.diagnosed:
            gm.append(f"critical {crit.label} is already diagnosed")
            player.append(found_line(crit))
            continue
        if crit.auto_if_open and crit.open_wound:
            gm.append(f"critical {crit.label}: found on sight (open wound, TN {crit.diagnosis_tn}*)")
        else:
            if crit.diagnose_retry_at is not None and char.clock < crit.diagnose_retry_at:
                gm.append(f"critical {crit.label}: too soon to look again (next try at clock "
                          f"{clock_text(crit.diagnose_retry_at)}, one minute after the last)")
                continue
            tn = crit.diagnosis_tn + tn_mod
            roll = ctx.dice.test(dice, tn, f"Biotech to diagnose critical #{crit.id} (TN {tn})")
            if not roll.total:
                retry = char.clock + RETRY_SECONDS
                char = char.with_critical(replace(crit, diagnose_retry_at=retry))
                gm.append(f"critical {crit.label}: not found (TN {tn}, no success); a watching medic may "
                          f"try again at clock {clock_text(retry)}")
                continue
            gm.append(f"critical {crit.label}: found (TN {tn}, {successes_text(roll.total)})")
        char = char.with_critical(replace(crit, diagnosed=True, diagnose_retry_at=None))
        player.append(found_line(crit))
        found += 1
    if not chosen:
        gm.append("no undiagnosed critical: there is nothing more to find")
    if not player:
        player.append(NOTHING_FOUND)
    summary = f"diagnosis: {found} critical(s) found" if found else "diagnosis: nothing new found"
    return Applied(summary, tuple(gm), Data(char.to_dict()), data=Data(player=tuple(player), found=found))


def _chart(ctx: Context, crit: Critical) -> tuple[int, int]:
    """(TN, base minutes) of the medic chart for this critical, options first."""
    row = ctx.tables["medic-chart"].row(crit.lethality)
    tn = ctx.options[f"medic_tn_{crit.lethality}"]
    minutes = ctx.options[f"medic_minutes_{crit.lethality}"]
    tn = int(row.data["tn"]) if tn is None else int(tn)
    minutes = int(row.data["base_minutes"]) if minutes is None else int(minutes)
    if minutes < 0:
        raise ParamError(f"option medic_minutes_{crit.lethality}: {minutes} minutes is not a time")
    return tn, minutes


def _treatable(char: Character, number: int | None) -> Critical:
    if number is None:
        open_ones = [c for c in char.criticals if c.diagnosed and c.lethality != "crippling"
                     and c.treatment != "medic"]
        if len(open_ones) == 1:
            return open_ones[0]
    crit = char.critical(number, "treat")
    if not crit.diagnosed:
        raise StateError(f"critical #{crit.id} has not been diagnosed: a medic cannot treat what he has not "
                         "found (run diagnose first)")
    if crit.lethality == "crippling":
        raise StateError(f"critical #{crit.id} is Crippling: no medic can treat it (cyberware, a replacement "
                         "or healing magic only)")
    if crit.treatment == "medic":
        raise StateError(f"critical #{crit.id} has already been treated by a medic")
    return crit


def medic(ctx: Context) -> Applied:
    char = alive(read_character(ctx.target))
    dice = dice_param(ctx, "biotech")
    crit = _treatable(char, ctx.params["critical"])
    tn, minutes = _chart(ctx, crit)
    tn += ctx.params["modifier"]
    roll = ctx.dice.test(dice, tn, f"Biotech to treat critical #{crit.id} (TN {tn})")
    ok = roll.total > 0
    seconds = ceil(minutes * 60 / roll.total) if ok else minutes * 60
    gm = [f"treatment of {crit.label}: TN {tn}, {successes_text(roll.total)}, takes {clock_text(seconds)}"
          + ("" if ok else " (failed: the whole base time is spent)")]
    passage = pass_time(ctx.tables, char, seconds)
    char = passage.char
    gm.extend(passage.gm)
    player = [line for line in passage.player if line != "the character dies"]
    if char.dead:
        player.append("the character dies before the treatment is done")
        return Applied("the patient died during treatment", tuple(gm), Data(char.to_dict()),
                       data=Data(player=tuple(player), success=False))
    if ok:
        row = ctx.tables["medic-chart"].row(crit.lethality)
        new = replace(crit, lethality=str(row.data["becomes"]), boxes=int(row.data["boxes_after"]),
                      death_at=None, treatment="medic")
        char = char.with_critical(new)
        if crit.lethality == "mortal":
            gm.append(f"{crit.label}: Mortal -> Crippling ({level_name(ctx.tables, new.boxes)}, {new.boxes} boxes, "
                      f"+{penalty(ctx.tables, new.boxes)}); the death clock stops; the {crit.part} is crippled")
            player.append(f"the medic stops the worst of it: the {crit.part} is saved from killing the character")
        else:
            gm.append(f"{crit.label}: treated, now {level_name(ctx.tables, new.boxes)} on its monitor "
                      f"({new.boxes} box, +{penalty(ctx.tables, new.boxes)}) "
                      "but still of Critical lethality until healed")
            player.append(f"the medic treats the {crit.part}")
        summary = f"treatment succeeded: {crit.label}"
    else:
        char = char.with_critical(replace(char.critical(crit.id, "treat"), treatment="medic-failed"))
        player.append(f"the medic's work on the {crit.part} does not help")
        summary = f"treatment failed: {crit.label}"
    gm.append(modifiers(ctx.tables, char).text())
    return Applied(summary, tuple(gm), Data(char.to_dict()), data=Data(player=tuple(player), success=ok))
