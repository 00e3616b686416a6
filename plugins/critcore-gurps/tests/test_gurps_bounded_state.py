"""A character's state stays the same size however many hits he takes (issue 25), and a campaign's
undo is exact across it.

Rules checked (docs/systems/gurps.md, "Where the rules are silent"): the state lists the latest 20
injuries (no rule reads them; the campaign's log keeps all); the same status twice is one status;
the same knockdown roll owed again is owed once more (``times``), and ``crit treat gurps
knockdown`` makes it that many times, the worst result counting (B420: a roll per major wound);
one roll a turn to stay conscious.
"""

from __future__ import annotations

import json
from typing import Any

import critcore
from critcore.campaign.campaign import Campaign
from critcore.plugin import thaw

from gurps_testkit import REG, faces

HERO = {"name": "Hero", "hp": 20, "ht": 11, "dx": 12, "iq": 10, "dr": 0}
MAJOR_TO_THE_FACE = faces(10) + [6, 6]  # critical-hit 10: normal damage, 2d cr = 12 to the face: a major wound


def _hit(state: dict[str, Any]) -> dict[str, Any]:
    outcome = critcore.resolve("gurps", "critical-hit", dice=MAJOR_TO_THE_FACE, target=state, registry=REG,
                               damage="2d cr", location="face")
    return thaw(outcome.target)


def test_the_state_lists_the_latest_injuries_one_status_each_and_counts_owed_rolls() -> None:
    state = dict(HERO, current_hp=10000)  # 20 HP: each 12 is a major wound; 10,000 left: he stands 60 of them
    sizes = []
    for n in range(1, 61):
        state = _hit(state)
        sizes.append(len(json.dumps(state)))
    assert len(state["injuries"]) == 20 and state["current_hp"] == 10000 - 60 * 12
    assert all(i["injury"] == 12 and i["location"] == "face" for i in state["injuries"])
    assert state["owed_rolls"] == [{"roll": "ht", "kind": "knockdown", "modifier": -5,
                                    "why": "major wound to the face", "times": 60}]
    bodies = [json.dumps({k: v for k, v in s.items() if k != "since"}, sort_keys=True) for s in state["statuses"]]
    assert len(bodies) == len(set(bodies))
    assert max(sizes[25:]) - min(sizes[25:]) <= 4  # the same size from then on (only "times" grows a digit)


def test_a_roll_owed_n_times_is_rolled_n_times_and_the_worst_counts() -> None:
    owed = dict(HERO, owed_rolls=[{"roll": "ht", "kind": "knockdown", "modifier": 0, "why": "major wound", "times": 3}])
    # HT 11: 10 and 11 stay up, 13 fails by 2: stunned, prone
    out = critcore.treat("gurps", "knockdown", dice=faces(10) + faces(11) + faces(13), target=owed, registry=REG)
    assert len(out.rolls) == 3
    ids = [s["id"] for s in out.target["statuses"]]
    assert "stunned" in ids and "prone" in ids and out.target["owed_rolls"] == ()
    up = critcore.treat("gurps", "knockdown", dice=faces(10) + faces(11) + faces(9), target=owed, registry=REG)
    assert len(up.rolls) == 3 and "stunned" not in [s["id"] for s in up.target["statuses"]]


def test_the_same_status_twice_is_one_status() -> None:
    """Knocked down twice without standing up or readying: prone once, dropped what he held once."""
    state = dict(HERO, owed_rolls=[{"roll": "ht", "kind": "knockdown", "modifier": 0, "why": "major wound"}])
    once = thaw(critcore.treat("gurps", "knockdown", dice=faces(13), target=state, registry=REG).target)
    again = dict(once, clock=30, owed_rolls=state["owed_rolls"])
    twice = thaw(critcore.treat("gurps", "knockdown", dice=faces(13), target=again, registry=REG).target)
    ids = [s["id"] for s in twice["statuses"]]
    assert ids.count("dropped-held") == 1 and ids.count("prone") == 1
    held = [s for s in twice["statuses"] if s["id"] == "dropped-held"][0]
    assert held["since"] == 0  # the one in force since the first


def test_undo_is_exact_across_a_compacted_state(tmp_path: Any) -> None:
    """The 21st injury pushes the first out of the state; undo brings back the state before it
    exactly (with the first injury), redo the state after it."""
    with Campaign.new(str(tmp_path / "c.db"), registry=REG, who="gm") as camp:
        camp.add("gurps", "hero", dict(HERO, current_hp=10000))
        for _ in range(20):
            camp.resolve("hero", "critical-hit", dice=MAJOR_TO_THE_FACE, damage="2d cr", location="face")
        before = camp.state("hero")
        assert len(before["injuries"]) == 20
        camp.resolve("hero", "critical-hit", dice=faces(10) + [1, 2], damage="2d cr", location="face")  # 3 injury
        after = camp.state("hero")
        assert after["injuries"][-1]["injury"] == 3 and after["injuries"][:-1] == before["injuries"][1:]
        camp.undo("hero")
        assert camp.state("hero") == before
        camp.redo("hero")
        assert camp.state("hero") == after
        assert len([e for e in camp.log("hero") if e.kind == "resolve"]) == 21  # the log keeps every hit
