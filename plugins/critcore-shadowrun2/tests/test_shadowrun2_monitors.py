"""Step 5 and 5.1: each critical's own condition monitor, its penalty, the total modifier.

Document: Mortal marks a Deadly wound (+4), Crippling a Serious one (+3), Critical a Moderate one
(+2); serious physical + moderate stun + two crippling criticals = 21 boxes and +11.
"""

from __future__ import annotations

from typing import Any

import critcore
import critcore_shadowrun2.plugin as sr2
import pytest
from critcore.plugin import StateError
from critcore.plugin import Outcome, thaw
from critcore.testing import Registry
from critcore.testing import render
from critcore_shadowrun2.character import read_character
from critcore_shadowrun2.monitors import modifiers

REG = Registry.installed(extra_systems={"shadowrun2": sr2}, discover=False)

# Body 2 vs a serious wound (TN 6), then 2d6 = 4 (right arm), then 1d6 = 3 (elbow).
CHECK = {"mortal": "1,2", "crippling": "6,2", "critical": "6,6"}


def wound(check: str, target: dict[str, Any] | None, extra: str = "", **params: Any) -> Outcome:
    dice = CHECK[check] + ",1,3,3" + extra
    return critcore.resolve("shadowrun2", "wound", dice=dice, registry=REG, target=target,
                            severity=params.pop("severity", "serious"), **params)


def slot(**changes: Any) -> dict[str, Any]:
    char: dict[str, Any] = {"name": "Slot", "body": 2, "physical": 0, "stun": 0, "clock": 0}
    char.update(changes)
    return char


@pytest.mark.parametrize("lethality,wound_level,boxes,pen", [
    ("mortal", "deadly", 10, 4), ("crippling", "serious", 6, 3), ("critical", "moderate", 3, 2),
])
def test_each_lethality_marks_its_own_monitor(lethality: str, wound_level: str, boxes: int, pen: int) -> None:
    """The lethality sets the boxes marked on the critical's own monitor and its TN penalty."""
    out = wound(lethality, slot(), ",4" if lethality == "mortal" else "")
    assert out.target is not None
    (crit,) = out.target["criticals"]
    assert crit["lethality"] == lethality and crit["boxes"] == boxes
    assert out.applied is not None and out.applied.data["penalty"] == pen
    assert out.determination is not None and out.determination.data["wound"] == wound_level
    assert (crit["location"], crit["part"]) == ("right-arm", "elbow")


def test_monitor_is_separate_from_physical_and_stun() -> None:
    """The critical's boxes do not go on the Physical or Stun track; the wound itself does."""
    out = wound("crippling", slot(physical=1, stun=2))
    assert out.target is not None
    assert out.target["physical"] == 1 + 6  # the serious wound itself: 6 boxes
    assert out.target["stun"] == 2
    assert out.target["criticals"][0]["boxes"] == 6


def test_mortal_starts_a_death_clock() -> None:
    """A Mortal critical starts a death clock: elbow (1d6 min) rolled 4 -> dies 4 minutes later."""
    out = wound("mortal", slot(clock=100), ",4")
    assert out.target is not None
    assert out.target["criticals"][0]["death_at"] == 100 + 4 * 60


def test_crippling_marks_the_part_crippled() -> None:
    """A Crippling critical cripples the body part; a Critical one does not."""
    crippling = wound("crippling", slot()).target
    critical = wound("critical", slot()).target
    assert crippling is not None and critical is not None
    assert crippling["criticals"][0]["crippled"] is True
    assert critical["criticals"][0]["crippled"] is False


def test_no_critical_only_marks_the_wound() -> None:
    """No critical hit: nothing more than the ordinary wound."""
    out = critcore.resolve("shadowrun2", "wound", dice="6,6,6", registry=REG, target=slot(body=3),
                           severity="moderate")
    assert out.target is not None
    assert out.target["physical"] == 3 and out.target["criticals"] == ()


def test_no_mark_leaves_the_physical_track() -> None:
    """--no-mark: the wound's boxes are already on the Physical track."""
    out = wound("critical", slot(physical=6), no_mark=True)
    assert out.target is not None and out.target["physical"] == 6


def test_every_wound_gets_its_own_critical() -> None:
    """Wounds are not added together: a second critical gets a second monitor."""
    first = wound("crippling", slot(), no_mark=True).target
    second = wound("crippling", thaw(first), no_mark=True).target
    assert second is not None
    assert [c["id"] for c in second["criticals"]] == [1, 2]


def test_document_example_total_modifier_eleven() -> None:
    """Serious physical, moderate stun and two crippling criticals: 21 boxes, +3+2+3+3 = +11."""
    start = slot(physical=6, stun=3)
    one = wound("crippling", start, no_mark=True).target
    two = wound("crippling", thaw(one), no_mark=True)
    assert two.applied is not None and two.applied.data["total_modifier"] == 11
    char = read_character(two.target)
    assert char.physical + char.stun + sum(c.boxes for c in char.criticals) == 21
    mods = modifiers(critcore.Engine("shadowrun2", registry=REG).tables, char)
    assert (mods.physical, mods.stun, mods.total) == (3, 2, 11)
    assert mods.by_location() == {"right arm": 6}


def test_without_a_character_the_outcome_says_what_would_happen() -> None:
    """Without a character file the critical is described: its monitor and penalty."""
    out = wound("critical", None, body=2)
    assert out.applied is not None
    assert "moderate wound, 3 boxes, +2 to tests using the right arm" in out.applied.changes[0]


def test_closed_wound_is_recorded() -> None:
    """Open (bullet, blade) or closed (fall, blunt, spell) matters for diagnosis later."""
    out = wound("critical", slot(), closed=True)
    assert out.target is not None and out.target["criticals"][0]["open_wound"] is False


def test_physical_track_stops_at_ten() -> None:
    """The Physical track has ten boxes; more damage is the ordinary rules' overflow."""
    out = critcore.resolve("shadowrun2", "wound", dice="6,6,6", registry=REG, target=slot(body=3, physical=8),
                           severity="serious")
    assert out.target is not None and out.target["physical"] == 10
    assert out.applied is not None and any("4 boxes past it" in c for c in out.applied.changes)


def test_a_dead_character_takes_no_more_wounds() -> None:
    """A dead character's file is refused (one clear error)."""
    with pytest.raises(StateError, match="dead"):
        wound("critical", slot(dead=True))


@pytest.mark.parametrize("physical,stun,expected", [(0, 0, 0), (1, 2, 2), (3, 5, 4), (6, 9, 6), (10, 1, 4)])
def test_track_penalties_follow_the_ordinary_rules(physical: int, stun: int, expected: int) -> None:
    """Physical and Stun tracks: Light +1, Moderate +2, Serious +3; a full track (Deadly) is
    unconsciousness, not a +4 (that +4 belongs to a Mortal critical's own monitor)."""
    char = read_character(slot(physical=physical, stun=stun))
    mods = modifiers(critcore.Engine("shadowrun2", registry=REG).tables, char)
    assert mods.general == expected


def test_stun_wound_marks_the_stun_track() -> None:
    """--stun: the same Body check, but the wound's boxes go on the Stun track."""
    out = wound("critical", slot(stun=1), stun=True)
    assert out.target is not None
    assert (out.target["physical"], out.target["stun"]) == (0, 1 + 6)  # a serious wound is 6 boxes


def test_hit_location_for_every_wound_option() -> None:
    """Option: the hit location may be rolled for wounds that are not critical hits too."""
    options = {"locate_all_wounds": True}
    out = critcore.resolve("shadowrun2", "wound", dice="6,6,6,5,5", registry=REG, options=options, body=3,
                           severity="serious")
    assert out.determination is not None and out.determination.critical is False
    assert out.location is not None and out.location.name == "left arm"
    assert out.effects == ()
    engine = critcore.Engine("shadowrun2", registry=REG, options=options)
    assert "the wound is in the left arm" in render(out, view="player", pm=engine.pm)
    crit_out = wound("critical", None, body=2)
    assert "right arm" not in render(crit_out, view="player", pm=engine.pm)  # default: no location shown


def test_a_broken_character_is_refused_before_any_die_is_rolled() -> None:
    """A character file that does not fit is named before the GM is asked for dice."""
    with pytest.raises(StateError, match=r"^target: physical: 11 is out of range \(0 to 10\)$"):
        critcore.resolve("shadowrun2", "wound", dice="6", registry=REG, target=slot(body=4, physical=11),
                         severity="serious")
