"""Plain-words reports of an outcome: the headline first, then every roll, row and stage.

:func:`render` gives plain text (the Python API, tests, pipes). :func:`report_lines` gives the
same report as styled lines, ``(style, text)``, which :mod:`critcore.report.style` colours for a
terminal after making the text safe; nothing here writes an escape sequence.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from critcore._speed.stagecall import hook_function
from critcore.dice.notation import parse
from critcore.errors import DiceError
from critcore.model import Effect, Outcome, Roll, thaw
from critcore.report.severity import assess

STAGE_WORDS = {
    "determine": "Is it a critical?",
    "locate": "Where",
    "effect": "What happens",
    "apply": "To the target",
    "treat": "Treatment",
}
"""The words a report uses for each stage (the stage names themselves are for code)."""

Line = tuple[str, str]
"""One line of a report and its style: ``headline-SEVERITY`` (the first line, by the outcome's
severity: ``headline-none`` ... ``headline-deadly``), ``title``, ``stage``, ``roll``, ``detail``,
``note`` or ``plain``."""

def _modifiers(notation: str) -> str:
    """The part of a roll's notation applied after the faces are added: ``" +1"``, ``" -3 x10"``
    (read by the dice parser; a notation it does not read shows none)."""
    try:
        expr = parse(notation)
    except DiceError:
        return ""
    shown = f" {expr.plus:+d}" if expr.plus else ""
    if expr.times != 1:
        shown += f" x{expr.times}"
    if expr.divide != 1:
        shown += f" /{expr.divide}"
    return shown


def roll_line(roll: Roll) -> str:
    """``attack roll: 3d6 -> 2+1+2 = 5``; a modifier shows in the sum: ``2d6+1 -> 3+2 +1 = 6``."""
    if roll.successes is not None:
        faces = " ".join(map(str, roll.faces))
        seen = f" [{faces}]" if faces else ""
        text = f"{roll.label}: {roll.notation}{seen} -> {roll.successes} success{'es' if roll.successes != 1 else ''}"
        return text + (f" ({roll.detail})" if roll.detail else "")
    mods = _modifiers(roll.notation) if roll.faces else ""
    if roll.faces and (len(roll.faces) > 1 or mods):
        shown = "+".join(map(str, roll.faces)) + mods + f" = {roll.total}"
    elif roll.faces:
        shown = f"{roll.faces[0]}" + (f" -> {roll.total}" if roll.total != roll.faces[0] else "")
    else:
        shown = str(roll.total)
    return f"{roll.label}: {roll.notation} -> {shown}"


def effect_line(effect: Effect, explain: bool = True) -> str:
    """``critical-hit table, 18: Basic damage is tripled.`` (the row id too with ``explain``)."""
    roll = f", {effect.roll}" if effect.roll is not None else ""
    row = f" [{effect.id}]" if explain else ""
    return f"{effect.table} table{roll}: {effect.text}{row}"


_UNITS = (("week", 7 * 86400), ("day", 86400), ("hour", 3600), ("minute", 60), ("second", 1))


def duration(seconds: int | float, parts: int = 2) -> str:
    """Seconds of game time in the largest units that fit (weeks only when whole): ``90 days``,
    ``1 hour 30 minutes``, ``2 weeks``.

    >>> duration(7776000), duration(5400), duration(1), duration(0)
    ('90 days', '1 hour 30 minutes', '1 second', '0 seconds')
    """
    left = int(seconds)
    if left <= 0:
        return "0 seconds"
    out: list[str] = []
    units = _UNITS if left % _UNITS[0][1] == 0 else _UNITS[1:]  # weeks only when whole: "90 days", not "12 weeks 6 days"
    for name, size in units:
        if left >= size and len(out) < parts:
            n, left = divmod(left, size)
            out.append(f"{n} {name}{'s' if n != 1 else ''}")
        elif out:
            break  # no gaps: "1 week 3 seconds" would mislead
    return " ".join(out)


def _value(v: Any) -> str:
    v = thaw(v)
    if v is True:
        return "on"
    if v is False:
        return "off"
    return str(v)


def _params(outcome: Outcome, defaults: Mapping[str, Any] | None = None) -> str:
    """The parameters given, in words: a flag by its name alone (``fine``), others with the value;
    a parameter left at its declared default is not shown."""
    shown = []
    for k, v in outcome.params.items():
        if v is None or v is False or (defaults is not None and k in defaults and thaw(v) == defaults[k]):
            continue
        name = k.replace("_", "-")
        shown.append(name if v is True else f"{name} {thaw(v)}")
    return ", ".join(shown)


def _first_clause(text: str) -> str:
    return text.split(":", 1)[0].strip()


def _clean(text: str) -> str:
    return text.strip().rstrip(".;").strip()


def headline(outcome: Outcome) -> str:
    """The critical in one line: what the determination found, the row that applied, what it did."""
    parts: list[str] = []
    det = outcome.determination
    applied = outcome.applied
    if outcome.steps and outcome.steps[0].stage == "treat" and applied is not None:
        return _capital(_clean(applied.summary))
    if det is not None:
        if not det.critical:
            return _capital(_clean(det.summary))
        parts.append(_clean(_first_clause(det.summary)))
    effects = outcome.effects
    if effects:
        parts.append(_clean(effects[-1].text))
    if applied is not None and applied.summary:
        parts.append(_clean(applied.summary))
    parts = [p for p in parts if p]
    seen: list[str] = []
    for i, p in enumerate(parts):  # a part another part already says is left out
        others = parts[:i] + parts[i + 1:]
        if any(p.lower() in o.lower() and (p.lower() != o.lower() or j < i) for j, o in enumerate(others)):
            continue
        seen.append(p)
    return _capital(" — ".join(seen)) if seen else f"{outcome.system} {outcome.procedure}"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def changed_options(outcome: Outcome, defaults: Mapping[str, Any] | None) -> list[tuple[str, Any]]:
    """The options in force that differ from the system's defaults (all of them if unknown)."""
    items = list(outcome.options.items())
    if defaults is None:
        return items
    return [(k, v) for k, v in items if k not in defaults or thaw(v) != thaw(defaults[k])]


def generic_lines(outcome: Outcome, explain: bool = False, defaults: Mapping[str, Any] | None = None,
                  param_defaults: Mapping[str, Any] | None = None) -> list[Line]:
    """The core's own report of an outcome, as styled lines (without the headline)."""
    lines: list[Line] = []
    params = _params(outcome, param_defaults)
    lines.append(("title", f"{outcome.system} {outcome.procedure}" + (f": {params}" if params else "")))
    applied = outcome.applied
    rolls = outcome.rolls
    for step in outcome.steps:
        for i in step.rolls:
            lines.append(("roll", f"  rolled {roll_line(rolls[i])}"))
        stage = step.stage
        words = STAGE_WORDS.get(stage, stage)
        sep = " " if words.endswith("?") else ": "
        # the rows each stage rolled: the effect stage's, and those rolled while applying
        stage_effects: Sequence[Effect] = outcome.effects if stage == "effect" else \
            applied.effects if stage == "apply" and applied else ()
        if stage == "effect" and len(stage_effects) == 1 and stage_effects[0].text == step.summary:
            lines.append(("stage", f"{words}{sep}{effect_line(stage_effects[0], explain)}"))
            stage_effects = ()
        elif stage == "effect" and len(stage_effects) > 1:
            # several rows (a re-roll, "use result N"): the one that applies is the last; each row below
            lines.append(("stage", f"{words}{sep}{stage_effects[-1].text}"))
        else:
            lines.append(("stage", f"{words}{sep}{step.summary}"))
        for eff in stage_effects:
            lines.append(("detail", f"  {effect_line(eff, explain)}"))
        if applied and (stage == "apply" or stage == "treat"):
            lines.extend([("detail", f"  {c}") for c in applied.changes])
    for note in outcome.notes:
        if explain or note.by:
            who = f" [{note.by}]" if note.by else ""
            lines.append(("note", f"note{who}: {note.text}"))
    if explain:
        if outcome.rules:
            lines.append(("note", "house rules enabled: " + ", ".join(outcome.rules)))
        changed = changed_options(outcome, defaults)
        if changed:
            lines.append(("note", "options changed from the defaults: "
                          + ", ".join(f"{k} {_value(v)}" for k, v in changed)))
    return lines


def generic_report(outcome: Outcome, explain: bool = False, defaults: Mapping[str, Any] | None = None) -> list[str]:
    """The core's own report as plain lines (the headline first)."""
    return [headline(outcome)] + [text for _, text in generic_lines(outcome, explain, defaults)]


def _plugin_style(text: str, first: bool) -> str:
    if first:
        return "title"
    stripped = text.lstrip()
    if stripped.startswith("rolled "):
        return "roll"
    return "detail" if text.startswith("  ") else "plain"


def _info(pm: Any) -> Any:
    if pm is None:
        return None
    try:
        return pm.hook.critcore_system()
    except Exception:  # a report must not fail because a plugin misbehaves here
        return None


def option_defaults(pm: Any) -> dict[str, Any] | None:
    """The system's option defaults, from its ``critcore_system`` answer (None if unknown)."""
    info = _info(pm)
    return None if info is None else {o.name: o.default for o in info.options}


_PARAM_DEFAULTS: Any = None  # a WeakKeyDictionary: plugin manager -> {procedure: its parameters' defaults}


def param_defaults(pm: Any, procedure: str) -> dict[str, Any] | None:
    """The declared defaults of a procedure's parameters (None if unknown): read once for each
    plugin manager (a system describes itself the same way for as long as it is loaded; every
    report of ``crit serve`` asks), kept only while the manager lives. Read it, do not change it."""
    global _PARAM_DEFAULTS
    if pm is None:
        return None
    if _PARAM_DEFAULTS is None:
        from weakref import WeakKeyDictionary

        _PARAM_DEFAULTS = WeakKeyDictionary()
    try:
        known = _PARAM_DEFAULTS.get(pm)
    except TypeError:  # a manager that cannot be weakly referenced: read each time
        known = None
    if known is not None and procedure in known:
        return known[procedure]  # type: ignore[no-any-return]
    info = _info(pm)
    if info is None:
        return None  # not kept: a plugin that failed here may answer next time
    found = None
    for proc in info.procedures:
        if proc.name == procedure:
            found = {p.name: p.default for p in proc.params}
            break
    try:
        _PARAM_DEFAULTS.setdefault(pm, {})[procedure] = found
    except TypeError:
        pass
    return found


def judge(outcome: Outcome, view: str = "gm", pm: Any = None, ranked: Any = None) -> Any:
    """The outcome's :class:`critcore.report.severity.Assessment` against the core's headline:
    ``severity``, ``summary`` and the ranked ``changes`` of ``--json``, the API and the web card.
    ``ranked``: the outcome's assessment for ``view`` already made (:func:`rank`), not made again."""
    return (rank(outcome, view, pm) if ranked is None else ranked).headed(headline(outcome))


def judged(outcome: Outcome, ranked: Any) -> tuple[str, Any]:
    """The core's :func:`headline` of ``outcome`` and ``ranked`` (its :func:`rank`) headed by it:
    what :func:`judge` answers, with the headline, for :func:`report_lines`'s ``judged``."""
    head = headline(outcome)
    return head, ranked.headed(head)


def rank(outcome: Outcome, view: str = "gm", pm: Any = None) -> Any:
    """The outcome's ranked changes and severity for ``view`` (an
    :class:`~critcore.report.severity.Assessment` without a headline): what the report's
    headline and :func:`judge` both read, made once when both are wanted (``ranked=``)."""
    return assess(outcome, view, pm)


def _lead(outcome: Outcome, head: str, view: str, pm: Any, ranked: Any = None,
          judged: Any = None) -> tuple[Line, bool]:
    """The headline line, styled by the outcome's severity (``headline-grave``), and whether it is
    the report's own headline (False: a more serious change took its place). ``judged``: the
    ranking already headed by ``head``, when the caller has it."""
    if judged is None:
        judged = (rank(outcome, view, pm) if ranked is None else ranked).headed(head)
    kept = _clean(judged.headline).lower() == _clean(head).lower()
    return (f"headline-{judged.severity}", head if kept else judged.headline), kept


def report_lines(outcome: Outcome, explain: bool = False, view: str = "gm", pm: Any = None,
                 ranked: Any = None, judged: tuple[str, Any] | None = None) -> list[Line]:
    """The whole report as ``(style, text)`` lines: the headline (the most serious thing that
    happened, see :mod:`critcore.report.severity`), then the system's report (``critcore_report``)
    or the core's, then with ``explain`` the step-by-step detail. ``ranked``: the outcome's
    :func:`rank` for ``view`` when the caller has it already; ``judged``: the core's
    :func:`headline` and ``ranked`` headed by it (:func:`judged`), when the caller has them too
    (``crit serve`` answers the report and :func:`judge`'s summary: both made once)."""
    defaults = option_defaults(pm) if explain else None
    own: Sequence[str] | None = None
    if pm is not None:
        own = hook_function(pm, "critcore_report", ("outcome", "view"))(outcome, view)
    if own is None:
        head, headed = (headline(outcome), None) if judged is None else judged
        lead, kept = _lead(outcome, head, view, pm, ranked, headed)
        lines: list[Line] = [lead] if kept else [lead, ("plain", head)]  # the critical itself, under what it led to
        lines.extend(generic_lines(outcome, explain, defaults, param_defaults(pm, outcome.procedure)))
        return lines
    own = list(own)
    if view != "gm":  # the system decides what a player learns: its report alone, its first line the headline
        if not own:
            return []
        lead, kept = _lead(outcome, own[0], view, pm, ranked)
        rest = own[1:] if kept else own
        return [lead] + [(_plugin_style(text, False), text) for text in rest]
    head = headline(outcome)
    same = [i for i, text in enumerate(own) if _clean(text).lower() == _clean(head).lower()]
    if same:  # the system's report already says it: that line goes first, emphasised
        head = own.pop(same[0]).strip()
    lead, _ = _lead(outcome, head, view, pm, ranked)
    lines = [lead]
    lines.extend((_plugin_style(text, i == 0), text) for i, text in enumerate(own))
    if explain and view == "gm":
        lines.append(("plain", ""))
        lines.append(("title", "in detail:"))
        lines.extend(generic_lines(outcome, True, defaults, param_defaults(pm, outcome.procedure)))
    return lines


def render(outcome: Outcome, explain: bool = False, view: str = "gm", pm: Any = None, ranked: Any = None,
           judged: tuple[str, Any] | None = None) -> str:
    """The outcome in plain words, headline first. A system may supply its own report
    (``critcore_report``); ``critcore.report.style.paint`` colours the same lines for a terminal.
    ``ranked``: the outcome's :func:`rank` for ``view`` when the caller has it already, ``judged``
    its :func:`judged` (see :func:`report_lines`)."""
    return "\n".join([text for _, text in report_lines(outcome, explain, view, pm, ranked, judged)])
