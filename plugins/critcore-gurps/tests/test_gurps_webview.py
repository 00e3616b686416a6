"""The character's picture on crit serve's page (critcore_web_view): HP as a bar (current of
full), crippled parts by themselves, every other status with the time it has left, the HT rolls
owed and the injuries."""

from critcore.testing import Engine


def _panels(state):
    from critcore.testing import RandomRoller
    from critcore.plugin import Procedure

    engine = Engine("gurps")
    ctx = engine.context(Procedure("show", "show", verb="show"), engine.options, RandomRoller(0), state)
    return engine.pm.hook.critcore_web_view(ctx=ctx)


def test_hp_bar_crippled_parts_and_statuses_with_time_left():
    state = {"name": "Bertram", "hp": 12, "ht": 11, "current_hp": 3, "clock": 10,
             "statuses": [{"id": "crippled", "location": "right-arm", "duration": "pending", "text": "right arm crippled"},
                          {"id": "off-balance", "until": 70, "text": "off balance"}],
             "injuries": [{"location": "right-arm", "injury": 7, "type": "cut", "why": "crippling", "at": 0}]}
    panels = _panels(state)
    hp = next(p for p in panels if p["type"] == "meter" and p["label"] == "HP")
    assert (hp["value"], hp["max"], hp["tone"]) == (3, 12, "warn")  # below a third of HP
    crippled = next(p for p in panels if p["label"] == "crippled")
    assert crippled["items"] == ["right arm crippled"]
    statuses = next(p for p in panels if p["label"] == "statuses")["items"]
    assert len(statuses) == 1 and "off-balance" in statuses[0] and "ends in 1 minute" in statuses[0]
    assert "7 cut to the right-arm" in next(p for p in panels if p["label"] == "injuries")["items"][0]



def test_fp_are_drawn_when_the_character_file_gives_them():
    """FP are no critical's business (the rule document never spends them), but a game master who
    keeps them in the file sees them beside HP, current of full; absent, no FP bar is drawn."""
    panels = _panels({"name": "Bertram", "hp": 12, "fp": 11, "current_fp": 2})
    fp = next(p for p in panels if p["type"] == "meter" and p["label"] == "FP")
    assert (fp["value"], fp["max"], fp["tone"]) == (2, 11, "warn")
    assert not [p for p in _panels({"hp": 12}) if p.get("label") == "FP"]


def test_show_gives_fp_when_the_file_does():
    from critcore.testing import RandomRoller
    from critcore.plugin import Procedure

    engine = Engine("gurps")
    ctx = engine.context(Procedure("show", "show", verb="show"), engine.options, RandomRoller(0),
                         {"name": "Bertram", "hp": 12, "fp": 11})
    assert "FP 11/11" in engine.pm.hook.critcore_show(ctx=ctx)[0]
