"""What exact odds (:mod:`critcore.chance.exact`), simulations (:mod:`critcore.chance.montecarlo`) and their
report (:mod:`critcore.chance.view`) share: the stage levels outcomes are grouped by, a group,
the JSON form of a probability and the Wilson interval of a frequency.

It sits below all three, so that none of them imports another one that imports it back.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Iterable

LEVELS = ("determine", "locate", "effect", "apply")

Z95 = 1.959963984540054


def prob_json(p: Fraction | float, n: int | None = None) -> dict[str, Any]:
    """The one probability representation of ``crit odds`` and ``crit simulate`` JSON: an exact
    fraction as text and a float, side by side (a simulation's fraction is count/runs)."""
    if isinstance(p, Fraction):
        return {"fraction": f"{p.numerator}/{p.denominator}", "float": float(p)}
    if n:
        return {"fraction": f"{round(p * n)}/{n}", "float": p}
    return {"fraction": None, "float": p}


def add_parts(parts: dict[int, int], p: Fraction) -> None:
    """Add ``p`` to ``parts``, an exact sum kept as numerators by denominator: a whole-number
    add where a :class:`~fractions.Fraction` add would find a common denominator and a gcd."""
    d = p.denominator
    parts[d] = parts.get(d, 0) + p.numerator


def from_parts(parts: dict[int, int]) -> Fraction:
    """The sum that :func:`add_parts` kept: every numerator over the least common denominator."""
    if not parts:
        return Fraction(0)
    common = math.lcm(*parts)
    return Fraction(sum(n * (common // d) for d, n in parts.items()), common)


def sum_of(probabilities: Iterable[Fraction | float]) -> Fraction | float:
    """The sum of probabilities, exact when they are fractions (exact odds: the thousands of
    outcomes of a BattleTech torso share a few hundred denominators, so this is a whole-number
    add each and a few hundred fractions at the end, not a fraction add each: 0.2 s less on the
    report of the slowest corpus location), a float sum when they are frequencies."""
    parts: dict[int, int] = {}
    floats = 0.0
    seen_float = False
    for p in probabilities:
        if isinstance(p, Fraction):
            add_parts(parts, p)
        else:
            floats += p
            seen_float = True
    if not seen_float:
        return from_parts(parts)
    return floats + float(from_parts(parts)) if parts else floats


@dataclass(frozen=True)
class Group:
    """Outcomes that read the same down to one level (e.g. every critical hit)."""

    level: str
    label: str
    probability: Fraction | float
    children: tuple[Group, ...] = ()
    count: int = 0  # how many simulated resolutions fell here (simulations only)


def wilson(hits: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion (sound near 0 and 1 too)."""
    if n == 0:
        return (0.0, 1.0)
    p = hits / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    low = 0.0 if hits == 0 else max(0.0, centre - half)  # exactly 0 and 1 at the ends, not rounding dust
    high = 1.0 if hits == n else min(1.0, centre + half)
    return (low, high)
