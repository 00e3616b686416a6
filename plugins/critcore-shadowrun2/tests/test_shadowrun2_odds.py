"""The wound stages run unchanged under critcore's enumerating roller (exact odds).

The expected chances follow from the document's rules alone: at TN 6 a die succeeds on a 6
(1/6); at TN 10 the Rule of Six needs a 6 and then a 4 or more (1/6 x 3/6 = 1/12). Successes
0, 1, 2 give Mortal, Crippling, Critical; 3 or more nothing.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb
from typing import Any

import critcore_shadowrun2.plugin as sr2
import pytest
from critcore.enumeration import EnumeratingRoller, enumerate_runs
from critcore.engine import Engine, check_params
from critcore.plugins import Registry

REG = Registry.installed(extra_systems={"shadowrun2": sr2}, discover=False)


def odds(body: int, severity: str, target: dict[str, Any] | None = None) -> dict[str, Fraction]:
    engine = Engine("shadowrun2", registry=REG)
    proc = engine.procedure("wound")
    params = check_params(proc, {"body": body, "severity": severity})

    def run(roller: EnumeratingRoller) -> Any:
        out = engine.run_context(engine.context(proc, params, roller, target))
        return (out.determination, out.location, out.effects, out.applied)

    results, rest = enumerate_runs(run)
    assert rest == 0
    by_kind: dict[str, Fraction] = {}
    for (det, _loc, _eff, _app), p in results.items():
        by_kind[det.kind] = by_kind.get(det.kind, Fraction(0)) + p
    return by_kind


def binomial(n: int, k: int, p: Fraction) -> Fraction:
    return comb(n, k) * p**k * (1 - p) ** (n - k)


@pytest.mark.parametrize("body,severity,p", [(4, "serious", Fraction(1, 6)), (3, "deadly", Fraction(1, 12))])
def test_lethality_chances(body: int, severity: str, p: Fraction) -> None:
    """Mortal/Crippling/Critical are the chances of 0/1/2 successes on Body dice."""
    found = odds(body, severity)
    assert found["mortal"] == binomial(body, 0, p)
    assert found["crippling"] == binomial(body, 1, p)
    assert found["critical"] == binomial(body, 2, p)
    assert sum(found.values()) == 1


def test_enumeration_with_a_character_file() -> None:
    """With a character the results (new states) are hashable and still add up to certainty."""
    found = odds(2, "moderate", {"body": 2, "physical": 1})
    assert found["mortal"] == Fraction(1, 4)  # TN 4: each die fails half the time
    assert sum(found.values()) == 1
