"""The 'Mech's picture on crit serve's page (critcore_web_view): a diagram by location laid out as a
record sheet does (the head on top, the unit's right side on the reader's left), armor and structure
per location, each location's slots in order with the destroyed ones marked, and the derived
movement, heat and to-hit numbers."""

from importlib.resources import files

import critcore
from critcore.testing import Engine
from critcore.plugin import thaw
from critcore.testing import read_target


def _unit():
    engine = Engine("battletech")
    path = str(files("critcore_battletech.examples") / "quillback.mtf")
    state, _ = read_target(path, engine.read_target)
    return engine, state


def _panels(engine, state):
    from critcore.testing import RandomRoller
    from critcore.plugin import Procedure

    ctx = engine.context(Procedure("show", "show", verb="show"), engine.options, RandomRoller(0), state)
    return engine.pm.hook.critcore_web_view(ctx=ctx)


def _grid(panels):
    return next(p for p in panels if p["type"] == "grid")


def test_diagram_is_laid_out_like_a_record_sheet():
    engine, state = _unit()
    cells = {c["label"].split("(")[1][:2]: (c["row"], c["col"]) for c in _grid(_panels(engine, state))["cells"]}
    assert cells["HD"][0] < cells["CT"][0]  # head above the centre torso
    assert cells["RA"][1] < cells["RT"][1] < cells["CT"][1] < cells["LT"][1] < cells["LA"][1]
    assert cells["RL"][0] == cells["LL"][0] > cells["CT"][0]


def test_every_slot_in_order_with_armor_and_structure():
    engine, state = _unit()
    for cell in _grid(_panels(engine, state))["cells"]:
        code = cell["label"].split("(")[1][:-1].split(")")[0]
        loc = state["locations"][code]
        meters = {p["label"]: (p["value"], p["max"]) for p in cell["panels"] if p["type"] == "meter"}
        assert meters["armor"] == (loc["armor"], loc["max_armor"])
        assert meters["structure"] == (loc["structure"], loc["max_structure"])
        slots = next(p for p in cell["panels"] if p["type"] == "slots")["slots"]
        assert [s["text"] for s in slots] == [s["name"] for s in loc["slots"]]


def test_a_struck_slot_is_marked_destroyed_and_movement_is_derived():
    """8 on Determining Critical Hits is one critical; the slot roll 1 strikes slot 1 of the
    right torso; the diagram marks that slot, and only it, destroyed."""
    engine, state = _unit()
    outcome = critcore.resolve("battletech", "critical", location="RT", dice="4,4,1", target=state)
    after = thaw(outcome.target)
    panels = _panels(engine, after)
    rt = next(c for c in _grid(panels)["cells"] if "(RT)" in c["label"])
    slots = next(p for p in rt["panels"] if p["type"] == "slots")["slots"]
    assert [i for i, s in enumerate(slots) if s["destroyed"]] == [i for i, s in enumerate(after["locations"]["RT"]["slots"])
                                                                  if s["destroyed"]] == [0]
    facts = dict(next(p for p in panels if p["type"] == "facts")["items"])
    assert facts["movement"].startswith(f"walk {state['walk_mp']},")
