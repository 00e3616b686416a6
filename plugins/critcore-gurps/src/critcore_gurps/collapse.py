"""Low HP: the HT rolls owed to stay conscious and to avoid death, and death itself.

The thresholds are data (``[[hp_thresholds]]`` in ``data/rules.toml``): each is a multiple of
the HP attribute and what reaching it demands. An injury that takes a character from ``before``
to ``after`` HP reaches every threshold in between once; the rolls it owes go into the
character's ``owed_rolls`` (``kind`` ``consciousness`` or ``death``) for
``crit treat gurps survive``.
"""

from __future__ import annotations

from typing import Any, Mapping

from critcore.plugin import StateError

from .reference import RULES

THRESHOLDS: tuple[tuple[int, str], ...] = tuple(
    (int(t["multiple"]), str(t["check"])) for t in RULES["hp_thresholds"])
OUT_COLD = ("unconscious", "knocked-out", "mortal-wound", "dead")  # no roll to stay conscious is made in these
REELING = RULES["reeling"]
BELOW_FRACTION = int(REELING["below_fraction"])  # read once: every blow asks is_reeling twice


def consciousness_penalty(current: int, hp: int) -> int:
    """B419: the roll to stay conscious is at ``penalty_per_multiple`` for each full multiple of
    the HP attribute below zero (HP 10: -1 from -10 HP, -2 from -20)."""
    if current >= 0:
        return 0
    return int(RULES["consciousness"]["penalty_per_multiple"]) * (-current // hp)


def is_reeling(current: int, hp: int) -> bool:
    """B419: less than 1/3 of the HP left (``below_fraction``)."""
    return current * BELOW_FRACTION < hp


def reel(state: dict[str, Any] | None, changes: list[str], before: int, after: int, hp: int) -> None:
    """An HP loss from ``before`` to ``after`` that leaves less than 1/3 of the HP: reeling (B419)."""
    if is_reeling(before, hp) or not is_reeling(after, hp) or after <= THRESHOLDS[-1][0] * hp:
        return  # not crossing 1/3 HP, or dead at once
    if state is not None:
        if any(s.get("id") in ("reeling", "dead") for s in state["statuses"]):
            return
        state["statuses"].append({"id": "reeling", "text": REELING["text"], "since": state.get("clock", 0)})
    changes.append(f"reeling: {REELING['text']}")


def owed_for(before: int, after: int, hp: int) -> list[dict[str, Any]]:
    """The rolls (or death) an HP loss from ``before`` to ``after`` brings, as plain data: one
    for each threshold passed on the way."""
    out: list[dict[str, Any]] = []
    for m, check in THRESHOLDS:
        if not before > m * hp >= after:
            continue
        why = f"down to {m}xHP = {m * hp} HP" if m else "at 0 HP or less"
        if check == "dead":
            return [{"kind": "dead", "why": why}]
        out.append({"roll": "ht", "kind": check, "modifier": 0, "why": why})
    return out


def owes_death_roll(before: int, after: int, hp: int) -> bool:
    """Whether :func:`owed_for` of this HP loss holds a roll to avoid death: a death threshold
    reached, and no threshold that kills outright (death then owes no roll). The outcome's
    ``death-check`` tag asks this on every blow; answered without making owed_for's lines."""
    checks = [check for m, check in THRESHOLDS if before > m * hp >= after]
    return "death" in checks and "dead" not in checks


def kills(before: int, after: int, hp: int) -> bool:
    """Whether an HP loss from ``before`` to ``after`` kills outright (a character without traits:
    a threshold that means death passed, -5xHP in the Basic Set)."""
    return any(check == "dead" for m, check in THRESHOLDS if before > m * hp >= after)


def describe(item: dict[str, Any]) -> str:
    """One plain line for an owed roll (or death)."""
    kind = item.get("kind", "knockdown")
    why = item.get("why", "")
    mod = int(item.get("modifier", 0))
    ht = f"HT{mod:+d}" if mod else "HT"
    if kind == "dead":
        return f"{why}: dead"
    if kind == "death":
        return f"owes an {ht} roll to avoid death ({why})"
    if kind == "consciousness":
        return f"owes an {ht} roll now and each turn to stay conscious ({why})"
    times = int(item.get("times", 1))
    return f"owes an {ht} roll against knockdown and stunning ({why})" + (f", {times} times" if times > 1 else "")


def note(state: dict[str, Any] | None, changes: list[str], before: int, after: int, hp: int) -> bool:
    """Say what an HP loss demands and, with a character, record it: owed rolls, or death. True
    when the loss kills: then death alone is said, as the dead roll for nothing (a roll to stay
    conscious that a trait's threshold came with is dropped too)."""
    owed = owed_for(before, after, hp)
    if state is not None and state.get("traits"):
        from .traits import adjust_owed

        owed = adjust_owed(state["traits"], owed, before, after, hp)
    if not owed:
        return False  # no threshold reached (most blows)
    statuses = state["statuses"] if state is not None else ()
    if statuses and any(s.get("id") == "dead" for s in statuses):  # no character: no statuses to look through
        return True
    killed = [item for item in owed if item["kind"] == "dead"]
    if killed:
        owed = killed[:1]
    for item in owed:
        if item["kind"] == "consciousness" and statuses and any(s.get("id") in OUT_COLD for s in statuses):
            continue
        changes.append(describe(item))
        if state is None:
            continue
        if item["kind"] == "dead":
            state["owed_rolls"] = []  # the dead roll for nothing
            state["statuses"].append({"id": "dead", "duration": "permanent", "text": "dead", "since": state.get("clock", 0)})
            return True
        if item["kind"] == "consciousness" and item in state["owed_rolls"]:
            continue  # one roll a turn to stay conscious, however many blows brought him there
        state["owed_rolls"].append(item)
    return bool(killed)


def dead(state: Any) -> bool:
    """The (checked) character has the ``dead`` status."""
    return any(isinstance(s, Mapping) and s.get("id") == "dead" for s in state.get("statuses") or ())


def refuse_dead(state: Any) -> None:
    """A dead character is refused in one line (as Shadowrun refuses one): a corpse takes no more
    injury, makes no more rolls and heals no more."""
    if dead(state):
        who = state.get("name") or "the character"
        raise StateError(f"character: {who} is dead: a dead character is not struck, rolled for or treated again")
