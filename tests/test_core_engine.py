"""The engine with the fake system: every stage, the record, parameters, options, house rules."""

import json

import pytest

from critcore.engine.runner import Engine
from critcore.errors import ConfigError, ParamError, UnknownNameError
from critcore.model import Outcome
from critcore.stages.loader import Registry
import fakerules
import fakesystem


def engine(registry, **kw):
    return Engine("fake", registry=registry, **kw)


def test_every_stage_runs_in_order_and_is_recorded(registry):
    """A natural 20 is a critical; 1d6 = 4 on the confirm table is 'solid' (x2); 1d8 = 5 -> 10."""
    out = engine(registry).run("attack", {"ac": 15}, dice="20,4,5", target={"hp": 30})
    assert [s.stage for s in out.steps] == ["determine", "locate", "effect", "apply"]
    assert [r.label for r in out.rolls] == ["attack roll", "critical confirmation", "damage"]
    assert out.steps[0].rolls == (0,) and out.steps[2].rolls == (1,) and out.steps[3].rolls == (2,)
    assert out.determination.kind == "critical"
    assert out.location.id == "body"
    assert [e.id for e in out.effects] == ["solid"]
    assert out.applied.data["damage"] == 10
    assert out.target["hp"] == 20


def test_final_determination_stops_the_procedure(registry):
    """A natural 1 is a fumble: no location, no effect, no apply."""
    out = engine(registry).run("attack", {}, dice="1")
    assert [s.stage for s in out.steps] == ["determine"]
    assert out.location is None and out.effects == () and out.applied is None


def test_outcome_round_trips_through_json(registry):
    out = engine(registry).run("attack", {"ac": 5, "where": "head"}, dice="20,6,8", target={"hp": 9})
    data = json.loads(out.to_json())  # to_json: text; to_dict: the data
    assert data == out.to_dict() and data["format"] == 1
    assert Outcome.from_json(data) == out and Outcome.from_json(out.to_json()) == out == Outcome.from_dict(data)
    assert data["rolls"][0] == {"label": "attack roll", "notation": "1d20", "faces": [20], "total": 20}
    assert data["effects"][0]["table"] == "confirm" and data["effects"][0]["multiplier"] == 3
    assert data["target"] == {"hp": -15}


def test_params_are_checked_and_defaulted(registry):
    e = engine(registry)
    assert e.run("attack", {}, dice="10,3").params["ac"] == 10
    with pytest.raises(ParamError, match="--ac: 99 is out of range"):
        e.run("attack", {"ac": 99}, dice="10")
    with pytest.raises(ParamError, match="did you mean 'bonus'"):
        e.run("attack", {"bonsu": 1}, dice="10")
    with pytest.raises(ParamError, match="not one of head, body"):
        e.run("attack", {"where": "tail"}, dice="10")
    with pytest.raises(ParamError, match="--damage"):
        e.run("attack", {"damage": "2q6"}, dice="10")


def test_unknown_procedure_lists_what_exists(registry):
    with pytest.raises(UnknownNameError, match="did you mean 'attack'.*installed: attack, rest"):
        engine(registry).run("atack")


def test_unknown_system_lists_installed(registry):
    with pytest.raises(UnknownNameError, match="unknown system 'fak'.*did you mean 'fake'"):
        Engine("fak", registry=registry)


def test_options_change_the_rules_and_are_checked(registry):
    """With crit_on_19 a natural 19 is a critical."""
    out = engine(registry, options={"crit_on_19": True}).run("attack", {}, dice="19,1,1")
    assert out.determination.critical
    with pytest.raises(ConfigError, match="no option 'crit_on_91'"):
        engine(registry, options={"crit_on_91": True})


def test_treat_stage(registry):
    out = engine(registry).run("rest", {}, dice="3", target={"hp": 4})
    assert [s.stage for s in out.steps] == ["treat"] and out.target["hp"] == 7


def test_treat_needs_a_target(registry):
    with pytest.raises(ParamError, match="needs a target"):
        engine(registry).run("rest", {}, dice="3")


def test_seed_reproduces_the_outcome(registry):
    e = engine(registry)
    assert e.run("attack", {}, seed=5) == e.run("attack", {}, seed=5)


def _with_rules(**rules):
    return Registry.installed(extra_systems={"fake": fakesystem}, extra_rules=rules, discover=False)


def test_installed_rule_changes_nothing_until_enabled():
    reg = _with_rules(**{"keen-edge": fakerules.KeenEdge()})
    out = Engine("fake", registry=reg).run("attack", {"ac": 30}, dice="18")
    assert out.determination.kind == "miss"  # rules as written: 18 is not a critical


def test_tryfirst_rule_replaces_a_stage():
    reg = _with_rules(**{"keen-edge": fakerules.KeenEdge()})
    out = Engine("fake", rules=["keen-edge"], registry=reg).run("attack", {"ac": 30}, dice="18,1,1")
    assert out.determination.kind == "critical"
    assert [n.by for n in out.notes] == ["keen-edge"]
    assert out.rules == ("keen-edge",)


def test_wrapper_rule_adjusts_a_stage():
    """brutal: 20, confirm 1 (x1), 1d8 = 3 -> 3 + 1 = 4."""
    reg = _with_rules(brutal=fakerules.Brutal())
    out = Engine("fake", rules=["brutal"], registry=reg).run("attack", {}, dice="20,1,3")
    assert out.applied.data["damage"] == 4 and out.applied.summary == "4 damage"


def test_rules_compose():
    reg = _with_rules(**{"keen-edge": fakerules.KeenEdge(), "brutal": fakerules.Brutal()})
    out = Engine("fake", rules=["keen-edge", "brutal"], registry=reg).run("attack", {}, dice="18,6,2")
    assert out.determination.critical and out.applied.data["damage"] == 2 * 3 + 1


def test_rule_for_another_system_is_not_registered():
    reg = _with_rules(other=fakerules.OtherGame())
    out = Engine("fake", rules=["other"], registry=reg).run("attack", {}, dice="10,3")
    assert out.determination.kind == "hit"


def test_unknown_rule_is_an_input_error(registry):
    with pytest.raises(UnknownNameError, match="unknown house rule 'nope'"):
        Engine("fake", rules=["nope"], registry=registry)
