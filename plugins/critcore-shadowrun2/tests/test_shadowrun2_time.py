"""Step 6 (natural healing) and the clock (`advance`): a Critical heals in 8 weeks divided by the
successes of a Body test against TN 6 (+2 not in hospital, +4 untreated, +2 not properly treated
by a medic; Body 1-2 +1, 5-8 -1, 9-12 -2, 12+ -3); an untreated Mortal critical kills when its
time before death runs out.
"""

from __future__ import annotations

from typing import Any

import critcore
import critcore_shadowrun2.plugin as sr2
import pytest
from critcore.plugin import ParamError, StateError
from critcore.plugin import Outcome, thaw
from critcore.testing import Registry

REG = Registry.installed(extra_systems={"shadowrun2": sr2}, discover=False)
WEEK = 7 * 86400


def crit(**changes: Any) -> dict[str, Any]:
    out = {"id": 1, "lethality": "critical", "boxes": 3, "location": "left-arm", "location_name": "left arm",
           "area": "arm", "part_id": "arm-wrist", "part": "wrist", "cause": "art", "diagnosis_tn": 4,
           "diagnosed": True, "treatment": "none"}
    out.update(changes)
    return out


def char(*crits: dict[str, Any], **changes: Any) -> dict[str, Any]:
    out = {"name": "Slot", "body": 4, "physical": 0, "stun": 0, "clock": 0, "criticals": list(crits or [crit()])}
    out.update(changes)
    return out


def natural(target: dict[str, Any], dice: str, options: dict[str, Any] | None = None, **params: Any) -> Outcome:
    return critcore.treat("shadowrun2", "heal-natural", dice=dice, registry=REG, target=target, options=options,
                          **params)


def advance(target: dict[str, Any], **params: Any) -> Outcome:
    return critcore.treat("shadowrun2", "advance", seed=1, registry=REG, target=target, **params)


@pytest.mark.parametrize("treatment,hospital,tn", [
    ("none", False, 12), ("none", True, 10), ("medic", True, 6), ("magic", False, 8), ("medic-failed", True, 8),
    ("medic-failed", False, 10),
])
def test_natural_healing_tn(treatment: str, hospital: bool, tn: int) -> None:
    """Base TN 6; +2 out of hospital; +4 never treated; +2 a medic tried and failed (Body 4: 0)."""
    out = natural(char(crit(treatment=treatment)), "1,1,1,1", hospital=hospital)
    assert out.rolls[0].notation == f"4d6 vs TN {tn}"


@pytest.mark.parametrize("body,option,tn", [
    (1, "9-12", 7), (2, "9-12", 7), (3, "9-12", 6), (4, "9-12", 6), (5, "9-12", 5), (8, "9-12", 5),
    (9, "9-12", 4), (12, "9-12", 4), (12, "12+", 3), (13, "9-12", 3), (20, "9-12", 3),
])
def test_body_modifiers(body: int, option: str, tn: int) -> None:
    """Body 1-2 +1, 5-8 -1, 9-12 -2, 12+ -3; Body 12 is in both rows (option, default 9-12).

    In hospital after proper treatment, so TN = 6 + the Body modifier.
    """
    out = natural(char(crit(treatment="medic"), body=body), ",".join(["1"] * body),
                  options={"body_12_healing": option}, hospital=True)
    assert out.rolls[0].notation == f"{body}d6 vs TN {tn}"


@pytest.mark.parametrize("successes,weeks", [(1, 8), (2, 4), (4, 2), (8, 1)])
def test_eight_weeks_divided_by_successes(successes: int, weeks: int) -> None:
    """Base time 8 weeks divided by the successes of the Body roll."""
    faces = ",".join(["6"] * successes + ["1"] * (8 - successes))
    out = natural(char(crit(treatment="medic"), body=8), faces, hospital=True)
    assert out.target is not None and out.target["criticals"][0]["heals_at"] == weeks * WEEK


def test_three_successes_round_up_to_the_second() -> None:
    """8 weeks / 3 is 18 days 16 hours exactly."""
    out = natural(char(crit(treatment="medic")), "6,6,6,1", hospital=True)
    assert out.target is not None and out.target["criticals"][0]["heals_at"] == 18 * 86400 + 16 * 3600


def test_no_success_no_healing() -> None:
    """No success: the critical does not start to heal."""
    out = natural(char(), "1,2,3,4")
    assert out.target is not None and "heals_at" not in out.target["criticals"][0]


def test_only_a_critical_of_critical_lethality_heals_by_itself() -> None:
    """Crippling stays until replaced or healed by magic; Mortal needs treatment."""
    with pytest.raises(StateError, match="only a critical of Critical"):
        natural(char(crit(lethality="crippling", boxes=6)), "6,6,6,6", critical=1)


def test_a_medic_treated_light_critical_still_heals_naturally() -> None:
    """A Critical reduced to Light by a medic is still a Critical critical and heals in time."""
    out = natural(char(crit(treatment="medic", boxes=1)), "6,6,1,1", hospital=True)
    assert out.target is not None and out.target["criticals"][0]["heals_at"] == 4 * WEEK


def test_treatment_override() -> None:
    """--treatment overrides what the file says (none +4, improper +2, proper 0)."""
    out = natural(char(crit(treatment="medic")), "1,1,1,1", hospital=True, treatment="none")
    assert out.rolls[0].notation == "4d6 vs TN 10"
    with pytest.raises(ParamError, match="--treatment"):
        natural(char(), "1,1,1,1", treatment="bandaged")


def test_healing_finishes_when_the_clock_reaches_it() -> None:
    """advance: the critical's monitor clears when its healing time has passed."""
    healing = thaw(natural(char(crit(treatment="medic")), "6,6,1,1", hospital=True).target)
    early = advance(healing, weeks=3.5)
    assert early.target is not None and len(early.target["criticals"]) == 1
    done = advance(healing, weeks=4)
    assert done.target is not None and done.target["criticals"] == ()


# --- the death clock ----------------------------------------------------------------------


def mortal(death_at: int) -> dict[str, Any]:
    return crit(lethality="mortal", boxes=10, death_at=death_at, part="heart", cause="heart")


def test_untreated_mortal_kills_when_time_runs_out() -> None:
    """An untreated Mortal critical: the character dies when its time before death has passed."""
    out = advance(char(mortal(90)), minutes=2)
    assert out.target is not None and out.target["dead"] is True and out.target["died_at"] == 90
    assert out.applied is not None and "DIES" in out.applied.summary
    assert out.target["clock"] == 120


def test_still_alive_before_the_time() -> None:
    """One minute of a minute and a half: still alive."""
    out = advance(char(mortal(90)), minutes=1)
    assert out.target is not None and out.target["dead"] is False


def test_treated_mortal_no_longer_kills() -> None:
    """After a medic's success (Crippling) the clock no longer matters."""
    treated = critcore.treat("shadowrun2", "medic", dice="6,6,6", registry=REG, target=char(mortal(600)), biotech=3)
    out = advance(thaw(treated.target), hours=5)
    assert out.target is not None and out.target["dead"] is False


def test_time_units_add_up() -> None:
    """--minutes, --hours, --days and --weeks add up."""
    out = advance(char(), minutes=1, hours=1, days=1, weeks=1)
    assert out.target is not None and out.target["clock"] == 60 + 3600 + 86400 + WEEK


def test_time_does_not_run_backwards() -> None:
    """The clock only moves forward: a negative time is refused (by the declared range, 0 up)."""
    with pytest.raises(ParamError, match="out of range"):
        advance(char(), minutes=-1)


def test_dead_characters_are_not_treated() -> None:
    """Treating a dead character is refused with one clear error."""
    with pytest.raises(StateError, match="dead"):
        natural(char(dead=True), "6,6,6,6")


def test_player_hears_of_an_undiagnosed_critical_only_vaguely() -> None:
    """Secrecy: healing of a critical nobody has found is told to the player without naming it."""
    from critcore.testing import render

    engine = critcore.Engine("shadowrun2", registry=REG)
    hidden = natural(char(crit(treatment="medic", diagnosed=False)), "6,6,1,1", hospital=True)
    known = natural(char(crit(treatment="medic")), "6,6,1,1", hospital=True)
    assert "wrist" not in render(hidden, view="player", pm=engine.pm)
    assert "wrist" in render(known, view="player", pm=engine.pm)
    done = advance(thaw(hidden.target), weeks=4)
    assert "wrist" not in render(done, view="player", pm=engine.pm)
