"""The readable status view: a unit's locations and slots, and its derived numbers in words."""

from __future__ import annotations

from typing import Any, Mapping

from . import locations as L
from .unitview import unit_name


def _mod(n: int | None) -> str:
    return "impossible" if n is None else f"{n:+d}"


def _why(parts: Any) -> str:
    parts = list(parts)
    return f" ({'; '.join(parts)})" if parts else ""


def derived_lines(d: Mapping[str, Any]) -> list[str]:
    """The derived numbers in plain words (one line each)."""
    lines: list[str] = []
    if d["destroyed"]:
        lines.append(f"DESTROYED: {d['destroyed_reason'] or 'yes'}")
    lines.append(f"MP: walk {d['walk']}, run {d['run']}, jump {d['jump']}"
                 + (f" (walk {d['base_walk']} undamaged)" if d["walk"] != d["base_walk"] else ""))
    hs = d["heat_sinks"]
    lines.append(f"heat: +{d['heat_per_turn']} a turn from {d['engine_hits']} engine hit(s); dissipation "
                 f"{d['dissipation']} ({hs['count']} {hs['type']} heat sinks, {hs['destroyed']} destroyed)")
    needs = " and ".join({"run": "running", "jump": "jumping"}.get(x, x) for x in d["psr_for"])
    lines.append(f"PSR modifier: {d['psr']:+d}{_why(d['psr_why'])}"
                 + (f"; a PSR is needed after {needs}" if needs else ""))
    w = d["weapons"]
    if not w["all"]["can_fire"]:
        lines.append("weapons: cannot fire (sensors destroyed)")
    else:
        arms = [f"{L.name(c)} {_mod(v['to_hit']) if v['can_fire'] else 'cannot fire'}{_why(v['why'])}"
                for c, v in w.items() if c != "all"]
        lines.append(f"weapon to-hit: others {w['all']['to_hit']:+d}{_why(w['all']['why'])}"
                     + ("; " + "; ".join(arms) if arms else ""))
    for c, p in d["punch"].items():
        half = f", damage halved {p['halvings']}x" if p["possible"] and p["halvings"] else ""
        lines.append(f"punch {L.name(c)}: {_mod(p['to_hit'])}{half}{_why(p['why'])}")
    k = d["kick"]
    half = f", damage halved {k['halvings']}x" if k["possible"] and k["halvings"] else ""
    lines.append(f"kick: {_mod(k['to_hit'])}{half}{_why(k['why'])}")
    c = d["club"]
    lines.append(f"club: {_mod(c['to_hit'])}{_why(c['why'])}")
    p = d["pilot"]
    state = "dead" if p["dead"] else ("conscious" if p["conscious"] else "unconscious")
    lines.append(f"MechWarrior: {p['hits']} hit(s), {state}")
    lines.extend(d["notes"])
    return lines


def slot_text(slot: Mapping[str, Any]) -> str:
    if slot["kind"] == "empty":
        return "-"
    name = str(slot.get("name") or slot["kind"])
    return f"[X] {name}" if slot["destroyed"] else name


def location_lines(state: Mapping[str, Any]) -> list[str]:
    lines = []
    items = state.get("items") or {}
    for code, loc in state["locations"].items():
        armor = f"armor {loc['armor']}/{loc.get('max_armor', loc['armor'])}"
        if loc.get("rear_armor") is not None:
            armor += f", rear {loc['rear_armor']}/{loc.get('max_rear_armor', loc['rear_armor'])}"
        tag = " BLOWN OFF" if loc.get("blown_off") else " DESTROYED" if loc.get("destroyed") else ""
        lines.append(f"{code} {L.name(code)}{tag}: {armor}, structure {loc['structure']}/"
                     f"{loc.get('max_structure', loc['structure'])}")
        slots = []
        for i, s in enumerate(loc["slots"], 1):
            text = slot_text(s)
            it = items.get(s.get("item")) if s.get("item") is not None else None
            if it is not None and s["kind"] == "ammo" and it.get("ammo"):
                text += f" ({it['ammo'].get('shots', 0)} shots)"
            if it is not None and it.get("disabled") and not s["destroyed"] and s["kind"] != "empty":
                text += " (out)"
            slots.append(f"{i}. {text}")
        lines.append("    " + "  ".join(slots))
    return lines


def import_lines(state: Mapping[str, Any]) -> list[str]:
    """What the importer could not read: the unrecognised equipment, then every warning."""
    lines: list[str] = []
    unknown = list(state.get("unrecognised") or ())
    if unknown:
        lines.append(f"unrecognised equipment ({len(unknown)}): " + "; ".join(unknown))
    for w in state.get("import_warnings") or ():
        lines.append(f"warning: {w}")
    return lines


def show_lines(state: Mapping[str, Any], derived: Mapping[str, Any]) -> list[str]:
    head = f"{unit_name(state)} ({state.get('tonnage', '?')} t, {state.get('config', 'biped')}"
    head += ", superheavy)" if state.get("superheavy") else ")"
    extra = import_lines(state)
    return [head] + location_lines(state) + [""] + derived_lines(derived) + ([""] + extra if extra else [])
