"""The plain-words report of a BattleTech resolution (``critcore_report``)."""

from __future__ import annotations


from critcore.plugin import Effect, Outcome
from critcore.plugin import roll_line

from . import locations as L
from .status import derived_lines


def effect_text(e: Effect) -> str:
    d = e.data
    where = ""
    if "slot" in d and "location" in d:
        comp = f" {d['component']}" if "component" in d else ""
        where = f"{L.name(d['location'])} slot {d['slot']}{comp}: "
    elif "location" in d and e.table == "determining-critical-hits":
        where = f"{L.name(d['location'])}: "
    boom = f" [{d['explosion_damage']} damage]" if "explosion_damage" in d else ""
    return f"{where}{e.text}{boom}"


def report_lines(outcome: Outcome, view: str) -> list[str]:
    lines: list[str] = []
    params = ", ".join(k.replace("_", "-") if v is True else f"{k.replace('_', '-')} {v}"
                       for k, v in outcome.params.items() if v not in (None, False))
    who = ""
    if outcome.target is not None and outcome.target.get("chassis") is not None:
        who = f" on {outcome.target.get('chassis', '')} {outcome.target.get('model', '')}".rstrip()
    lines.append(f"battletech {outcome.procedure}{who}" + (f" ({params})" if params else ""))
    if outcome.applied is not None:
        for w in outcome.applied.data.get("warnings", ()):
            lines.append(f"warning: {w}")
    if view == "gm":
        for r in outcome.rolls:
            lines.append(f"  rolled {roll_line(r)}")
    for e in outcome.effects:
        lines.append(f"- {effect_text(e)}")
    applied = outcome.applied
    if outcome.determination is not None and applied is None:
        lines.append(outcome.determination.summary)
    if applied is not None:
        lines.append(applied.summary)
        for c in applied.changes:
            lines.append(f"  {c}")
        if applied.effects:
            lines.append("rolled while applying:")
            for e in applied.effects:
                lines.append(f"- {effect_text(e)}")
        for ev in applied.data.get("psr_now", ()):
            lines.append(f"now: {ev}")
        derived = applied.data.get("derived")
        if derived is not None:
            lines.append("")
            lines.extend(derived_lines(derived))
    return lines


# (severity, words in a change line of this plugin's own: damage.py, effects.py, plugin.py): the
# first that matches ranks the line
_RANKS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("deadly", ("the 'mech is destroyed", "mechwarrior killed", "the mechwarrior is killed")),
    ("grave", (" explodes", " blown off", " destroyed (", "engine", "gyro")),
    ("serious", ("is knocked out", " destroyed", "mechwarrior takes", "passes to the", "passes inward")),
)
_QUIET = ("can take the critical: it is lost", "does not explode", "nothing more happens", "already destroyed")


def rank_line(line: str) -> str:
    low = line.lower()
    if any(q in low for q in _QUIET):
        return "none"
    for severity, words in _RANKS:
        if any(w in low for w in words):
            return severity
    return "minor"


def changes(outcome: Outcome, view: str) -> list[tuple[str, str]]:
    """What a resolution did to the unit, most serious first (``critcore_changes``): a 'Mech or
    MechWarrior lost is ``deadly``; ammunition exploding, a location destroyed or blown off, an
    engine or gyro hit ``grave``; a weapon or system knocked out, a hit on the MechWarrior
    ``serious``; armour and structure lost ``minor``; a critical with nothing left to hit
    ``none``. Consciousness and piloting rolls owed are ``serious``."""
    applied = outcome.applied
    if applied is None:
        det = outcome.determination
        return [("minor", det.summary)] if det is not None and det.critical else []
    out = [(rank_line(c), c) for c in applied.changes]
    out += [("serious", f"now: {ev}") for ev in applied.data.get("psr_now", ())]
    return out
