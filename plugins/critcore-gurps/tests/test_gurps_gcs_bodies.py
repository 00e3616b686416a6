"""Hit locations from a GCS character's own body type, with scripted dice: the roll lands on
the body's own table, and each special location takes the Basic Set rule named in
data/bodies.toml (B552 for the nonhuman tables; our choices are in docs/systems/gurps.md,
"Where the rules are silent")."""

from __future__ import annotations

from typing import Any

from critcore_gurps import gcs
from gcs_testkit import ARACHNOID, BLOB, HUMANOID, ICHTHYOID, WINGED_QUADRUPED, body, sheet
from gurps_testkit import faces, run

NORMAL = faces(10)  # Critical Hit table / Critical Head Blow table 10: ordinary damage


def creature(rows: list[tuple[str, str, int, int, int]], name: str, hp: int = 12) -> dict[str, Any]:
    state = gcs.read("c.gcs", sheet(hp=hp, body_type=body(name, rows)))
    assert state is not None
    return state


def random_hit(state: dict[str, Any], roll: int, damage: str, dice: list[int]) -> Any:
    return run("critical-hit", faces(roll) + NORMAL + dice, target=state, location="random", damage=damage)


def test_a_roll_of_12_on_a_winged_quadruped_hits_the_wing_a_limb() -> None:
    """B552: the winged quadruped's 12 is the wing (-2), a limb: 2d cut rolled 3+2 = 5, x1.5 = 7,
    over 12/2 cripples it; a limb takes no more than the least that cripples (7)."""
    out = random_hit(creature(WINGED_QUADRUPED, "Quadruped, Winged"), 12, "2d cut", [3, 2])
    assert out.location.id == "wing" and out.location.data["penalty"] == -2
    assert out.applied.data["injury"] == 7 and out.applied.data["crippled"]


def test_a_roll_of_17_on_a_quadruped_hits_the_tail_an_extremity() -> None:
    """B552: 17-18 is the tail (-3), an extremity: 1d cr rolled 5 is over 12/3, so it is
    crippled, and held to the least that cripples, 5."""
    out = random_hit(creature(WINGED_QUADRUPED, "Quadruped, Winged"), 17, "1d cr", [5])
    assert out.location.id == "tail" and out.location.data["penalty"] == -3
    assert out.applied.data["injury"] == 5 and out.applied.data["crippled"]


def test_each_leg_of_an_arachnoid_is_a_limb_of_its_own() -> None:
    """B552: the arachnoid's legs 5-6 (15-16) is a limb: 1d cr rolled 6 is not over 12/2 (6)."""
    out = random_hit(creature(ARACHNOID, "Arachnoid"), 16, "1d cr", [6])
    assert out.location.id == "leg-5-6" and out.applied.data["injury"] == 6 and not out.applied.data["crippled"]


def test_the_brain_of_a_body_without_a_skull_takes_the_skull_rules() -> None:
    """B552, B399: the arachnoid's brain (3-4, DR 1) takes x4 and the Critical Head Blow table:
    1d cut rolled 4 against DR 1: 3 through, x4 = 12."""
    out = random_hit(creature(ARACHNOID, "Arachnoid"), 3, "1d cut", [4])
    assert out.location.id == "brain"
    assert out.effects[0].table == "head-blow"
    assert out.applied.data["injury"] == 12


def test_the_vitals_of_a_body_without_a_skull() -> None:
    """B399: vitals take impaling at x3, on any body: 1d imp rolled 4 at the arachnoid's
    vitals, DR 0 = 12."""
    out = run("critical-hit", NORMAL + [4], target=creature(ARACHNOID, "Arachnoid"), location="vitals",
              damage="1d imp")
    assert out.applied.data["injury"] == 12


def test_the_fins_of_a_fish_are_extremities_both_ranges() -> None:
    """B552: the ichthyoid's fins are at 6 and 13-16 (-4), extremities: 1d cut rolled 3 = 4 at
    x1.5, over 12/3 cripples it (held to 5, the least that cripples, which 4 is not)."""
    fish = creature(ICHTHYOID, "Ichthyoid")
    for roll in (6, 14):
        out = random_hit(fish, roll, "1d cut", [3])
        assert out.location.id == "fin" and out.location.data["penalty"] == -4
        assert out.applied.data["injury"] == 4 and not out.applied.data["crippled"]


def test_a_body_without_a_head_uses_the_critical_hit_table() -> None:
    """The Critical Head Blow table is for the skull, face and eye; a blob has none, so a head
    blow rolls on the Critical Hit table (said in a note). A roll its table leaves out (15)
    lands on the torso."""
    blob = creature(BLOB, "Blob")
    out = run("head-blow", NORMAL + [3], target=blob, damage="1d cr")
    assert out.effects[0].table == "critical-hit"
    assert any("no head" in n.text for n in out.notes)
    assert random_hit(blob, 15, "1d cr", [3]).location.id == "torso"


def test_a_humanoid_from_gcs_rolls_like_critcore_own_table() -> None:
    """B552: the humanoid's 12 is the left arm; its skull carries its natural DR 2 in GCS's
    calc (DR 2 + 2 = 4), added once: 1d cut rolled 6 at the skull: 2 through, x4 = 8."""
    man = creature(HUMANOID, "Humanoid")
    assert random_hit(man, 12, "1d cr", [1]).location.id == "left-arm"
    man = gcs.read("m.gcs", sheet(body_type=body("Humanoid", HUMANOID, dr=2)))
    out = run("critical-hit", NORMAL + [6], target=man, location="skull", damage="1d cut")
    assert out.applied.data["injury"] == 8


def test_a_location_the_body_lacks_is_one_line_before_any_roll() -> None:
    """--location hand on a fish: refused, naming the fish's locations (no dice are given)."""
    import pytest
    from critcore.plugin import ParamError

    with pytest.raises(ParamError, match="the Ichthyoid body has no 'hand'.*fin"):
        run("attack", [], target=creature(ICHTHYOID, "Ichthyoid"), skill=12, location="hand")
