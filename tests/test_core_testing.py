"""critcore.testing: the helpers a plugin author tests a system with. Each check must pass on a
sound plugin and fail, naming the fault, on one with that fault (a check that cannot fail is no
check). The fake system's rules are in tests/fakesystem.py."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

import fakerules
import fakesystem
from critcore import hookimpl, testing
from critcore.model import Determination

DOC = Path(__file__).resolve().parent.parent / "docs" / "hooks.md"


# --- scripted dice ----------------------------------------------------------------------------


def test_run_scripts_the_faces_in_the_order_rolled():
    """Fake rules: a natural 20 is a critical; 1d6 on the confirm table, 4 is 'solid' (double);
    1d8 damage showing 3 makes 6, taken off the target's 10 hp."""
    out = testing.run(fakesystem, "attack", dice="20,4,3", target={"hp": 10})
    assert out.determination.kind == "critical"
    assert out.effects[0].id == "solid"
    assert out.applied.data["damage"] == 6 and out.target["hp"] == 4


def test_run_takes_a_list_of_faces_params_and_options():
    """With crit_on_19 a natural 19 is a critical; 1-2 on the table is a graze (damage as usual)."""
    out = testing.run(fakesystem, "attack", [19, 2, 5], options={"crit_on_19": True}, damage="1d6")
    assert out.determination.kind == "critical" and out.applied.data["damage"] == 5


def test_run_refuses_faces_that_were_never_rolled():
    """A natural 1 is a final fumble: nothing else is rolled, so a second face is a scripting mistake."""
    with pytest.raises(AssertionError, match=r"faces \[5\] were never rolled \(rolled: attack roll 1\)"):
        testing.run(fakesystem, "attack", dice="1,5")
    assert testing.run(fakesystem, "attack", dice="1,5", all_dice_used=False).determination.kind == "fumble"


def test_run_runs_treat_procedures_and_rule_plugins():
    """rest heals 1d4; the Brutal rule adds 1 damage to every hit (5 + 1 against AC 10 hits)."""
    assert testing.run(fakesystem, "rest", dice="3", target={"hp": 4}).target["hp"] == 7
    out = testing.run(fakesystem, "attack", dice="15,2", rules=[fakerules.Brutal()], ac=10)
    assert out.applied.data["damage"] == 3
    named = testing.run(fakesystem, "attack", dice="15,2", rules={"brutal": fakerules.Brutal()}, ac=10)
    assert named.applied.data["damage"] == 3


def test_registry_holds_just_the_plugin_under_its_own_name():
    reg = testing.registry(fakesystem)
    assert list(reg.systems) == ["fake"] and not reg.rules
    assert testing.system_info(fakesystem).name == "fake"


@pytest.mark.parametrize("notation, total", [("3d6", 3), ("3d6", 10), ("3d6", 18), ("2d6", 7), ("1d20", 13),
                                             ("2d6+1", 9)])
def test_faces_for_makes_the_total(notation, total):
    from critcore.dice.notation import parse

    expr = parse(notation)
    faces = testing.faces_for(notation, total)
    assert len(faces) == expr.count and all(1 <= f <= expr.sides for f in faces)
    assert sum(faces) + expr.plus == total


def test_faces_for_refuses_a_total_the_dice_cannot_show():
    with pytest.raises(ValueError, match="3d6 cannot come to 19"):
        testing.faces_for("3d6", 19)


# --- every table row can come up --------------------------------------------------------------


def _system_with_table(tmp_path, monkeypatch, package, toml):
    """A copy of the fake system whose tables package holds one table, ``toml``."""
    folder = tmp_path / package
    folder.mkdir()
    (folder / "__init__.py").write_text("")
    (folder / "confirm.toml").write_text(toml)
    monkeypatch.syspath_prepend(str(tmp_path))
    info = replace(fakesystem.INFO, tables_package=package)

    class System:
        @hookimpl
        def critcore_system(self):
            return info

    return System()


TABLE = """id = "confirm"
title = "t"
dice = "{dice}"
{range}
[[row]]
roll = "{low}-2"
id = "low"
effect = "damage-multiplier"
text = "Low."
multiplier = 1

[[row]]
roll = "3-{high}"
id = "high"
effect = "damage-multiplier"
text = "High."
multiplier = 2
"""


def test_every_row_of_the_fake_tables_comes_up():
    assert testing.check_tables_reachable(fakesystem) == ["confirm"]


def test_a_row_the_dice_never_show_is_refused(tmp_path, monkeypatch):
    """3d6 shows 3 to 18: a table given range [1, 18] has a row 1-2 that can never be rolled."""
    system = _system_with_table(tmp_path, monkeypatch, "unreachable_tables_a",
                                TABLE.format(dice="3d6", range="range = [1, 18]", low=1, high=18))
    with pytest.raises(AssertionError, match=r"confirm.toml: row low \(1-2\) never comes up on 3d6"):
        testing.check_tables_reachable(system)


def test_a_modified_or_looked_up_table_is_held_to_what_is_declared(tmp_path, monkeypatch):
    """The same table is sound when the roll takes -2 (3d6-2 reaches 1), or when it is looked up."""
    system = _system_with_table(tmp_path, monkeypatch, "unreachable_tables_b",
                                TABLE.format(dice="3d6", range="range = [1, 18]", low=1, high=18))
    assert testing.check_tables_reachable(system, modifiers={"confirm": (-2, 0)}) == ["confirm"]
    assert testing.check_tables_reachable(system, looked_up=["confirm"]) == []
    with pytest.raises(AssertionError, match="no table named confrim"):
        testing.check_tables_reachable(system, looked_up=["confrim"])


# --- hooks ------------------------------------------------------------------------------------


def test_the_fake_system_and_rules_use_only_documented_hooks():
    hooks = testing.check_hooks_documented(fakesystem)
    assert {"critcore_system", "critcore_determine", "critcore_apply", "critcore_treat"} <= set(hooks)
    assert testing.check_hooks_documented(fakerules.KeenEdge()) == ["critcore_determine", "critcore_rule"]


def test_every_hook_critcore_specifies_has_its_heading_in_hooks_md():
    if not DOC.exists():
        pytest.skip("docs/ not present (installed-package run)")
    assert "critcore_apply" in testing.check_hooks_documented(doc=DOC)


def test_a_misspelt_hook_name_is_refused():
    class Typo:
        @hookimpl
        def critcore_determin(self, ctx):
            return None

    with pytest.raises(AssertionError, match="critcore_determin"):
        testing.check_hooks_documented(Typo())


def test_a_misspelt_hook_argument_is_refused():
    class Typo:
        @hookimpl
        def critcore_locate(self, ctx, determinaton):
            return None

    with pytest.raises(AssertionError, match="determinaton"):
        testing.check_hooks_documented(Typo())


def test_a_hook_left_unmarked_is_refused():
    """Without @hookimpl pluggy never calls it: the plugin author's rule silently does nothing."""

    class Unmarked:
        def critcore_effect(self, ctx, determination, location):
            return None

    with pytest.raises(AssertionError, match="critcore_effect named like a hook but not marked @hookimpl"):
        testing.check_hooks_documented(Unmarked())


def test_a_hook_without_its_heading_in_the_doc_is_refused():
    with pytest.raises(AssertionError, match="critcore_apply"):
        testing.check_hooks_documented(fakesystem, doc="### `critcore_system(` only")


# --- exact odds and simulation ----------------------------------------------------------------


def test_odds_and_simulation_of_the_fake_attack_agree():
    agreement = testing.check_odds_agree(fakesystem, "attack", n=20_000, ac=12, damage="1d4")
    assert agreement.outcomes > 10 and agreement.checked > 0 and agreement.worst <= 5


class Cheat:
    """Answers a fumble on every simulated run: the kind of plugin that runs different code
    under simulation (here it tells the simulation's dice by their class)."""

    @hookimpl(tryfirst=True)
    def critcore_determine(self, ctx):
        if type(ctx.dice).__name__ == "SamplingDice":
            ctx.dice.roll("1d20", "attack roll")
            return Determination("fumble", False, "a fumble", final=True, tags={"fumble"})
        return None


def test_a_plugin_whose_simulation_differs_from_its_odds_is_caught():
    with pytest.raises(AssertionError, match="exact odds and simulation disagree"):
        testing.check_odds_agree(fakesystem, "attack", n=2_000, rules={"cheat": Cheat()}, ac=12, damage="1d4")


class CoarseKey:
    """A house rule whose locate stage rolls 1d2 for how many d6 to roll, then rolls them in a
    Dice.branch whose key leaves the number out: exact odds would reuse the 1d6 answer for 2d6."""

    @hookimpl(tryfirst=True)
    def critcore_locate(self, ctx, determination):
        from critcore.model import Location

        if determination is None or determination.final:
            return None
        n = ctx.dice.roll("1d2", "how many").total
        high = ctx.dice.branch(lambda d: d.roll(f"{n}d6", "dice").total > 6, "coarse key", key="dice")
        return Location("high" if high else "low", "high" if high else "low")


def test_a_key_that_leaves_out_what_its_function_reads_is_caught():
    """check_odds_agree runs the exact odds checking every key= (issue 13: an incomplete key
    must not make the odds silently wrong)."""
    from critcore.errors import PluginError

    with pytest.raises(PluginError, match="coarse key: the key 'dice' .* does not name everything"):
        testing.check_odds_agree(fakesystem, "attack", n=1_000, rules={"coarse": CoarseKey()}, ac=12, damage="1d4")


def test_a_coarser_key_compares_groups_of_outcomes():
    """Kinds only: critical 1/20, fumble 1/20, and hit/miss the rest."""
    agreement = testing.check_odds_agree(fakesystem, "attack", n=10_000, key=lambda b: b.determination.kind, ac=12)
    assert agreement.outcomes == 4 and agreement.checked == 4


# --- nothing heavy, and not at import critcore ------------------------------------------------


def test_import_critcore_does_not_load_the_testing_module_nor_pytest():
    code = ("import sys, critcore, critcore.cli.main; "
            "print('critcore.testing' in sys.modules, 'pytest' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]
    code = "import sys, critcore.testing; print('pytest' in sys.modules, 'critcore.chance.exact' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]


# --- edited saved states ----------------------------------------------------------------------


def test_an_edited_state_is_refused_by_the_schema_in_one_line_naming_the_source():
    """The fake character's hp must be a whole number: "x" is refused before the procedure runs."""
    assert testing.check_edited_state(fakesystem, {"hp": "x"}, "rest", source="hero.json") == "refused by the schema"
    assert testing.check_edited_state(fakesystem, {"hp": 10}, "rest", source="hero.json") == "resolved"


def _fake_with_treat(treat):
    class System:
        @hookimpl
        def critcore_system(self):
            return fakesystem.INFO

        @hookimpl
        def critcore_treat(self, ctx):
            return treat(ctx)

    return System()


def test_a_procedure_refusing_in_two_lines_fails_the_check():
    from critcore.errors import InputError

    def treat(ctx):
        raise InputError("no rest for you\nTraceback: ...")

    with pytest.raises(AssertionError, match="rest refused the checked state in more than one line"):
        testing.check_edited_state(_fake_with_treat(treat), {"hp": 10}, "rest")
    assert testing.check_edited_state(_fake_with_treat(lambda ctx: (_ for _ in ()).throw(InputError("no rest"))),
                                      {"hp": 10}, "rest") == "refused by the procedure"


def test_a_procedure_leaving_a_state_its_schema_refuses_fails_the_check():
    from critcore.model import Applied

    def treat(ctx):
        return Applied("rested", (), dict(ctx.target, hp=None))

    with pytest.raises(AssertionError, match="rest left a state its schema refuses: after: hp"):
        testing.check_edited_state(_fake_with_treat(treat), {"hp": 10}, "rest")


def test_mutated_states_edit_a_copy_in_every_way_promised():
    """Keys inserted from ``keys``, values replaced by NaN, values wrapped in a list, the whole
    state replaced; the saved state itself never changes."""
    hypothesis = pytest.importorskip("hypothesis")
    saved = {"hp": 10, "statuses": [{"id": "stunned"}]}
    strategy = testing.mutated_states(saved, keys=["Hp"], values=["stunned"])
    settings = hypothesis.settings(max_examples=2000, database=None, derandomize=True)  # the same search every run

    def has_nan(value):
        if isinstance(value, float):
            return value != value
        if isinstance(value, dict):
            return any(has_nan(v) for v in value.values())
        if isinstance(value, list):
            return any(has_nan(v) for v in value)
        return False

    hypothesis.find(strategy, lambda s: isinstance(s, dict) and "Hp" in s, settings=settings)
    hypothesis.find(strategy, lambda s: isinstance(s, dict) and has_nan(s), settings=settings)
    hypothesis.find(strategy, lambda s: isinstance(s, dict) and s.get("hp") == [10], settings=settings)
    hypothesis.find(strategy, lambda s: not isinstance(s, dict), settings=settings)
    hypothesis.find(strategy, lambda s: isinstance(s, dict) and "hp" not in s, settings=settings)
    assert saved == {"hp": 10, "statuses": [{"id": "stunned"}]}


def test_edited_state_sets_one_value_in_a_copy():
    saved = {"hp": 10, "statuses": [{"id": "stunned"}]}
    assert testing.edited_state(saved, ("statuses", 0, "id"), 7) == {"hp": 10, "statuses": [{"id": 7}]}
    assert saved == {"hp": 10, "statuses": [{"id": "stunned"}]}
