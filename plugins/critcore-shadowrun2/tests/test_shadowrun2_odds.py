"""The wound stages run unchanged under critcore's enumerating roller (exact odds).

The expected chances follow from the document's rules alone: at TN 6 a die succeeds on a 6
(1/6); at TN 10 the Rule of Six needs a 6 and then a 4 or more (1/6 x 3/6 = 1/12). Successes
0, 1, 2 give Mortal, Crippling, Critical; 3 or more nothing.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb
from typing import Any

import critcore
import critcore_shadowrun2.plugin as sr2
import pytest
from critcore import testing

REG = testing.registry(sr2)


def odds(body: int, severity: str, target: dict[str, Any] | None = None) -> dict[str, Fraction]:
    """The exact chance of each kind of determination (``critcore.chance``, the public API)."""
    found = critcore.odds("shadowrun2", "wound", target=target, registry=REG, body=body, severity=severity)
    assert found.exact
    by_kind: dict[str, Fraction] = {}
    for b in found.branches:
        by_kind[b.determination.kind] = by_kind.get(b.determination.kind, Fraction(0)) + Fraction(b.probability)
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


@pytest.mark.parametrize("params", [
    {"body": 5, "severity": "moderate"},
    {"body": 3, "severity": "deadly"},
    {"body": 2, "severity": "serious", "options": {"tn_set": "gentle"}},
])
def test_simulation_agrees_with_exact_odds(params: dict[str, Any]) -> None:
    """Every outcome's simulated frequency lies within 5 sigma of its exact probability
    (critcore.testing.check_odds_agree): the stages run the same code under both."""
    assert testing.check_odds_agree(sr2, "wound", n=20_000, seed=5, **params).checked > 0
