"""Plain-words reports: the GM's full view, the player's view (only what the character notices),
and ``crit show`` for a character file."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping, Sequence

from critcore.plugin import Outcome
from critcore.plugin import roll_line

from .words import clock_text

if TYPE_CHECKING:
    from .character import Character


def _header(outcome: Outcome) -> str:
    from .info import INFO

    proc = INFO.procedure(outcome.procedure)
    defaults = {p.name: p.default for p in proc.params} if proc is not None else {}
    shown = [k.replace("_", "-") if v is True else f"{k.replace('_', '-')} {v:g}" if isinstance(v, float)
             else f"{k.replace('_', '-')} {v}" for k, v in outcome.params.items()
             if v not in (None, False, "", 0) and not (k in defaults and v == defaults[k])]
    return f"shadowrun2 {outcome.procedure}" + (f" ({', '.join(shown)})" if shown else "")


def gm_report(outcome: Outcome) -> list[str]:
    """Everything: every roll, the lethality, the location, the time before death."""
    lines = [_header(outcome)]
    lines += [f"  rolled {roll_line(r)}" for r in outcome.rolls]
    det, applied = outcome.determination, outcome.applied
    if det is not None:
        lines.append(f"Body check: {det.kind.upper() if det.critical else det.summary}"
                     + (f" - {det.summary}" if det.critical else ""))
    if outcome.location is not None:
        lines.append(f"location: {outcome.location.name}")
    death = applied.data.get("death_in") if applied is not None else None
    for eff in outcome.effects:
        d = eff.data
        lines.append(f"critical: {eff.text.rstrip('.')} - cause {d['cause']}, time before death {d['time']}"
                     + ("" if death is None else f", rolled {clock_text(death)}"))
    if applied is not None:
        if det is None:
            lines.append(applied.summary)
        lines += [f"  {c}" for c in applied.changes]
    lines += [f"note: {n.text}" for n in outcome.notes if n.by]
    return lines


def player_report(outcome: Outcome) -> list[str]:
    """Only what the character notices: no Body check, no lethality, no time before death."""
    applied = outcome.applied
    if outcome.procedure == "wound":
        lines = [f"the character takes a {outcome.params.get('severity')} wound"]
        track = applied.data.get("boxes") if applied is not None else None
        if track is not None and track[0] != track[1]:
            lines.append(f"{applied.data['track'].capitalize()} {track[0]} -> {track[1]} boxes")  # type: ignore[union-attr]
        if outcome.location is not None and outcome.options.get("locate_all_wounds"):
            # every wound is located under this option, so the place gives no critical away
            lines.append(f"the wound is in the {outcome.location.name}")
        lines.append("(the GM has rolled for critical hits in secret)")
        return lines
    lines = [f"shadowrun2 {outcome.procedure}"]
    if applied is not None:
        lines += [f"  {p}" for p in applied.data.get("player", ())]
    return lines


def report(outcome: Outcome, view: str) -> list[str]:
    return player_report(outcome) if view == "player" else gm_report(outcome)


def show_lines(tables: Mapping[str, Any], char: Character, name: str = "") -> Sequence[str]:
    """The character file in plain words, for the GM."""
    from .monitors import level_name, modifiers

    lines = [f"{name or 'character'}: Body {char.body}, clock {clock_text(char.clock)}"
             + (f", DEAD ({char.cause_of_death})" if char.dead else "")]
    lines.append(f"  Physical {char.physical}/10 ({level_name(tables, char.physical)}), "
                 f"Stun {char.stun}/10 ({level_name(tables, char.stun)})"
                 + (" - unconscious (a full track)" if 10 in (char.physical, char.stun) else ""))
    for c in char.criticals:
        bits = [f"{c.lethality.capitalize()}", f"{c.boxes}/10 boxes ({level_name(tables, c.boxes)})",
                f"cause {c.cause}", "diagnosed" if c.diagnosed else "not diagnosed",
                "open wound" if c.open_wound else "closed wound"]
        if c.crippled:
            bits.append(f"{c.part} crippled")
        if c.death_at is not None:
            bits.append(f"dies at clock {clock_text(c.death_at)} ({clock_text(max(0, c.death_at - char.clock))} left)")
        if c.heals_at is not None:
            bits.append(f"heals at clock {clock_text(c.heals_at)}")
        if c.treatment != "none":
            bits.append(f"treated: {c.treatment}")
        lines.append(f"  critical {c.label}: " + ", ".join(bits))
    mods = modifiers(tables, char)
    lines.append(f"  {mods.text()}")
    by_loc = mods.by_location()
    if by_loc:
        lines.append("  tests using: " + ", ".join(f"the {k} +{mods.general + v}" for k, v in by_loc.items())
                     + f"; any other test +{mods.general}")
    return lines


_ORDER = ("none", "minor", "serious", "grave", "deadly")  # critcore's severities, least first (the hook's words)


def changes(outcome: Outcome, view: str) -> list[tuple[str, str]]:
    """What a wound or a treatment did, most serious first (``critcore_changes``): a Mortal
    critical is ``deadly`` (the character dies unless treated), a Crippling one ``grave``, a
    Critical one ``serious``, the boxes on a track ``minor`` (``serious`` when the track fills).
    The player's view ranks only what the player's report says, as ``minor``: the boxes, never the
    Body check (a severity above the player's report would give the secret roll away)."""
    applied = outcome.applied
    if applied is None:
        return []
    if view != "gm":
        track = applied.data.get("boxes")
        if outcome.procedure == "wound" and track is not None and track[0] != track[1]:
            return [("minor", f"{applied.data['track'].capitalize()} {track[0]} -> {track[1]} boxes")]
        return [("minor", line) for line in applied.data.get("player", ())]
    import re

    out: list[tuple[str, str]] = []
    for line in applied.changes:
        low = line.lower()
        if low.startswith("total modifier"):
            severity = "minor"
        elif re.search(r"\bdead\b|\bdies\b(?! in)|\bdied\b", low) and not low.startswith(("new critical", "death clock")):
            severity = "deadly"  # a treatment or a clock that ran out: the character is dead
        elif "death clock" in low:
            severity = "deadly"  # a Mortal critical: dies unless treated
        elif "crippled" in low:
            severity = "grave"
        elif low.startswith("new critical") or "-> 10 boxes" in low:
            severity = "serious"
        else:
            severity = "minor"
        out.append((severity, line))
    out.sort(key=lambda pair: not pair[1].startswith("new critical"))  # the critical before the boxes
    if outcome.procedure != "wound":  # a treatment: what it made better is no alarm, a death is
        return [("deadly" if re.search(r"\bdead\b|\bdied\b|\bdies\b(?! in)", line.lower())
                 and "clock stops" not in line.lower() else "minor", line) for _, line in out]
    det = outcome.determination
    if det is not None and det.critical and out and applied.summary:
        # the wound's own summary says it best ("Mortal critical in the chest: ...; dies in 50 min
        # unless treated"): it leads, as serious as the worst line under it
        worst = max((s for s, _ in out), key=_ORDER.index)
        out.insert(0, (worst, applied.summary))
    return out
