"""Low HP: the HT rolls owed to stay conscious and to avoid death, and death itself.

The thresholds are data (``[[hp_thresholds]]`` in ``data/rules.toml``): each is a multiple of
the HP attribute and what reaching it demands. An injury that takes a character from ``before``
to ``after`` HP reaches every threshold in between once; the rolls it owes go into the
character's ``owed_rolls`` (``kind`` ``consciousness`` or ``death``) for
``crit treat gurps survive``.
"""

from __future__ import annotations

from typing import Any

from .reference import RULES

THRESHOLDS: tuple[tuple[int, str], ...] = tuple(
    (int(t["multiple"]), str(t["check"])) for t in RULES["hp_thresholds"])
OUT_COLD = ("unconscious", "knocked-out", "dead")  # statuses in which no roll to stay conscious is made


def reached(before: int, after: int, hp: int) -> list[tuple[int, str]]:
    """The thresholds ``(multiple, check)`` passed going from ``before`` to ``after`` HP."""
    return [(m, check) for m, check in THRESHOLDS if before > m * hp >= after]


def owed_for(before: int, after: int, hp: int) -> list[dict[str, Any]]:
    """The rolls (or death) an HP loss from ``before`` to ``after`` brings, as plain data."""
    out: list[dict[str, Any]] = []
    for m, check in reached(before, after, hp):
        why = f"down to {m}xHP = {m * hp} HP" if m else "at 0 HP or less"
        if check == "dead":
            return [{"kind": "dead", "why": why}]
        out.append({"roll": "ht", "kind": check, "modifier": 0, "why": why})
    return out


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


def note(state: dict[str, Any] | None, changes: list[str], before: int, after: int, hp: int) -> None:
    """Say what an HP loss demands and, with a character, record it: owed rolls, or death."""
    owed = owed_for(before, after, hp)
    if state is not None and state.get("traits"):
        from .traits import adjust_owed

        owed = adjust_owed(state["traits"], owed, before, after, hp)
    statuses = state["statuses"] if state is not None else []
    if any(s.get("id") == "dead" for s in statuses):
        return
    for item in owed:
        if item["kind"] == "consciousness" and any(s.get("id") in OUT_COLD for s in statuses):
            continue
        changes.append(describe(item))
        if state is None:
            continue
        if item["kind"] == "dead":
            state["owed_rolls"] = []  # the dead roll for nothing
            state["statuses"].append({"id": "dead", "duration": "permanent", "text": "dead", "since": state.get("clock", 0)})
            return
        if item["kind"] == "consciousness" and item in state["owed_rolls"]:
            continue  # one roll a turn to stay conscious, however many blows brought him there
        state["owed_rolls"].append(item)
