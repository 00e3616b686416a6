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


def _die_succeeds(tn: int) -> Fraction:
    """One die against ``tn`` under the Rule of Six, face by face: a 6 is rolled again and added."""
    if tn <= 1:
        return Fraction(1)
    hits = sum(1 for face in range(1, 6) if face >= tn)
    return Fraction(hits, 6) + (Fraction(1, 6) * _die_succeeds(tn - 6) if tn > 6 else Fraction(1, 6))


def _counted(dice: int, tn: int) -> dict[str, Fraction]:
    """An independent count of the Body check: each die is a success, a 1 or another failure, and
    the pool's polynomial is built die by die (a convolution; no binomial formula). All dice
    showing 1 (the Rule of One) is 0 successes too, so it reads Mortal with the rest."""
    hit = _die_succeeds(tn)
    one = Fraction(1, 6)
    other = 1 - hit - one
    # state: (successes, every die so far showed 1) -> probability
    pool: dict[tuple[int, bool], Fraction] = {(0, True): Fraction(1)}
    for _ in range(dice):
        grown: dict[tuple[int, bool], Fraction] = {}
        for (k, ones), p in pool.items():
            for nk, nones, q in ((k + 1, False, hit), (k, ones, one), (k, False, other)):
                if q:
                    grown[(nk, nones)] = grown.get((nk, nones), Fraction(0)) + p * q
        pool = grown
    kinds = {0: "mortal", 1: "crippling", 2: "critical"}
    out: dict[str, Fraction] = {}
    for (k, _), p in pool.items():
        kind = kinds.get(k, "none")
        out[kind] = out.get(kind, Fraction(0)) + p
    return out


@pytest.mark.parametrize("body", range(9, 31))
@pytest.mark.parametrize("severity,tn", [("serious", 6), ("deadly", 10)])
def test_large_pools_are_exact(body: int, severity: str, tn: int) -> None:
    """Every pool the CLI accepts is exact: the run where every die shows 1 (1/6^n, below the
    one-in-a-million cut-off from 8 dice on) ends with that roll, so nothing is cut off; each
    lethality's chance is the independent count's."""
    found = critcore.odds("shadowrun2", "wound", registry=REG, body=body, severity=severity)
    assert found.exact and found.remainder == 0
    by_kind: dict[str, Fraction] = {}
    for b in found.branches:
        by_kind[b.determination.kind] = by_kind.get(b.determination.kind, Fraction(0)) + Fraction(b.probability)
    assert by_kind == {k: p for k, p in _counted(body, tn).items() if p}


def test_the_largest_pool_is_exact() -> None:
    """The largest pool the CLI accepts: Body 50 and 50 Combat Pool dice (option allow_combat_pool)."""
    found = critcore.odds("shadowrun2", "wound", registry=REG, options={"allow_combat_pool": True},
                          body=50, combat_pool=50, severity="deadly")
    assert found.exact
    mortal = sum((Fraction(b.probability) for b in found.branches if b.determination.kind == "mortal"), Fraction(0))
    assert mortal == _counted(100, 10)["mortal"]
