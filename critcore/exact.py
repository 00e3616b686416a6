"""Exact odds: run a procedure's stages under the enumerating roller and merge equal outcomes.

The stages are enumerated one at a time. Each stage is run once per distinct sequence of roll
*results* (the 16 totals of 3d6, the success counts of a pool: never single faces), given each
distinct answer of the stages before it; equal answers are merged before the next stage runs.
So a system gets exact odds without writing any code for it, as long as its stages act only on
roll totals and talk to each other only through their answers.

Rolls with no upper end (exploding dice, "roll again until ...") are followed until what is
left unaccounted is below ``tolerance`` (one part in a million by default); the remainder is
reported, never hidden. :meth:`critcore.dice.Dice.until` keeps re-roll loops exact.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable, Iterable, Mapping, Sequence

from .enumeration import EnumeratingRoller, add_to, enumerate_weights_within
from .engine import Engine, check_params, direct_caller
from .model import Applied, Data, Determination, Effect, Location, thaw

DEFAULT_TOLERANCE = Fraction(1, 10**6)
LEVELS = ("determine", "locate", "effect", "apply")


@dataclass(frozen=True)
class Branch:
    """One distinct outcome and its probability (exact, or a frequency from a simulation)."""

    determination: Determination | None
    location: Location | None
    effects: tuple[Effect, ...]
    applied: Applied | None
    probability: Fraction | float

    def label(self, level: str) -> str:
        """How this outcome reads at one level of the grouping."""
        if level == "determine":
            d = self.determination
            return "-" if d is None else d.kind
        if level == "locate":
            return "-" if self.location is None else self.location.name
        if level == "effect":
            return ", ".join(e.id for e in self.effects) or "-"
        a = self.applied
        return "-" if a is None else a.summary

    def to_json(self) -> dict[str, Any]:
        from .model import _stage_json

        return {
            "probability": _prob_json(self.probability),
            "percent": float(self.probability) * 100,
            "determination": _stage_json(self.determination),
            "location": _stage_json(self.location),
            "effects": [e.to_json() for e in self.effects],
            "applied": _stage_json(self.applied),
        }


def _prob_json(p: Fraction | float) -> str | float:
    return f"{p.numerator}/{p.denominator}" if isinstance(p, Fraction) else p


@dataclass(frozen=True)
class Group:
    """Outcomes that read the same down to one level (e.g. every 'critical-hit')."""

    level: str
    label: str
    probability: Fraction | float
    children: tuple[Group, ...] = ()
    count: int = 0  # how many simulated resolutions fell here (simulations only)


def group(branches: Sequence[Branch], levels: Sequence[str] = LEVELS) -> tuple[Group, ...]:
    """Group outcomes the way a player reads them: determination, then location, effect, result."""
    if not levels:
        return ()
    level, rest = levels[0], levels[1:]
    buckets: dict[str, list[Branch]] = {}
    for b in branches:
        buckets.setdefault(b.label(level), []).append(b)
    out = []
    for label, members in buckets.items():
        total = sum((b.probability for b in members), Fraction(0) if isinstance(members[0].probability, Fraction) else 0.0)
        children = group(members, rest) if rest and not all(b.label(l) == "-" for b in members for l in rest) else ()
        out.append(Group(level, label, total, children))
    out.sort(key=lambda g: -g.probability)
    return tuple(out)


@dataclass(frozen=True)
class Odds:
    """Every distinct outcome of a procedure with its exact probability."""

    system: str
    procedure: str
    params: Data
    branches: tuple[Branch, ...]
    remainder: Fraction
    runs: int

    @property
    def exact(self) -> bool:
        return self.remainder == 0

    def probability(self, predicate: Callable[[Branch], bool]) -> Fraction:
        """Total probability of the outcomes for which ``predicate`` holds."""
        return sum((b.probability for b in self.branches if predicate(b)), Fraction(0))  # type: ignore[misc]

    def groups(self, levels: Sequence[str] = LEVELS) -> tuple[Group, ...]:
        return group(self.branches, levels)

    def to_json(self, levels: Sequence[str] = LEVELS) -> dict[str, Any]:
        return {
            "system": self.system,
            "procedure": self.procedure,
            "params": thaw(self.params),
            "exact": self.exact,
            "remainder": _prob_json(self.remainder),
            "outcomes": [b.to_json() for b in sorted(self.branches, key=lambda b: -b.probability)],
            "groups": [_group_json(g) for g in self.groups(levels)],
        }


def _group_json(g: Group) -> dict[str, Any]:
    out: dict[str, Any] = {"level": g.level, "label": g.label, "probability": _prob_json(g.probability),
                           "percent": float(g.probability) * 100}
    if g.count:
        out["count"] = g.count
    if g.children:
        out["children"] = [_group_json(c) for c in g.children]
    return out


def exact_odds(
    engine: Engine,
    procedure: str,
    params: Mapping[str, Any] | None = None,
    target: Mapping[str, Any] | None = None,
    tolerance: Fraction = DEFAULT_TOLERANCE,
) -> Odds:
    """Exact probabilities of every distinct outcome of ``procedure``, stage by stage.

    Probabilities travel as whole-number ``[numerator, denominator]`` pairs (much cheaper than
    fractions) and become :class:`~fractions.Fraction` at the end.
    """
    proc = engine.procedure(procedure)
    checked = check_params(proc, params or {})
    frozen = engine.check_target(target)  # checked against the system's schema and frozen, once
    runs = [0]
    context = engine.context

    def stage(call: Callable[[Any], Any]) -> tuple[dict[Any, list[int]], list[int]]:
        def run(roller: EnumeratingRoller) -> Any:
            runs[0] += 1
            return call(context(proc, checked, roller, frozen))

        return enumerate_weights_within(run, tolerance)

    hook = engine.pm.hook
    remainder = [0, 1]
    # every key below is new when it is made: a stage's answers are distinct (they were merged
    # while enumerating) and each extends a different prefix, so outcomes are kept in lists,
    # never hashed again as whole tuples
    finals: list[tuple[tuple[Any, ...], int, int]] = []
    if proc.verb == "treat":
        treat = direct_caller(hook.critcore_treat, ("ctx",))
        dist, rem = stage(treat)
        add_to(remainder, *rem)
        finals.extend(((None, None, (), applied), n, d) for applied, (n, d) in dist.items())
    else:
        determine = direct_caller(hook.critcore_determine, ("ctx",))
        callers = {
            "locate": direct_caller(hook.critcore_locate, ("ctx", "determination")),
            "effect": direct_caller(hook.critcore_effect, ("ctx", "determination", "location")),
            "apply": direct_caller(hook.critcore_apply, ("ctx", "determination", "location", "effects")),
        }
        dets, rem = stage(determine)
        add_to(remainder, *rem)
        states: list[tuple[tuple[Any, ...], int, int]] = []
        for det, (n, d) in dets.items():
            if det is not None and det.final:
                finals.append(((det, None, (), None), n, d))
            else:
                states.append(((det,), n, d))
        for level in ("locate", "effect", "apply"):
            call = callers[level]
            nxt: list[tuple[tuple[Any, ...], int, int]] = []
            for prefix, pn, pd in states:
                if level == "effect":
                    dist, rem = stage(lambda ctx, pre=prefix: _tuple(call(ctx, *pre)))
                    if None in dist and () in dist:  # no effects, said two ways: one outcome
                        add_to(dist[()], *dist.pop(None))
                else:
                    dist, rem = stage(lambda ctx, pre=prefix: call(ctx, *pre))
                add_to(remainder, pn * rem[0], pd * rem[1])
                for answer, (qn, qd) in dist.items():
                    if answer is None and level == "effect":
                        answer = ()
                    nxt.append((prefix + (answer,), pn * qn, pd * qd))
            states = nxt
        finals.extend(states)
    branches = tuple(Branch(k[0], k[1], k[2], k[3], Fraction(n, d)) for k, n, d in finals)
    # whatever was cut off, at the top or inside a Dice.branch, is what is missing from 1
    total = [0, 1]
    for _, n, d in finals:
        add_to(total, n, d)
    missing = 1 - Fraction(total[0], total[1])
    return Odds(engine.info.name, proc.name, checked, branches, missing, runs[0])


def _tuple(found: Any) -> Any:
    return None if found is None else tuple(found)


def render_groups(groups: Iterable[Group], exact: bool = True, indent: int = 0) -> list[str]:
    """Plain-text tree: each group's label with its probability (fraction and percent)."""
    lines: list[str] = []
    for g in groups:
        p = g.probability
        if isinstance(p, Fraction):
            shown = f"{float(p) * 100:9.4f}%  {p.numerator}/{p.denominator}"
        else:
            shown = f"{p * 100:9.4f}%"
        if g.count:
            shown += f"  ({g.count:,} times)"
        lines.append(f"{'  ' * indent}{g.label}  {shown}".rstrip())
        lines.extend(render_groups(g.children, exact, indent + 1))
    return lines
