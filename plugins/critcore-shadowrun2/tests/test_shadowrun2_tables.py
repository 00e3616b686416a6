"""Every row of the hit location table and of each area's critical list, with scripted dice.

Expected values are copied from the document's tables (Step 2 and THE CRITICAL HIT TABLE).
"""

from __future__ import annotations

import critcore
import critcore_shadowrun2.plugin as sr2
import pytest
from critcore import testing
from critcore.plugin import Outcome

REG = testing.registry(sr2)


def wound(dice: str, **params: object) -> Outcome:
    return critcore.resolve("shadowrun2", "wound", dice=dice, registry=REG, **params)


def two_d6(total: int) -> str:
    """Two faces summing to ``total``."""
    return ",".join(map(str, testing.faces_for("2d6", total)))


# Body 2 against a serious wound (TN 6): faces 6,6 are two successes -> a "Critical" critical.
CRITICAL_CHECK = "6,6"
# Body 2: faces 1,2 are no success -> Mortal (the time before death is rolled too).
MORTAL_CHECK = "1,2"

_AREAS = {  # the document's 2d6 hit location table, grouped by area
    "head": (2, 12), "right leg": (3,), "right arm": (4,), "abdomen": (5, 9), "chest": (6, 7, 8),
    "left arm": (10,), "left leg": (11,),
}
HIT_LOCATION = {total: area for area, totals in _AREAS.items() for total in totals}
AREA_LIST = {"head": "head", "right leg": "leg", "left leg": "leg", "right arm": "arm", "left arm": "arm",
             "abdomen": "abdomen", "chest": "chest"}


@pytest.mark.parametrize("total", sorted(HIT_LOCATION))
def test_hit_location_row_for_each_2d6_total(total: int) -> None:
    """Step 2: a critical hit's 2d6 roll picks the body area from the hit location table."""
    out = wound(f"{CRITICAL_CHECK},{two_d6(total)},1", body=2, severity="serious")
    assert out.determination is not None and out.determination.kind == "critical"
    assert out.location is not None
    assert out.location.name == HIT_LOCATION[total]
    assert out.location.data["list"] == AREA_LIST[HIT_LOCATION[total]]
    assert out.effects[0].table == "critical-" + AREA_LIST[HIT_LOCATION[total]]


# (area, 1d6) -> (part, reason, time before death, diagnosis TN, '*' open wound automatic)
CRITICAL_TABLE = {
    ("chest", 1): ("lung", "IB", "1d6x10 min", 4, False),
    ("chest", 2): ("ribs", "IB", "1d6x10 min", 4, False),
    ("chest", 3): ("spine", "suffo", "1d6 min", 4, False),
    ("chest", 4): ("diaphragm", "suffo", "2d6 min", 6, False),
    ("chest", 5): ("heart", "heart", "1d6/2 min", 2, False),
    ("chest", 6): ("collarbone", "art", "1d6 min", 4, True),
    ("abdomen", 1): ("stomach", "IB", "2d6 hours", 8, False),
    ("abdomen", 2): ("intestines", "IB", "2d6 hours", 8, False),
    ("abdomen", 3): ("diaphragm", "suffo", "2d6 min", 6, False),
    ("abdomen", 4): ("spleen", "IB", "1d6 hours", 8, False),
    ("abdomen", 5): ("kidney", "IB", "1d6 hours", 8, False),
    ("abdomen", 6): ("ribs", "IB", "1d6x10 min", 4, False),
    ("head", 1): ("skull", "brain", "1d6/2 min", 2, False),
    ("head", 2): ("eye", "brain", "1d6/2 min", 2, False),
    ("head", 3): ("ear", "brain", "1d6/2 min", 2, False),
    ("head", 4): ("nose", "brain", "1d6/2 min", 2, False),
    ("head", 5): ("jaw", "art", "2d6 min", 4, True),
    ("head", 6): ("neck", "art", "1d6/2 min", 4, True),
    ("arm", 1): ("shoulder", "art", "1d6 min", 4, True),
    ("arm", 2): ("upper arm", "art", "2d6 min", 4, True),
    ("arm", 3): ("elbow", "art", "1d6 min", 4, True),
    ("arm", 4): ("lower arm", "art", "2d6 min", 4, True),
    ("arm", 5): ("wrist", "art", "1d6 min", 4, True),
    ("arm", 6): ("hand", "art", "2d6 min", 4, True),
    ("leg", 1): ("hip", "art", "1d6 min", 4, True),
    ("leg", 2): ("thigh", "art", "1d6 min", 4, True),
    ("leg", 3): ("knee", "art", "1d6 min", 4, True),
    ("leg", 4): ("calf", "art", "2d6 min", 4, True),
    ("leg", 5): ("ankle", "art", "1d6 min", 4, True),
    ("leg", 6): ("foot", "art", "2d6 min", 4, True),
}
AREA_2D6 = {"head": "1,1", "leg": "1,2", "arm": "1,3", "abdomen": "1,4", "chest": "3,4"}

# Time-before-death faces and the seconds they mean: the notation's dice all showing 3.
TIME_FACES = {
    "1d6x10 min": ("3", 3 * 10 * 60),
    "1d6 min": ("3", 3 * 60),
    "2d6 min": ("3,3", 6 * 60),
    "1d6/2 min": ("3", 90),  # 3/2 minutes = a minute and a half, kept exact
    "2d6 hours": ("3,3", 6 * 3600),
    "1d6 hours": ("3", 3 * 3600),
}


@pytest.mark.parametrize("area,face", sorted(CRITICAL_TABLE))
def test_critical_table_row(area: str, face: int) -> None:
    """THE CRITICAL HIT TABLE: 1d6 on the area's list gives part, reason, time and diagnosis TN."""
    part, reason, time, tn, star = CRITICAL_TABLE[(area, face)]
    time_faces, seconds = TIME_FACES[time]
    out = wound(f"{MORTAL_CHECK},{AREA_2D6[area]},{face},{time_faces}", body=2, severity="serious")
    eff = out.effects[0]
    assert (eff.data["part"], eff.data["cause"], eff.data["time"]) == (part, reason, time)
    assert eff.data["diagnosis_tn"] == tn
    assert eff.data["auto_if_open"] is star
    assert out.applied is not None and out.applied.data["death_in"] == seconds


@pytest.mark.parametrize("area,face", [("chest", 1), ("head", 5), ("leg", 6)])
def test_time_before_death_is_rolled_only_for_a_mortal_critical(area: str, face: int) -> None:
    """Step 1 summary, point 3: time before death belongs to a Mortal critical only."""
    out = wound(f"{CRITICAL_CHECK},{AREA_2D6[area]},{face}", body=2, severity="serious")
    assert out.applied is not None and "death_in" not in out.applied.data
    assert len(out.rolls) == 3  # Body check, hit location, the area's list: nothing more


@pytest.mark.parametrize("face,seconds", [(1, 30), (2, 60), (3, 90), (4, 120), (5, 150), (6, 180)])
def test_half_minutes_are_exact(face: int, seconds: int) -> None:
    """'1d6/2 min' (heart): half a die's minutes, kept to the half minute (1 -> 30 s, 5 -> 2.5 min)."""
    out = wound(f"{MORTAL_CHECK},3,4,5,{face}", body=2, severity="serious")
    assert out.effects[0].data["part"] == "heart"
    assert out.applied is not None and out.applied.data["death_in"] == seconds


@pytest.mark.parametrize("time,faces,seconds", [
    ("1d6x10 min", "6", 3600), ("1d6x10 min", "1", 600), ("2d6 hours", "6,6", 12 * 3600), ("2d6 min", "1,1", 120),
])
def test_time_notation_extremes(time: str, faces: str, seconds: int) -> None:
    """The time notations at their extremes: 1d6x10 min is 10-60 minutes, 2d6 hours 2-12 hours."""
    where = {"1d6x10 min": ("3,4", 1), "2d6 hours": ("1,4", 1), "2d6 min": ("3,4", 4)}[time]
    out = wound(f"{MORTAL_CHECK},{where[0]},{where[1]},{faces}", body=2, severity="serious")
    assert out.effects[0].data["time"] == time
    assert out.applied is not None and out.applied.data["death_in"] == seconds


# Tables read by a value rather than rolled: successes, boxes marked, the Body rating.
LOOKED_UP = ("lethality", "lethality-no-critical", "natural-healing-body", "wound-levels")


def test_every_rolled_table_row_comes_up_on_its_dice() -> None:
    """Hit location (2d6), the critical tables (1d6), the body check (1d4), the medic chart (1d2)
    and natural healing (1d4): every row is one a roll reaches."""
    checked = testing.check_tables_reachable(sr2, looked_up=LOOKED_UP)
    assert {"hit-location", "critical-head", "body-check", "medic-chart", "natural-healing"} <= set(checked)


def test_shadowrun2_implements_only_documented_hooks() -> None:
    assert "critcore_report" in testing.check_hooks_documented(sr2)
