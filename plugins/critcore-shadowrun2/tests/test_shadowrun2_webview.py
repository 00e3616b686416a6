"""The runner's picture on crit serve's page (critcore_web_view): the Physical and Stun condition
monitors and each critical's own monitor as ten boxes, the first box of each wound level marked
(Light at 1, Moderate at 3, Serious at 6, Deadly at 10, as the SR2 condition monitor has them),
and the death clock of a mortal critical."""

import critcore
from critcore.testing import Engine
from critcore.plugin import thaw


def _panels(state):
    from critcore.testing import RandomRoller
    from critcore.plugin import Procedure

    engine = Engine("shadowrun2")
    ctx = engine.context(Procedure("show", "show", verb="show"), engine.options, RandomRoller(0), state)
    return engine.pm.hook.critcore_web_view(ctx=ctx)


def test_condition_monitors_are_ten_boxes_with_the_wound_levels_marked():
    panels = _panels({"name": "Ghost", "body": 4, "physical": 4})
    physical = next(p for p in panels if p["type"] == "boxes" and p["label"] == "Physical")
    assert (physical["filled"], physical["total"]) == (4, 10)
    assert physical["marks"] == {1: "L", 3: "M", 6: "S", 10: "D"}
    assert physical["note"] == "moderate"  # 3-5 boxes
    stun = next(p for p in panels if p["type"] == "boxes" and p["label"] == "Stun")
    assert stun["filled"] == 0


def test_a_mortal_critical_shows_its_monitor_and_the_death_clock():
    outcome = critcore.resolve("shadowrun2", "wound", severity="deadly", body=4, seed=3,
                               target={"name": "Ghost", "body": 4})
    state = thaw(outcome.target)
    critical = state["criticals"][0]
    panels = _panels(state)
    monitor = next(p for p in panels if p["type"] == "boxes" and p["label"].startswith("critical #1"))
    assert monitor["filled"] == critical["boxes"]
    if critical.get("death_at") is not None:
        assert any(p["type"] == "alert" and "death clock" in p["text"] for p in panels)
