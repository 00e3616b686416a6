"""GURPS events (outcome tags) in exact odds, each checked against a count by hand from the rule
document (3d6: 3 is 1 way, 4 is 3, 5 is 6, 6 is 10, 7 is 15, 9-11 are 79, 14 is 15, 16 is 6,
17 is 3, 18 is 1, of 216), and simulation within its interval."""

from __future__ import annotations

from fractions import Fraction

import critcore

D = Fraction(1, 216)


def events(**params):
    return {e.name: p for e, p in critcore.odds("gurps", "attack", **params).event_odds()}


def test_critical_hit_at_skill_16_is_5_54():
    """A 3 or 4 always crits, a 5 at effective skill 15+, a 6 at 16+: 1+3+6+10 = 20 of 216 = 5/54."""
    assert events(skill=16)["critical-hit"] == 20 * D == Fraction(5, 54)


def test_critical_miss_18_always_17_below_skill_16():
    """An 18 always fumbles; a 17 only below effective skill 16."""
    assert events(skill=16)["critical-miss"] == 1 * D
    assert events(skill=15)["critical-miss"] == 4 * D


def test_weapon_dropped_or_broken_after_a_critical_miss():
    """Critical Miss table: broken on 3-4 and 17-18, dropped on 9-11, flies off on 14:
    4 + 79 + 15 + 4 = 102 of 216 rolls, after the 1-in-216 fumble at skill 16."""
    assert events(skill=16)["weapon-lost"] == 1 * D * 102 * D == Fraction(17, 7776)


def test_a_blow_over_half_hp_is_a_major_wound_and_owes_a_knockdown_roll_unless_it_kills():
    """3d+20 crushing to the torso of a 10 HP man does 23+ injury, over HP/2: every hit or
    critical hit (3-16 at skill 16: 212 of 216) is a major wound. Each owes a knockdown roll,
    but one that kills outright (60 or more: -50 HP, -5xHP) owes none, as the dead roll for
    nothing. Among the critical hits (20 of 216), triple damage (a 3 or an 18 on the Critical Hit
    table, 2 of 216) always kills (69+), and double damage (5 or 16, 12 of 216) kills when 3d
    rolls 10 or more (135 of 216)."""
    found = events(skill=16, damage="3d+20 cr", hp=10)
    killed = 20 * D * (2 * D + 12 * D * 135 * D)
    assert found["major-wound"] == 212 * D
    assert found["knockdown-roll"] == 212 * D - killed == Fraction(22801, 23328)
    assert found["crippling"] == 0  # the torso cannot be crippled


def test_an_arm_struck_for_over_half_hp_is_crippled():
    """Over HP/2 of injury to an arm cripples it: every blow that lands, 212 of 216."""
    assert events(skill=16, damage="3d+20 cr", hp=10, location="right-arm")["crippling"] == 212 * D


def test_a_death_check_is_owed_at_minus_hp_but_not_past_minus_5x_hp():
    """1d+20 crushing on 10 HP: 21-26 injury takes him past -10 HP (a roll to avoid death). A
    critical hit that triples damage (a 3 or an 18 on the Critical Hit table, 2 of 216) does
    63-78, past -50 HP: dead outright, no roll owed. 212/216 - 20/216 x 2/216."""
    assert events(skill=16, damage="1d+20 cr", hp=10)["death-check"] == 212 * D - 20 * D * 2 * D


def test_simulated_events_fall_in_their_intervals():
    params = dict(skill=16, damage="1d+20 cr", hp=10)
    exact = events(**params)
    sim = critcore.simulate("gurps", "attack", n=60_000, seed=8, **params)
    for event, _count, _freq, low, high in sim.event_estimates():
        assert low <= float(exact[event.name]) <= high, event.name
