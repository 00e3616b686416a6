"""Critical thresholds of the 3d6 roll at every effective skill from 3 to 20.

The rule, as the document gives it: 3 and 4 are always critical hits; 5 is one at effective
skill 15 or more, 6 at 16 or more. 18 is always a critical miss; 17 is one below effective
skill 16 (from 16 up, 17 simply misses). Missing a melee attack by 10 or more is
a critical miss too (attacks, dodges, parries and blocks). Otherwise a roll of skill or less hits.
"""

from __future__ import annotations

import pytest
from critcore.testing import Engine
from critcore.plugin import ParamError

from gurps_testkit import REG

ENGINE = Engine("gurps", registry=REG)
EXTENDED = Engine("gurps", registry=REG, options={"extended_critical_range": True})
RANGED_MARGIN = Engine("gurps", registry=REG, options={"ranged_margin_critical": True})


def faces(total: int) -> list[int]:
    """Three d6 faces that add up to ``total``."""
    a = min(6, total - 2)
    b = min(6, total - a - 1)
    return [a, b, total - a - b]


def expected(skill: int, roll: int, melee: bool = True) -> str:
    """The document's rule, written out independently of the plugin."""
    if roll in (3, 4) or (roll == 5 and skill >= 15) or (roll == 6 and skill >= 16):
        return "critical-success"
    if roll == 18 or (roll == 17 and skill < 16) or (melee and roll - skill >= 10):
        return "critical-failure"
    if roll <= skill and roll != 17:
        return "success"
    return "failure"


ATTACK_KIND = {"critical-success": "critical-hit", "success": "hit", "failure": "miss", "critical-failure": "critical-miss"}
SKILLS = range(3, 21)
ROLLS = range(3, 19)


@pytest.mark.parametrize("skill", SKILLS)
def test_melee_attack_thresholds_at_every_skill(skill: int) -> None:
    """Melee attack: criticals by the document's thresholds, and a miss by 10+ is critical."""
    for roll in ROLLS:
        out = ENGINE.run("attack", {"skill": skill}, dice=faces(roll) + [3, 3, 3] * 4)
        assert out.determination.kind == ATTACK_KIND[expected(skill, roll)], (skill, roll)


@pytest.mark.parametrize("skill", SKILLS)
def test_ranged_attack_thresholds_at_every_skill(skill: int) -> None:
    """Ranged attack: the miss-by-10 rule is for melee only, so only 17/18 are critical misses."""
    for roll in ROLLS:
        out = ENGINE.run("attack", {"skill": skill, "ranged": True}, dice=faces(roll) + [3, 3, 3] * 4)
        assert out.determination.kind == ATTACK_KIND[expected(skill, roll, melee=False)], (skill, roll)


@pytest.mark.parametrize("skill", SKILLS)
def test_defense_thresholds_at_every_skill(skill: int) -> None:
    """Dodges, parries and blocks share the thresholds, the miss-by-10 rule included."""
    for roll in ROLLS:
        out = ENGINE.run("defense", {"skill": skill, "defense": "dodge"}, dice=faces(roll) + [3, 3, 3] * 4)
        assert out.determination.kind == expected(skill, roll), (skill, roll)


@pytest.mark.parametrize("skill", SKILLS)
def test_spell_thresholds_at_every_skill(skill: int) -> None:
    for roll in ROLLS:
        out = ENGINE.run("spell", {"skill": skill}, dice=faces(roll) + [3, 3, 3] * 4)
        assert out.determination.kind == expected(skill, roll), (skill, roll)


def test_seventeen_is_an_ordinary_miss_at_skill_16_and_up() -> None:
    for skill in (16, 17, 20):
        assert ENGINE.run("attack", {"skill": skill}, dice=[6, 6, 5]).determination.kind == "miss"
    assert ENGINE.run("attack", {"skill": 15}, dice=[6, 6, 5] + [3, 3, 3] * 4).determination.kind == "critical-miss"


def test_melee_miss_by_ten_is_critical_but_by_nine_is_not() -> None:
    """Skill 5: 15 misses by 10 (critical), 14 misses by 9 (ordinary)."""
    assert ENGINE.run("attack", {"skill": 5}, dice=[5, 5, 5] + [3, 3, 3] * 4).determination.kind == "critical-miss"
    assert ENGINE.run("attack", {"skill": 5}, dice=[5, 5, 4]).determination.kind == "miss"


def test_option_ranged_margin_makes_a_ranged_miss_by_ten_critical() -> None:
    out = RANGED_MARGIN.run("attack", {"skill": 5, "ranged": True}, dice=[5, 5, 5, 3, 3, 3, 3, 3, 3])
    assert out.determination.kind == "critical-miss"


@pytest.mark.parametrize("skill,top", [(16, 6), (19, 6), (20, 7), (24, 7), (25, 8), (30, 9), (35, 10), (40, 10)])
def test_extended_critical_range_option(skill: int, top: int) -> None:
    """Option extended_critical_range: 7 at skill 20, 8 at 25, 9 at 30, 10 at 35 (off by default)."""
    crit = EXTENDED.run("attack", {"skill": skill}, dice=faces(top) + [3, 3, 3] * 4)
    assert crit.determination.kind == "critical-hit"
    if top < 10:
        plain = EXTENDED.run("attack", {"skill": skill}, dice=faces(top + 1))
        assert plain.determination.kind == "hit"
    default = ENGINE.run("attack", {"skill": skill}, dice=faces(top) + [3, 3, 3] * 4)
    assert default.determination.kind == ("critical-hit" if top <= 6 else "hit")


@pytest.mark.parametrize("skill", [2, 0, -4, 100])
def test_skill_out_of_range_is_a_param_error(skill: int) -> None:
    with pytest.raises(ParamError, match="--skill"):
        ENGINE.run("attack", {"skill": skill}, dice=[3, 3, 3])
