"""CASE and CASE II venting on real units (MegaMek's files in ../shared/mtf-samples; skipped
without them), with scripted dice, in every combination the samples hold: CASE or CASE II or
none (a Clan 'Mech's built-in CASE), a standard, Inner Sphere XL or Clan XL engine, and a
neighbouring location already destroyed.

The rules checked (docs/systems/battletech.md): an exploding bin does one turn's shots to the
internal structure of its location and 2 to the MechWarrior; with option ``case`` a location
holding CASE (or CASE II, or any location of a Clan 'Mech) that the explosion destroys vents the
rest instead of passing it inward; a destroyed side torso takes its arm; its engine slots count
as engine hits, so an Inner Sphere XL engine (3 slots a side torso) loses the 'Mech even with
CASE, a Clan XL engine (2) does not. Every expected number is worked out by hand below.
"""

from __future__ import annotations

from typing import Any

import pytest
from bt_shared import SAMPLES

pytestmark = pytest.mark.skipif(not SAMPLES.is_dir(), reason="../shared/mtf-samples is not here")


def unit(name: str) -> dict[str, Any]:
    from critcore_battletech import load_mtf

    return load_mtf(SAMPLES / f"{name}.mtf")


def vented(out: Any) -> list[str]:
    return [c for c in out.applied.changes if "vented" in c]


# (unit, option case, dice, expected): the dice are 2d6 for Determining Critical Hits, then per
# critical the half die (4: slots 7-12) and the slot die, then each critical check's 2d6.
CASES = [
    pytest.param(
        # 90 t, standard engine, CASE in LT (slot 11). Slot 9, an LRM-20 bin: 20 against the left
        # torso's 19 structure: destroyed, the arm with it; CASE vents the 1 left; the centre
        # torso keeps its 29. No check follows (nothing standing was damaged).
        "Highlander HGN-732", True, "4,4,4,3",
        {"LT": (0, True), "LA": (0, True), "CT": (29, False), "pilot": 2, "destroyed": False, "engine_hits": 0,
         "vented": 1}, id="CASE, standard engine"),
    pytest.param(
        # the same without option case: the 1 passes to the centre torso (29 -> 28), whose check rolls 2
        "Highlander HGN-732", False, "4,4,4,3,1,1",
        {"LT": (0, True), "LA": (0, True), "CT": (28, False), "pilot": 2, "destroyed": False, "engine_hits": 0,
         "vented": 0}, id="CASE ignored (option off), standard engine"),
    pytest.param(
        # 100 t, Inner Sphere XL (3 engine slots in each side torso), CASE in LT. 10: two criticals,
        # slots 9 and 10, both LRM-20 bins. The first: 21 -> 1, its check rolls 2; the second:
        # the torso goes, 19 vented. The 3 engine slots lost destroy the 'Mech all the same;
        # the centre torso keeps its 31. The MechWarrior takes 2 + 2.
        "Atlas_AS7-K", True, "5,5,4,3,4,4,1,1",
        {"LT": (0, True), "LA": (0, True), "CT": (31, False), "pilot": 4, "destroyed": True, "engine_hits": 3,
         "vented": 19}, id="CASE, IS XL engine"),
    pytest.param(
        # without CASE the 19 reach the centre torso (31 -> 12); the 'Mech is already destroyed,
        # so no check is rolled there
        "Atlas_AS7-K", False, "5,5,4,3,4,4,1,1",
        {"LT": (0, True), "LA": (0, True), "CT": (12, False), "pilot": 4, "destroyed": True, "engine_hits": 3,
         "vented": 0}, id="no CASE, IS XL engine"),
    pytest.param(
        # Clan XL (2 slots a side torso), CASE II in LT (slot 9). Two criticals on slots 7 and 8,
        # LRM-15 bins (15 a volley): 16 -> 1 (check: 2), then the torso goes and CASE II vents
        # 14. Two engine hits: the 'Mech stands.
        "Triskelion TRK-4V", True, "5,5,4,1,4,2,1,1",
        {"LT": (0, True), "LA": (0, True), "CT": (23, False), "pilot": 4, "destroyed": False, "engine_hits": 2,
         "vented": 14}, id="CASE II, Clan XL engine"),
    pytest.param(
        # a Clan 'Mech with no CASE slot: its CASE is built in. LRM-20 bin in slot 8: 16 -> 0,
        # 4 vented; Clan XL: 2 engine hits, the 'Mech stands
        "Mad Cat (Timber Wolf) Prime", True, "4,4,4,2",
        {"LT": (0, True), "LA": (0, True), "CT": (23, False), "pilot": 2, "destroyed": False, "engine_hits": 2,
         "vented": 4}, id="Clan built-in CASE, Clan XL engine"),
    pytest.param(
        "Mad Cat (Timber Wolf) Prime", False, "4,4,4,2,1,1",
        {"LT": (0, True), "LA": (0, True), "CT": (19, False), "pilot": 2, "destroyed": False, "engine_hits": 2,
         "vented": 0}, id="no CASE (option off), Clan XL engine"),
]


@pytest.mark.parametrize("name, case, dice, expected", CASES)
def test_battletech_case_venting_on_real_units(run: Any, bt: Any, name: str, case: bool, dice: str,
                                               expected: dict[str, Any]) -> None:
    out = run("critical", dice, unit=unit(name), location="LT", options={"case": case})
    after = bt.state(out)
    for code in ("LT", "LA", "CT"):
        loc = after["locations"][code]
        assert (loc["structure"], loc["destroyed"]) == expected[code], code
    assert after["pilot"]["hits"] == expected["pilot"]
    assert after["destroyed"] is expected["destroyed"]
    assert after["damage"]["engine_hits"] == expected["engine_hits"]
    assert [int(c.split("the other ")[1].split(" ")[0]) for c in vented(out)] == (
        [expected["vented"]] if expected["vented"] else [])


def test_battletech_case_with_the_neighbouring_arm_already_destroyed(run: Any, bt: Any) -> None:
    """The Highlander's left arm blown off first (a 12 on its Determining Critical Hits); then the
    LRM-20 bin in the left torso explodes: the torso goes (19), the arm stays as it was (blown
    off, not destroyed again: no second word about it), CASE vents the 1 left, the centre torso
    keeps its 29."""
    gone = bt.state(run("critical", "6,6", unit=unit("Highlander HGN-732"), location="LA"))
    assert gone["locations"]["LA"]["blown_off"]
    out = run("critical", "4,4,4,3", unit=gone, location="LT", options={"case": True})
    after = bt.state(out)
    assert after["locations"]["LT"]["destroyed"] and after["locations"]["LA"]["blown_off"]
    assert not any("Left Arm" in c for c in out.applied.changes)
    assert after["locations"]["CT"]["structure"] == 29 and len(vented(out)) == 1
