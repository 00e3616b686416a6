"""The 'Mech's picture on ``crit serve``'s page (``critcore_web_view``): an armor and structure
diagram by location, with each location's critical slots (destroyed ones marked), and the
derived movement, heat and to-hit numbers the rules give for the damage taken.

Only plain data is returned (critcore draws the panels, see docs/web.md); the numbers come from
the same :func:`critcore_battletech.derived.derive` as ``crit show``.
"""

from __future__ import annotations

from typing import Any, Mapping

from critcore import hookimpl

# Where each location sits on the diagram (row, column), as a record sheet lays a 'Mech out:
# the unit faces the reader, so its right side is on the reader's left.
BIPED = {"HD": (0, 2), "RA": (1, 0), "RT": (1, 1), "CT": (1, 2), "LT": (1, 3), "LA": (1, 4),
         "RL": (2, 1), "CL": (2, 2), "LL": (2, 3)}
QUAD = {"HD": (0, 2), "FRL": (1, 0), "RT": (1, 1), "CT": (1, 2), "LT": (1, 3), "FLL": (1, 4),
        "RRL": (2, 1), "RLL": (2, 3)}


def _meter(label: str, value: Any, top: Any) -> dict[str, Any]:
    value, top = int(value or 0), int(top or 0)
    tone = "bad" if value <= 0 else "warn" if value * 2 < top else ""
    return {"type": "meter", "label": label, "value": value, "max": max(top, 1), "tone": tone}


def _cell(code: str, loc: Mapping[str, Any], where: tuple[int, int]) -> dict[str, Any]:
    panels = [_meter("armor", loc.get("armor"), loc.get("max_armor"))]
    if loc.get("max_rear_armor"):
        panels.append(_meter("rear", loc.get("rear_armor"), loc.get("max_rear_armor")))
    panels.append(_meter("structure", loc.get("structure"), loc.get("max_structure")))
    panels.append({"type": "slots", "label": "", "slots": [
        {"text": s.get("name", ""), "destroyed": bool(s.get("destroyed")), "empty": s.get("kind") == "empty"}
        for s in loc.get("slots", ())]})
    label = f"{loc.get('name', code)} ({code})"
    lost = loc.get("blown_off") and "blown off" or (loc.get("destroyed") and "destroyed")
    if lost:
        label += f": {lost}"
    return {"row": where[0], "col": where[1], "label": label, "tone": "bad" if lost else "", "panels": panels}


def _signed(n: Any) -> str:
    return f"{int(n):+d}" if isinstance(n, (int, float)) else str(n)


def panels(state: Mapping[str, Any], derived: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The picture of a unit state, given its derived numbers."""
    from . import locations as L

    layout = QUAD if L.is_quad(state.get("config")) else BIPED
    locs: Mapping[str, Any] = state.get("locations", {})
    extra = [c for c in locs if c not in layout]
    cells = [_cell(c, locs[c], layout[c]) for c in locs if c in layout]
    cells += [_cell(c, locs[c], (3, i)) for i, c in enumerate(extra)]
    out: list[dict[str, Any]] = []
    name = f"{state.get('chassis', '')} {state.get('model', '')}".strip()
    if derived.get("destroyed") or state.get("destroyed"):
        why = derived.get("destroyed_reason") or state.get("destroyed_reason") or ""
        out.append({"type": "alert", "tone": "bad", "public": True,
                    "text": f"{name or 'the unit'} is destroyed" + (f": {why}" if why else "")})
    heat_sinks = derived.get("heat_sinks", {})
    weapons = derived.get("weapons", {})
    to_hit = [["weapons", _signed(weapons.get("all", {}).get("to_hit", 0))]]
    to_hit += [[f"weapons in the {code}", _signed(w.get("to_hit", 0)) + ("" if w.get("can_fire", True) else ", cannot fire")]
               for code, w in weapons.items() if code != "all"]
    pilot = derived.get("pilot", {})
    out.append({"type": "facts", "label": name or "unit", "items": [
        ["movement", f"walk {derived.get('walk')}, run {derived.get('run')}, jump {derived.get('jump')}"],
        ["heat", f"{state.get('heat', 0)} now; +{derived.get('heat_per_turn', 0)} a turn from engine hits; "
                 f"dissipation {derived.get('dissipation')} ({heat_sinks.get('destroyed', 0)} heat sink(s) destroyed)"],
        ["piloting skill rolls", _signed(derived.get("psr", 0)) + ("" if not derived.get("psr_why") else
                                                                   " (" + "; ".join(map(str, derived["psr_why"])) + ")")],
        *to_hit,
        ["MechWarrior", f"{pilot.get('hits', 0)} hit(s), " + ("dead" if pilot.get("dead") else
                                                                 "conscious" if pilot.get("conscious", True) else "unconscious")],
    ]})
    if derived.get("notes"):
        out.append({"type": "list", "label": "notes", "items": [str(n) for n in derived["notes"]]})
    # the damage anyone at the table sees on the 'Mech: public (the players' link shows it)
    out.append({"type": "grid", "label": "armor, structure and critical slots", "columns": 5, "cells": cells,
                "public": True})
    return out


@hookimpl
def critcore_web_view(ctx: Any) -> Any:
    if ctx.target is None or ctx.target.get("kind") != "battletech-mech":
        return None
    from critcore.plugin import thaw

    from .derived import derive

    return panels(thaw(ctx.target), derive(ctx.target, ctx.tables["components"]))
