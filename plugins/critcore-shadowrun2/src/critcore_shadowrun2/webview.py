"""The character's picture on ``crit serve``'s page (``critcore_web_view``): the Physical and
Stun condition monitors and each critical's own monitor as rows of boxes, marked where the
wound levels begin (from the ``wound-levels`` table), and the death clock.

Only plain data is returned (critcore draws the panels, see docs/web.md).
"""

from __future__ import annotations

from typing import Any, Mapping

from critcore import hookimpl

BOXES = 10


def level_marks(tables: Mapping[str, Any]) -> dict[int, str]:
    """The first box of each wound level, marked with the level's initial (L, M, S, D)."""
    from .monitors import level_name

    marks: dict[int, str] = {}
    before = level_name(tables, 0)
    for box in range(1, BOXES + 1):
        name = level_name(tables, box)
        if name != before:
            marks[box] = name[:1].upper()
            before = name
    return marks


def panels(tables: Mapping[str, Any], state: Mapping[str, Any]) -> list[dict[str, Any]]:
    from .character import read_character
    from .monitors import level_name, modifiers
    from .words import clock_text

    char = read_character(state)
    marks = level_marks(tables)
    name = state.get("name") if isinstance(state.get("name"), str) else ""
    out: list[dict[str, Any]] = []
    if char.dead:
        out.append({"type": "alert", "tone": "bad", "public": True,
                    "text": f"{name or 'the character'} is dead" + (f" ({char.cause_of_death})" if char.cause_of_death else "")})
    out.append({"type": "facts", "label": name or "character",
                "items": [["Body", str(char.body)], ["clock", clock_text(char.clock)],
                          ["modifier", modifiers(tables, char).text()]]})
    for label, boxes in (("Physical", char.physical), ("Stun", char.stun)):
        out.append({"type": "boxes", "label": label, "filled": boxes, "total": BOXES, "marks": marks,
                    "note": level_name(tables, boxes) + (", unconscious" if boxes >= BOXES else ""),
                    "tone": "bad" if boxes >= BOXES else "warn" if boxes else "", "public": True})
    for c in char.criticals:
        bits = [c.cause, "diagnosed" if c.diagnosed else "not diagnosed",
                "open wound" if c.open_wound else "closed"]
        if c.crippled:
            bits.append(f"{c.part} crippled")
        if c.treatment != "none":
            bits.append(f"treated: {c.treatment}")
        out.append({"type": "boxes", "label": f"critical #{c.id}: {c.lethality} ({c.location_name}, {c.part})",
                    "filled": c.boxes, "total": BOXES, "marks": marks, "note": ", ".join(b for b in bits if b),
                    "tone": "bad" if c.lethality == "mortal" else "warn"})
        if c.death_at is not None:
            left = max(0, c.death_at - char.clock)
            out.append({"type": "alert", "tone": "bad",
                        "text": f"death clock: critical #{c.id} kills at {clock_text(c.death_at)} "
                                f"({clock_text(left)} left) unless treated"})
        if c.heals_at is not None:
            out.append({"type": "alert", "tone": "ok", "text": f"critical #{c.id} heals at {clock_text(c.heals_at)}"})
    return out


@hookimpl
def critcore_web_view(ctx: Any) -> Any:
    if ctx.target is None:
        return None
    from critcore.plugin import thaw

    return panels(ctx.tables, thaw(ctx.target))
