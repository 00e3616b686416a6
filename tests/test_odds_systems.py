"""Exact odds and simulation of the real systems against probabilities worked out by hand.

Each test skips when its system is not installed (CI also runs the core alone).
"""

from fractions import Fraction
from math import comb

import pytest

import critcore

# 3d6: how many of the 216 ways give each total
WAYS_3D6 = {3: 1, 4: 3, 5: 6, 6: 10, 7: 15, 8: 21, 9: 25, 10: 27, 11: 27, 12: 25, 13: 21, 14: 15, 15: 10, 16: 6,
            17: 3, 18: 1}


def p3d6(*totals):
    return Fraction(sum(WAYS_3D6[t] for t in totals), 216)


def share(odds, kind):
    return odds.probability(lambda b: b.determination is not None and b.determination.kind == kind)


@pytest.fixture
def gurps():
    pytest.importorskip("critcore_gurps")


@pytest.fixture
def shadowrun2():
    pytest.importorskip("critcore_shadowrun2")


@pytest.mark.parametrize(
    "skill, crit_rolls",
    [
        (14, (3, 4)),  # 3 and 4 are always critical hits
        (15, (3, 4, 5)),  # 5 too at effective skill 15
        (16, (3, 4, 5, 6)),  # and 6 at 16
    ],
)
def test_gurps_critical_hit_chance(gurps, skill, crit_rolls):
    odds = critcore.odds("gurps", "attack", skill=skill)
    assert odds.exact
    assert share(odds, "critical-hit") == p3d6(*crit_rolls)


@pytest.mark.parametrize(
    "skill, miss_rolls",
    [
        (14, (17, 18)),  # 17 and 18 below skill 16
        (16, (18,)),  # at 16+ a 17 is an ordinary miss
        (6, (16, 17, 18)),  # a melee attack failing by 10 or more: 16+ against skill 6
    ],
)
def test_gurps_critical_miss_chance(gurps, skill, miss_rolls):
    assert share(critcore.odds("gurps", "attack", skill=skill), "critical-miss") == p3d6(*miss_rolls)


def test_gurps_whole_pipeline_sums_to_one(gurps):
    odds = critcore.odds("gurps", "attack", skill=15, damage="2d+1 cut", dr=2)
    assert odds.exact and sum(b.probability for b in odds.branches) == 1


def test_shadowrun_body_check_lethality(shadowrun2):
    """Body 4 against a serious wound's recommended TN 6: each die succeeds on a 6 (1/6).
    0 successes Mortal, 1 Crippling, 2 Critical, 3+ no critical."""
    odds = critcore.odds("shadowrun2", "wound", body=4, severity="serious")
    p, q = Fraction(1, 6), Fraction(5, 6)
    binom = [comb(4, k) * p**k * q ** (4 - k) for k in range(5)]
    assert share(odds, "mortal") == binom[0]
    assert share(odds, "crippling") == binom[1]
    assert share(odds, "critical") == binom[2]
    assert share(odds, "none") == binom[3] + binom[4]
    assert odds.exact


def test_shadowrun_rule_of_six_at_tn_8(shadowrun2):
    """A deadly wound under the gentler set is TN 8: a die needs a 6 and then 2+ (5/36).
    With Body 3, P(at least one success) = 1 - (31/36)^3, so Mortal is (31/36)^3."""
    odds = critcore.odds("shadowrun2", "wound", body=3, severity="deadly", options={"tn_set": "gentle"})
    assert share(odds, "mortal") == Fraction(31, 36) ** 3
    assert 1 - share(odds, "mortal") == 1 - (1 - Fraction(5, 36)) ** 3


def test_gurps_simulation_agrees_with_exact_odds(gurps):
    """Every outcome of an attack at skill 15, simulated, within 5 sigma of its exact chance."""
    import critcore_gurps.plugin as plugin

    from critcore import testing

    assert testing.check_odds_agree(plugin, "attack", n=60_000, seed=11, skill=15).checked > 0


def test_shadowrun_simulation_agrees_with_exact_odds(shadowrun2):
    """Every outcome of a moderate wound on Body 5, simulated, within 5 sigma of its exact chance."""
    import critcore_shadowrun2.plugin as plugin

    from critcore import testing

    assert testing.check_odds_agree(plugin, "wound", n=30_000, seed=5, body=5, severity="moderate").checked > 0


def test_readme_first_command_shows_a_critical_hit(gurps):
    """The README's first command promises a critical hit with seed 284: keep that promise."""
    out = critcore.resolve("gurps", "attack", skill=14, damage="2d+1 cut", seed=284)
    assert out.determination.kind == "critical-hit" and out.rolls[0].total <= 4
