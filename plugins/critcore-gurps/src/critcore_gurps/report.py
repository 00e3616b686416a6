"""How serious a GURPS outcome is (``critcore_changes``): the apply stage's lines, ranked.

The lines are this plugin's own words (apply.py, collapse.py, injury.py, treat.py); each is
ranked by what it says happened, using the injury's numbers where the apply stage keeps them.
"""

from __future__ import annotations

from critcore.plugin import Outcome

from .procedures import INFO

# (severity, words in a line of this plugin's own): the first that matches ranks the line
_RANKS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("deadly", (": dead", "failed: dead")),
    ("grave", ("crippled", "dismembered", "severed", "roll to avoid death", "eye is destroyed")),
    ("serious", ("major wound", "owes", "unconscious", "falls down", "drops", "breaks", "knocked down",
                 "stunned")),
)


def rank_line(line: str) -> str:
    """The severity of one line: the first in :data:`_RANKS` with a word the line holds."""
    low = line.lower()
    for severity, words in _RANKS:
        for w in words:
            if w in low:
                return severity
    return "minor"


def changes(outcome: Outcome, view: str) -> list[tuple[str, str]] | None:
    """The apply (or treat) stage's lines, each with its severity: a plain hit's lines are
    ``minor`` (``none`` when no injury got through), a critical miss's at least ``serious`` (it
    costs the fumbler a turn or more), a major wound or a roll owed ``serious``, crippling or a
    roll to avoid death ``grave``, death ``deadly``. Another system's outcome: None (the
    ``critcore_changes`` hook of this plugin is this function)."""
    if outcome.system != INFO.name:
        return None
    applied = outcome.applied
    if applied is None:
        det = outcome.determination
        if det is not None and det.critical:
            return [("serious" if "critical-miss" in outcome.tags else "minor", det.summary)]
        return []
    out: list[tuple[str, str]] = []
    injury = applied.data.get("injury")
    fumble = "critical-miss" in outcome.tags
    stopped = isinstance(injury, int) and injury <= 0  # no injury got through
    deaths: list[int] = []  # the places of the rolls to avoid death still owed
    for line in applied.changes:
        if line == "no injury":
            continue
        if line == "a major wound" and applied.summary:
            line = applied.summary  # "9 injury to the torso (major wound)" says where and how much
        severity = rank_line(line)
        if fumble:
            if severity == "minor":
                severity = "serious"  # a critical miss costs the fumbler something, at the least a turn
            if line.startswith("the attacker"):
                line = "critical miss: " + line
        elif severity == "minor" and stopped and " injury" in line:
            severity = "none"  # the damage line of a blow that did not get through
        if "roll to avoid death (" in line and "failed" not in line and "made" not in line:
            deaths.append(len(out))
        out.append((severity, line))
    if len(deaths) > 1:  # one line for the table: how many, and how far down the last one is
        last = out[deaths[-1]][1]
        where = last[last.index("(") + 1:].rstrip(")")
        first = out[deaths[0]]
        out = [p for i, p in enumerate(out) if i not in deaths[1:]]
        out[deaths[0]] = (first[0], f"owes {len(deaths)} HT rolls to avoid death ({where})")
    if applied.data.get("dead") and not any(s == "deadly" for s, _ in out):
        out.insert(0, ("deadly", "dead"))
    if not out and outcome.determination is not None and outcome.determination.critical:
        out.append(("minor", applied.summary or outcome.determination.summary))
    return out
