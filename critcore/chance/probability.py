"""What exact odds (:mod:`critcore.chance.exact`), simulations (:mod:`critcore.chance.montecarlo`) and their
report (:mod:`critcore.chance.view`) share: the stage levels outcomes are grouped by, a group,
the JSON form of a probability and the Wilson interval of a frequency.

It sits below all three, so that none of them imports another one that imports it back.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

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
