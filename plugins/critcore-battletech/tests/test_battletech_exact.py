"""Exact odds on a unit: interchangeable slots counted as one class, destroyed locations that
forget which of their slots were hit, and cascades that stay exact (checked against simulation).

Testmech TM-1's left torso: XL engine (slots 1-3), LRM 10 (4-5), LRM-10 ammo (6), SRM-6 ammo
(7), Ultra AC/5 ammo (8), heat sink (9), CASE (10), Endo Steel (11), empty (12); structure 12.
"""

from __future__ import annotations

import copy
from fractions import Fraction
from typing import Any

from critcore.model import freeze

from critcore_battletech import criticals as C
from critcore_battletech.unitview import Work


def lt_classes(unit: dict[str, Any]) -> tuple[int, ...]:
    w = Work(freeze(unit))
    slots = w.loc("LT")["slots"]
    return C.slot_classes(w, slots, list(range(11)))


def test_slots_of_one_item_in_one_half_are_one_class(mech):
    """The three XL engine slots and the two LRM 10 slots are each one class; every other item
    (three different ammunition bins, a heat sink, CASE, Endo Steel) is its own."""
    assert lt_classes(mech) == (0, 0, 0, 3, 3, 5, 6, 7, 8, 9, 10)


def test_identical_single_slot_items_in_one_half_are_one_class(mech):
    """Make the Ultra AC/5 bin (slot 8) a second full SRM-6 bin like slot 7: both lie in the lower
    half, so they are one class; with one shot fired from it, they are not."""
    unit = copy.deepcopy(mech)
    unit["items"]["LT-7"] = {**copy.deepcopy(unit["items"]["LT-6"]), "slots": [7]}
    unit["locations"]["LT"]["slots"][7]["name"] = unit["locations"]["LT"]["slots"][6]["name"]
    assert lt_classes(unit)[6:8] == (6, 6)
    unit["items"]["LT-7"]["ammo"]["shots"] -= 1
    assert lt_classes(unit)[6:8] == (6, 7)


def test_identical_items_in_different_halves_stay_apart(mech):
    """Slot 6 (upper half) and slot 7 (lower half) holding identical bins are not one class:
    the half die treats them differently once other slots are gone."""
    unit = copy.deepcopy(mech)
    unit["items"]["LT-6"] = {**copy.deepcopy(unit["items"]["LT-5"]), "slots": [6]}
    unit["locations"]["LT"]["slots"][6]["name"] = unit["locations"]["LT"]["slots"][5]["name"]
    assert lt_classes(unit)[5:7] == (5, 6)


def test_real_dice_keep_the_hits_of_a_destroyed_location(run, mech):
    """The two-step cascade (Ultra AC/5 bin, then the SRM-6 bin, left torso destroyed): with real
    dice the record sheet keeps both slots marked as hit."""
    out = run("critical", "4,4,4,2,4,4,4,1", unit=mech, location="LT")
    slots = out.target["locations"]["LT"]["slots"]
    assert out.target["locations"]["LT"]["destroyed"]
    assert slots[6]["destroyed"] and slots[7]["destroyed"]


def test_exact_odds_forget_the_hits_of_a_destroyed_location(bt_registry, mech):
    """Under exact odds a destroyed left torso shows its slots as they were before the critical
    (what was hit in it no longer changes anything), its items disabled; the odds stay whole."""
    from critcore.engine import Engine
    from critcore.exact import exact_odds

    odds = exact_odds(Engine("battletech", registry=bt_registry), "critical", {"location": "LT"}, mech)
    assert odds.remainder == 0 and sum((b.probability for b in odds.branches), Fraction(0)) == 1
    before = freeze(mech["locations"]["LT"]["slots"])
    gone = [b for b in odds.branches if b.applied.target["locations"]["LT"]["destroyed"]]
    assert gone
    for b in gone:
        assert b.applied.target["locations"]["LT"]["slots"] == before
        assert all(b.applied.target["items"][i]["disabled"] for i in ("LT-5", "LT-6", "LT-7", "LT-8"))


def test_exact_odds_of_a_cascade_agree_with_simulation(bt_registry, mech):
    """A left-torso critical on Testmech can set off three bins in turn and destroy the 'Mech (its
    XL engine is lost with the torso): the exact chances of the torso lost and of the 'Mech
    destroyed lie within the 95% intervals of 4,000 seeded resolutions."""
    from critcore.engine import Engine
    from critcore.exact import exact_odds
    from critcore.montecarlo import simulate

    engine = Engine("battletech", registry=bt_registry)
    odds = exact_odds(engine, "critical", {"location": "LT"}, mech)
    sim = simulate(engine, "critical", {"location": "LT"}, 4000, 3, target=mech)
    for name, test in (("torso lost", lambda b: bool(b.applied.target["locations"]["LT"]["destroyed"])),
                       ("'Mech destroyed", lambda b: bool(b.applied.target.get("destroyed")))):
        exact = odds.probability(test)
        assert 0 < exact < 1, name
        _, low, high = sim.frequency(test)
        assert low <= float(exact) <= high, name


def test_exact_odds_of_damage_that_sets_off_a_cascade(bt_registry, mech):
    """25 damage to the left torso (16 armor, then 9 of its 12 structure) calls for a check that
    can set off its bins in turn: the exact odds are whole, and the chance that the torso is lost
    lies within the 95% interval of 4,000 seeded resolutions."""
    from critcore.engine import Engine
    from critcore.exact import exact_odds
    from critcore.montecarlo import simulate

    engine = Engine("battletech", registry=bt_registry)
    params = {"location": "LT", "amount": 25}
    odds = exact_odds(engine, "damage", params, mech)
    assert odds.remainder == 0 and sum((b.probability for b in odds.branches), Fraction(0)) == 1
    lost = odds.probability(lambda b: bool(b.applied.target["locations"]["LT"]["destroyed"]))
    assert 0 < lost < 1
    _, low, high = simulate(engine, "damage", params, 4000, 5, target=mech).frequency(
        lambda b: bool(b.applied.target["locations"]["LT"]["destroyed"]))
    assert low <= float(lost) <= high
