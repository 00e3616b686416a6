"""House rules as TOML files: data only, validated like shipped tables, errors with file and line."""

import json

import pytest

from critcore.engine.runner import Engine
from critcore.errors import ConfigError

MORE_BRUTAL = """\
system = "fake"
summary = "Brutal blows come more often"

[options]
crit_on_19 = true

[tables.confirm]
remove = ["solid"]

[[tables.confirm.row]]
roll = "3-4"
id = "solid"
effect = "damage-multiplier"
text = "Double damage."
multiplier = 2

[[tables.confirm.row]]
roll = "5"
id = "brutal-5"
effect = "damage-multiplier"
text = "Triple damage on a 5 too."
multiplier = 3
"""


def write(folder, name, text):
    path = folder / name
    path.write_text(text)
    return str(path)


def test_rule_file_changes_rows_and_options(registry, isolated_config):
    rule = write(isolated_config, "brutal.toml", MORE_BRUTAL)
    engine = Engine("fake", rules=[rule], registry=registry)
    assert engine.options["crit_on_19"] is True
    table = engine.tables["confirm"]
    assert table.lookup(5).id == "brutal-5" and table.lookup(5).changed_by == "brutal"
    out = engine.run("attack", {}, dice="19,5,2")
    assert out.effects[0].id == "brutal-5" and out.applied.data["damage"] == 6
    assert out.effects[0].data["changed_by"] == "brutal"
    assert any(n.by == "brutal" and "brutal-5" in n.text for n in out.notes)


def test_disabled_rule_file_changes_nothing(registry):
    engine = Engine("fake", registry=registry)
    assert engine.tables["confirm"].lookup(5).id == "solid"


@pytest.mark.parametrize(
    "change, message",
    [
        (('roll = "3-4"', 'roll = "3"'), "no row covers roll.*4"),
        (('roll = "5"', 'roll = "4-5"'), "line 17: rows 'solid' and 'brutal-5' both cover roll 4"),
        (('roll = "5"', 'roll = "7"'), "line 17: row 'brutal-5' covers roll 7, outside"),
        (("[tables.confirm]", "[tables.confrim]"), "unknown table 'confrim' \\(did you mean 'confirm'"),
        (("crit_on_19 = true", "crit_on_91 = true"), "line 5: fake has no option 'crit_on_91'"),
        (('effect = "damage-multiplier"\ntext = "Triple', 'effect = "explode"\ntext = "Triple'), "line 17.*unknown effect code 'explode'"),
        (('remove = ["solid"]', 'remove = ["sold"]'), "line 8: confirm has no row 'sold' \\(did you mean 'solid'"),
        (('summary = ', 'sumary = '), "line 2: unknown key 'sumary'"),
        (('system = "fake"\n', ''), "must say which system"),
        (('[options]', '[options'), "line 4: not valid TOML"),
    ],
)
def test_broken_rule_file_is_one_line_with_file_and_line(registry, isolated_config, change, message):
    rule = write(isolated_config, "bad.toml", MORE_BRUTAL.replace(*change))
    with pytest.raises(ConfigError, match=message) as err:
        Engine("fake", rules=[rule], registry=registry)
    assert str(err.value).startswith(rule) and "\n" not in str(err.value)


def test_rule_file_for_another_system_is_ignored(registry, isolated_config):
    rule = write(isolated_config, "other.toml", 'system = "gurps"\n[options]\nwhatever = 1\n')
    assert Engine("fake", rules=[rule], registry=registry).options["crit_on_19"] is False


CONFLICT = """\
system = "fake"
{overrides}
[[tables.confirm.row]]
roll = "6"
id = "brutal"
effect = "damage-multiplier"
text = "Quadruple damage."
multiplier = 4
"""


def test_two_rules_changing_the_same_row_is_an_error_unless_one_overrides(registry, isolated_config):
    first = write(isolated_config, "first.toml", MORE_BRUTAL.replace("crit_on_19 = true", "").replace(
        '[[tables.confirm.row]]\nroll = "5"', '[[tables.confirm.row]]\nroll = "5-6"').replace(
        "remove = [\"solid\"]", "remove = [\"solid\", \"brutal\"]"))
    second = write(isolated_config, "second.toml", CONFLICT.format(overrides=""))
    with pytest.raises(ConfigError, match="second.toml, line 3: row 'brutal' of confirm is already changed by house rule 'first'"):
        Engine("fake", rules=[first, second], registry=registry)
    third = write(isolated_config, "third.toml", CONFLICT.format(overrides='overrides = ["first"]').replace(
        'roll = "6"', 'roll = "6"').replace('id = "brutal"', 'id = "brutal"'))
    # third removes nothing but re-adds 'brutal' at 6; first put brutal-5 on 5-6, so 6 now overlaps
    with pytest.raises(ConfigError, match="both cover roll 6"):
        Engine("fake", rules=[first, third], registry=registry)


def test_later_rule_may_override_an_earlier_one_explicitly(registry, isolated_config):
    first = write(isolated_config, "first.toml", 'system = "fake"\n[options]\ncrit_on_19 = true\n')
    second = write(isolated_config, "second.toml", 'system = "fake"\n[options]\ncrit_on_19 = false\n')
    with pytest.raises(ConfigError, match="second.toml, line 3: option 'crit_on_19' is already set by house rule 'first'"):
        Engine("fake", rules=[first, second], registry=registry)
    second = write(isolated_config, "second.toml", 'system = "fake"\noverrides = ["first"]\n[options]\ncrit_on_19 = false\n')
    assert Engine("fake", rules=[first, second], registry=registry).options["crit_on_19"] is False


def test_cli_tables_marks_changed_rows(invoke, isolated_config):
    rule = write(isolated_config, "brutal.toml", MORE_BRUTAL)
    result = invoke("tables", "fake", "confirm", "--rule", rule)
    assert result.exit_code == 0
    import re

    lines = {m[2]: m[1] + line for line in result.output.splitlines() if (m := re.match(r"^([* ]) +(\S+)  ", line))}
    assert lines["5"].startswith("*") and "changed by brutal" in lines["5"]
    assert lines["3-4"].startswith("*") and lines["1-2"].startswith(" ")


def test_cli_rule_file_from_config_and_explain(invoke, isolated_config):
    write(isolated_config, "brutal.toml", MORE_BRUTAL)
    (isolated_config / "critcore.toml").write_text('rules = ["brutal.toml"]\n')
    result = invoke("resolve", "fake", "attack", "--dice", "19,5,2", "--explain")
    assert "[brutal]" in result.output and "brutal-5" in result.output
    data = json.loads(invoke("resolve", "fake", "attack", "--dice", "19,5,2", "--json").output)
    assert any(n["by"] == "brutal" for n in data["notes"])


def test_cli_broken_rule_file_exit_2(invoke, isolated_config):
    rule = write(isolated_config, "bad.toml", MORE_BRUTAL.replace('roll = "3-4"', 'roll = "3"'))
    result = invoke("resolve", "fake", "attack", "--dice", "20,1,1", "--rule", rule)
    assert result.exit_code == 2 and "bad.toml" in result.output
    missing = invoke("resolve", "fake", "attack", "--dice", "20,1,1", "--rule", "nope.toml")
    assert missing.exit_code == 2 and "not found" in missing.output


def test_same_rule_enabled_twice_counts_once(invoke, isolated_config):
    rule = write(isolated_config, "brutal.toml", MORE_BRUTAL)
    (isolated_config / "critcore.toml").write_text('rules = ["brutal.toml"]\n')
    result = invoke("resolve", "fake", "attack", "--dice", "19,5,2", "--rule", rule)
    assert result.exit_code == 0, result.output


def test_same_rule_plugin_enabled_twice_counts_once():
    import fakerules
    import fakesystem

    from critcore.stages.loader import Registry

    reg = Registry.installed(extra_systems={"fake": fakesystem}, extra_rules={"brutal": fakerules.Brutal()}, discover=False)
    out = Engine("fake", rules=["brutal", "brutal"], registry=reg).run("attack", {}, dice="20,1,3")
    assert out.applied.data["damage"] == 4  # +1 once, not twice


def test_overlap_with_a_shipped_row_points_at_the_rule_row(registry, isolated_config):
    text = MORE_BRUTAL.replace('remove = ["solid"]', "remove = []").replace('[[tables.confirm.row]]\nroll = "3-4"\nid = "solid"', '[[tables.confirm.row]]\nroll = "3-4"\nid = "solid-too"')
    rule = write(isolated_config, "overlap.toml", text)
    with pytest.raises(ConfigError, match=r"overlap.toml, line 10: rows 'solid' and 'solid-too' both cover roll 3"):
        Engine("fake", rules=[rule], registry=registry)


def test_bad_option_value_in_rule_file_names_file_and_line(registry, isolated_config):
    rule = write(isolated_config, "bad.toml", MORE_BRUTAL.replace("crit_on_19 = true", 'crit_on_19 = "often"'))
    with pytest.raises(ConfigError, match="bad.toml, line 5: option crit_on_19"):
        Engine("fake", rules=[rule], registry=registry)


def test_config_and_rule_file_setting_one_option_differently_is_an_error(invoke, isolated_config):
    write(isolated_config, "brutal.toml", MORE_BRUTAL)
    (isolated_config / "critcore.toml").write_text('rules = ["brutal.toml"]\n[systems.fake]\ncrit_on_19 = false\n')
    result = invoke("resolve", "fake", "attack", "--dice", "19,5,2")
    assert result.exit_code == 2
    assert "brutal.toml, line 5: option 'crit_on_19' is also set in" in result.output and "critcore.toml, line 3" in result.output


def test_rule_rows_need_a_text_and_the_name_must_be_text(registry, isolated_config):
    rule = write(isolated_config, "a.toml", MORE_BRUTAL.replace('text = "Double damage."\n', ""))
    with pytest.raises(ConfigError, match="a.toml, line 10: row 'solid' needs a text"):
        Engine("fake", rules=[rule], registry=registry)
    rule = write(isolated_config, "b.toml", "name = 3\n" + MORE_BRUTAL)
    with pytest.raises(ConfigError, match="b.toml, line 1: name must be text"):
        Engine("fake", rules=[rule], registry=registry)


def test_crit_tables_lists_removed_rows_and_options(invoke, isolated_config):
    text = MORE_BRUTAL.replace('remove = ["solid"]', 'remove = ["solid", "graze"]').replace(
        '[[tables.confirm.row]]\nroll = "3-4"', '[[tables.confirm.row]]\nroll = "1-4"')
    rule = write(isolated_config, "brutal.toml", text)
    out = invoke("tables", "fake", "--rule", rule).output
    assert "table confirm: row 'graze' removed  (by brutal)" in out
    assert "option crit_on_19 = True  (by brutal)" in out


def test_crit_systems_shows_rule_summaries_and_json_rules(invoke):
    import fakerules
    import fakesystem

    from critcore.stages.loader import Registry

    reg = Registry.installed(extra_systems={"fake": fakesystem},
                             extra_rules={"keen-edge": fakerules.KeenEdge(), "other": fakerules.OtherGame()},
                             discover=False)
    out = invoke("systems", "--rule", "keen-edge", obj=reg).output
    assert "keen-edge [fake]  enabled here" in out and "Criticals on 18-20." in out
    assert "other [gurps]  not enabled" in out
    data = json.loads(invoke("systems", "--json", obj=reg).output)
    assert [r["name"] for r in data[0]["rules"]] == ["keen-edge"]


# --- what an enabled house rule costs: unchanged tables are shared -------------------------------

OPTION_ONLY = """\
system = "fake"
summary = "An option only: no table changes"

[options]
crit_on_19 = true
"""


def test_a_rule_that_changes_no_table_leaves_the_engine_the_same_table_objects(registry, isolated_config):
    """Tables a rule does not change are the very objects an engine without rules uses, so a
    system's caches keyed by a table hit by identity (a second engine cost 2.3x before)."""
    plain = Engine("fake", registry=registry)
    ruled = Engine("fake", rules=[write(isolated_config, "opt.toml", OPTION_ONLY)], registry=registry)
    assert ruled.tables["confirm"] is plain.tables["confirm"]
    assert Engine("fake", registry=registry).tables["confirm"] is plain.tables["confirm"]


def test_a_rule_that_changes_a_table_gets_its_own_copy(registry, isolated_config):
    """The changed table is the rule's; an engine without the rule keeps the shipped rows."""
    plain = Engine("fake", registry=registry)
    ruled = Engine("fake", rules=[write(isolated_config, "brutal.toml", MORE_BRUTAL)], registry=registry)
    assert ruled.tables["confirm"] is not plain.tables["confirm"]
    assert ruled.tables["confirm"].lookup(5).id == "brutal-5"
    assert plain.tables["confirm"].lookup(5).id == "solid"
    assert Engine("fake", registry=registry).tables["confirm"].lookup(5).id == "solid"


def test_a_table_file_changed_on_disk_is_read_again(tmp_path, monkeypatch):
    """Sharing is only while the file is unchanged: an edited table file gives the new rows."""
    import fakesystem
    from dataclasses import replace

    from critcore.stages.loader import Registry, hookimpl

    folder = tmp_path / "shared_tables_pkg"
    folder.mkdir()
    (folder / "__init__.py").write_text("")
    from pathlib import Path

    text = (Path(fakesystem.__file__).parent / "fake_tables" / "confirm.toml").read_text(encoding="utf-8")
    (folder / "confirm.toml").write_text(text)
    monkeypatch.syspath_prepend(str(tmp_path))
    info = replace(fakesystem.INFO, tables_package="shared_tables_pkg")

    class System:
        @hookimpl
        def critcore_system(self):
            return info

    registry = Registry.installed(extra_systems={"fake": System()}, discover=False)
    first = Engine("fake", registry=registry).tables["confirm"]
    assert first.lookup(6).text == "A brutal blow: triple damage."
    (folder / "confirm.toml").write_text(text.replace("A brutal blow: triple damage.", "Edited."))
    assert Engine("fake", registry=registry).tables["confirm"].lookup(6).text == "Edited."
