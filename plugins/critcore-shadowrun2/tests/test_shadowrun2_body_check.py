"""Step 1 and 1.1: the GM's Body check, its target numbers, the options and lethality.

Expected numbers come from the document: TNs auto/2, 2/4, 4/6, 8/10 (the second, higher one
recommended); no success is Mortal, one Crippling, two Critical, three or more nothing; optionally Combat
Pool dice, or no Critical category so that two successes suffice.
"""

from __future__ import annotations

from typing import Any

import critcore
import critcore_shadowrun2.plugin as sr2
import pytest
from critcore.plugin import ParamError
from critcore.plugin import Outcome
from critcore.testing import Registry

REG = Registry.installed(extra_systems={"shadowrun2": sr2}, discover=False)


def wound(dice: str, options: dict[str, Any] | None = None, **params: Any) -> Outcome:
    return critcore.resolve("shadowrun2", "wound", dice=dice, registry=REG, options=options, **params)


RECOMMENDED = {"light": 2, "moderate": 4, "serious": 6, "deadly": 10}
GENTLE = {"moderate": 2, "serious": 4, "deadly": 8}


@pytest.mark.parametrize("severity,tn", sorted(RECOMMENDED.items()))
def test_recommended_tn_is_the_default(severity: str, tn: int) -> None:
    """The second (higher) TN of each pair is recommended and used unless told otherwise."""
    out = wound("1,1,1,1,1,1,1,1,1,1,1,1,1", body=1, severity=severity)
    assert out.rolls[0].notation == f"1d6 vs TN {tn}"


@pytest.mark.parametrize("severity,tn", sorted(GENTLE.items()))
def test_gentle_tn_set(severity: str, tn: int) -> None:
    """The alternate set uses the first (lower) TN of each pair."""
    out = wound("1,1,1,1,1,1,1,1,1,1,1,1,1", options={"tn_set": "gentle"}, body=1, severity=severity)
    assert out.rolls[0].notation == f"1d6 vs TN {tn}"


def test_gentle_light_wound_is_never_a_critical() -> None:
    """'auto' for a light wound in the gentle set: light wounds cannot cause critical hits (no roll)."""
    out = critcore.resolve("shadowrun2", "wound", seed=1, registry=REG, options={"tn_set": "gentle"}, body=1,
                           severity="light")
    assert out.rolls == ()
    assert out.determination is not None and out.determination.critical is False
    assert out.location is None and out.effects == ()


# Body 4 against a serious wound (TN 6): a 6 is a success, a 2 is not.
FACES = {0: "2,2,2,2", 1: "6,2,2,2", 2: "6,6,2,2", 3: "6,6,6,2", 4: "6,6,6,6"}
STANDARD = {0: "mortal", 1: "crippling", 2: "critical", 3: "none", 4: "none"}
NO_CRITICAL = {0: "mortal", 1: "crippling", 2: "none", 3: "none", 4: "none"}


@pytest.mark.parametrize("tn_set", ["recommended", "gentle"])
@pytest.mark.parametrize("no_critical", [False, True])
@pytest.mark.parametrize("pool", [False, True])
@pytest.mark.parametrize("successes", sorted(FACES))
def test_lethality_by_successes(tn_set: str, no_critical: bool, pool: bool, successes: int) -> None:
    """Successes to lethality: none Mortal, one Crippling, two Critical, more nothing; without the
    Critical category two or more is nothing.

    The TN set changes only the target number, and Combat Pool dice (Body 2 + 2 pool here) only
    the number of dice, never the success-to-lethality chart.
    """
    faces = FACES[successes] if tn_set == "recommended" else FACES[successes].replace("2", "1").replace("6", "4")
    options = {"tn_set": tn_set, "no_critical_category": no_critical, "allow_combat_pool": pool}
    dice = {"body": 2, "combat_pool": 2} if pool else {"body": 4}
    out = wound(faces + ",3,4,1,3", options=options, severity="serious", **dice)
    assert out.rolls[0].notation == "4d6 vs TN " + ("6" if tn_set == "recommended" else "4")
    assert out.rolls[0].successes == successes
    expected = (NO_CRITICAL if no_critical else STANDARD)[successes]
    assert out.determination is not None and out.determination.kind == expected
    assert out.determination.critical is (expected != "none")


def test_body_three_needs_every_die_to_succeed() -> None:
    """With Body 3 every die must succeed to escape a critical (the document's remark)."""
    assert wound("6,6,2,3,4,1", body=3, severity="serious").determination.kind == "critical"  # type: ignore[union-attr]
    assert wound("6,6,6", body=3, severity="serious").determination.kind == "none"  # type: ignore[union-attr]


def test_no_critical_category_two_successes_suffice() -> None:
    """Option: delete the Critical category, so only 2 successes are needed for no effect."""
    out = wound("6,6,2", options={"no_critical_category": True}, body=3, severity="serious")
    assert out.determination is not None and out.determination.kind == "none"


def test_combat_pool_dice_added() -> None:
    """Option: Combat Pool may be spent on the Body check: Body 2 + 2 pool dice roll 4 dice."""
    out = wound("6,6,6,2", options={"allow_combat_pool": True}, body=2, combat_pool=2, severity="serious")
    assert out.rolls[0].notation == "4d6 vs TN 6"
    assert out.determination is not None and out.determination.kind == "none"


def test_combat_pool_refused_without_the_option() -> None:
    """The Combat Pool is an option: without it the check is Body alone."""
    with pytest.raises(ParamError, match="allow_combat_pool"):
        wound("6,6,6,2", body=2, combat_pool=2, severity="serious")


@pytest.mark.parametrize("faces,successes", [("6,1", 1), ("6,2", 1), ("5,2", 0), ("4,2", 0)])
def test_rule_of_six_at_tn_7(faces: str, successes: int) -> None:
    """Rule of Six: at TN 7 a 6 is rolled again and added (6+1 = 7 succeeds; a 5 fails).

    TN 7: natural healing, Body 6, not in hospital (+2), treated properly (0), Body 5-8 (-1).
    """
    char = {"body": 6, "criticals": [_critical(treatment="medic")]}
    rolled = faces + (",2,2,2,2,2" if faces.startswith("6") else ",2,2,2,2")
    out = critcore.treat("shadowrun2", "heal-natural", dice=rolled, registry=REG, target=char)
    assert out.rolls[0].notation == "6d6 vs TN 7"
    assert out.rolls[0].successes == successes


@pytest.mark.parametrize("faces,successes", [("6,1", 0), ("6,2", 1), ("6,6", 1), ("5", 0)])
def test_rule_of_six_at_tn_8(faces: str, successes: int) -> None:
    """Rule of Six at TN 8 (gentle Deadly): 6 then 2 or more; 6 then 1 is 7, short of 8."""
    out = wound(faces + ",3,4,1,3", options={"tn_set": "gentle"}, body=1, severity="deadly")
    assert out.rolls[0].notation == "1d6 vs TN 8"
    assert out.rolls[0].successes == successes


@pytest.mark.parametrize("faces,successes", [("6,3", 0), ("6,4", 1), ("6,6", 1), ("5", 0)])
def test_rule_of_six_at_tn_10(faces: str, successes: int) -> None:
    """Rule of Six at TN 10 (recommended Deadly): 6 then 4 or more."""
    out = wound(faces + ",3,4,1,3", body=1, severity="deadly")
    assert out.rolls[0].notation == "1d6 vs TN 10"
    assert out.rolls[0].successes == successes


def test_rule_of_six_chains_past_twelve() -> None:
    """Rule of Six keeps going: a die needing 13 (TN 8 + 5) succeeds on 6, 6, 1."""
    char = {"body": 4, "criticals": [_critical(diagnosis_tn=8, diagnosed=False)]}
    out = critcore.treat("shadowrun2", "diagnose", dice="6,6,1", registry=REG, target=char, biotech=1, modifier=5)
    assert out.rolls[0].notation == "1d6 vs TN 13"
    assert out.rolls[0].successes == 1


def test_rule_of_one_all_ones_is_mortal() -> None:
    """Rule of One: every die a 1 is a failure, even against a light wound's TN 2 -> Mortal."""
    out = wound("1,1,1,1,3,4,1,3", body=4, severity="light")
    assert out.rolls[0].detail.startswith("rule of one")
    assert out.determination is not None and out.determination.kind == "mortal"


def test_minimum_target_number_two() -> None:
    """A target number below 2 counts as 2: heart (TN 2) diagnosed by an assensing magician (-2)."""
    char = {"body": 4, "criticals": [_critical(diagnosis_tn=2, diagnosed=False)]}
    fail = critcore.treat("shadowrun2", "diagnose", dice="1", registry=REG, target=char, biotech=1, assensing=True)
    assert fail.rolls[0].notation == "1d6 vs TN 2" and fail.rolls[0].successes == 0
    ok = critcore.treat("shadowrun2", "diagnose", dice="2", registry=REG, target=char, biotech=1, assensing=True)
    assert ok.rolls[0].successes == 1


def test_earlier_wounds_do_not_change_the_check() -> None:
    """Each wound is checked on its own: a character already badly hurt rolls against the same TN."""
    hurt = {"body": 3, "physical": 9, "stun": 8, "criticals": [_critical()]}
    out = wound("6,6,2,3,4,1", target=hurt, severity="serious")
    assert out.rolls[0].notation == "3d6 vs TN 6"
    assert out.determination is not None and out.determination.kind == "critical"


def test_body_comes_from_the_character_file() -> None:
    """Without --body the character's Body rating is rolled."""
    out = wound("6,6,6,6,6", target={"body": 5}, severity="moderate")
    assert out.rolls[0].notation == "5d6 vs TN 4"


def _critical(**changes: Any) -> dict[str, Any]:
    crit = {"id": 1, "lethality": "critical", "boxes": 3, "location": "right-arm", "location_name": "right arm",
            "area": "arm", "part_id": "arm-elbow", "part": "elbow", "cause": "art", "diagnosis_tn": 4,
            "auto_if_open": False, "open_wound": False, "diagnosed": True, "treatment": "none"}
    crit.update(changes)
    return crit
