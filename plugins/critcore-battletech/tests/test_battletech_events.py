"""BattleTech events (outcome tags) in exact odds on the Atlas AS7-D (../shared/mtf-samples,
skipped when absent), worked by hand from the critical tables, and the size of the odds JSON.

Determining Critical Hits (2d6): 2-7 none (21/36), 8-9 one critical (9/36), 10-11 two (5/36),
12 three in a torso or the limb or head blown off (1/36). A slot is rolled as a half (1d6: 1-3
upper, 4-6 lower) and a slot in it (1d6); a slot already struck is rolled again in the same half
(the plugin's default, option slot_reroll = "slot"); an empty half is rolled again.
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

import critcore
from bt_shared import SAMPLES

ATLAS = SAMPLES / "Atlas AS7-D.mtf"
pytestmark = pytest.mark.skipif(not ATLAS.is_file(), reason="../shared/mtf-samples is not here")

ONE, TWO, THREE = Fraction(9, 36), Fraction(5, 36), Fraction(1, 36)


@pytest.fixture(scope="module")
def atlas():
    from critcore_battletech.units import unit_from_mtf

    return unit_from_mtf(ATLAS.read_text(encoding="utf-8"), str(ATLAS))


def events(unit, location, rules=()):
    odds = critcore.odds("battletech", "critical", target=unit, rules=rules, location=location)
    return {e.name: p for e, p in odds.event_odds()}


def no_ammo(k):
    """k criticals into the right torso's lower half (slots 7-10 AC/20, 11-12 AC/20 ammo) pick
    k different slots of its six, evenly: none is a bin in C(4,k)/C(6,k)."""
    from math import comb

    return Fraction(comb(4, k), comb(6, k))


def test_atlas_right_torso_ac20_ammunition_explosion_by_hand(atlas):
    """The right torso: AC/20 in slots 1-10, two AC/20 bins in 11 and 12, every slot filled. A
    bin explodes when a critical strikes one. Each critical picks a half evenly; in the upper
    half (all AC/20) nothing explodes; k criticals in the lower half miss both bins with
    C(4,k)/C(6,k). One critical: 1/2 + 1/2 x 4/6 = 5/6 safe; two: 1/4 + 1/2 x 4/6 + 1/4 x 6/15
    = 41/60; three: 1/8 + 3/8 x 4/6 + 3/8 x 6/15 + 1/8 x 4/20 = 11/20. So
    9/36 x 1/6 + 5/36 x 19/60 + 1/36 x 9/20 = 53/540."""
    safe = {1: Fraction(1, 2) + Fraction(1, 2) * no_ammo(1),
            2: Fraction(1, 4) + Fraction(1, 2) * no_ammo(1) + Fraction(1, 4) * no_ammo(2),
            3: Fraction(1, 8) + Fraction(3, 8) * no_ammo(1) + Fraction(3, 8) * no_ammo(2) + Fraction(1, 8) * no_ammo(3)}
    assert (safe[1], safe[2], safe[3]) == (Fraction(5, 6), Fraction(41, 60), Fraction(11, 20))
    expected = ONE * (1 - safe[1]) + TWO * (1 - safe[2]) + THREE * (1 - safe[3])
    assert expected == Fraction(53, 540)
    found = events(atlas, "RT")
    assert found["ammo-explosion"] == expected
    assert found["mechwarrior-hit"] == expected  # each explosion gives the MechWarrior 2 damage


def test_atlas_head_cockpit_kills_the_mechwarrior(atlas):
    """The head's six slots (one die) hold one cockpit: a 12 blows the head off (1/36), one
    critical strikes it 1 time in 6, two criticals 1 - C(5,2)/C(6,2) = 1/3 of the time:
    1/36 + 9/36 x 1/6 + 5/36 x 1/3 = 25/216, and the 'Mech is destroyed with him."""
    found = events(atlas, "HD")
    assert found["mechwarrior-killed"] == found["mech-destroyed"] == THREE + ONE / 6 + TWO / 3 == Fraction(25, 216)
    assert found["location-destroyed"] == THREE


def test_atlas_left_arm_medium_laser_lost(atlas):
    """The left arm's upper half holds shoulder, three actuators, a heat sink and the medium
    laser; its lower half is empty (rolled again). The laser goes with the arm (a 12, 1/36),
    to one critical 1 time in 6, to two 1 time in 3: 25/216."""
    found = events(atlas, "LA")
    assert found["weapon-lost"] == THREE + ONE / 6 + TWO / 3
    assert found["location-destroyed"] == THREE


def test_simulated_events_fall_in_their_intervals(atlas):
    exact = events(atlas, "HD")
    sim = critcore.simulate("battletech", "critical", n=20_000, seed=3, target=atlas, location="HD")
    for event, _count, _freq, low, high in sim.event_estimates():
        assert low <= float(exact[event.name]) <= high, event.name


def test_the_atlas_left_torso_odds_json_is_at_most_2_mb(atlas):
    """Thousands of outcomes, each state stored once as its difference from the unit."""
    from critcore.testing import Engine
    from critcore.testing import exact_odds

    odds = exact_odds(Engine("battletech"), "critical", {"location": "LT"}, target=atlas)
    text = json.dumps(odds.to_json(), ensure_ascii=False)
    assert len(odds.branches) > 1000
    assert len(text.encode("utf-8")) <= 2_000_000
