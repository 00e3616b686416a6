"""Declared target schemas (critcore/schema.py) and Engine.check_target.

The rules checked here come from issue 11, part 2: every target is checked against the schema
its system declares before any stage runs; an unknown key gets a did-you-mean; a wrong type or
an impossible number gets one line naming the source, the key path and the value; a target of
another system is refused by name; a target the engine produced itself is not checked again.
The systems are the fake system (tests/fakesystem.py, which declares its character inline)
and two small ones made here.
"""

from __future__ import annotations

import json
import math
from types import SimpleNamespace

import pytest
from runlength import examples

import critcore
from critcore import hookimpl
from critcore.engine.runner import Engine
from critcore.errors import PluginError, StateError
from critcore.model import Applied, Data, Procedure, SystemInfo, thaw
from critcore.stages.loader import Registry
from critcore.tables.schema import Schema
from critcore.tables.walk import check_plain, path_text

MECH_SCHEMA = {
    "format": 1,
    "root": "mech",
    "identify": {"noun": "unit", "what": "a toy walker", "keys": ["legs", "parts"], "values": {"kind": "toy-walker"}},
    "types": {
        "mech": {"type": "table", "fields": {
            "kind": {"type": "str", "choices": ["toy-walker"], "required": True},
            "legs": {"type": "int", "min": 2, "max": 6},
            "speed": {"type": "number", "min": 0, "max": 20},
            "parts": {"type": "map", "keys": {"type": "str", "choices": ["LA", "RA", "CT"]}, "values": "part"},
            "slots": {"type": "list", "items": "slot", "max_items": 4},
            "armor": {"type": ["int", "armor_table"]},
            "pilot": {"type": "str", "nullable": True},
            "notes": {"type": "list", "items": "any"},
            "extras": "loose",
        }},
        "part": {"type": "table", "fields": {"hp": {"type": "int", "min": 0, "max": 50, "required": True}}},
        "slot": {"type": "table", "fields": {
            "part": {"type": "str", "ref": "parts"},
            "index": {"type": "int", "min": 0, "max": 11},
        }},
        "armor_table": {"type": "map", "values": {"type": "int", "min": 0}},
        "loose": {"type": "table", "extra": "keep", "fields": {"colour": "str"}},
    },
}


def _system(name: str, schema, noun: str = "target"):
    """A system module with one treat procedure that hands the target back with a counter raised."""

    @hookimpl
    def critcore_system():
        return SystemInfo(name=name, title=name, version="1", package=name, target_noun=noun,
                          target_schema=schema,
                          procedures=(Procedure("tick", "Count one.", verb="treat", target="required"),))

    @hookimpl
    def critcore_treat(ctx):
        new = dict(thaw(ctx.target))
        return Applied("ticked", (), new)

    return SimpleNamespace(critcore_system=critcore_system, critcore_treat=critcore_treat)


@pytest.fixture
def walkers(registry):
    """The fake system, a toy walker system with a schema, and a system without one."""
    import fakesystem

    return Registry.installed(extra_systems={"fake": fakesystem, "walker": _system("walker", MECH_SCHEMA, "unit"),
                                             "plain": _system("plain", None)}, discover=False)


def walker(registry):
    return Engine("walker", registry=registry)


GOOD = {"kind": "toy-walker", "legs": 2, "speed": 4.5, "parts": {"LA": {"hp": 3}, "CT": {"hp": 10}},
        "slots": [{"part": "LA", "index": 0}], "armor": {"LA": 2}, "pilot": None, "notes": [1, "x"],
        "extras": {"colour": "red", "sticker": {"a": [1, 2]}}}


def refused(engine, state, where="unit.json") -> str:
    with pytest.raises(StateError) as info:
        engine.check_target(state, where)
    message = str(info.value)
    assert "\n" not in message and message.startswith(f"{where}: ")
    return message


def test_a_good_target_passes_and_comes_back_frozen(walkers):
    """A target that fits is returned as frozen data equal to what was given."""
    out = walker(walkers).check_target(GOOD, "unit.json")
    assert isinstance(out, Data) and thaw(out) == GOOD


@pytest.mark.parametrize("change,message", [
    ({"Legs": 2}, "unit.json: unknown key 'Legs' (did you mean 'legs'?)"),
    ({"speeed": 2}, "unit.json: unknown key 'speeed' (did you mean 'speed'?)"),
    ({"zzz": 2}, "unit.json: unknown key 'zzz' (the keys here are: kind, legs, speed, parts, slots, armor, pilot, "
                 "notes, extras)"),
    ({"legs": "2"}, 'unit.json: legs: must be a whole number, not "2"'),
    ({"legs": 2.0}, "unit.json: legs: must be a whole number, not 2.0"),
    ({"legs": True}, "unit.json: legs: must be a whole number, not true"),
    ({"legs": 1}, "unit.json: legs: 1 is out of range (2 to 6)"),
    ({"legs": 10**40}, "unit.json: legs: a 41-digit number is out of range (2 to 6)"),
    ({"speed": math.nan}, "unit.json: speed: NaN is not a number critcore can use (it must be finite)"),
    ({"speed": math.inf}, "unit.json: speed: inf is not a number critcore can use (it must be finite)"),
    ({"speed": -0.5}, "unit.json: speed: -0.5 is out of range (0 to 20)"),
    ({"parts": []}, "unit.json: parts: must be a table, not an empty list"),
    ({"parts": {"XX": {"hp": 1}}}, 'unit.json: parts.XX: "XX" is not one of LA, RA, CT'),
    ({"parts": {"LA": 7}}, "unit.json: parts.LA: must be a table, not 7"),
    ({"parts": {"LA": {}}}, "unit.json: parts.LA: needs 'hp'"),
    ({"parts": {"LA": {"hp": None}}}, "unit.json: parts.LA.hp: must be a whole number, not null"),
    ({"slots": [7]}, "unit.json: slots[1]: must be a table, not 7"),
    ({"slots": [{"index": -1}]}, "unit.json: slots[1].index: -1 is out of range (0 to 11)"),
    ({"slots": [{}] * 5}, "unit.json: slots: has 5 entries, at most 4 are allowed"),
    ({"slots": [{"part": "RA"}]}, 'unit.json: slots[1].part: "RA" is not one of the parts (LA, CT)'),
    ({"armor": "thick"}, 'unit.json: armor: must be a whole number or a table, not "thick"'),
    ({"armor": {"LA": -1}}, "unit.json: armor.LA: -1 is below the lowest allowed, 0"),
    ({"pilot": 3}, "unit.json: pilot: must be text, not 3"),
    ({"notes": [math.nan]}, "unit.json: notes[1]: NaN is not a number critcore can use (it must be finite)"),
    ({"extras": {"colour": 1}}, "unit.json: extras.colour: must be text, not 1"),
    ({"extras": {"sticker": math.inf}}, "unit.json: extras.sticker: inf is not a number critcore can use "
                                        "(it must be finite)"),
])
def test_each_fault_is_one_line_naming_the_source_the_key_and_the_value(walkers, change, message):
    """Unknown keys (with a did-you-mean), wrong types, impossible numbers, broken references."""
    assert refused(walker(walkers), {**GOOD, **change}) == message


def test_a_key_that_is_not_a_name_is_written_in_brackets():
    """The key path reads like the file: dotted names, [N] entries counted from 1, odd keys quoted."""
    assert path_text(["items", "LT-1", "ammo", "shots"]) == 'items["LT-1"].ammo.shots'
    assert path_text(["statuses", 1, "check", "every"]) == "statuses[1].check.every"


def test_keys_with_control_characters_stay_on_one_line(walkers):
    message = refused(walker(walkers), {**GOOD, "bad\nkey": 1})
    assert "'bad\\nkey'" in message


def test_deep_garbage_in_an_open_value_is_refused_not_a_recursion_error(walkers):
    deep: list = []
    for _ in range(200):
        deep = [deep]
    assert "nested more than 64 levels deep" in refused(walker(walkers), {**GOOD, "notes": deep})


def test_a_target_must_be_a_table(walkers):
    assert refused(walker(walkers), [1, 2]) == "unit.json: a walker unit must be a table of keys, not a list"


def test_a_target_without_the_marking_value_is_refused_as_not_ours(walkers):
    """A schema's identify.values (kind = ...) are what every target of the system carries."""
    assert refused(walker(walkers), {"legs": 2}) == \
        'unit.json: not a toy walker (expected kind = "toy-walker", found none)'


def test_another_systems_target_is_refused_by_name(walkers):
    """A walker unit given to the fake system, and a fake character given to the walker system."""
    fake = Engine("fake", registry=walkers)
    assert refused(fake, GOOD, "w.json") == "w.json: this looks like a walker unit, not a fake character"
    assert refused(walker(walkers), {"hp": 3}, "c.json") == \
        "c.json: this looks like a fake character, not a walker unit"


def test_a_system_key_naming_another_system_is_refused(walkers):
    """critcore's own key ``system`` may be in any target; another system's name is refused."""
    assert refused(Engine("fake", registry=walkers), {"system": "walker", "hp": 3}, "x.json") == \
        'x.json: this is a walker target (system = "walker"), not a fake character'
    out = Engine("fake", registry=walkers).check_target({"system": "fake", "hp": 3}, "x.json")
    assert thaw(out) == {"system": "fake", "hp": 3}
    assert "x.json: system: must be text" in refused(Engine("fake", registry=walkers), {"system": 3, "hp": 1},
                                                     "x.json")


def test_a_system_without_a_schema_still_gets_plain_json_checks(walkers):
    plain = Engine("plain", registry=walkers)
    assert thaw(plain.check_target({"a": [1, {"b": "c"}]}, "p.json")) == {"a": [1, {"b": "c"}]}
    assert refused(plain, {"a": [1, math.nan]}, "p.json") == \
        "p.json: a[2]: NaN is not a number critcore can use (it must be finite)"
    assert refused(plain, {"a": 2**60}, "p.json").startswith("p.json: a: 1152921504606846976 is too large")
    with pytest.raises(StateError, match="must be a table of keys"):
        check_plain(3, "p.json")


def test_every_run_checks_its_target_first(walkers):
    """Engine.run, the odds and the simulation refuse a bad target before any stage runs."""
    with pytest.raises(StateError, match=r"^target: unknown key 'Legs' \(did you mean 'legs'\?\)$"):
        critcore.treat("walker", "tick", registry=walkers, target={**GOOD, "Legs": 4})
    with pytest.raises(StateError, match="^target: hp: must be a whole number, not null$"):
        critcore.odds("fake", "rest", registry=walkers, target={"hp": None})
    with pytest.raises(StateError, match="^target: hp: must be a whole number, not NaN$"):
        critcore.simulate("fake", "rest", n=10, registry=walkers, target={"hp": math.nan})


def test_every_run_checks_the_target_it_is_handed(walkers, monkeypatch):
    """No run skips the check for a target it has seen before (issue 24: nothing is decided by
    passing the same object): an outcome's own frozen target passed back in is walked again,
    and an edit made to it in between is caught."""
    import critcore.tables.targetcheck as targetcheck

    engine = Engine("fake", registry=walkers)
    calls = []
    real = targetcheck.check_target
    monkeypatch.setattr(targetcheck, "check_target", lambda *a: calls.append(1) or real(*a))
    first = engine.run("rest", dice="3", target={"hp": 4})
    second = engine.run("rest", dice="2", target=first.target)
    assert len(calls) == 2 and second.target["hp"] == 9
    broken = thaw(second.target)
    broken["hp"] = "nine"
    with pytest.raises(StateError):
        engine.run("rest", dice="2", target=broken)



def test_a_session_target_is_checked_once_and_runs_as_engine_run_runs_it(walkers, monkeypatch, tmp_path):
    """``crit`` reads a target file through a session, which checks it (its errors name the
    file), and runs it by ``Engine.run_session``: the state is walked once in all, and the
    outcome is the one ``Engine.run`` gives for the same file's state. A state that is not
    frozen data (what ``check_target`` hands back) is refused, not run unchecked."""
    import critcore.tables.targetcheck as targetcheck
    from critcore.dice.rollers import make_roller
    from critcore.targets.sessions import file_session

    sheet = tmp_path / "walker.json"
    sheet.write_text(json.dumps(GOOD))
    engine = walker(walkers)
    calls = []
    real = targetcheck.check_target
    monkeypatch.setattr(targetcheck, "check_target", lambda *a: calls.append(a[2]) or real(*a))
    with file_session(str(sheet), engine) as session:
        once = engine.run_session("tick", {}, make_roller(seed=1), session)
    assert calls == [str(sheet)]
    assert once == engine.run("tick", {}, seed=1, target=GOOD)
    session.state = dict(GOOD)
    with pytest.raises(TypeError, match="not checked"):
        engine.run_session("tick", {}, make_roller(seed=1), session)
    sheet.write_text(json.dumps({**GOOD, "legs": 9}))
    with pytest.raises(StateError, match=r": legs: 9 is out of range \(2 to 6\)$"):
        with file_session(str(sheet), engine) as session:
            engine.run_session("tick", {}, make_roller(seed=1), session)

def test_the_cli_refuses_a_bad_target_in_one_line_exit_2_and_changes_nothing(walkers, tmp_path):
    from click.testing import CliRunner

    from critcore.cli.main import cli

    sheet = tmp_path / "walker.json"
    sheet.write_text(json.dumps({**GOOD, "slots": [{"part": "LA", "index": -1}]}))
    before = sheet.read_bytes()
    result = CliRunner().invoke(cli, ["treat", "walker", "tick", "--target", str(sheet), "--save"], obj=walkers)
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [f"Error: {sheet}: slots[1].index: -1 is out of range (0 to 11)"]
    assert sheet.read_bytes() == before


def test_crit_show_checks_the_target_too(invoke, tmp_path):
    sheet = tmp_path / "orc.json"
    sheet.write_text(json.dumps({"hp": "many"}))
    result = invoke("show", "fake", "--target", str(sheet))
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [f'Error: {sheet}: hp: must be a whole number, not "many"']


@pytest.mark.parametrize("spec,words", [
    ({"root": "nope", "types": {}}, "root must name one of the [types]"),
    ({"root": "a", "types": {"a": {"type": "tabel"}}}, "unknown type 'tabel'"),
    ({"root": "a", "types": {"a": {"type": "int", "mni": 1}}}, "unknown field key(s) mni"),
    ({"root": "a", "types": {"a": {"type": "table", "extra": "maybe"}}}, 'extra must be "refuse" or "keep"'),
    ({"root": "a", "types": {"a": {"type": "int", "min": "low"}}}, "min must be a number"),
    ({"root": "a", "format": 2, "types": {"a": "int"}}, "schema format 2 is newer"),
    ({"root": "a", "types": {"a": "int"}, "identify": {"nouns": "x"}}, "[identify] takes"),
    ({"root": "a", "types": {"a": "b", "b": {"type": "b2", "min": 1}, "b2": "int"}}, "cannot refine the named type"),
    ({"root": "a", "types": {"a": "b", "b": "a"}}, "type a refers to itself (a -> b -> a)"),
    ({"root": "a", "types": {"a": {"type": 5}}}, "type must be a type name or a list of them"),
    ({"root": "a", "types": {"a": {"type": "str", "choices": "abc"}}}, "choices must be a list of texts"),
    ({"root": "a", "types": {"a": {"type": "list", "max_items": -1}}}, "max_items must be a whole number of 0 or more"),
    ({"root": "a", "types": {"a": "int"}, "identify": {"keys": "hp"}}, "[identify] keys must be a list"),
])
def test_a_broken_schema_is_the_plugins_fault_in_one_line(spec, words):
    """A schema that does not parse is a PluginError naming what is wrong (not the user's input)."""
    with pytest.raises(PluginError) as info:
        Schema(spec, "pkg/target-schema.toml")
    assert words in str(info.value) and str(info.value).startswith("pkg/target-schema.toml: ")


def test_a_schema_can_describe_a_table_row_as_well():
    """The form is not tied to targets: a table row type checks the same way (for issue 13)."""
    row = Schema({"root": "row", "types": {"row": {"type": "table", "fields": {
        "roll": {"type": "str", "required": True}, "id": {"type": "str", "required": True},
        "multiplier": {"type": "int", "min": 1, "max": 5}}}}}, "row schema")
    assert thaw(row.check({"roll": "3-4", "id": "x", "multiplier": 2}, "t.toml, row 2")) == \
        {"roll": "3-4", "id": "x", "multiplier": 2}
    with pytest.raises(StateError, match=r"^t.toml, row 2: unknown key 'multplier' \(did you mean 'multiplier'\?\)$"):
        row.check({"roll": "3-4", "id": "x", "multplier": 2}, "t.toml, row 2")


def test_text_and_true_false_fields_keep_their_required_and_nullable_rules():
    """Fields that take any text or true/false (checked inside the table's loop) still refuse a
    null where none is allowed, a missing required key and a value of another type, and a
    nullable one takes null; fields given by the same basic type share one checker."""
    schema = Schema({"root": "row", "types": {"row": {"type": "table", "fields": {
        "name": {"type": "str", "required": True}, "note": {"type": "str", "nullable": True},
        "done": {"type": "bool", "required": True, "doc": "finished"}, "a": "str", "b": "str",
        "either": {"type": ["int", "str"]}}}}}, "s")
    good = {"name": "x", "note": None, "done": False, "a": "p", "b": "q", "either": 3}
    assert thaw(schema.check(good, "t")) == good
    for change, message in (
        ({"name": None}, r"^t: name: must be text, not null$"),
        ({"done": 1}, r"^t: done: must be true or false, not 1$"),
        ({"note": 3}, r"^t: note: must be text, not 3$"),
        ({"b": True}, r"^t: b: must be text, not true$"),
    ):
        with pytest.raises(StateError, match=message):
            schema.check({**good, **change}, "t")
    with pytest.raises(StateError, match=r"^t: needs 'done'$"):
        schema.check({k: v for k, v in good.items() if k != "done"}, "t")


# --- property: a check refuses in one line or returns the same data, frozen ------------------------

import hypothesis  # noqa: E402
import hypothesis.strategies as st  # noqa: E402

from critcore.model import freeze  # noqa: E402

JSONISH = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(min_value=-(10**20), max_value=10**20),
              st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=5),
              st.sampled_from(["LA", "CT", "toy-walker", 2, 11, -1, math.nan])),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(
        st.one_of(st.text(max_size=5), st.sampled_from(list(GOOD) + ["hp", "colour", "index", "part"])),
        inner, max_size=4)),
    max_leaves=12,
)


@hypothesis.settings(max_examples=examples(150, 800), deadline=None,
                     suppress_health_check=[hypothesis.HealthCheck.function_scoped_fixture])  # walkers: read only
@hypothesis.given(changes=st.dictionaries(st.sampled_from(list(GOOD) + ["Legs", "x"]), JSONISH, max_size=3),
                  drop=st.sets(st.sampled_from(list(GOOD)), max_size=2))
def test_any_edit_is_refused_in_one_line_or_comes_back_unchanged(walkers, changes, drop):
    """Whatever the values, checking either raises one StateError line naming the source or
    returns the same data frozen: never another exception, never a changed value."""
    state = {k: v for k, v in {**GOOD, **changes}.items() if k not in drop}
    engine = walker(walkers)
    try:
        out = engine.check_target(state, "w.json")
    except StateError as exc:
        assert str(exc).startswith("w.json: ") and "\n" not in str(exc)
        return
    assert out == freeze(state)


@pytest.mark.parametrize("verb", ["odds", "simulate"])
def test_odds_and_simulate_check_the_target_file_too(invoke, tmp_path, verb):
    sheet = tmp_path / "orc.json"
    sheet.write_text(json.dumps({"hp": 2.5}))
    result = invoke(verb, "fake", "rest", "--target", str(sheet))
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [f"Error: {sheet}: hp: must be a whole number, not 2.5"]


def test_a_broken_other_system_does_not_turn_a_refused_target_into_a_traceback():
    """When a target fails the check, the other installed systems are asked whether it is theirs;
    one whose description raises (here a KeyError, not a CritcoreError) is skipped, and the
    refusal stays the one clean line about the target."""
    import types

    import fakesystem
    from critcore import hookimpl
    from critcore.engine.runner import Engine
    from critcore.errors import StateError
    from critcore.stages.loader import Registry

    broken = types.SimpleNamespace()

    @hookimpl
    def critcore_system():
        raise KeyError("oops")

    broken.critcore_system = critcore_system
    reg = Registry.installed(extra_systems={"fake": fakesystem, "broken": broken}, discover=False)
    with pytest.raises(StateError):
        Engine("fake", registry=reg).check_target({"hp": "many"})


# --- a schema read from its kept entry compiles its fields as targets use them ---------------------


@hypothesis.settings(max_examples=examples(150, 800), deadline=None)
@hypothesis.given(changes=st.dictionaries(st.sampled_from(list(GOOD) + ["Legs", "x"]), JSONISH, max_size=3),
                  drop=st.sets(st.sampled_from(list(GOOD)), max_size=2))
def test_a_lazy_schema_checks_as_the_whole_compiled_one_does(changes, drop):
    """A schema whose fields are compiled when a value first has their key (``lazy``) gives the
    same frozen value, or the same error line, as the schema compiled whole, on any edit of a
    good target; checked one after the other on one lazy schema, so a field compiled for an
    earlier value serves the later ones."""
    eager = Schema(MECH_SCHEMA, "walker")
    lazy = Schema(MECH_SCHEMA, "walker", lazy=True)
    for state in ({k: v for k, v in {**GOOD, **changes}.items() if k not in drop}, GOOD, changes):
        answers = []
        for schema in (eager, lazy):
            try:
                answers.append(("ok", schema.check(state, "w.json")))
            except StateError as exc:
                answers.append(("refused", str(exc)))
        assert answers[0] == answers[1]


def test_a_target_schema_is_compiled_whole_when_read_and_lazily_from_its_kept_entry(tmp_path, monkeypatch):
    """load_schema compiles a system's target schema whole when it parses the file (a broken one
    is refused then), keeps the parsed file only after that, and a later process reading the
    kept entry compiles fields as targets use them: the same answers for a shipped system's
    target and for a broken edit of it."""
    pytest.importorskip("critcore_gurps")  # a shipped system's schema file (CI's core-alone step skips this)
    from critcore._speed import diskcache
    from critcore.tables import schema as schema_module

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("CRITCORE_CACHE", raising=False)
    monkeypatch.setattr(schema_module, "_LOADED", {})
    diskcache.cache_writes(True)
    try:
        declared = "critcore_gurps.data:target-schema.toml"
        first = schema_module.load_schema(declared)
        schema_module._LOADED.clear()
        second = schema_module.load_schema(declared)
    finally:
        diskcache.cache_writes(False)
    assert first._lazy is False and second._lazy is True
    # another checker (another critcore with the same plugin) keeps an entry of its own: the two
    # do not make each other compile whole at every command
    diskcache.cache_writes(True)
    try:
        kinds = []
        for compiler in ("other checker", "this checker", "other checker", "this checker"):
            monkeypatch.setattr(schema_module, "_compiler", lambda c=compiler: c)
            schema_module._LOADED.clear()
            kinds.append(schema_module.load_schema(declared)._lazy)
    finally:
        diskcache.cache_writes(False)
    assert kinds == [False, False, True, True]
    good = {"name": "Ann", "hp": 10, "ht": 11, "dx": 12, "dr": 1}
    assert thaw(second.check(good, "c.json")) == good
    for state in (good, {**good, "hp": "ten"}, {**good, "Hp": 3}, {**good, "dr": {"skull": -1}}):
        answers = []
        for schema in (first, second):
            try:
                answers.append(schema.check(state, "c.json"))
            except StateError as exc:
                answers.append(str(exc))
        assert answers[0] == answers[1]
