"""Pictures for the page: a target's state as panels, and odds as an SVG chart.

A system draws its targets through ``critcore_web_view``: it returns *panels*, plain data of a
few types (below), and the page's templates draw them, escaping every text. Whatever a plugin
returns is checked here first (:func:`clean`): a panel of an unknown type, or a field of the
wrong type, is shown as text, never passed to a template as it came.

=========  ==================================================================================
type       fields
=========  ==================================================================================
meter      ``label``, ``value``, ``max`` (a bar), optional ``note``
boxes      ``label``, ``filled``, ``total`` (a row of boxes), optional ``marks`` {box: text}
slots      ``label``, ``slots``: each ``{"text", "destroyed", "empty"}``
facts      ``label``, ``items``: ``[name, value]`` pairs
list       ``label``, ``items``: lines of text
alert      ``text``
grid       ``label``, ``columns``, ``cells``: each ``{"row", "col", "label", "panels"}``
=========  ==================================================================================

Every panel may carry ``tone``: ``ok``, ``warn`` or ``bad``, and ``public: true`` when the
characters can see what it shows (a 'Mech's visible damage, a character's visible wounds): the
players' link draws those panels only, so a panel is the game master's unless its system says so.
"""

from __future__ import annotations

import json
from fractions import Fraction
from html import escape
from typing import Any, Mapping, Sequence

TONES = ("ok", "warn", "bad")
MAX_PANELS = 400
MAX_ITEMS = 500


def _str(value: Any, limit: int = 300) -> str:
    text = "" if value is None else str(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _int(value: Any, default: int = 0) -> int:
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value == value and abs(value) < 1e12:
        return int(value)
    if isinstance(value, str) and value.strip().lstrip("-").isdigit() and len(value) < 13:
        return int(value)
    return default


def _mapping(value: Any) -> Mapping[Any, Any]:
    return value if isinstance(value, Mapping) else {}


def _sequence(value: Any) -> Sequence[Any]:
    return value if isinstance(value, (list, tuple)) else ()


def clean(panels: Any, depth: int = 0, budget: list[int] | None = None) -> list[dict[str, Any]]:
    """Panels checked and normalised: known types and fields only, texts as strings."""
    budget = budget if budget is not None else [MAX_PANELS]
    if not isinstance(panels, (list, tuple)):
        return [{"type": "alert", "text": "the system's picture is not a list of panels", "tone": "warn"}]
    out: list[dict[str, Any]] = []
    for raw in panels:
        if budget[0] <= 0:
            out.append({"type": "alert", "text": "(more panels left out)", "tone": "warn"})
            break
        budget[0] -= 1
        if not isinstance(raw, Mapping):
            out.append({"type": "list", "label": "", "items": [_str(raw)], "tone": ""})
            continue
        kind = raw.get("type")
        tone = raw.get("tone") if raw.get("tone") in TONES else ""
        label = _str(raw.get("label", ""))
        panel: dict[str, Any] = {"type": kind, "label": label, "tone": tone, "public": raw.get("public") is True}
        if kind == "meter":
            top = max(_int(raw.get("max"), 1), 1)
            value = _int(raw.get("value"))
            panel.update(value=value, max=top, note=_str(raw.get("note", "")),
                         percent=max(0, min(100, round(100 * value / top))))
        elif kind == "boxes":
            total = max(0, min(_int(raw.get("total")), 100))
            marks = _mapping(raw.get("marks"))
            panel.update(filled=max(0, min(_int(raw.get("filled")), total)), total=total,
                         marks={_int(k): _str(v, 20) for k, v in list(marks.items())[:100]},
                         note=_str(raw.get("note", "")))
        elif kind == "slots":
            slots = _sequence(raw.get("slots"))
            panel["slots"] = [{"text": _str(s.get("text", ""), 80), "destroyed": bool(s.get("destroyed")),
                               "empty": bool(s.get("empty"))} if isinstance(s, Mapping)
                              else {"text": _str(s, 80), "destroyed": False, "empty": False}
                              for s in list(slots)[:MAX_ITEMS]]
        elif kind == "facts":
            items = _sequence(raw.get("items"))
            panel["items"] = [[_str(i[0], 80), _str(i[1])] if isinstance(i, (list, tuple)) and len(i) == 2
                              else ["", _str(i)] for i in list(items)[:MAX_ITEMS]]
        elif kind == "list":
            items = _sequence(raw.get("items"))
            panel["items"] = [_str(i, 1000) for i in list(items)[:MAX_ITEMS]]
        elif kind == "alert":
            panel["text"] = _str(raw.get("text", ""))
        elif kind == "grid" and depth == 0:
            cells = _sequence(raw.get("cells"))
            panel["columns"] = max(1, min(_int(raw.get("columns"), 1), 12))
            panel["cells"] = [{"row": max(0, min(_int(c.get("row")), 50)) + 1,
                               "col": max(0, min(_int(c.get("col")), 11)) + 1,
                               "label": _str(c.get("label", ""), 80), "tone": c.get("tone") if c.get("tone") in TONES else "",
                               "panels": clean(c.get("panels") or [], depth + 1, budget)}
                              for c in list(cells)[:60] if isinstance(c, Mapping)]
        else:
            panel = {"type": "list", "label": label or f"(a panel of unknown type {_str(kind, 30)!r})",
                     "items": [_str(json.dumps(raw, default=str), 1000)], "tone": "warn"}
        out.append(panel)
    return out


def picture(engine: Any, state: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The target's picture: the system's panels, else its ``critcore_show`` lines, else the
    state as data. A plugin failing to draw is said on the page (and the lines shown instead)."""
    from critcore.dice.rollers import RandomRoller
    from critcore.model import Procedure

    ctx = engine.context(Procedure("show", "show the target", verb="show"), engine.options, RandomRoller(0), state)
    problem: list[dict[str, Any]] = []
    hook = getattr(engine.pm.hook, "critcore_web_view", None)
    if hook is not None:
        try:
            panels = hook(ctx=ctx)
        except Exception as exc:  # noqa: BLE001 - one broken picture must not take the whole page down
            panels = None
            problem = [{"type": "alert", "tone": "warn", "label": "",
                        "text": f"the {engine.info.name} plugin could not draw this target ({type(exc).__name__}: "
                                f"{_str(exc, 200)}); its plain-words description follows"}]
        if panels is not None:
            return clean(panels)
    lines = engine.pm.hook.critcore_show(ctx=ctx)
    if lines is not None:
        return problem + [{"type": "list", "label": "", "items": [_str(x, 1000) for x in lines], "tone": ""}]
    text = json.dumps(state, ensure_ascii=False, indent=2)
    return problem + [{"type": "list", "label": "state", "items": text.splitlines()[:MAX_ITEMS], "tone": ""}]


# --- the odds chart -------------------------------------------------------------------------


def _percent(p: Fraction | float) -> str:
    value = float(p) * 100
    if value == 0:
        return "0%"
    if value < 0.01:
        return "<0.01%"
    return f"{value:.2f}%"


def chart_rows(result: Any) -> tuple[list[tuple[str, float, str]], list[tuple[str, float, str]]]:
    """(events, main outcomes): each ``(label, probability, shown)``. Events are the system's
    named events (an odds result's ``event_odds``); outcomes are the top-level groups."""
    events: list[tuple[str, float, str]] = []
    event_odds = getattr(result, "event_odds", None)
    if callable(event_odds):
        for event, p in event_odds():
            label = getattr(event, "text", "") or getattr(event, "name", "")
            events.append((str(label), float(p), _percent(p)))
    groups = []
    for g in result.groups(("determine",))[:20]:
        groups.append((g.label, float(g.probability), _percent(g.probability)))
    return events, groups


def odds_svg(title: str, events: Sequence[tuple[str, float, str]], groups: Sequence[tuple[str, float, str]]) -> str:
    """A horizontal bar chart (SVG, drawn on the server): the named events, then the outcomes."""
    width, label_w, bar_w, row_h = 760, 330, 330, 22
    rows: list[tuple[str, str, float, str]] = []
    if events:
        rows.append(("head", "Named events", 0.0, ""))
        rows.extend(("event", label, p, shown) for label, p, shown in events)
    if groups:
        rows.append(("head", "Outcomes", 0.0, ""))
        rows.extend(("group", label, p, shown) for label, p, shown in groups)
    height = 34 + row_h * len(rows) + 8
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" role="img" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" aria-label="{escape(title)}">',
             f'<text x="4" y="20" class="chart-title">{escape(title)}</text>']
    y = 34
    for kind, label, p, shown in rows:
        if kind == "head":
            parts.append(f'<text x="4" y="{y + 15}" class="chart-head">{escape(label)}</text>')
        else:
            short = label if len(label) <= 48 else label[:47] + "…"
            w = max(1.0, bar_w * p) if p > 0 else 0
            parts.append(f'<text x="12" y="{y + 15}" class="chart-label"><title>{escape(label)}</title>'
                         f'{escape(short)}</text>')
            parts.append(f'<rect x="{label_w}" y="{y + 4}" width="{w:.1f}" height="{row_h - 8}" class="bar-{kind}"/>')
            parts.append(f'<text x="{label_w + bar_w + 8}" y="{y + 15}" class="chart-value">{escape(shown)}</text>')
        y += row_h
    parts.append("</svg>")
    return "".join(parts)


SEVERITY_WORDS = {"none": "nothing lasting", "minor": "minor", "serious": "serious", "grave": "grave",
                  "deadly": "deadly"}
"""The word the result card shows beside its colour (colour is never the only sign)."""


def result_card(outcome: Any, pm: Any, ranked: Any = None) -> dict[str, Any]:
    """An outcome as the page's result card: the headline (the most serious thing that happened,
    :mod:`critcore.report.severity`), its severity as a word and a class, what changed on the
    target (worst first; changes of no consequence are left for the details), the report's other
    lines (rolls and table rows, shown folded) and the players' report, and the parameters it ran
    with (the procedure's form shows them again). ``ranked``: the outcome's game-master ranking
    (:func:`critcore.report.render.rank`) when the caller made it already."""
    from critcore.model import thaw
    from critcore.report.render import judge, rank, render

    ranked = rank(outcome, "gm", pm) if ranked is None else ranked
    judged = judge(outcome, "gm", pm, ranked)
    detail = render(outcome, explain=False, view="gm", pm=pm, ranked=ranked).splitlines()[1:]
    while detail and not detail[0].strip():
        detail.pop(0)
    player = render(outcome, view="player", pm=pm).splitlines()
    from critcore.report.render import param_defaults

    defaults = param_defaults(pm, outcome.procedure) or {}
    params = {k: v for k, v in thaw(outcome.params).items()
              if v is not None and not (k in defaults and v == defaults[k] and type(v) is type(defaults[k]))}
    return {"severity": judged.severity, "word": SEVERITY_WORDS.get(judged.severity, judged.severity),
            "headline": judged.headline,
            "changes": [{"severity": c.severity, "word": SEVERITY_WORDS.get(c.severity, c.severity), "text": c.text}
                        for c in judged.changes if c.severity != "none" and c.text != judged.headline][:12],
            "detail": detail, "player": player, "params": params, "procedure": outcome.procedure}


def public_picture(engine: Any, state: Mapping[str, Any]) -> list[dict[str, Any]]:
    """What the characters can see of a target: only the panels its system marks ``public``
    (none for a system that marks none; the ``crit show`` lines a system without pictures falls
    back on are the game master's)."""
    return [p for p in picture(engine, state) if p.get("public") is True]
