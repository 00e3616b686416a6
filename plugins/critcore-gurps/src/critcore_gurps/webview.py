"""The character's picture on ``crit serve``'s page (``critcore_web_view``): HP as a bar, crippled
parts, every status with the time it has left, the injuries taken and the HT rolls still owed.
FP are drawn when the character file gives them (``fp``, ``current_fp``): no critical here spends or
restores them, so they change only when the game master edits them.

Only plain data is returned (critcore draws the panels, see docs/web.md). The words are those
of ``crit show`` (:func:`critcore_gurps.character.describe`).
"""

from __future__ import annotations

from typing import Any, Mapping

from critcore import hookimpl


def _meter(label: str, now: int, top: int) -> dict[str, Any]:
    top = max(int(top), 1)
    tone = "bad" if now <= 0 else "warn" if now * 3 < top else ""
    return {"type": "meter", "label": label, "value": now, "max": top, "tone": tone,
            "note": "" if now > 0 else f"at or below 0 ({now})"}


def panels(ctx: Any, data: Mapping[str, Any]) -> list[dict[str, Any]]:
    from .character import _span, default, describe
    from .collapse import describe as owed_line

    hp = data.get("hp", default(ctx, "hp"))
    now = data.get("clock", 0)
    now = now if isinstance(now, int) and not isinstance(now, bool) else 0
    name = data.get("name") if isinstance(data.get("name"), str) else ""
    out: list[dict[str, Any]] = [
        {"type": "facts", "label": name or "character",
         "items": [["HT", str(data.get("ht", default(ctx, "ht")))], ["game time", _span(now)]]},
        _meter("HP", int(data.get("current_hp", hp)), int(hp)),
    ]
    if "fp" in data:
        out.append(_meter("FP", int(data.get("current_fp", data["fp"])), int(data["fp"])))
    statuses = [s for s in data.get("statuses", []) if isinstance(s, Mapping)]
    crippled = [s for s in statuses if s.get("id") == "crippled"]
    if crippled:
        out.append({"type": "list", "label": "crippled", "tone": "bad", "public": True,
                    "items": [str(s.get("text") or s.get("location", "?")) for s in crippled]})
    others = [s for s in statuses if s.get("id") != "crippled"]
    if others:
        out.append({"type": "list", "label": "statuses", "tone": "warn", "public": True, "items": [describe(dict(s), now) for s in others]})
    owed = data.get("owed_rolls", [])
    if owed:
        out.append({"type": "list", "label": "HT rolls owed", "tone": "warn", "items": [owed_line(o) for o in owed]})
    injuries = data.get("injuries", [])
    if injuries:
        out.append({"type": "list", "label": "injuries", "public": True, "items": [
            f"{i.get('injury')} {i.get('type', '')} to the {i.get('location')}" + (f" ({i['why']})" if i.get("why") else "")
            for i in injuries if isinstance(i, Mapping)]})
    return out


@hookimpl
def critcore_web_view(ctx: Any) -> Any:
    if ctx.target is None:
        return None
    from critcore.plugin import thaw

    return panels(ctx, thaw(ctx.target))
