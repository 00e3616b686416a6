"""Step 5.3: diagnosis and medical treatment.

Document: a Biotech test against the critical's Diagnosis TN finds it (-2 for a magician with
Biotech who assenses; '*' means automatic for an open wound); a failure means the medic does not
know of it and may try again every minute; a medic cannot treat a Crippling critical; success
turns Mortal into Crippling (Serious on its monitor) and Critical into a Light wound (+1).
The treatment chart is not in the document: our defaults are Mortal TN 6 / 5 minutes,
Critical TN 4 / 20 minutes (options change them).
"""

from __future__ import annotations

from typing import Any

import critcore
import critcore_shadowrun2.plugin as sr2
import pytest
from critcore.plugin import StateError
from critcore.plugin import Outcome
from critcore.testing import Registry
from critcore.testing import render

REG = Registry.installed(extra_systems={"shadowrun2": sr2}, discover=False)


def crit(**changes: Any) -> dict[str, Any]:
    out = {"id": 1, "lethality": "critical", "boxes": 3, "location": "chest", "location_name": "chest",
           "area": "chest", "part_id": "chest-lung", "part": "lung", "cause": "IB", "diagnosis_tn": 4,
           "auto_if_open": False, "open_wound": True, "diagnosed": False}
    out.update(changes)
    return out


def char(*crits: dict[str, Any], **changes: Any) -> dict[str, Any]:
    out = {"name": "Slot", "body": 4, "physical": 3, "stun": 0, "clock": 0, "criticals": list(crits)}
    out.update(changes)
    return out


def treat(proc: str, target: dict[str, Any], dice: str, options: dict[str, Any] | None = None,
          **params: Any) -> Outcome:
    return critcore.treat("shadowrun2", proc, dice=dice, registry=REG, target=target, options=options, **params)


# --- diagnose -----------------------------------------------------------------------------


@pytest.mark.parametrize("faces,found", [("3,3", False), ("4,1", True)])
def test_diagnosis_against_the_listed_tn(faces: str, found: bool) -> None:
    """The Diagnosis column is the Biotech TN (lung: 4)."""
    out = treat("diagnose", char(crit()), faces, biotech=2)
    assert out.rolls[0].notation == "2d6 vs TN 4"
    assert out.target is not None and out.target["criticals"][0]["diagnosed"] is found


def test_assensing_magician_gets_minus_two() -> None:
    """A magician with Biotech who assenses: -2 to the diagnosis TN (diaphragm 6 -> 4)."""
    out = treat("diagnose", char(crit(diagnosis_tn=6)), "4", biotech=1, assensing=True)
    assert out.rolls[0].notation == "1d6 vs TN 4"
    assert out.target is not None and out.target["criticals"][0]["diagnosed"] is True


def test_open_wound_with_star_is_found_without_a_roll() -> None:
    """'*' after the TN: an open wound is diagnosed automatically."""
    out = treat("diagnose", char(crit(auto_if_open=True, open_wound=True)), "1", biotech=1)
    assert out.rolls == ()
    assert out.target is not None and out.target["criticals"][0]["diagnosed"] is True


@pytest.mark.parametrize("auto,open_wound", [(True, False), (False, True)])
def test_closed_wound_or_no_star_needs_the_roll(auto: bool, open_wound: bool) -> None:
    """A closed wound (fall, blunt, spell) uses the listed TN even with '*'; no '*' always rolls."""
    out = treat("diagnose", char(crit(auto_if_open=auto, open_wound=open_wound)), "1", biotech=1)
    assert len(out.rolls) == 1
    assert out.target is not None and out.target["criticals"][0]["diagnosed"] is False


def test_failed_diagnosis_may_be_retried_after_a_minute() -> None:
    """A watching medic may roll again every minute: not sooner."""
    failed = treat("diagnose", char(crit()), "1", biotech=1).target
    assert failed is not None and failed["criticals"][0]["diagnose_retry_at"] == 60
    too_soon = treat("diagnose", dict(failed), "6", biotech=1)
    assert too_soon.rolls == () and too_soon.target["criticals"][0]["diagnosed"] is False  # type: ignore[index]
    later = critcore.treat("shadowrun2", "advance", seed=1, registry=REG, target=dict(failed), minutes=1).target
    again = treat("diagnose", dict(later), "6", biotech=1)  # type: ignore[arg-type]
    assert again.target is not None and again.target["criticals"][0]["diagnosed"] is True


def test_player_cannot_tell_a_failed_diagnosis_from_no_critical() -> None:
    """Secrecy: the player's view of a failed diagnosis reads the same as when there is nothing."""
    engine = critcore.Engine("shadowrun2", registry=REG)
    failed = treat("diagnose", char(crit()), "1", biotech=1)
    nothing = treat("diagnose", char(), "1", biotech=1)
    view = [render(o, view="player", pm=engine.pm) for o in (failed, nothing)]
    assert view[0] == view[1]
    assert "lung" not in view[0]
    assert "lung" in render(failed, view="gm", pm=engine.pm)


# --- medic --------------------------------------------------------------------------------


def test_medic_cannot_treat_an_undiagnosed_critical() -> None:
    """A medic who has not found the critical cannot treat it."""
    with pytest.raises(StateError, match="not been diagnosed"):
        treat("medic", char(crit()), "6", biotech=1)


def test_medic_cannot_treat_a_crippling_critical() -> None:
    """Modern medicine cannot treat a Crippling critical."""
    with pytest.raises(StateError, match="Crippling"):
        treat("medic", char(crit(lethality="crippling", boxes=6, diagnosed=True)), "6", biotech=1)


def test_medic_turns_mortal_into_crippling() -> None:
    """Success: Mortal becomes Crippling (Serious, 6 boxes), the death clock stops, the part is crippled.

    Our chart: TN 6, 5 minutes base; two successes take 2.5 minutes.
    """
    mortal = crit(lethality="mortal", boxes=10, diagnosed=True, death_at=600)
    out = treat("medic", char(mortal), "6,6,1", biotech=3)
    assert out.rolls[0].notation == "3d6 vs TN 6"
    c = out.target["criticals"][0]  # type: ignore[index]
    assert (c["lethality"], c["boxes"], c["crippled"], c["treatment"]) == ("crippling", 6, True, "medic")
    assert "death_at" not in c
    assert out.target["clock"] == 150  # type: ignore[index]


def test_medic_turns_critical_into_light() -> None:
    """Success: a Critical becomes a Light wound (+1) on its monitor, still a Critical critical.

    Our chart: TN 4, 20 minutes base; one success takes the full 20 minutes.
    """
    out = treat("medic", char(crit(diagnosed=True)), "4", biotech=1)
    assert out.rolls[0].notation == "1d6 vs TN 4"
    c = out.target["criticals"][0]  # type: ignore[index]
    assert (c["lethality"], c["boxes"], c["treatment"]) == ("critical", 1, "medic")
    assert out.target["clock"] == 1200  # type: ignore[index]
    assert "critical #1 +1" in out.applied.changes[-1]  # type: ignore[union-attr]


def test_failed_treatment_takes_the_base_time_and_counts_as_improper() -> None:
    """A failure changes nothing but the time spent, and marks the wound not properly treated."""
    out = treat("medic", char(crit(diagnosed=True)), "3", biotech=1)
    c = out.target["criticals"][0]  # type: ignore[index]
    assert (c["boxes"], c["treatment"]) == (3, "medic-failed")
    assert out.target["clock"] == 1200  # type: ignore[index]


def test_patient_dies_if_treatment_takes_too_long() -> None:
    """The death clock runs during treatment: 1 success = 5 minutes, but death comes at 2 minutes."""
    mortal = crit(lethality="mortal", boxes=10, diagnosed=True, death_at=120)
    out = treat("medic", char(mortal), "6", biotech=1)
    assert out.target is not None and out.target["dead"] is True and out.target["died_at"] == 120


def test_medic_chart_options() -> None:
    """The missing chart is configurable: TN and base minutes for each lethality."""
    options = {"medic_tn_critical": 7, "medic_minutes_critical": 10}
    out = treat("medic", char(crit(diagnosed=True)), "6,1", options=options, biotech=1)
    assert out.rolls[0].notation == "1d6 vs TN 7"
    assert out.target is not None and out.target["clock"] == 600


def test_medic_modifier_adds_to_the_tn() -> None:
    """Other modifiers (the medic's wounds, defaulting) add to the chart's TN."""
    out = treat("medic", char(crit(diagnosed=True)), "6", biotech=1, modifier=2)
    assert out.rolls[0].notation == "1d6 vs TN 6"


def test_several_criticals_need_a_choice() -> None:
    """With two treatable criticals the medic says which (--critical N)."""
    two = char(crit(diagnosed=True), crit(id=2, diagnosed=True))
    with pytest.raises(StateError, match="--critical"):
        treat("medic", two, "6", biotech=1)
    out = treat("medic", two, "6", biotech=1, critical=2)
    assert [c["boxes"] for c in out.target["criticals"]] == [3, 1]  # type: ignore[index]


def test_house_rule_file_can_replace_the_medic_chart(tmp_path: Any) -> None:
    """The missing chart lives in a table, so a house-rule file can replace a row of it."""
    rule = tmp_path / "field-surgery.toml"
    rule.write_text('''system = "shadowrun2"
summary = "Field surgery is quicker at our table"

[[tables.medic-chart.row]]
roll = 1
id = "mortal"
effect = "medic-treatment"
text = "Field surgery on a Mortal critical: TN 5, 2 minutes base."
tn = 5
base_minutes = 2
becomes = "crippling"
boxes_after = 6
''', encoding="utf-8")
    mortal = crit(lethality="mortal", boxes=10, diagnosed=True, death_at=600)
    out = critcore.treat("shadowrun2", "medic", dice="5", registry=REG, target=char(mortal), rules=[str(rule)],
                         biotech=1)
    assert out.rolls[0].notation == "1d6 vs TN 5"
    assert out.target is not None and out.target["clock"] == 120
