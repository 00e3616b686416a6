"""Monte Carlo: resolve a procedure many times with seeded dice and count the outcomes.

The loop is lean on purpose: parameters are checked once, one context is reused, totals are
drawn straight from each roll's exact distribution (the same seed gives the same counts), no
roll record is kept, and when a stage has a single plain implementation (no house-rule wrapper)
it is called directly instead of through pluggy ("hook implementations looked up once per
batch"). Results have the shape of :mod:`critcore.exact`, with a 95% confidence interval.
"""

from __future__ import annotations

import math
import random
from bisect import bisect_right
from dataclasses import dataclass
from itertools import accumulate
from typing import Any, Callable, Mapping, Sequence

from .dice import DiceExpr, SuccessTest, make_test, parse
from .engine import Context, Engine, check_params, direct_caller
from .model import Data, Roll, freeze, thaw
from .exact import LEVELS, Branch, Group, group

Z95 = 1.959963984540054


class SamplingDice:
    """A :class:`~critcore.dice.Dice` look-alike for simulations: draws totals from each roll's
    exact distribution with one random number, and keeps no record."""

    __slots__ = ("_random", "_sums", "_tests", "_rolls", "rolls")

    def __init__(self, seed: int | str | None) -> None:
        self._random = random.Random(seed).random
        self._sums: dict[Any, tuple[list[float], list[int]]] = {}
        self._tests: dict[SuccessTest, tuple[list[float], list[tuple[int, bool]]]] = {}
        self._rolls: dict[tuple[str, Any, Any], Roll] = {}
        self.rolls: list[Roll] = []  # always empty: simulations keep no record

    def _sampler(self, key: Any) -> tuple[list[float], list[int]]:
        expr = key if isinstance(key, DiceExpr) else parse(key)
        dist = expr.distribution()
        cumulative = list(accumulate(float(p) for _, p in dist))
        cumulative[-1] = 2.0  # never fall off the end through rounding
        made = (cumulative, [v for v, _ in dist])
        self._sums[key] = made
        return made

    def roll(self, notation: str | DiceExpr, label: str) -> Roll:
        sampler = self._sums.get(notation) or self._sampler(notation)
        total = sampler[1][bisect_right(sampler[0], self._random())]
        key = (label, notation, total)
        roll = self._rolls.get(key)
        if roll is None:
            expr = notation if isinstance(notation, DiceExpr) else parse(notation)
            roll = self._rolls[key] = Roll(label, expr.notation, (), total)
        return roll

    def test(self, dice: int, tn: int, label: str, *, rule_of_six: bool = True) -> Roll:
        test = make_test(dice, tn, rule_of_six)
        sampler = self._tests.get(test)
        if sampler is None:
            dist = test.distribution()
            cumulative = list(accumulate(float(p) for _, p in dist))
            cumulative[-1] = 2.0
            sampler = self._tests[test] = (cumulative, [v for v, _ in dist])
        successes, ones = sampler[1][bisect_right(sampler[0], self._random())]
        key = (label, test, (successes, ones))
        roll = self._rolls.get(key)
        if roll is None:
            detail = "rule of one: every die shows 1" if ones else ""
            roll = self._rolls[key] = Roll(label, test.notation, (), successes, successes, detail)
        return roll

    def until(self, attempt: Callable[[Any], Any], label: str, limit: int = 1000) -> Any:
        for _ in range(limit):
            answer = attempt(self)
            if answer is not None:
                return answer
        from .errors import DiceError

        raise DiceError(f"{label}: no acceptable result after {limit} tries")


@dataclass(frozen=True)
class Simulation:
    """Counted outcomes of ``n`` resolutions; probabilities are frequencies with 95% intervals."""

    system: str
    procedure: str
    params: Data
    n: int
    seed: Any
    counts: tuple[tuple[tuple[Any, ...], int], ...]

    @property
    def branches(self) -> tuple[Branch, ...]:
        return tuple(Branch(k[0], k[1], k[2], k[3], c / self.n) for k, c in self.counts)

    def frequency(self, predicate: Callable[[Branch], bool]) -> tuple[float, float, float]:
        """(frequency, low, high): the share of resolutions where ``predicate`` holds, with a
        95% Wilson interval."""
        hits = sum(c for k, c in self.counts if predicate(Branch(k[0], k[1], k[2], k[3], 0.0)))
        return (hits / self.n, *wilson(hits, self.n))

    def groups(self, levels: Sequence[str] = LEVELS) -> tuple[Group, ...]:
        return _with_counts(group(self.branches, levels), self.n)

    def to_json(self, levels: Sequence[str] = LEVELS) -> dict[str, Any]:
        def g_json(g: Group) -> dict[str, Any]:
            low, high = wilson(g.count, self.n)
            out: dict[str, Any] = {"level": g.level, "label": g.label, "probability": g.probability,
                                   "percent": g.probability * 100, "count": g.count, "ci95": [low, high]}
            if g.children:
                out["children"] = [g_json(c) for c in g.children]
            return out

        return {
            "system": self.system, "procedure": self.procedure, "params": thaw(self.params), "n": self.n,
            "seed": self.seed, "groups": [g_json(g) for g in self.groups(levels)],
        }


def _with_counts(groups: Sequence[Group], n: int) -> tuple[Group, ...]:
    from dataclasses import replace

    return tuple(replace(g, count=round(float(g.probability) * n), children=_with_counts(g.children, n)) for g in groups)


def wilson(hits: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion (sound near 0 and 1 too)."""
    if n == 0:
        return (0.0, 1.0)
    p = hits / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def simulate(
    engine: Engine,
    procedure: str,
    params: Mapping[str, Any] | None = None,
    n: int = 100_000,
    seed: int | str | None = 0,
    target: Mapping[str, Any] | None = None,
    progress: Callable[[int], None] | None = None,
) -> Simulation:
    """Resolve ``procedure`` ``n`` times with seeded dice; ``progress(done)`` is called now and then."""
    proc = engine.procedure(procedure)
    checked = check_params(proc, params or {})
    dice = SamplingDice(seed)
    ctx = Context(engine.info, proc, checked, engine.options, engine.tables, dice,  # type: ignore[arg-type]
                  None if target is None else freeze(target), engine.rules)
    notes = ctx.notes
    hook = engine.pm.hook
    counts: dict[tuple[Any, ...], int] = {}
    step = max(1, min(n // 100, 50_000))
    if proc.verb == "treat":
        treat = direct_caller(hook.critcore_treat, ("ctx",))
        for i in range(n):
            key = (None, None, (), treat(ctx))
            counts[key] = counts.get(key, 0) + 1
            del notes[:]
            if progress is not None and i % step == 0:
                progress(i)
    else:
        determine = direct_caller(hook.critcore_determine, ("ctx",))
        locate = direct_caller(hook.critcore_locate, ("ctx", "determination"))
        effect = direct_caller(hook.critcore_effect, ("ctx", "determination", "location"))
        apply = direct_caller(hook.critcore_apply, ("ctx", "determination", "location", "effects"))
        for i in range(n):
            det = determine(ctx)
            if det is not None and det.final:
                key: tuple[Any, ...] = (det, None, (), None)
            else:
                loc = locate(ctx, det)
                found = effect(ctx, det, loc)
                effects = () if found is None else tuple(found)
                key = (det, loc, effects, apply(ctx, det, loc, effects))
            counts[key] = counts.get(key, 0) + 1
            if notes:
                del notes[:]
            if progress is not None and i % step == 0:
                progress(i)
    if progress is not None:
        progress(n)
    return Simulation(engine.info.name, proc.name, checked, n, seed, tuple(counts.items()))
