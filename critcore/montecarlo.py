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

from .dice import DiceExpr, make_test, parse
from .engine import Context, Engine, check_params, direct_caller
from .model import Data, Roll, freeze, thaw
from .exact import LEVELS, Branch, Group, group

Z95 = 1.959963984540054


class SamplingDice:
    """A :class:`~critcore.dice.Dice` look-alike for simulations: each roll is one random number
    that picks from a table of the roll's results laid out by their exact weights (216 entries
    for 3d6), and no record is kept. Rolls are shared :class:`~critcore.model.Roll` objects."""

    __slots__ = ("_random", "_by_notation", "_tests", "_last", "rolls", "draws")

    def __init__(self, seed: int | str | None) -> None:
        self._random = random.Random(seed).random
        self._by_notation: dict[Any, dict[str, Any]] = {}
        self._tests: dict[tuple[int, int, bool, str], Any] = {}
        self._last: tuple[Any, ...] = (None, None, (), 0)
        self.draws = 0  # how many rolls so far: the simulation loop sees whether a stage rolled
        self.rolls: list[Roll] = []  # always empty: simulations keep no record

    @staticmethod
    def _table(options: Sequence[tuple[Any, Any]], make: Callable[[Any], Roll]) -> tuple[Any, ...]:
        """Weighted options as (flat table, size) when small, else (cumulative, rolls) for bisect."""
        from math import lcm

        den = lcm(*(p.denominator for _, p in options))
        if den <= 1 << 16:
            flat: list[Roll] = []
            for value, p in options:
                flat.extend([make(value)] * (p.numerator * (den // p.denominator)))
            return ("flat", flat, len(flat))
        cumulative = list(accumulate(float(p) for _, p in options))
        cumulative[-1] = 2.0  # never fall off the end through rounding
        return ("bisect", (cumulative, [make(v) for v, _ in options]), 0)

    def _draw(self, table: tuple[Any, ...]) -> Roll:
        kind, rolls, size = table
        if kind == "flat":
            return rolls[int(self._random() * size)]  # type: ignore[no-any-return]
        cumulative, made = rolls
        return made[bisect_right(cumulative, self._random())]  # type: ignore[no-any-return]

    def roll(self, notation: str | DiceExpr, label: str) -> Roll:
        self.draws += 1
        last = self._last
        if notation is last[0] and label is last[1]:  # the same roll as last time: no look-up
            return last[2][int(self._random() * last[3])]  # type: ignore[no-any-return]
        try:
            kind, rolls, size = self._by_notation[notation][label]
            if kind == "flat":
                self._last = (notation, label, rolls, size)
                return rolls[int(self._random() * size)]  # type: ignore[no-any-return]
        except KeyError:
            labels = self._by_notation.setdefault(notation, {})
            expr = notation if isinstance(notation, DiceExpr) else parse(notation)
            labels[label] = self._table(expr.distribution(), lambda v: Roll(label, expr.notation, (), v))
        return self._draw(self._by_notation[notation][label])

    def test(self, dice: int, tn: int, label: str, *, rule_of_six: bool = True) -> Roll:
        self.draws += 1
        key = (dice, tn, rule_of_six, label)
        table = self._tests.get(key)
        if table is None:
            test = make_test(dice, tn, rule_of_six)

            def make(value: tuple[int, bool]) -> Roll:
                detail = "rule of one: every die shows 1" if value[1] else ""
                return Roll(label, test.notation, (), value[0], value[0], detail)

            table = self._tests[key] = self._table(test.distribution(), make)
        return self._draw(table)

    def branch(self, fn: Callable[[Any], Any], label: str, key: Any = None) -> Any:
        return fn(self)

    def fold(self, state: Any, steps: Sequence[Callable[[Any, Any], Any]], label: str, key: Any = None) -> Any:
        for step in steps:
            state = step(self, state)
        return state

    def until(self, attempt: Callable[[Any], Any], label: str, limit: int = 1000, key: Any = None) -> Any:
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
    # Count by the identity of the stage answers first (systems return shared constants for
    # common answers, so this is one cheap dict lookup); each entry keeps its answers alive, so
    # an id is never reused while counted. Equal answers that are different objects are merged
    # by value afterwards (flush), and at least every 50,000 distinct entries to bound memory.
    by_id: dict[Any, list[Any]] = {}
    counts: dict[tuple[Any, ...], int] = {}

    def flush() -> None:
        for count, det, loc, found, applied in by_id.values():
            key = (det, loc, () if found is None else tuple(found), applied)
            counts[key] = counts.get(key, 0) + count
        by_id.clear()
        settled.clear()  # its entries were the ones just counted

    settled: dict[int, list[Any]] = {}

    step = max(1, min(n // 100, 50_000)) if progress is not None else n
    if proc.verb == "treat":
        treat = direct_caller(hook.critcore_treat, ("ctx",))
        for start in range(0, n, step):
            for _ in range(min(step, n - start)):
                applied = treat(ctx)
                entry = by_id.get(id(applied))
                if entry is None:
                    by_id[id(applied)] = [1, None, None, None, applied]
                else:
                    entry[0] += 1
                del notes[:]
            if progress is not None:
                progress(start)
            if len(by_id) > 50_000:
                flush()
    else:
        determine = direct_caller(hook.critcore_determine, ("ctx",))
        locate = direct_caller(hook.critcore_locate, ("ctx", "determination"))
        effect = direct_caller(hook.critcore_effect, ("ctx", "determination", "location"))
        apply = direct_caller(hook.critcore_apply, ("ctx", "determination", "location", "effects"))
        get = by_id.get
        _id = id
        # When locate, effect and apply roll nothing for a determination, their answers are a
        # function of that (shared) determination alone: the context does not change during a
        # simulation and stages are pure (the rule exact odds rely on too). Such resolutions
        # are then counted without calling those three stages again.
        for start in range(0, n, step):
            for _ in range(min(step, n - start)):
                det = determine(ctx)
                if det is not None and det.final:
                    entry = get(_id(det))
                    if entry is None:
                        by_id[_id(det)] = [1, det, None, None, None]
                    else:
                        entry[0] += 1
                else:
                    entry = settled.get(_id(det))
                    if entry is not None:
                        entry[0] += 1
                    else:
                        before = dice.draws
                        loc = locate(ctx, det)
                        found = effect(ctx, det, loc)
                        applied = apply(ctx, det, loc, () if found is None else found)
                        ids = (_id(det), _id(loc), _id(found), _id(applied))
                        entry = get(ids)
                        if entry is None:
                            entry = by_id[ids] = [1, det, loc, found, applied]
                        else:
                            entry[0] += 1
                        if dice.draws == before and det is not None:
                            settled[_id(det)] = entry
                if notes:
                    del notes[:]
            if progress is not None:
                progress(start)
            if len(by_id) > 50_000:
                flush()
    flush()
    if progress is not None:
        progress(n)
    return Simulation(engine.info.name, proc.name, checked, n, seed, tuple(counts.items()))
