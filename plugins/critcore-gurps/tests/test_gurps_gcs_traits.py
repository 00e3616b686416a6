"""Traits of a GCS character that change injury, each with scripted dice; the expected numbers
come from the GURPS Basic Set page each test names."""

from __future__ import annotations

from typing import Any

import pytest
from critcore.plugin import ParamError

from critcore_gurps import gcs
from gcs_testkit import HUMANOID, body, sheet, trait
from gurps_testkit import faces, run

NORMAL = faces(10)  # Critical Hit table 10: ordinary damage


def character(*traits: dict[str, Any], hp: int = 12, dr: int = 0) -> dict[str, Any]:
    state = gcs.read("t.gcs", sheet(hp=hp, traits=list(traits), body_type=body("Humanoid", HUMANOID, dr=dr)))
    assert state is not None
    return state


def hit(state: dict[str, Any], damage: str, dice: list[int], location: str = "torso") -> Any:
    return run("critical-hit", NORMAL + dice, target=state, location=location, damage=damage)


def statuses(out: Any) -> dict[str, Any]:
    return {s["id"]: s for s in out.applied.target["statuses"]}


def owed(out: Any) -> list[dict[str, Any]]:
    return [dict(o) for o in out.applied.target["owed_rolls"]]


def test_high_pain_threshold_no_shock_and_plus_3_to_knockdown() -> None:
    """B59: no shock penalty; +3 to the HT roll against knockdown. 2d cr rolled 4+3 = 7 to the
    torso of a 12-HP character is a major wound (over 6): the roll is HT+3, and no shock."""
    out = hit(character(trait("High Pain Threshold")), "2d cr", [4, 3])
    assert "shock" not in statuses(out)
    assert [o["modifier"] for o in owed(out) if o["kind"] == "knockdown"] == [3]


def test_low_pain_threshold_doubles_shock_and_minus_4_to_knockdown() -> None:
    """B142: shock doubled (to -8 at most), -4 to knockdown rolls. 1d cr rolled 3 to the torso:
    3 injury, shock 3 x 2 = -6; 2d cr rolled 4+3 = 7 (major wound): HT-4 against knockdown."""
    out = hit(character(trait("Low Pain Threshold")), "1d cr", [3])
    assert statuses(out)["shock"]["penalty"] == -6
    out = hit(character(trait("Low Pain Threshold")), "2d cr", [4, 3])
    assert [o["modifier"] for o in owed(out) if o["kind"] == "knockdown"] == [-4]


def test_hard_to_kill_adds_its_level_to_death_rolls() -> None:
    """B58: +1 per level to HT rolls to avoid death. 5d cr rolled 5x5 = 25 takes 12 HP to -13,
    past -1xHP: a death roll at HT+2 for Hard to Kill 2; the consciousness roll is plain HT."""
    out = hit(character(trait("Hard to Kill", levels=2)), "5d cr", [5] * 5)
    rolls = {o["kind"]: o["modifier"] for o in owed(out)}
    assert rolls["death"] == 2 and rolls["consciousness"] == 0


def test_hard_to_subdue_adds_its_level_to_consciousness_rolls() -> None:
    """B59: +1 per level to HT rolls to stay conscious. 3d cr rolled 5+5+4 = 14 takes 12 HP to -2:
    the roll to stay conscious is HT+3 with Hard to Subdue 3."""
    out = hit(character(trait("Hard to Subdue", levels=3)), "3d cr", [5, 5, 4])
    assert [o["modifier"] for o in owed(out) if o["kind"] == "consciousness"] == [3]


@pytest.mark.parametrize("name", ["Supernatural Durability", "Unkillable"])
def test_no_death_rolls_and_no_death_at_minus_5_hp(name: str) -> None:
    """B89 (Supernatural Durability), B95 (Unkillable): no HT rolls to avoid death, and -5xHP
    does not kill. 12d cr rolled all 6s = 72 takes 12 HP to -60 (-5xHP): alive, only the roll to
    stay conscious owed."""
    out = hit(character(trait(name, levels=1 if name == "Unkillable" else None)), "12d cr", [6] * 12)
    assert "dead" not in statuses(out)
    assert [o["kind"] for o in owed(out) if o["kind"] != "knockdown"] == ["consciousness"]


def test_unkillable_body_destroyed_at_minus_10_hp() -> None:
    """B95: Unkillable dies only when the body is destroyed, at -10xHP: 22d cr all 6s = 132
    takes 12 HP to -120."""
    out = hit(character(trait("Unkillable", levels=1)), "22d cr", [6] * 22)
    assert "dead" in statuses(out)


def test_fragile_unnatural_gone_at_minus_hp() -> None:
    """B137: Fragile (Unnatural) is destroyed at -1xHP with no roll: 4d cr all 6s = 24 takes
    12 HP to -12."""
    out = hit(character(trait("Fragile (Unnatural)")), "4d cr", [6] * 4)
    assert "dead" in statuses(out)
    assert not [o for o in owed(out) if o["kind"] == "death"]


def test_injury_tolerance_unliving_piercing_a_third() -> None:
    """B61: Unliving takes pi at x1/3 (imp and pi++ x1): 2d pi rolled 6+6 = 12 to the torso,
    DR 0: 4 injury; 2d imp rolled 6+6: 12 injury (x1, not x2)."""
    unliving = character(trait("Injury Tolerance", modifiers=("Unliving",)))
    assert hit(unliving, "2d pi", [6, 6]).applied.data["injury"] == 4
    assert hit(unliving, "2d imp", [6, 6]).applied.data["injury"] == 12


def test_injury_tolerance_unliving_skull_keeps_x4() -> None:
    """B61 with B399: the skull's x4 stands for Unliving. 1d imp rolled 5 against the skull's
    DR 2: 3 through, x4 = 12 (head blow table 10: ordinary damage)."""
    state = character(trait("Injury Tolerance (Unliving)"))
    out = run("critical-hit", NORMAL + [5], target=state, location="skull", damage="1d imp")
    assert out.applied.data["injury"] == 12


def test_injury_tolerance_homogenous_impaling_half_and_no_vitals() -> None:
    """B60: Homogenous takes imp at x1/2, and has no vitals (a vitals hit counts as the torso's).
    2d imp rolled 6+4 = 10 at the vitals, DR 0: x1/2 = 5, not x3 = 30."""
    state = character(trait("Injury Tolerance", modifiers=("Homogenous",)))
    assert hit(state, "2d imp", [6, 4], location="vitals").applied.data["injury"] == 5


def test_injury_tolerance_diffuse_caps_injury_and_never_cripples() -> None:
    """B60: Diffuse: impaling and piercing do at most 1 injury a blow, the rest at most 2, and
    nothing is crippled. 3d imp all 6s at the torso: 1; 3d cr all 6s at the right arm: 2, not crippled."""
    state = character(trait("Injury Tolerance (Diffuse)"))
    assert hit(state, "3d imp", [6, 6, 6]).applied.data["injury"] == 1
    out = hit(state, "3d cr", [6, 6, 6], location="right-arm")
    assert out.applied.data["injury"] == 2 and not out.applied.data["crippled"]


def test_injury_tolerance_no_brain_skull_counts_as_face() -> None:
    """B61: No Brain: a skull blow is treated as a face blow (x1.5 for cut, not x4). 1d cut
    rolled 6 against the skull's DR 2: 4 through, x1.5 = 6."""
    state = character(trait("Injury Tolerance", modifiers=("No Brain",)))
    out = run("critical-hit", NORMAL + [6], target=state, location="skull", damage="1d cut")
    assert out.applied.data["injury"] == 6


def test_injury_tolerance_no_neck_counts_as_torso_and_no_eyes_refused() -> None:
    """B61: No Neck: a neck blow is a torso blow (cut x1.5, not x2): 1d cut rolled 4 = 6.
    No Eyes: an eye cannot be aimed at (one line, exit 2)."""
    state = character(trait("Injury Tolerance", modifiers=("No Neck", "No Eyes")))
    assert hit(state, "1d cut", [4], location="neck").applied.data["injury"] == 6
    with pytest.raises(ParamError, match="eyes cannot be hit"):
        run("critical-hit", NORMAL + [4], target=state, location="eye", damage="1d imp")


def test_vulnerability_multiplies_injury_of_its_damage_type() -> None:
    """B161: Vulnerability (crushing, Wounding x2) doubles crushing injury: 1d cr rolled 5 at
    the torso, DR 0: 10. A cutting blow is not doubled: 1d cut rolled 4: 6."""
    vuln = trait("Vulnerability", modifiers=("Crushing attacks", "Wounding x2"), off=("Wounding x3",))
    state = character(vuln)
    assert hit(state, "1d cr", [5]).applied.data["injury"] == 10
    assert hit(state, "1d cut", [4]).applied.data["injury"] == 6


def test_dr_from_gcs_per_location_and_per_damage_type() -> None:
    """B46-47 (Damage Resistance, as GCS computed it in calc.dr): torso DR 2, and 5 against fire.
    2d burn rolled 4+4 = 8: 3 through; 2d cut rolled 4+4: 6 through, x1.5 = 9."""
    rows = body("Humanoid", HUMANOID, dr=2, dr_at={"torso": {"all": 2, "fire": 3}})
    state = gcs.read("t.gcs", sheet(body_type=rows))
    assert state is not None
    assert hit(state, "2d burn", [4, 4]).applied.data["injury"] == 3
    assert hit(state, "2d cut", [4, 4]).applied.data["injury"] == 9


def test_extra_hit_points_are_in_gcs_hp_and_traits_not_applied_are_listed() -> None:
    """B16: Extra Hit Points are already in GCS's HP. Regeneration (B80), Injury Tolerance (No
    Blood) and a Vulnerability to silver are listed as not applied, never dropped silently."""
    state = character(trait("Extra Hit Points", levels=3), trait("Regeneration"),
                      trait("Injury Tolerance", modifiers=("No Blood",)),
                      trait("Vulnerability (Silver)", modifiers=("Wounding x2",)), hp=15)
    assert state["hp"] == 15
    text = "\n".join(state["traits"]["not_applied"])
    assert "Regeneration" in text and "no blood" in text and "Silver" in text
    assert any("Extra Hit Points" in t for t in state["traits"]["in_sheet"])


def test_disabled_traits_and_disabled_modifiers_do_nothing() -> None:
    """A trait switched off in GCS, or a modifier switched off, is not applied."""
    off = trait("High Pain Threshold")
    off["disabled"] = True
    state = character(off, trait("Injury Tolerance", off=("Unliving",), modifiers=("No Neck",)))
    assert "high_pain_threshold" not in state
    assert state["traits"]["injury_tolerance"] == ["no neck"]


def test_family_names_with_levels_and_variants_in_the_name() -> None:
    """GCS libraries write the same trait in several ways: a level in the name, variants in
    parentheses, a variant as a trait of its own."""
    state = character(trait("Hard to Kill 3"), trait("Fragile (Brittle, Unnatural)"), trait("No Vitals"),
                      trait("Unkillable (Total)"))
    assert state["traits"]["hard_to_kill"] == 3
    assert state["traits"]["fragile"] == ["unnatural"]
    assert state["traits"]["injury_tolerance"] == ["no vitals"]
    assert state["traits"]["unkillable"] == 3
