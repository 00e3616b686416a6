"""The stages run unchanged under critcore's enumerating roller (exact odds), and the seeded
simulation agrees with them.

Expected fractions are counted by hand from 3d6 (216 equally likely rolls: 3 and 18 one way each,
4 and 17 three ways, 5 and 16 six, 6 and 15 ten, 7 and 14 fifteen, 8 and 13 twenty-one,
9 and 12 twenty-five, 10 and 11 twenty-seven).
"""

from __future__ import annotations

from fractions import Fraction

import pytest

import critcore
from critcore import testing

import critcore_gurps.plugin as gurps

REG = testing.registry(gurps)
WAYS = {3: 1, 4: 3, 5: 6, 6: 10, 7: 15, 8: 21, 9: 25, 10: 27, 11: 27, 12: 25, 13: 21, 14: 15, 15: 10, 16: 6, 17: 3, 18: 1}


def p(*rolls: int) -> Fraction:
    return Fraction(sum(WAYS[r] for r in rolls), 216)


def test_attack_at_skill_15_exact() -> None:
    """Skill 15: critical hit on 3-5; critical miss on 17-18; hit on 6-15; miss on 16."""
    odds = critcore.odds("gurps", "attack", registry=REG, skill=15)
    assert odds.exact
    kind = lambda k: odds.probability(lambda b: b.determination.kind == k)  # noqa: E731
    assert kind("critical-hit") == p(3, 4, 5)
    assert kind("critical-miss") == p(17, 18)
    assert kind("hit") == p(*range(6, 16))
    assert kind("miss") == p(16)
    # a critical hit to the torso that makes the victim drop what he holds: 3-5, then 12
    drop = odds.probability(lambda b: any(e.id == "drop-held-12" for e in b.effects))
    assert drop == p(3, 4, 5) * p(12)


def test_melee_miss_by_ten_in_exact_odds() -> None:
    """Skill 5: 15 and 16 miss by 10+ in melee (critical), 17 and 18 are always critical."""
    melee = critcore.odds("gurps", "attack", registry=REG, skill=5)
    assert melee.probability(lambda b: b.determination.kind == "critical-miss") == p(15, 16, 17, 18)
    ranged = critcore.odds("gurps", "attack", registry=REG, skill=5, ranged=True)
    assert ranged.probability(lambda b: b.determination.kind == "critical-miss") == p(17, 18)


def test_fine_weapon_breaks_only_on_two_broken_results() -> None:
    """Critical miss table with a fine weapon: "breaks" on 3, 4, 17, 18 (8 ways of 216); it
    breaks only when the second roll is also one of them: (8/216)^2."""
    odds = critcore.odds("gurps", "critical-miss", registry=REG, fine=True)
    broken = odds.probability(lambda b: b.applied is not None and "weapon broken" in " ".join(b.applied.changes))
    assert broken == p(3, 4, 17, 18) ** 2
    dropped = odds.probability(lambda b: any(e.id == "resisted-breakage" for e in b.effects))
    assert dropped == p(3, 4, 17, 18) * (1 - p(3, 4, 17, 18))


def test_head_blow_eye_hits_exact() -> None:
    """Head blow 6-7 lands on an eye: 25 ways of 216."""
    odds = critcore.odds("gurps", "head-blow", registry=REG, damage="1d cr")
    eye = odds.probability(lambda b: b.applied is not None and b.applied.data["location"] == "eye")
    assert eye == p(6, 7)


@pytest.mark.parametrize("procedure, params", [
    ("attack", {"skill": 12, "damage": "1d+1 cut"}),
    ("attack", {"skill": 6, "damage": "2d cr", "hp": 12}),  # misses by 10+: the critical-miss chain too
    ("critical-miss", {"fine": True}),
    ("unarmed-miss", {"unarmed_with": "head"}),
    ("spell", {"skill": 12}),
])
def test_simulation_agrees_with_exact_odds(procedure: str, params: dict[str, object]) -> None:
    """Every outcome's simulated frequency lies within 5 sigma of its exact probability: the
    stages run the same code under both (critcore.testing.check_odds_agree)."""
    agreement = testing.check_odds_agree(gurps, procedure, n=20_000, seed=3, **params)
    assert agreement.checked > 0


def test_determine_is_the_plain_lookup_its_lookup_hook_says() -> None:
    """``critcore_determine_lookup`` lets a simulation skip determine: for every 3d6 total it must
    name the answer determine gives, from that one roll and nothing else (no note, no other roll)."""
    import pytest

    from critcore.testing import ScriptedRoller
    from critcore.testing import Engine, check_params
    from critcore.plugin import ParamError
    from critcore_gurps import determine
    from gurps_testkit import faces

    cases = [("attack", {"skill": s}, {}) for s in (3, 9, 14, 16, 20)] + [
        ("attack", {"skill": 12, "ranged": True}, {"ranged_margin_critical": True}),
        ("attack", {"skill": 17}, {"extended_critical_range": True}),
        ("defense", {"skill": 8, "defense": "parry"}, {}),
        ("spell", {"skill": 15}, {"spell_margin_critical": True}),
    ]
    for proc_name, params, options in cases:
        engine = Engine("gurps", registry=REG, options=options)
        proc = engine.procedure(proc_name)
        checked = check_params(proc, params)
        for total in range(3, 19):
            ctx = engine.context(proc, checked, ScriptedRoller(faces(total)))
            spec = engine.pm.hook.critcore_determine_lookup(ctx=ctx)
            assert spec is not None
            _, label, answers = spec
            assert determine.determine(ctx) is answers[total], (proc_name, params, total)
            assert [(r.notation, r.label) for r in ctx.dice.rolls] == [("3d6", label)] and not ctx.notes
    for proc_name in ("critical-hit", "head-blow", "critical-miss", "hit-location"):
        engine = Engine("gurps", registry=REG)
        ctx = engine.context(engine.procedure(proc_name), check_params(engine.procedure(proc_name), {}),
                             ScriptedRoller([]))
        assert engine.pm.hook.critcore_determine_lookup(ctx=ctx) is None and determine.determine(ctx) is None
    engine = Engine("gurps", registry=REG)
    attack = engine.procedure("attack")
    with pytest.raises(ParamError, match="--skill"):  # below an attack's 3: refused by the prepare step
        engine.context(attack, check_params(attack, {"skill": 2}), ScriptedRoller([]))
