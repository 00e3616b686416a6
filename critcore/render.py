"""Plain-words reports of an outcome: every roll, every table row, every stage."""

from __future__ import annotations

from typing import Any, Sequence

from .model import Effect, Outcome, Roll, thaw


def roll_line(roll: Roll) -> str:
    """``attack roll: 3d6 -> 2+1+2 = 5`` (faces shown when known)."""
    if roll.successes is not None:
        faces = " ".join(map(str, roll.faces))
        seen = f" [{faces}]" if faces else ""
        text = f"{roll.label}: {roll.notation}{seen} -> {roll.successes} success{'es' if roll.successes != 1 else ''}"
        return text + (f" ({roll.detail})" if roll.detail else "")
    if roll.faces and len(roll.faces) > 1:
        shown = "+".join(map(str, roll.faces)) + f" = {roll.total}"
    elif roll.faces:
        shown = f"{roll.faces[0]}" + (f" -> {roll.total}" if roll.total != roll.faces[0] else "")
    else:
        shown = str(roll.total)
    return f"{roll.label}: {roll.notation} -> {shown}"


def effect_line(effect: Effect) -> str:
    roll = f" {effect.roll}" if effect.roll is not None else ""
    return f"{effect.table}{roll} [{effect.id}]: {effect.text}"


def _params(outcome: Outcome) -> str:
    shown = [f"{k.replace('_', '-')} {v}" for k, v in outcome.params.items() if v not in (None, False)]
    return ", ".join(shown)


def generic_report(outcome: Outcome, explain: bool = False) -> list[str]:
    lines: list[str] = []
    head = f"{outcome.system} {outcome.procedure}"
    params = _params(outcome)
    lines.append(head + (f" ({params})" if params else ""))
    effects_by_stage = {"effect": list(outcome.effects), "apply": list(outcome.applied.effects) if outcome.applied else []}
    for step in outcome.steps:
        for i in step.rolls:
            lines.append(f"  rolled {roll_line(outcome.rolls[i])}")
        lines.append(f"{step.stage}: {step.summary}")
        for eff in effects_by_stage.get(step.stage, ()):
            if step.stage == "effect" and len(outcome.effects) == 1 and eff.text == step.summary:
                lines[-1] = f"{step.stage}: {effect_line(eff)}"
            else:
                lines.append(f"  row {effect_line(eff)}")
        if step.stage in ("apply", "treat") and outcome.applied:
            lines.extend(f"  {c}" for c in outcome.applied.changes)
    for note in outcome.notes:
        if explain or note.by:
            who = f" [{note.by}]" if note.by else ""
            lines.append(f"note{who}: {note.text}")
    if explain:
        if outcome.rules:
            lines.append("house rules enabled: " + ", ".join(outcome.rules))
        changed = [o for o in outcome.options.items()]
        if changed:
            lines.append("options: " + ", ".join(f"{k}={thaw(v)}" for k, v in changed))
    return lines


def render(outcome: Outcome, explain: bool = False, view: str = "gm", pm: Any = None) -> str:
    """The outcome in plain words. A system may supply its own report (``critcore_report``)."""
    lines: Sequence[str] | None = None
    if pm is not None:
        lines = pm.hook.critcore_report(outcome=outcome, view=view)
    if lines is None:
        lines = generic_report(outcome, explain)
    elif explain and view == "gm":
        lines = list(lines) + ["", "in detail:"] + generic_report(outcome, explain=True)
    return "\n".join(lines)
