"""What ``crit odds`` and ``crit simulate`` print: events first, then the outcome tree, a text
chart, comparisons between rule sets, and the JSON (format 2, documented in docs/odds.md).

Stage results and target states are stored once in the JSON and referenced by index; a state is
written as its difference from the input (a JSON Merge Patch, RFC 7386), so even the thousands of
outcomes of a BattleTech torso on an assault 'Mech stay small.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Callable, Iterable, Sequence

from critcore.chance.probability import LEVELS, Z95, Group, prob_json, wilson
from critcore.model import Data, _stage_json, thaw

FORMAT = 2
BAR_WIDTH = 30


# --- numbers in words ---------------------------------------------------------------------

def percent(p: Fraction | float) -> str:
    """A probability as a percentage, with enough digits to tell small ones from nothing."""
    v = float(p) * 100
    if v == 0 or v >= 0.001:
        return f"{v:.4f}%"
    return f"{v:.2g}%"


def fraction(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}" if p else "0"


def bar(p: float, width: int = BAR_WIDTH) -> str:
    """A horizontal bar for a share between 0 and 1, in eighths of a character."""
    eighths = round(max(0.0, min(1.0, p)) * width * 8)
    full, part = divmod(eighths, 8)
    return "█" * full + ("" if not part else " ▏▎▍▌▋▊▉"[part])


def difference(a: Fraction | float, b: Fraction | float) -> str:
    """``a - b`` in percentage points, and exactly when both are exact."""
    d = a - b
    points = f"{float(d) * 100:+.4f} pp"
    if isinstance(d, Fraction):
        return f"{points}  ({'+' if d >= 0 else '-'}{fraction(abs(d))})" if d else "same"
    return points


# --- events -------------------------------------------------------------------------------

def event_lines(result: Any, chart: bool) -> list[str]:
    """The events block: each event's probability (exact, or an estimate with its interval)."""
    rows = result.event_estimates() if hasattr(result, "event_estimates") else None
    if rows is None:
        shown = [(e.text, percent(p), fraction(p), float(p)) for e, p in result.event_odds()]
    else:
        shown = [(e.text, percent(f), f"95% CI {percent(lo)} to {percent(hi)}  ({c:,} time{'' if c == 1 else 's'})", f)
                 for e, c, f, lo, hi in rows]
    if not shown:
        return ["events: none declared by this system"]
    wide = max(len(s[0]) for s in shown)
    wide_p = max(len(s[1]) for s in shown)
    wide_x = max(len(s[2]) for s in shown)
    lines = ["events"]
    for text, pct, extra, value in shown:
        line = f"  {text:<{wide}}  {pct:>{wide_p}}  {extra:<{wide_x}}"
        if chart:
            line += "  " + bar(value)
        lines.append(line.rstrip())
    return lines


# --- the outcome tree ---------------------------------------------------------------------

def tree_lines(groups: Iterable[Group], chart: bool, indent: int = 1) -> list[str]:
    """Each group on one line: its words, its probability (percent and exact fraction), and at
    the top level a bar when ``chart``."""
    lines: list[str] = []
    for g in groups:
        p = g.probability
        shown = percent(p) + (f"  {fraction(p)}" if isinstance(p, Fraction) else "")
        if g.count:
            shown += f"  ({g.count:,} time{'' if g.count == 1 else 's'})"
        line = f"{'  ' * indent}{g.label}  {shown}"
        if chart and indent == 1:
            line += "  " + bar(float(p))
        lines.append(line)
        lines.extend(tree_lines(g.children, chart, indent + 1))
    return lines


def report_lines(result: Any, head: str, tail: str, levels: Sequence[str], chart: bool) -> list[str]:
    """The whole text report: the heading, the events, the outcomes, the closing line."""
    lines = [head]
    lines.extend(event_lines(result, chart))
    lines.append("outcomes")
    lines.extend(tree_lines(result.groups(levels), chart))
    lines.append(tail)
    return lines


# --- JSON ---------------------------------------------------------------------------------

def merge_patch(before: Any, after: Any) -> Any:
    """The JSON Merge Patch (RFC 7386) that turns ``before`` into ``after`` (frozen data in,
    plain JSON out): changed keys only, ``null`` for a key removed, lists replaced whole."""
    if not (isinstance(before, Data) and isinstance(after, Data)):
        return thaw(after)
    out: dict[str, Any] = {}
    for key, value in after.items():
        if key not in before:
            out[key] = thaw(value)
            continue
        old = before[key]
        if old is value or old == value:
            continue
        out[key] = merge_patch(old, value) if isinstance(old, Data) and isinstance(value, Data) else thaw(value)
    for key in before:
        if key not in after:
            out[key] = None
    return out


def _applied_json(key: tuple[Any, ...]) -> dict[str, Any]:
    """An apply answer in the JSON, from :meth:`_Parts._applied_key` (its parts' indices)."""
    summary, changes, target, effects, data, tags = key
    return {"summary": summary, "changes": list(changes), "target": target, "effects": list(effects), "data": data,
            "tags": sorted(tags)}


class _Parts:
    """Stage results and states, each stored once and referred to by its index."""

    def __init__(self, base: Any) -> None:
        self.base = base
        self.tables: dict[str, dict[Any, int]] = {"determination": {}, "location": {}, "effect": {},
                                                   "applied": {}, "data": {}, "state": {}}
        self.out: dict[str, list[Any]] = {name: [] for name in self.tables}
        # each value's index by the value's identity as well: the outcomes of exact odds share
        # their stage results as objects, so most look-ups need neither a hash nor a comparison
        # of frozen records (written in Python). The values are all alive while the JSON is made
        # (the outcomes hold them), so no identity is reused meanwhile.
        self.ids: dict[str, dict[int, int]] = {name: {} for name in self.tables}

    def ref(self, kind: str, value: Any) -> int | None:
        if value is None:
            return None
        ids = self.ids[kind]
        found = ids.get(id(value))
        if found is not None:
            return found
        table = self.tables[kind]
        # an apply answer is found by its parts' indices: equal parts made apart (a long question's
        # answers from a second process, critcore._speed.twocores) are compared once each, not once
        # for every answer that holds them
        key = self._applied_key(value) if kind == "applied" else value
        found = table.get(key)
        if found is None:
            found = table[key] = len(self.out[kind])
            self.out[kind].append(None)  # reserved: nested parts may be added while making it
            self.out[kind][found] = self.make(kind, value) if key is value else _applied_json(key)
        ids[id(value)] = found
        return found

    def _applied_key(self, value: Any) -> tuple[Any, ...]:
        """What tells apply answers apart, each part by its index (so an equal answer has an equal
        key): its parts are put in their tables here, the state first, then the effects, then the
        data."""
        return (value.summary, value.changes, self.ref("state", value.target),
                tuple([self.ref("effect", e) for e in value.effects]), self.ref("data", value.data), value.tags)

    def make(self, kind: str, value: Any) -> Any:
        if kind == "effect":
            return value.to_json()
        if kind == "state":
            return merge_patch(self.base, value) if self.base is not None else thaw(value)
        if kind == "data":
            return thaw(value)
        return _stage_json(value)


def outcomes_json(branches: Sequence[Any], base: Any, n: int | None = None) -> tuple[list[Any], dict[str, Any]]:
    """(outcomes, parts): each outcome's probability, tags and the indexes of its stage results;
    ``parts`` holds each distinct stage result and state once."""
    parts = _Parts(base)
    outcomes = []
    for b in sorted(branches, key=_most_likely_first(branches)):
        entry: dict[str, Any] = {"probability": prob_json(b.probability, n), "tags": sorted(b.tags),
                                 "determination": parts.ref("determination", b.determination),
                                 "location": parts.ref("location", b.location),
                                 "effects": [parts.ref("effect", e) for e in b.effects],
                                 "applied": parts.ref("applied", b.applied)}
        outcomes.append(entry)
    stored = dict(parts.out)
    states = stored.pop("state")
    return outcomes, {"parts": stored, "states": states}


def _most_likely_first(branches: Sequence[Any]) -> Callable[[Any], Any]:
    """A sort key that puts the most likely outcome first: exact probabilities as whole numbers
    over their least common denominator (the same order as the fractions, compared as integers:
    sorting the 17,544 outcomes of the slowest corpus location by their fractions took 0.2 s),
    frequencies as they are."""
    if not all(isinstance(b.probability, Fraction) for b in branches):
        return lambda b: -b.probability
    common = math.lcm(*{b.probability.denominator for b in branches})
    return lambda b: -b.probability.numerator * (common // b.probability.denominator)


def group_json(g: Group, n: int | None = None, interval: Any = None) -> dict[str, Any]:
    out: dict[str, Any] = {"level": g.level, "label": g.label, "probability": prob_json(g.probability, n)}
    if n:
        out["count"] = g.count
        out["ci95"] = list(interval(g.count, n))
    if g.children:
        out["children"] = [group_json(c, n, interval) for c in g.children]
    return out


def odds_json(odds: Any, levels: Sequence[str] = LEVELS) -> dict[str, Any]:
    outcomes, stored = outcomes_json(odds.branches, odds.target)
    return {
        "format": FORMAT,
        "kind": "odds",
        "system": odds.system,
        "procedure": odds.procedure,
        "params": thaw(odds.params),
        "rules": list(odds.rules),
        "exact": odds.exact,
        "remainder": prob_json(odds.remainder),
        "events": [{"name": e.name, "text": e.text, "probability": prob_json(p)} for e, p in odds.event_odds()],
        "outcomes": outcomes,
        **stored,
        "groups": [group_json(g) for g in odds.groups(levels)],
    }


def simulation_json(sim: Any, levels: Sequence[str] = LEVELS) -> dict[str, Any]:
    outcomes, stored = outcomes_json(sim.branches, sim.target, sim.n)
    return {
        "format": FORMAT,
        "kind": "simulation",
        "system": sim.system,
        "procedure": sim.procedure,
        "params": thaw(sim.params),
        "rules": list(sim.rules),
        "n": sim.n,
        "seed": sim.seed,
        "partial": sim.partial,
        "events": [{"name": e.name, "text": e.text, "probability": prob_json(f, sim.n), "count": c,
                    "ci95": [lo, hi]} for e, c, f, lo, hi in sim.event_estimates()],
        "outcomes": outcomes,
        **stored,
        "groups": [group_json(g, sim.n, wilson) for g in sim.groups(levels)],
    }


# --- comparisons --------------------------------------------------------------------------

def _by_name(result: Any) -> dict[str, tuple[Any, Any, Any]]:
    """event name -> (event, probability, interval or None)."""
    if hasattr(result, "event_estimates"):
        return {e.name: (e, f, (lo, hi)) for e, _c, f, lo, hi in result.event_estimates()}
    return {e.name: (e, p, None) for e, p in result.event_odds()}


def comparison(with_rules: Any, without: Any) -> list[dict[str, Any]]:
    """Each event of either side: its probability with and without, and the difference."""
    a, b = _by_name(with_rules), _by_name(without)
    rows = []
    for name in dict.fromkeys([*a, *b]):
        event = (a.get(name) or b[name])[0]
        pa = a[name][1] if name in a else _none(with_rules)
        pb = b[name][1] if name in b else _none(without)
        row: dict[str, Any] = {"event": event, "with": pa, "without": pb, "difference": pa - pb}
        if name in a and a[name][2] is not None:
            row["with_ci95"] = a[name][2]
        if name in b and b[name][2] is not None:
            row["without_ci95"] = b[name][2]
        if "with_ci95" in row or "without_ci95" in row:
            row["difference_ci95"] = _difference_interval(pa, with_rules.n, pb, without.n)
        rows.append(row)
    return rows


def _none(result: Any) -> Fraction | float:
    return 0.0 if hasattr(result, "event_estimates") else Fraction(0)


def _difference_interval(pa: Fraction | float, na: int, pb: Fraction | float, nb: int) -> tuple[float, float]:
    """A 95% interval for the difference of two independent frequencies (normal approximation)."""
    half = Z95 * ((pa * (1 - pa) / na) + (pb * (1 - pb) / nb)) ** 0.5
    d = pa - pb
    return (d - half, d + half)


def comparison_lines(rows: list[dict[str, Any]], head: str, names: tuple[str, str], chart: bool) -> list[str]:
    """The comparison as a table: event, with, without, difference (and bars side by side)."""
    if not rows:
        return [head, "events: none declared by this system"]
    table = [("event", names[0], names[1], "difference")]
    for r in rows:
        def shown(p: Any, key: str) -> str:
            if isinstance(p, Fraction):
                return f"{percent(p)} {fraction(p)}"
            lo, hi = r[key]
            return f"{percent(p)} [{percent(lo)}-{percent(hi)}]"

        diff = difference(r["with"], r["without"])
        if "difference_ci95" in r:
            lo, hi = r["difference_ci95"]
            diff += f" [{lo * 100:+.4f}, {hi * 100:+.4f}]"
        table.append((r["event"].text, shown(r["with"], "with_ci95"), shown(r["without"], "without_ci95"), diff))
    widths = [max(len(row[i]) for row in table) for i in range(4)]
    lines = [head]
    for i, row in enumerate(table):
        line = "  " + "  ".join(f"{cell:<{widths[j]}}" for j, cell in enumerate(row))
        if chart and i:
            r = rows[i - 1]
            line += f"  {bar(float(r['with']), 15):<15} | {bar(float(r['without']), 15)}"
        lines.append(line.rstrip())
    return lines


def comparison_json(rows: list[dict[str, Any]], with_rules: Any, without: Any) -> dict[str, Any]:
    simulated = hasattr(with_rules, "event_estimates")
    out: dict[str, Any] = {
        "format": FORMAT,
        "kind": "simulation-comparison" if simulated else "odds-comparison",
        "system": with_rules.system,
        "procedure": with_rules.procedure,
        "params": thaw(with_rules.params),
        "rules": list(with_rules.rules),
        "against": list(without.rules),
        "events": [],
    }
    if simulated:
        out["n"] = [with_rules.n, without.n]
        out["partial"] = bool(with_rules.partial or without.partial)
    n_a = getattr(with_rules, "n", None)
    n_b = getattr(without, "n", None)
    for r in rows:
        e = r["event"]
        entry: dict[str, Any] = {"name": e.name, "text": e.text, "with": prob_json(r["with"], n_a),
                                 "without": prob_json(r["without"], n_b)}
        d = r["difference"]
        entry["difference"] = ({"fraction": fraction(d), "float": float(d)} if isinstance(d, Fraction)
                               else {"fraction": None, "float": d})
        for key in ("with_ci95", "without_ci95", "difference_ci95"):
            if key in r:
                entry[key] = list(r[key])
        out["events"].append(entry)
    return out

