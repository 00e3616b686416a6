"""Every component effect of the rule document, with scripted dice on units we wrote.

Testmech TM-1 (tests/units/testmech-tm1.json): walk 5, jump 3, 12 single heat sinks, XL engine.
Head 1 life support, 2 sensors, 3 cockpit, 4 Ferro-Fibrous, 5 sensors, 6 life support.
CT 1-3 engine, 4-7 gyro, 8-10 engine, 11 medium laser, 12 jump jet.
LT 1-3 engine, 4-5 LRM 10, 6 LRM-10 ammo (12 shots), 7 SRM-6 ammo (15), 8 Ultra AC/5 ammo (20,
two shots a turn), 9 heat sink, 10 CASE, 11 Endo Steel, 12 empty.
RT 1-3 engine, 4-10 Gauss rifle, 11 Gauss ammo, 12 empty.
LA shoulder, upper arm, lower arm, hand, medium laser, Endo Steel, MG ammo (200), empty...
RA shoulder, upper arm, PPC x3, empty... (no lower arm or hand actuator).
LL/RL hip, upper leg, lower leg, foot, jump jet, heat sink (LL) / Ferro-Fibrous (RL).
"""

from __future__ import annotations


def crit(run, bt, unit, loc, number, more="", **kw):
    dice = bt.one_crit(loc, number) + (f",{more}" if more else "")
    return run("critical", dice, unit=unit, location=loc, **kw)


def test_engine_hit_adds_five_heat_per_turn(run, bt, mech):
    """Engine: each hit adds 5 heat per turn (10 after two)."""
    out = crit(run, bt, mech, "CT", 1)
    assert bt.derived(out)["heat_per_turn"] == 5
    out = crit(run, bt, bt.state(out), "CT", 2)
    assert bt.derived(out)["heat_per_turn"] == 10
    assert not out.target["destroyed"]


def test_three_engine_hits_across_torsos_destroy_the_mech(run, bt, mech):
    """Engine: three hits destroy the 'Mech, counting the side torsos' engine slots."""
    u = bt.state(crit(run, bt, mech, "CT", 8))
    u = bt.state(crit(run, bt, u, "LT", 2))
    assert not u["destroyed"]
    out = crit(run, bt, u, "RT", 3)
    assert out.target["destroyed"] and out.target["destroyed_reason"] == "3 engine hits"
    assert out.target["damage"]["engine_hits"] == 3


def test_a_mech_destroyed_in_the_resolution_owes_no_psr_now(run, bt, mech):
    """A destroyed 'Mech leaves the map at the end of the phase (engine, cockpit): nothing is
    rolled for it now. A 10 in the CT (two criticals) on slots 1 and 4, an engine slot and the
    gyro: with no engine hit before, the gyro's first hit calls for a PSR now; after two engine
    hits the engine slot is the third, the 'Mech is destroyed, and no PSR is owed."""
    dice = "5,5,2,1,2,4"  # 10: two criticals; upper half, slot 1; upper half, slot 4
    alive = run("critical", dice, unit=mech, location="CT")
    assert not alive.target["destroyed"] and "PSR now (gyro damaged)" in alive.applied.data["psr_now"]
    u = bt.state(crit(run, bt, mech, "LT", 1))
    u = bt.state(crit(run, bt, u, "RT", 2))
    out = run("critical", dice, unit=u, location="CT")
    assert out.target["destroyed"] and out.target["destroyed_reason"] == "3 engine hits"
    assert out.target["damage"]["gyro_hits"] == 1
    assert out.applied.data["psr_now"] == ()


def test_gyro_damaged_then_destroyed(run, bt, mech):
    """Gyro: first hit PSR +3 and a PSR now; second hit +3 more, automatic fall, cannot stand."""
    out = crit(run, bt, mech, "CT", 4)
    d = bt.derived(out)
    assert d["psr"] == 3 and set(d["psr_for"]) == {"run", "jump"}
    assert "PSR now (gyro damaged)" in out.applied.data["psr_now"]
    out = crit(run, bt, bt.state(out), "CT", 5)
    d = bt.derived(out)
    assert d["psr"] == 6 and d["gyro_destroyed"]
    assert any("falls automatically" in e and "+6" in e for e in out.applied.data["psr_now"])
    assert any("cannot stand" in n and "prone" in n and "not immobile" in n for n in d["notes"])


def test_two_gyro_hits_in_one_phase_skip_the_psr(run, bt, mech):
    """Gyro: a second hit in the same phase means an automatic fall, so no PSR for the first."""
    out = run("critical", "5,5,2,4,2,5", unit=mech, location="CT")  # 10: two criticals, slots 4 and 5
    events = out.applied.data["psr_now"]
    assert not any("PSR now" in e for e in events)
    assert any("falls automatically" in e for e in events)


def test_cockpit_kills_the_pilot_and_destroys_the_mech(run, bt, mech):
    """Cockpit: the MechWarrior is killed and the 'Mech destroyed."""
    out = crit(run, bt, mech, "HD", 3)
    assert out.target["pilot"]["dead"] and out.target["destroyed"]
    assert out.target["destroyed_reason"] == "cockpit destroyed"


def test_life_support_hurts_the_pilot_in_heat(run, bt, mech):
    """Life support: 1 damage per heat phase at heat 15-25, 2 at 26 or more."""
    mech["heat"] = 20
    out = crit(run, bt, mech, "HD", 1)
    assert out.target["damage"]["life_support_hit"]
    note = [n for n in bt.derived(out)["notes"] if n.startswith("life support")][0]
    assert "1 damage each heat phase at heat 15-25, 2 at 26+" in note and "heat now 20: 1" in note
    u = bt.state(out)
    u["heat"] = 26
    out = crit(run, bt, u, "HD", 6)  # the other slot still takes the hit, nothing more
    note = [n for n in bt.derived(out)["notes"] if n.startswith("life support")][0]
    assert "heat now 26: 2" in note


def test_sensors_first_hit_plus_two_second_no_fire(run, bt, mech):
    """Sensors: weapon attacks +2 after the first hit, no weapon fire after the second."""
    out = crit(run, bt, mech, "HD", 2)
    d = bt.derived(out)
    assert d["weapons"]["all"]["to_hit"] == 2 and d["weapons"]["LA"]["to_hit"] == 2
    assert d["punch"]["LA"]["to_hit"] == 0  # physical attacks unaffected
    out = crit(run, bt, bt.state(out), "HD", 5)
    assert bt.derived(out)["weapons"]["all"]["can_fire"] is False


def test_shoulder_plus_four_overrides_and_stops_punch_and_club(run, bt, mech):
    """Shoulder: +4 to that arm's weapons, replacing its other actuator modifiers; no punch or club."""
    u = bt.state(crit(run, bt, mech, "LA", 2))  # upper arm first: +1
    assert bt.derived(crit(run, bt, mech, "LA", 2))["weapons"]["LA"]["to_hit"] == 1
    out = crit(run, bt, u, "LA", 1)
    d = bt.derived(out)
    assert d["weapons"]["LA"]["to_hit"] == 4
    assert d["punch"]["LA"]["possible"] is False and d["club"]["possible"] is False
    assert d["weapons"]["RA"]["to_hit"] == 0


def test_upper_and_lower_arm_actuators(run, bt, mech):
    """Upper / lower arm actuator: weapons +1 each, punch +2 each with damage halved, club +2 each."""
    mech["locations"]["RA"]["slots"][5:8] = [  # give the right arm its lower arm and hand back
        {"name": "Lower Arm Actuator", "kind": "lower-arm-actuator", "item": "RA-5", "destroyed": False, "flags": []},
        {"name": "Hand Actuator", "kind": "hand-actuator", "item": "RA-6", "destroyed": False, "flags": []},
        {"name": "-Empty-", "kind": "empty", "item": None, "destroyed": False, "flags": []},
    ]
    assert bt.derived(run("critical", "1,1", unit=mech, location="LA"))["club"]["to_hit"] == 0
    u = bt.state(crit(run, bt, mech, "LA", 2))
    out = crit(run, bt, u, "LA", 3)
    d = bt.derived(out)
    assert d["weapons"]["LA"]["to_hit"] == 2
    assert d["punch"]["LA"]["to_hit"] == 4 and d["punch"]["LA"]["halvings"] == 2
    assert d["club"]["possible"] and d["club"]["to_hit"] == 4


def test_hand_actuator_punch_plus_one_and_no_club(run, bt, mech):
    """Hand actuator: punches with that arm +1; no club with it."""
    d = bt.derived(crit(run, bt, mech, "LA", 4))
    assert d["punch"]["LA"]["to_hit"] == 1 and d["punch"]["LA"]["halvings"] == 0
    assert d["club"]["possible"] is False
    assert d["weapons"]["LA"]["to_hit"] == 0


def test_missing_actuators_count_for_physical_attacks_not_weapons(run, bt, mech):
    """Missing hand / lower arm actuators: punch modifiers and halved damage apply, no weapon modifier."""
    d = bt.derived(run("critical", "1,1", unit=mech, location="RA"))
    assert d["weapons"]["RA"]["to_hit"] == 0
    assert d["punch"]["RA"]["to_hit"] == 3 and d["punch"]["RA"]["halvings"] == 1


def test_hip_halves_walking_before_actuators_and_stops_kicks(run, bt, mech):
    """Hip: walking MP halved rounding up (5 -> 3), run 5; no kicks; PSR +2; PSR to run or jump."""
    out = crit(run, bt, mech, "LL", 1)
    d = bt.derived(out)
    assert (d["walk"], d["run"]) == (3, 5)
    assert d["kick"]["possible"] is False and d["psr"] == 2 and set(d["psr_for"]) == {"run", "jump"}
    assert any("PSR at the end of this phase" in e for e in out.applied.data["psr_now"])
    d = bt.derived(crit(run, bt, bt.state(out), "LL", 4))  # foot after the hip: -1 MP after halving
    assert (d["walk"], d["run"]) == (2, 3)


def test_second_hip_leaves_zero_mp_but_not_immobile(run, bt, mech):
    """Hip: a critical to the second hip reduces MP to 0; the 'Mech is not immobile."""
    u = bt.state(crit(run, bt, mech, "LL", 1))
    d = bt.derived(crit(run, bt, u, "RL", 1))
    assert (d["walk"], d["run"]) == (0, 0)
    assert d["psr"] == 4
    assert any("not count as immobile" in n for n in d["notes"])


def test_hip_overrides_earlier_actuator_psr_of_that_leg(run, bt, mech):
    """Hip then actuator: the later actuator still adds; actuator (earlier turn) then hip: ignored."""
    # hip first, then the upper leg actuator: +2 +1
    u = bt.state(crit(run, bt, mech, "LL", 1, turn=1))
    assert bt.derived(crit(run, bt, u, "LL", 2, turn=2))["psr"] == 3
    # upper leg actuator in turn 1, hip in turn 2: only the hip's +2 (MP still loses the actuator)
    u = bt.state(crit(run, bt, mech, "LL", 2, turn=1))
    d = bt.derived(crit(run, bt, u, "LL", 1, turn=2))
    assert d["psr"] == 2 and (d["walk"], d["run"]) == (2, 3)
    # the same turn: both apply
    u = bt.state(crit(run, bt, mech, "LL", 2, turn=3))
    assert bt.derived(crit(run, bt, u, "LL", 1, turn=3))["psr"] == 3
    # no turns given: an earlier resolution counts as an earlier turn; the other leg is unaffected
    u = bt.state(crit(run, bt, mech, "LL", 3))
    u = bt.state(crit(run, bt, u, "RL", 4))
    assert bt.derived(crit(run, bt, u, "LL", 1))["psr"] == 2 + 1


def test_leg_actuators(run, bt, mech):
    """Upper/lower leg: -1 walk, kicks +2 with half damage, PSR +1; foot: -1 walk, kicks +1, PSR +1."""
    for number, kick, halvings in ((2, 2, 1), (3, 2, 1), (4, 1, 0)):
        d = bt.derived(crit(run, bt, mech, "LL", number))
        assert (d["walk"], d["run"]) == (4, 6)
        assert d["kick"]["to_hit"] == kick and d["kick"]["halvings"] == halvings
        assert d["psr"] == 1 and d["psr_for"] == ["jump"]


def test_heat_sinks_single_and_double(run, bt, mech, quad):
    """Heat sinks: dissipation down 1 for a single, 2 for a double (the other slot only absorbs)."""
    assert bt.derived(crit(run, bt, mech, "LL", 6))["dissipation"] == 11
    out = crit(run, bt, quad, "FLL", 5)
    assert bt.derived(out)["dissipation"] == 18
    assert bt.derived(crit(run, bt, bt.state(out), "FLL", 6))["dissipation"] == 18


def test_jump_jet_minus_one(run, bt, mech):
    """Jump jets: each hit -1 jumping MP."""
    assert bt.derived(crit(run, bt, mech, "RL", 5))["jump"] == 2


def test_ammo_explosion_one_turn_of_shots(run, bt, mech):
    """Ammunition: one turn's worth of shots to internal structure; the MechWarrior takes 2."""
    out = crit(run, bt, mech, "LT", 6, more="1,1")  # LRM-10: 10 damage; the check rolls 2
    u = out.target
    assert u["pilot"]["hits"] == 2
    assert u["locations"]["LT"]["structure"] == 12 - 10 and u["locations"]["LT"]["armor"] == 16
    assert u["items"]["LT-5"]["ammo"]["shots"] == 0
    assert [e.id for e in out.applied.effects] == ["none"]  # the explosion's critical check


def test_ammo_explosion_counts_shots_per_turn(run, bt, mech):
    """Ammunition: an Ultra AC/5 fires two shots a turn, so its bin explodes for 10."""
    out = crit(run, bt, mech, "LT", 8, more="1,1")
    assert out.target["locations"]["LT"]["structure"] == 2


def test_empty_bin_absorbs_the_hit(run, bt, mech):
    """Empty bins: the hit lands there and nothing more happens."""
    mech["items"]["LT-5"]["ammo"]["shots"] = 0
    out = crit(run, bt, mech, "LT", 6)
    assert out.effects[-1].id == "empty-ammo-bin"
    assert out.target["pilot"]["hits"] == 0 and out.target["locations"]["LT"]["structure"] == 12


def test_non_explosive_ammo_is_only_lost(run, bt, mech):
    """Ammunition that is not explosive (Gauss) does not explode."""
    out = crit(run, bt, mech, "RT", 11)
    assert out.effects[-1].id == "non-explosive-ammo" and out.target["pilot"]["hits"] == 0
    assert out.target["items"]["RT-10"]["disabled"]


def test_gauss_rifle_explodes_on_its_first_hit(run, bt, mech):
    """Explosive components: a Gauss rifle explodes (20) on its first hit; the pilot takes 2."""
    out = crit(run, bt, mech, "RT", 5)
    u = out.target
    assert out.effects[-1].id == "explosive-component"
    assert u["pilot"]["hits"] == 2
    # 12 structure in the right torso, 8 passes to the centre torso's structure (not its armor)
    assert u["locations"]["RT"]["destroyed"] and u["locations"]["CT"]["structure"] == 8
    assert u["locations"]["CT"]["armor"] == 24
    assert u["destroyed"] and u["destroyed_reason"] == "3 engine hits"  # the XL side torso is gone


def test_weapon_disabled_first_hit_other_slots_absorb(run, bt, mech):
    """Weapons: disabled on the first slot hit; its other slots still take hits, with no effect."""
    # the right arm's lower half is all empty, so only the upper half is rolled (one die)
    out = run("critical", "4,4,3", unit=mech, location="RA")
    assert out.target["items"]["RA-2"]["disabled"] and out.effects[-1].id == "weapon"
    out = run("critical", "4,4,4", unit=bt.state(out), location="RA")
    assert out.effects[-1].id == "absorbed"
    assert out.target["locations"]["RA"]["slots"][3]["destroyed"]


def test_equipment_disabled(run, bt, mech):
    """Equipment (anything else, unknown names included): knocked out on its first hit."""
    mech["locations"]["LA"]["slots"][7] = {"name": "Mystery Box", "kind": "equipment", "item": "LA-7",
                                           "destroyed": False, "flags": []}
    mech["items"]["LA-7"] = {"name": "Mystery Box", "kind": "equipment", "location": "LA", "slots": [7],
                             "disabled": False, "explosive": False, "explosion_damage": 0}
    out = crit(run, bt, mech, "LA", 8)
    assert out.effects[-1].id == "equipment" and out.target["items"]["LA-7"]["disabled"]


def test_arm_blown_off_nothing_explodes_and_it_is_a_club(run, bt, mech):
    """Arm blown off on a 12: automatic; its explosive components (MG ammo) do not explode; a club."""
    out = run("critical", "6,6", unit=mech, location="LA")
    u = out.target
    assert u["locations"]["LA"]["blown_off"] and u["pilot"]["hits"] == 0
    assert u["items"]["LA-6"]["ammo"]["shots"] == 200 and u["items"]["LA-6"]["disabled"]
    d = bt.derived(out)
    assert any("Left Arm" in n and "club" in n for n in d["notes"])
    assert d["weapons"]["LA"]["can_fire"] is False


def test_leg_blown_off(run, bt, mech):
    """Leg blown off on a 12: no explosions; a club; (Total Warfare) walk 1, no running, PSR +5."""
    d = bt.derived(run("critical", "6,6", unit=mech, location="RL"))
    assert (d["walk"], d["run"]) == (1, 1) and d["psr"] == 5
    assert d["kick"]["possible"] is False
    assert any("Right Leg" in n and "club" in n for n in d["notes"])


def test_head_blown_off(run, bt, mech):
    """Head blown off on a 12: everything in it goes, the cockpit with it."""
    out = run("critical", "6,6", unit=mech, location="HD")
    u = out.target
    assert u["locations"]["HD"]["blown_off"] and u["pilot"]["dead"] and u["destroyed"]


def test_torso_twelve_is_three_criticals(run, bt, mech):
    """A 12 in a torso: three critical hits (no blowing off)."""
    out = run("critical", "6,6,1,4,1,5,4,6,3", unit=mech, location="LT")  # LRM 10 twice, empty, heat sink
    assert out.determination.data["criticals"] == 3
    assert [e.id for e in out.effects[1:]] == ["weapon", "absorbed", "heat-sink"]
    assert out.target["items"]["LT-3"]["disabled"]


def test_effect_numbers_come_from_the_table(bt_registry, tmp_path, mech):
    """The per-component numbers are table data: a house rule replacing the engine row changes
    the heat an engine hit adds."""
    from critcore.testing import Engine

    rule = tmp_path / "hot-engines.toml"
    rule.write_text('system = "battletech"\n\n[[tables.components.row]]\nroll = 3\nid = "engine"\n'
                    'effect = "engine"\ntext = "Engine hit: 10 more heat a turn."\nheat_per_hit = 10\n'
                    'destroyed_at = 3\n')
    engine = Engine("battletech", rules=[str(rule)], registry=bt_registry)
    out = engine.run("critical", {"location": "CT"}, dice="4,4,1,1", target=mech)
    assert out.applied.data["derived"]["heat_per_turn"] == 10
