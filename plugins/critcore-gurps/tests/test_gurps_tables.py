"""Every row of every GURPS table, rolled with scripted dice.

Expected results come from the rule document's tables; injury numbers are worked by hand in
each test's docstring.
"""

from __future__ import annotations


import critcore
import pytest
from critcore.plugin import Outcome

from gurps_testkit import REG, faces, run

FILL = [3, 3, 3] * 4  # spare faces for any follow-up roll a row needs




def statuses(out: Outcome) -> list[str]:
    return [s["id"] for s in (out.target or {}).get("statuses", [])]


# --- Critical Hit table -----------------------------------------------------------------------
# 2d cr rolled as 3+3 = 6 basic, DR 4 on the torso, HP 10.
#   normal: 6 - 4 = 2 injury;  double: 12 - 4 = 8;  triple: 18 - 4 = 14;  maximum: 12 - 4 = 8;
#   half DR (round down): DR 2, 6 - 2 = 4.  Shock is 1 per point, capped at 4 (row 8: doubled, cap 8).
CRIT_HIT = {
    3: ("triple-damage-3", 14, 4), 4: ("half-dr-4", 4, 4), 5: ("double-damage-5", 8, 4), 6: ("max-damage-6", 8, 4),
    7: ("major-wound-7", 2, 2), 8: ("double-shock-8", 2, 4), 9: ("normal-damage-9-11", 2, 2),
    10: ("normal-damage-9-11", 2, 2), 11: ("normal-damage-9-11", 2, 2), 12: ("drop-held-12", 2, 2),
    13: ("major-wound-13-14", 2, 2), 14: ("major-wound-13-14", 2, 2), 15: ("max-damage-15", 8, 4),
    16: ("double-damage-16", 8, 4), 17: ("half-dr-17", 4, 4), 18: ("triple-damage-18", 14, 4),
}


@pytest.mark.parametrize("roll", sorted(CRIT_HIT))
def test_critical_hit_table_row(roll: int) -> None:
    """Each row of the Critical Hit table, with 2d cr = 6 against DR 4 on a 10-HP torso."""
    row_id, injury, shock = CRIT_HIT[roll]
    out = run("critical-hit", faces(roll) + [3, 3], damage="2d cr", dr=4, hp=10, target={"hp": 10, "ht": 10})
    assert out.effects[-1].id == row_id
    assert out.applied.data["injury"] == injury
    assert out.applied.data["shock"] == shock
    assert out.target["current_hp"] == 10 - injury
    # rows 7, 13, 14: any penetrating injury is a major wound (2 would not be one on 10 HP)
    assert out.applied.data["major"] == (roll in (7, 13, 14) or injury * 2 > 10)
    assert ("dropped-held" in statuses(out)) == (roll == 12)


def test_critical_hit_rows_without_damage_name_their_numbers() -> None:
    """The numbers of each row: multiplier, maximum, DR factor and rounding, shock."""
    table = critcore.Engine("gurps", registry=REG).tables["critical-hit"]
    assert table.lookup(3).data["multiplier"] == 3 and table.lookup(18).data["multiplier"] == 3
    assert table.lookup(5).data["multiplier"] == 2 and table.lookup(16).data["multiplier"] == 2
    assert table.lookup(6).data["maximum"] and table.lookup(15).data["maximum"]
    for r in (4, 17):
        assert table.lookup(r).data["dr_factor"] == 0.5 and table.lookup(r).data["dr_round"] == "down"
    assert table.lookup(8).data["shock_cap"] == 8 and table.lookup(8).data["funny_bone_min"] == 2


# --- Critical Head Blow table -----------------------------------------------------------------
# Skull, 2d cr rolled 3+3 = 6, --dr 1 plus the skull's own DR 2 = 3, wounding x4, HP 10.
#   normal: (6 - 3) x 4 = 12;  3: max 12, no DR -> 48;  4-5: DR 3 halved rounding up = 2, (6-2) x 4 = 16;
#   6-7: an eye hit: no skull DR, DR 1 -> (6 - 1) x 4 = 20;  15: max (12 - 3) x 4 = 36;
#   16: double (12 - 3) x 4 = 36;  17: DR 2 -> 16;  18: triple (18 - 3) x 4 = 60.
HEAD = {
    3: ("max-no-dr-3", 48), 4: ("half-dr-major-4-5", 16), 5: ("half-dr-major-4-5", 16), 6: ("eye-hit-6-7", 20),
    7: ("eye-hit-6-7", 20), 8: ("off-balance-8", 12), 9: ("normal-9-11", 12), 10: ("normal-9-11", 12),
    11: ("normal-9-11", 12), 12: ("deafen-or-scar-12-13", 12), 13: ("deafen-or-scar-12-13", 12),
    14: ("drop-weapon-14", 12), 15: ("max-damage-15", 36), 16: ("double-damage-16", 36), 17: ("half-dr-17", 16),
    18: ("triple-damage-18", 60),
}


@pytest.mark.parametrize("roll", sorted(HEAD))
def test_head_blow_table_row(roll: int) -> None:
    row_id, injury = HEAD[roll]
    out = run("head-blow", faces(roll) + [3, 3], damage="2d cr", dr=1, hp=10, target={"hp": 10, "ht": 10})
    assert out.effects[-1].id == row_id
    assert out.applied.data["injury"] == injury
    assert out.applied.data["location"] == ("eye" if roll in (6, 7) else "skull")
    ids = statuses(out)
    assert ("off-balance" in ids) == (roll == 8)
    assert ("deafened" in ids) == (roll in (12, 13))  # a crushing blow deafens
    assert ("dropped-weapon" in ids) == (roll == 14)
    assert ("crippled" in ids) == (roll in (6, 7))  # 20 injury is over HP/10: the eye is blinded


@pytest.mark.parametrize("dtype,levels", [("cut", 1), ("imp", 1), ("burn", 2), ("cor", 2)])
def test_head_blow_12_scars_non_crushing_blows(dtype: str, levels: int) -> None:
    """12-13 with any damage through: crushing deafens, other types scar (2 levels for burn/cor)."""
    out = run("head-blow", faces(12) + [3, 3], damage=f"2d {dtype}", target={"hp": 10})
    scar = [s for s in out.target["statuses"] if s["id"] == "scarred"]
    assert scar and scar[0]["appearance"] == -levels


def test_head_blow_12_needs_penetration() -> None:
    """No damage through DR: neither deafness nor scars."""
    out = run("head-blow", faces(12) + [1, 1], damage="2d cr", dr=10, target={"hp": 10})
    assert "deafened" not in statuses(out) and out.applied.data["injury"] == 0


# --- Critical Miss table ----------------------------------------------------------------------
# A plain (not cheap, not resistant) sword swung in melee, "2d cut": no re-roll applies.
MISS = {
    3: ("weapon-breaks-3-4", "weapon-broken"), 4: ("weapon-breaks-3-4", "weapon-broken"),
    5: ("hit-self-5", None), 6: ("hit-self-half-6", None), 7: ("lose-balance-7", "lost-balance"),
    8: ("weapon-turns-8", "weapon-unready"), 9: ("drop-weapon-9-11", "dropped-weapon"),
    10: ("drop-weapon-9-11", "dropped-weapon"), 11: ("drop-weapon-9-11", "dropped-weapon"),
    12: ("weapon-turns-12", "weapon-unready"), 13: ("lose-balance-13", "lost-balance"),
    14: ("weapon-flies-14", "dropped-weapon"), 15: ("strain-shoulder-15", "strained"), 16: ("fall-down-16", "prone"),
    17: ("weapon-breaks-17-18", "weapon-broken"), 18: ("weapon-breaks-17-18", "weapon-broken"),
}


@pytest.mark.parametrize("roll", sorted(MISS))
def test_critical_miss_table_row(roll: int) -> None:
    row_id, status = MISS[roll]
    extra = {5: [1, 5, 4], 6: [1, 5, 4], 14: [2, 2]}.get(roll, [])
    out = run("critical-miss", faces(roll) + extra, damage="2d cut", target={"hp": 10, "ht": 10})
    assert [e.id for e in out.effects] == [row_id]
    if status:
        assert status in statuses(out)
    if roll in (5, 6):
        # side roll (1d2) 1 -> arm; 2d cut rolled 5+4 = 9, DR 0, x1.5 (limb cap 6 on 10 HP);
        # full damage: 9 x 1.5 = 13, capped at 6; half damage: 9 // 2 = 4 basic, 4 x 1.5 = 6
        assert out.effects[-1].data["location"] == "right-arm"
        assert out.target["current_hp"] == 10 - 6
    if roll == 14:  # yards roll 2, direction roll (1d2) 2 -> straight back
        assert out.effects[-1].data["yards"] == 2 and out.effects[-1].data["direction"] == "back"
    if roll == 15:
        strained = [s for s in out.target["statuses"] if s["id"] == "strained"][0]
        assert strained["until"] == 30 * 60


# --- Unarmed Critical Miss table ----------------------------------------------------------------
UNARMED = {
    3: ("knock-self-out-3", "knocked-out"), 4: ("strain-4", "strained"), 5: ("hit-object-5", None),
    6: ("hit-object-half-6", None), 7: ("stumble-7", "facing-away"), 8: ("fall-down-8", "prone"),
    9: ("lose-balance-9-11", "lost-balance"), 10: ("lose-balance-9-11", "lost-balance"),
    11: ("lose-balance-9-11", "lost-balance"), 12: ("trip-12", None), 13: ("drop-guard-13", "guard-down"),
    14: ("stumble-14", "facing-away"), 15: ("tear-muscle-15", "torn-muscle"), 16: ("hit-object-16", None),
    17: ("strain-17", "strained"), 18: ("knock-self-out-18", "knocked-out"),
}


@pytest.mark.parametrize("roll", sorted(UNARMED))
def test_unarmed_miss_table_row(roll: int) -> None:
    """A punch (limb), thrust damage 1d-1 cr, fumbler with HP 10, HT 10, no DX known."""
    row_id, status = UNARMED[roll]
    out = run("unarmed-miss", faces(roll) + [5, 5, 5], damage="1d-1 cr", target={"hp": 10, "ht": 10})
    assert out.effects[-1].id == row_id
    if status:
        assert status in statuses(out)
    if roll in (4, 17):  # 1 HP of injury, limb useless 30 minutes
        assert out.target["current_hp"] == 9
    if roll in (5, 16):  # 1d-1 cr rolled 5 -> 4 basic, DR 0, x1 on the arm -> 4
        assert out.target["current_hp"] == 6
    if roll == 6:  # half damage: 4 // 2 = 2
        assert out.target["current_hp"] == 8
    if roll == 15:  # 1d-3 rolled 5 -> 2 injury to the arm
        assert out.target["current_hp"] == 8
    if roll == 3:
        ko = [s for s in out.target["statuses"] if s["id"] == "knocked-out"][0]
        assert ko["check"]["every"] == 30 * 60 and ko["check"]["roll"] == "ht"


# --- Critical Spell Failure table ---------------------------------------------------------------
SPELL = {
    3: "backlash-3", 4: "on-caster-4", 5: "on-companion-5-6", 6: "on-companion-5-6", 7: "wrong-target-7",
    8: "backlash-8", 9: "stunned-9", 10: "fizzle-10-11", 11: "fizzle-10-11", 12: "feeble-12", 13: "reversed-13",
    14: "illusion-14", 15: "reversed-wrong-target-15-16", 16: "reversed-wrong-target-15-16", 17: "forgotten-17",
    18: "demon-18",
}


@pytest.mark.parametrize("roll", sorted(SPELL))
def test_spell_failure_table_row(roll: int) -> None:
    out = run("spell-failure", faces(roll) + [4], spell="Fireball", target={"hp": 10, "ht": 10, "iq": 12})
    assert out.effects[-1].id == SPELL[roll]
    hp = out.target.get("current_hp", 10)
    assert hp == {3: 6, 8: 9}.get(roll, 10)  # 3: 1d rolled 4; 8: one point
    ids = statuses(out)
    assert ("stunned" in ids) == (roll == 9)
    assert ("forgot-spell" in ids) == (roll == 17)
    if roll == 17:
        forgot = [s for s in out.target["statuses"] if s["id"] == "forgot-spell"][0]
        assert forgot["spell"] == "Fireball" and forgot["check"] == {"roll": "iq", "every": 604800, "next": 604800, "modifier": 0}


# --- Hit location --------------------------------------------------------------------------------
LOCATION = {
    3: ("skull", -7), 4: ("skull", -7), 5: ("face", -5), 6: ("right-leg", -2), 7: ("right-leg", -2),
    8: ("right-arm", -2), 9: ("torso", 0), 10: ("torso", 0), 11: ("groin", -3), 12: ("left-arm", -2),
    13: ("left-leg", -2), 14: ("left-leg", -2), 15: ("hand", -4), 16: ("foot", -4), 17: ("neck", -5), 18: ("neck", -5),
}


@pytest.mark.parametrize("roll", sorted(LOCATION))
def test_hit_location_row(roll: int) -> None:
    where, penalty = LOCATION[roll]
    out = run("hit-location", faces(roll))
    assert out.location.id == where and out.location.data["penalty"] == penalty


def test_eye_and_vitals_are_chosen_never_rolled() -> None:
    table = critcore.Engine("gurps", registry=REG).tables["hit-location"]
    rolled = {r.data["location"] for r in table.rows}
    assert "eye" not in rolled and "vitals" not in rolled
    out = run("critical-hit", faces(10), location="vitals")
    assert out.location.data["penalty"] == -3
    assert run("critical-hit", faces(10), location="eye").location.data["penalty"] == -9


@pytest.mark.parametrize("roll,harmful,where", [
    (4, True, "the caster"), (4, False, "a random nearby foe"),
    (5, True, "one of the caster's companions"), (6, False, "a random nearby foe"),
])
def test_misdirected_spell_lands_by_intent(roll: int, harmful: bool, where: str) -> None:
    out = run("spell-failure", faces(roll), harmful=harmful)
    assert out.applied.changes == (f"the {'harmful' if harmful else 'helpful'} spell lands on {where}",)


def test_every_row_of_every_gurps_table_comes_up_on_3d6() -> None:
    """All six GURPS tables are rolled on 3d6 (3-18) with no modifier: each row must be one a roll
    can reach (critcore.testing.check_tables_reachable)."""
    from critcore import testing

    import critcore_gurps.plugin as gurps

    assert sorted(testing.check_tables_reachable(gurps)) == ["critical-hit", "critical-miss", "head-blow",
                                                             "hit-location", "spell-failure", "unarmed-miss"]


def test_gurps_implements_only_documented_hooks() -> None:
    """Every hook the plugin implements is one critcore specifies, with arguments it has."""
    from critcore import testing

    import critcore_gurps.plugin as gurps

    assert {"critcore_system", "critcore_determine", "critcore_apply"} <= set(testing.check_hooks_documented(gurps))


@pytest.mark.parametrize("aim", ["skull", "torso", "random"])
def test_unarmed_attack_fumble_strains_the_attackers_own_limb(aim: str) -> None:
    """On `attack`, --location is where the blow was aimed on the foe; a punch that rolls 18 is a
    critical miss, and the Unarmed Critical Miss table's 4 strains the limb the attacker struck
    with (his right arm when nothing names it), never the foe's aimed part ("random" included)."""
    out = run("attack", [6, 6, 6] + faces(4) + FILL, skill=3, unarmed=True, location=aim,
              target={"hp": 10, "ht": 10})
    assert out.effects[-1].id == "strain-4"
    assert out.applied.changes == ("the attacker: takes 1 HP of injury",
                                   "the attacker: strained right arm: useless for 30 minutes")
    assert out.target == {"hp": 10, "ht": 10}  # the target is the foe: the fumble is the attacker's
