"""Choosing the slot a critical strikes: 1d6 in a six-slot location, 1d6 for the half then 1d6 in
a twelve-slot one; rolling again on empty, 'roll again' or destroyed slots; only the other half
when one half has nothing left; what happens when nothing is left (an option)."""

from __future__ import annotations

from fractions import Fraction


def slot_rolls(out):
    return [r for r in out.rolls if r.label.startswith("critical")]


def test_six_slot_location_rolls_one_die(run, mech):
    """Head and legs: one 1d6 picks the slot."""
    out = run("critical", "4,4,5", unit=mech, location="HD")
    assert out.effects[-1].data["slot"] == 5 and out.effects[-1].id == "sensors"
    assert len(slot_rolls(out)) == 1


def test_twelve_slot_location_rolls_half_then_slot(run, mech):
    """Arms and torsos: 1-3 picks slots 1-6, 4-6 picks slots 7-12, then 1d6 in that half."""
    out = run("critical", "4,4,5,3", unit=mech, location="LT")
    assert out.effects[-1].data["slot"] == 9 and out.effects[-1].id == "heat-sink"
    out = run("critical", "4,4,3,5", unit=mech, location="LT")
    assert out.effects[-1].data["slot"] == 5


def test_roll_again_slot_is_rerolled(run, mech):
    """A 'roll again' slot (Ferro-Fibrous in the head) is rolled again."""
    out = run("critical", "4,4,4,1", unit=mech, location="HD")
    assert out.effects[-1].data["slot"] == 1 and len(slot_rolls(out)) == 2


def test_destroyed_slot_is_rerolled(run, bt, mech):
    """An already destroyed slot is rolled again."""
    bt.slot(mech, "HD", 1)["destroyed"] = True
    out = run("critical", "4,4,1,6", unit=mech, location="HD")
    assert out.effects[-1].data["slot"] == 6


def test_empty_slot_rerolls_only_the_slot_die_by_default(run, mech):
    """Default (slot_reroll = slot): an empty slot rolls the slot die again in the same half."""
    out = run("critical", "4,4,4,6,6,3", unit=mech, location="LT")  # 12 empty twice, then 9
    assert out.effects[-1].data["slot"] == 9
    assert len(slot_rolls(out)) == 4  # one half roll, three slot rolls


def test_both_dice_rerolled_with_the_option(run, mech):
    """Option slot_reroll = both: an empty slot rolls the half and the slot again."""
    out = run("critical", "4,4,4,6,1,2", unit=mech, location="LT", options={"slot_reroll": "both"})
    assert out.effects[-1].data["slot"] == 2


def test_only_the_other_half_when_one_half_is_spent(run, bt, mech):
    """When one half has nothing left to hit, 1d6 goes straight to the other half."""
    for n in range(1, 7):  # the left arm's upper half all destroyed
        bt.slot(mech, "LA", n)["destroyed"] = True
    out = run("critical", "4,4,1,1,1", unit=mech, location="LA")  # MG ammo: its check rolls 2
    assert out.effects[-1].data["slot"] == 7 and out.effects[-1].id == "ammo"
    assert len(slot_rolls(out)) == 1


def test_two_criticals_never_strike_the_same_slot(run, mech):
    """The second critical of one roll rolls again on the slot the first just destroyed."""
    out = run("critical", "5,5,1,1,1,1,2", unit=mech, location="CT")
    assert [e.data["slot"] for e in out.effects[1:]] == [1, 2]


def test_nothing_left_to_hit_is_lost_by_default(run, bt, mech):
    """Nothing in the location can take a critical: it is lost (the default, documented)."""
    for n in (1, 2, 3, 5, 6):
        bt.slot(mech, "HD", n)["destroyed"] = True
    out = run("critical", "4,4", unit=mech, location="HD")
    assert out.effects[-1].id == "nothing-to-hit"
    assert out.target["locations"]["HD"] == mech["locations"]["HD"]


def test_nothing_left_to_hit_passes_inward_with_the_option(run, bt, mech):
    """Option no_slot_left = transfer: the critical passes to the next location inward."""
    for n in range(1, 7):
        bt.slot(mech, "LL", n)["destroyed"] = True
    out = run("critical", "4,4,1,1", unit=mech, location="LL", options={"no_slot_left": "transfer"})
    assert out.effects[-1].data["location"] == "LT" and out.effects[-1].data["slot"] == 1


def test_without_a_unit_the_slot_rolls_are_reported(run):
    """No unit: the slot numbers rolled are reported for the record sheet."""
    out = run("critical", "5,5,2,3,6,6", location="LT")
    assert [(e.data["slot"], e.data["half"]) for e in out.effects[1:]] == [(3, "upper"), (12, "lower")]
    out = run("critical", "4,4,6", location="HD")
    assert out.effects[-1].data["slot"] == 6


def test_exact_odds_are_finite_and_fair(bt_registry, mech):
    """Under exact odds the re-rolls stay finite: each slot that can be hit is equally likely in a
    six-slot location, and a cockpit hit or a blown-off head destroys the 'Mech: with life support
    slot 1 destroyed, P = 9/36 x 1/4 + 5/36 x 1/2 + 1/36 = 23/144."""
    from critcore.testing import Engine
    from critcore.testing import exact_odds

    mech["locations"]["HD"]["slots"][0]["destroyed"] = True
    odds = exact_odds(Engine("battletech", registry=bt_registry), "critical", {"location": "HD"}, mech)
    destroyed = sum((b.probability for b in odds.branches if b.applied and b.applied.target["destroyed"]),
                    Fraction(0))
    assert destroyed == Fraction(23, 144)
    assert sum((b.probability for b in odds.branches), Fraction(0)) == 1


def test_exact_odds_slot_reroll_keeps_the_half(bt_registry, mech):
    """slot_reroll = slot: the half is kept, so in the left torso (upper half 5 slots that can be
    hit, lower half 3: two ammunition bins, emptied here, and a heat sink) one critical strikes the
    heat sink (slot 9) with chance 9/36 x 1/2 x 1/3."""
    from critcore.testing import Engine
    from critcore.testing import exact_odds

    for item in ("LT-5", "LT-6", "LT-7"):
        mech["items"][item]["ammo"]["shots"] = 0
    odds = exact_odds(Engine("battletech", registry=bt_registry), "critical", {"location": "LT"}, mech)
    one = [b for b in odds.branches if b.determination.data["criticals"] == 1]
    heat_sink = sum((b.probability for b in one if b.effects[-1].id == "heat-sink"), Fraction(0))
    assert heat_sink == Fraction(9, 36) * Fraction(1, 2) * Fraction(1, 3)


def test_exact_odds_of_two_criticals_in_one_roll(bt_registry, mech):
    """Two criticals (10-11: 5/36) in the centre torso, every slot hittable: slots 1 and 2 in
    either order, half 1/2 then 1/6, then 1/5 in the same half: 2 x 1/12 x 1/10 = 1/60. Slots
    1-3 are one engine item in one half, so exact odds count every pair of them (3 x 1/60) as
    "two upper engine slots" and show it as slots 1 and 2."""
    from critcore.testing import Engine
    from critcore.testing import exact_odds

    odds = exact_odds(Engine("battletech", registry=bt_registry), "critical", {"location": "CT"}, mech)
    two = [b for b in odds.branches if b.determination.data["criticals"] == 2]
    assert sum((b.probability for b in two), Fraction(0)) == Fraction(5, 36)
    both = [b for b in two if sorted(e.data["slot"] for e in b.effects[1:]) == [1, 2]]
    assert sum((b.probability for b in both), Fraction(0)) == Fraction(5, 36) * 3 * Fraction(1, 60)
    assert not [b for b in two if sorted(e.data["slot"] for e in b.effects[1:]) in ([1, 3], [2, 3])]
