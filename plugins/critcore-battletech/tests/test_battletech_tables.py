"""The 'Mech hit location table and the Determining Critical Hits table, row by row, with
scripted dice. Expected values are the published Total Warfare tables and the rule document."""

from __future__ import annotations

import pytest

# Total Warfare, 'Mech hit location table: roll -> (front/rear, left side, right side)
HIT_LOCATION = {
    2: ("CT", "LT", "RT"), 3: ("RA", "LL", "RL"), 4: ("RA", "LA", "RA"), 5: ("RL", "LA", "RA"),
    6: ("RT", "LL", "RL"), 7: ("CT", "LT", "RT"), 8: ("LT", "CT", "CT"), 9: ("LL", "RT", "LT"),
    10: ("LA", "RA", "LA"), 11: ("LA", "RL", "LL"), 12: ("HD", "HD", "HD"),
}
SIDES = {"front": 0, "rear": 0, "left": 1, "right": 2}


def faces(total: int) -> str:
    first = min(6, total - 1)
    return f"{first},{total - first}"


@pytest.mark.parametrize("total", range(2, 13))
@pytest.mark.parametrize("side", SIDES)
def test_hit_location_every_roll_and_side(run, total, side):
    """2d6 on the 'Mech hit location table in the column of the attack's side."""
    out = run("hit-location", faces(total), side=side)
    assert out.location.id == HIT_LOCATION[total][SIDES[side]]
    assert out.location.data["rear"] == (side == "rear" and out.location.id in ("CT", "LT", "RT"))
    assert out.effects[0].code == ("through-armor-critical" if total == 2 else "hit-location")


def test_a_two_offers_a_through_armor_critical(run):
    """A 2 on the hit location table gives a chance of a critical even if the armor holds."""
    out = run("hit-location", "1,1")
    assert out.effects[0].id == "two"
    assert "critical --location CT" in out.applied.summary


@pytest.mark.parametrize("total,expected", [(3, "FRL"), (5, "RRL"), (9, "RLL"), (10, "FLL"), (7, "CT")])
def test_quad_reads_arms_as_front_legs_and_legs_as_rear_legs(run, quad, total, expected):
    """A four-legged 'Mech: arm results strike the front legs, leg results the rear legs."""
    assert run("hit-location", faces(total), unit=quad).location.id == expected
    assert run("hit-location", faces(total), quad=True).location.id == expected


# The rule document: 2-7 none, 8-9 one, 10-11 two, 12 head/limb blown off or three in a torso.
EXPECTED_COUNT = {2: 0, 3: 0, 4: 0, 5: 0, 6: 0, 7: 0, 8: 1, 9: 1, 10: 2, 11: 2, 12: 3}
LOCATION_KINDS = {"HD": "head", "CT": "torso", "LT": "torso", "LA": "arm", "RL": "leg"}


@pytest.mark.parametrize("total", range(2, 13))
@pytest.mark.parametrize("loc", LOCATION_KINDS)
def test_determining_critical_hits_every_total_and_location_kind(run, total, loc):
    """Determining Critical Hits without a unit: the count, or a head or limb blown off on a 12."""
    count = EXPECTED_COUNT[total]
    slot_dice = ",".join(["1"] * (count if LOCATION_KINDS[loc] in ("head", "leg") else 2 * count))
    blown = total == 12 and LOCATION_KINDS[loc] != "torso"
    dice = faces(total) + ("," + slot_dice if slot_dice and not blown else "")
    out = run("critical", dice, location=loc)
    det = out.determination
    if total == 12 and LOCATION_KINDS[loc] != "torso":
        assert det.kind == f"{LOCATION_KINDS[loc]}-blown-off"
        assert [e.code for e in out.effects][-1] == "blown-off"
        return
    assert det.data["criticals"] == count
    assert det.critical == (count > 0)
    if count == 0:
        assert det.final and out.applied is None
    else:
        assert [e.code for e in out.effects[1:]] == ["slot-roll"] * count


@pytest.mark.parametrize("total", range(2, 13))
@pytest.mark.parametrize("loc", ["HD", "CT", "LA", "LL"])
def test_determining_critical_hits_on_a_unit(run, mech, total, loc):
    """The same table on a unit: none leaves it untouched; a 12 blows a head or limb off."""
    count = EXPECTED_COUNT[total]
    blown = total == 12 and loc != "CT"
    if blown or count == 0:
        out = run("critical", faces(total), unit=mech, location=loc)
    else:
        # slots that can be hit in every location: slot 1 (life support, engine, shoulder, hip),
        # then 2 and 3 for more criticals
        picks = {"HD": ["1", "2", "3"], "LL": ["1", "2", "3"]}.get(loc, ["1,1", "1,2", "1,3"])
        out = run("critical", faces(total) + "," + ",".join(picks[:count]), unit=mech, location=loc)
    unit = out.target
    if blown:
        assert unit["locations"][loc]["blown_off"] and unit["locations"][loc]["destroyed"]
    elif count == 0:
        assert not any(s["destroyed"] for s in unit["locations"][loc]["slots"])
        assert not out.determination.final  # with a unit the derived numbers are still shown
    else:
        assert sum(1 for s in unit["locations"][loc]["slots"] if s["destroyed"]) == count


def test_tables_load_and_every_code_is_known(bt_registry):
    """Every shipped table covers its roll range once and uses effect codes the engine knows."""
    from critcore.testing import Engine

    engine = Engine("battletech", registry=bt_registry)
    assert set(engine.tables.names()) == {"hit-location", "determining-critical-hits", "critical-slot-half",
                                          "components"}
    for name in engine.tables.names():
        assert engine.tables[name].rows
