"""Damage: armor, then internal structure, transfer inward when a location is destroyed, a
critical check whenever internal structure is damaged, and ammunition explosions feeding back
into damage (cascades). Testmech TM-1: armor LA 12, LT 16 (rear 6), CT 24 (rear 8), LL 16, HD 9;
structure LA 8, LT 12, CT 16, LL 12, HD 3; XL engine (3 engine slots in each side torso)."""

from __future__ import annotations

import pytest
from critcore.plugin import ParamError


def test_armor_takes_damage_first(run, mech):
    """Damage that the armor holds touches no structure and calls for no critical check."""
    out = run("damage", None, unit=mech, location="LA", amount=5)
    u = out.target
    assert (u["locations"]["LA"]["armor"], u["locations"]["LA"]["structure"]) == (7, 8)
    assert out.rolls == () and out.applied.effects == ()


def test_structure_damage_calls_for_a_critical_check(run, mech):
    """Internal structure damaged: roll on Determining Critical Hits for the location."""
    out = run("damage", "2,5", unit=mech, location="LA", amount=13)
    u = out.target
    assert (u["locations"]["LA"]["armor"], u["locations"]["LA"]["structure"]) == (0, 7)
    assert [(e.table, e.id, e.roll) for e in out.applied.effects] == [("determining-critical-hits", "none", 7)]


def test_structure_check_finds_a_critical(run, mech):
    """The check's criticals strike slots like any other (8: one critical; upper half, slot 5)."""
    out = run("damage", "4,4,1,5", unit=mech, location="LA", amount=13)
    assert out.target["items"]["LA-4"]["disabled"]


def test_rear_armor(run, mech):
    """--rear: a torso's rear armor takes the damage, then its structure."""
    out = run("damage", "1,1", unit=mech, location="CT", amount=10, rear=True)
    ct = out.target["locations"]["CT"]
    assert (ct["armor"], ct["rear_armor"], ct["structure"]) == (24, 0, 14)


def test_rear_only_on_torsos(run, mech):
    """Only the torsos have rear armor."""
    with pytest.raises(ParamError):
        run("damage", None, unit=mech, location="LA", amount=3, rear=True)


def test_destroyed_arm_passes_damage_to_its_side_torso(run, mech):
    """Arm -> side torso: 30 on the left arm: 12 armor, 8 structure, 10 to the left torso armor."""
    out = run("damage", None, unit=mech, location="LA", amount=30)
    u = out.target
    assert u["locations"]["LA"]["destroyed"] and u["locations"]["LT"]["armor"] == 6
    assert out.applied.effects == ()  # the arm is gone, the torso's structure untouched


def test_destroyed_leg_passes_damage_to_its_side_torso(run, mech):
    """Leg -> side torso."""
    out = run("damage", None, unit=mech, location="LL", amount=30)
    assert out.target["locations"]["LL"]["destroyed"] and out.target["locations"]["LT"]["armor"] == 14


def test_side_torso_to_centre_torso_and_xl_engine_loss(run, mech):
    """Side torso -> centre torso; a lost side torso takes its arm; with an XL engine, three
    engine slots go with it and the 'Mech is destroyed."""
    out = run("damage", None, unit=mech, location="LT", amount=40)
    u = out.target
    assert u["locations"]["LT"]["destroyed"] and u["locations"]["LA"]["destroyed"]
    assert u["locations"]["CT"]["armor"] == 24 - 12
    assert u["destroyed"] and u["destroyed_reason"] == "3 engine hits"


def test_damage_to_a_destroyed_location_passes_inward(run, mech):
    """A location already destroyed passes the damage on."""
    mech["locations"]["LA"].update(destroyed=True, armor=0, structure=0)
    out = run("damage", None, unit=mech, location="LA", amount=5)
    assert out.target["locations"]["LT"]["armor"] == 11


def test_centre_torso_destroyed_destroys_the_mech(run, mech):
    """Centre torso destroyed: the 'Mech is destroyed (nothing further in)."""
    out = run("damage", None, unit=mech, location="CT", amount=50)
    assert out.target["destroyed"] and out.target["destroyed_reason"] == "center torso destroyed"


def test_head_destroyed_kills_the_pilot(run, mech):
    """Head destroyed (9 armor + 3 structure): the 'Mech is destroyed, the cockpit with it."""
    out = run("damage", None, unit=mech, location="HD", amount=12)
    assert out.target["destroyed"] and out.target["pilot"]["dead"]


def test_two_step_ammunition_cascade(run, mech):
    """An explosion's damage to internal structure calls for a critical check, which can set off
    another bin: Ultra AC/5 ammo (10) leaves the left torso 2 structure; its check (8) strikes
    the SRM-6 bin (12): the torso is destroyed, 10 goes to the centre torso's structure, and the
    MechWarrior has taken 2 + 2."""
    dice = "4,4,4,2" + ",4,4,4,1"
    out = run("critical", dice, unit=mech, location="LT")
    u = out.target
    assert u["pilot"]["hits"] == 4
    assert u["locations"]["LT"]["destroyed"] and u["locations"]["CT"]["structure"] == 16 - 10
    assert u["locations"]["CT"]["armor"] == 24
    assert [e.id for e in out.applied.effects] == ["one", "ammo"]
    assert u["items"]["LT-6"]["ammo"]["shots"] == 0 and u["items"]["LT-7"]["ammo"]["shots"] == 0
    assert u["destroyed"]  # the XL engine's side-torso slots are lost with the torso


def test_cascade_stops_once_the_mech_is_destroyed(run, mech):
    """No further critical checks once the 'Mech is destroyed (documented choice)."""
    out = run("critical", "4,4,4,2,4,4,4,1", unit=mech, location="LT")
    assert any("No critical check for the Center Torso" in c for c in out.applied.changes)


def test_total_warfare_explosion_damage(run, mech):
    """Option explosion_damage = total-warfare: damage per shot x shots left (LRM-10: 10 x 12)."""
    out = run("critical", "4,4,1,6", unit=mech, location="LT", options={"explosion_damage": "total-warfare"})
    assert out.effects[-1].data["explosion_damage"] == 120
    assert out.target["locations"]["CT"]["structure"] == 0 and out.target["destroyed"]


def test_case_stops_explosion_damage_in_the_location(run, mech):
    """Option case: with CASE in the left torso, explosion damage does not pass inward."""
    options = {"explosion_damage": "total-warfare", "case": True}
    out = run("critical", "4,4,1,6", unit=mech, location="LT", options=options)
    assert out.target["locations"]["LT"]["destroyed"]
    assert out.target["locations"]["CT"]["structure"] == 16
    assert any("CASE" in c for c in out.applied.changes)


def test_transferred_explosion_ignores_armor(run, mech):
    """Explosion damage goes to internal structure, here and in the location it passes to: MG ammo
    in the left arm, total-warfare (400), destroys the arm and the left torso's structure."""
    out = run("critical", "4,4,4,1", unit=mech, location="LA", options={"explosion_damage": "total-warfare"})
    u = out.target
    assert u["locations"]["LA"]["destroyed"] and u["locations"]["LT"]["destroyed"]
    assert u["locations"]["CT"]["structure"] == 0
