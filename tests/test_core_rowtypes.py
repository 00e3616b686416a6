"""Named row types (issue 13): a system declares a row's shape once, in ``row-types.toml`` beside
its tables, and its tables (and house-rule files) name it. A table whose effect names a row type
has its rows checked against that type; a reference to a type that is not declared, misspelt or
not a row is one line naming the file and the line, with a did-you-mean."""

from __future__ import annotations

import sys
import uuid

import pytest

from critcore.errors import ConfigError, TableError
from critcore.tables.tableset import TableSet

TYPES = """\
# the demo system's row types
[types.wound]
type = "table"

[types.wound.fields]
minutes = { type = "minutes", required = true }
organ = { type = "str", choices = ["heart", "lung"] }

[types.minutes]
type = "int"
min = 1
max = 60
"""

TABLE = """\
id = "blows"
dice = "1d6"

[row_schema.effects]
bleed = "wound"
choke = "wound"

[[row]]
roll = "1-3"
id = "cut"
effect = "bleed"
text = "A cut."
minutes = 10

[[row]]
roll = "4-6"
id = "throat"
effect = "choke"
text = "The throat."
minutes = {minutes}
"""


@pytest.fixture
def system(tmp_path, monkeypatch):
    """A package of tables (``NAME/blows.toml`` and ``NAME/row-types.toml``), importable; returns
    a function writing them and answering the package's name."""
    name = f"rowtypes_demo_{uuid.uuid4().hex[:8]}"
    folder = tmp_path / "packages" / name
    folder.mkdir(parents=True)
    (folder / "__init__.py").write_text("")
    monkeypatch.syspath_prepend(str(folder.parent))

    def write(table: str = TABLE.replace("{minutes}", "20"), types: str | None = TYPES) -> str:
        (folder / "blows.toml").write_text(table)
        if types is not None:
            (folder / "row-types.toml").write_text(types)
        return name

    yield write
    sys.modules.pop(name, None)


def load(package: str):
    return TableSet(package)["blows"]


def error(package: str) -> str:
    with pytest.raises(TableError) as err:
        load(package)
    return str(err.value)


def test_a_table_naming_a_row_type_reads_its_rows(system):
    table = load(system())
    assert [(r.id, r.code, r.data["minutes"]) for r in table.rows] == [("cut", "bleed", 10), ("throat", "choke", 20)]


def test_the_row_types_file_is_not_a_table(system):
    assert TableSet(system()).names() == ("blows",)


def test_a_row_is_checked_against_the_row_type_its_effect_names(system):
    """minutes is a named type of 1 to 60 (row-types.toml): 90 is refused at the row's line."""
    package = system(TABLE.replace("{minutes}", "90"))
    assert error(package) == f"{package}/blows.toml, line 20: row 'throat': minutes: 90 is out of range (1 to 60)"


def test_a_key_the_row_type_does_not_declare_is_refused_with_a_did_you_mean(system):
    package = system(TABLE.replace("{minutes}", "20") + 'organs = "lung"\n')
    assert error(package) == (f"{package}/blows.toml, line 21: row 'throat': unknown key 'organs' "
                              "(did you mean 'organ'?)")


def test_a_misspelt_row_type_is_refused_with_a_did_you_mean(system):
    package = system(TABLE.replace('choke = "wound"', 'choke = "wuond"').replace("{minutes}", "20"))
    assert error(package) == (f"{package}/blows.toml, line 6: row_schema.effects.choke: unknown row type "
                              "'wuond' (did you mean 'wound'?)")


def test_an_unknown_row_type_is_refused_naming_the_row_types_there_are(system):
    package = system(TABLE.replace('choke = "wound"', 'choke = "bruise"').replace("{minutes}", "20"))
    assert error(package) == (f"{package}/blows.toml, line 6: row_schema.effects.choke: unknown row type "
                              "'bruise' (row types here: wound)")


def test_a_type_that_is_not_a_row_cannot_be_an_effect_s_row_type(system):
    package = system(TABLE.replace('choke = "wound"', 'choke = "minutes"').replace("{minutes}", "20"))
    assert error(package) == (f"{package}/blows.toml, line 6: row_schema.effects.choke: type 'minutes' is not "
                              "a row type (a row type is a named type with type = \"table\" and its fields; "
                              "row types here: wound)")


def test_without_a_row_types_file_a_named_row_type_is_unknown(system):
    package = system(types=None)
    assert error(package) == (f"{package}/blows.toml, line 5: row_schema.effects.bleed: unknown row type "
                              "'wound' (row types here: none)")


def test_an_effect_with_its_own_keys_may_use_the_system_s_field_types(system):
    """A field may name a type of row-types.toml; a misspelt one is refused at its line."""
    extra = '\n[row_schema.effects.sting]\nminutes = { type = "minutes", required = true }\n'
    text = TABLE.replace("{minutes}", "20").replace('choke = "wound"\n', 'choke = "wound"\n' + extra)
    assert load(system(text)).rows[1].data["minutes"] == 20
    package = system(text.replace('{ type = "minutes"', '{ type = "minuts"'))
    assert error(package) == (f"{package}/blows.toml, line 9: row_schema.effects.sting.minutes: unknown type "
                              "'minuts' (did you mean 'minutes'?)")


def test_a_misspelt_type_in_the_row_types_file_names_that_file_and_line(system):
    package = system(types=TYPES.replace('{ type = "minutes"', '{ type = "minutse"'))
    assert error(package) == (f"{package}/row-types.toml, line 6: types.wound.fields.minutes: unknown type "
                              "'minutse' (did you mean 'minutes'?)")


def test_a_bad_field_key_in_the_row_types_file_names_that_file_and_line(system):
    package = system(types=TYPES.replace('choices = ["heart", "lung"]', 'choises = ["heart", "lung"]'))
    assert error(package) == (f"{package}/row-types.toml, line 7: types.wound.fields.organ: "
                              "unknown field key(s) choises")


def test_the_row_types_file_holds_types_only(system):
    package = system(types="rows = 1\n" + TYPES)
    assert error(package) == f"{package}/row-types.toml, line 1: a row-types file holds [types] (and doc), not 'rows'"


def test_a_table_s_own_type_may_not_shadow_the_system_s(system):
    text = TABLE.replace("{minutes}", "20") + '\n[row_schema.types]\nminutes = "int"\n'
    package = system(text)
    assert error(package) == (f"{package}/blows.toml, line 23: row_schema.types.minutes: the system's row types "
                              f"({package}/row-types.toml, line 9) already declare 'minutes'; give this one another name")


def test_a_table_may_declare_its_own_row_type(system):
    text = TABLE.replace("{minutes}", "20").replace('bleed = "wound"', 'bleed = "graze"') + (
        '\n[row_schema.types.graze]\ntype = "table"\nfields = { minutes = { type = "minutes" } }\n')
    assert load(system(text)).rows[0].data["minutes"] == 10


def test_an_edited_row_types_file_has_the_cached_tables_checked_again(system, writable_cache):
    """A cache entry of a table is made from rows checked against the row types: when the row
    types change, the entry is not used (the table is parsed and checked again)."""
    package = system()
    assert load(package).rows[1].data["minutes"] == 20  # parsed, checked and kept in the cache
    assert load(package).rows[1].data["minutes"] == 20  # from the cache entry
    system(types=TYPES.replace("max = 60", "max = 15"))
    assert error(package) == f"{package}/blows.toml, line 20: row 'throat': minutes: 20 is out of range (1 to 15)"


# --- house-rule files: the system's row types, in Shadowrun (skipped when it is not installed) ---

RULE = """\
system = "shadowrun2"
summary = "A gut shot can stop the heart"

[tables.critical-abdomen]
remove = ["abdomen-stomach"]

[tables.critical-abdomen.row_schema.effects]
heart = "{type}"

[[tables.critical-abdomen.row]]
roll = 1
id = "abdomen-aorta"
effect = "heart"
text = "Aorta torn below the heart (heart failure)."
part = "aorta"
cause = "heart"
time = "1d6/2 min"
time_dice = "1d6"
time_unit_seconds = 30
diagnosis_tn = {tn}
auto_if_open = false
"""


@pytest.fixture
def shadowrun():
    from critcore.stages.loader import Registry

    registry = Registry.installed()
    if "shadowrun2" not in registry.systems:
        pytest.skip("critcore-shadowrun2 is not installed")
    return registry


def rule(isolated_config, type_name="mortal-critical", tn="3"):
    path = isolated_config / "heart.toml"
    path.write_text(RULE.replace("{type}", type_name).replace("{tn}", tn))
    return path


def refused(shadowrun, path) -> str:
    from critcore.engine.runner import Engine

    with pytest.raises(ConfigError) as err:
        Engine("shadowrun2", rules=[str(path)], registry=shadowrun)
    return str(err.value)


def test_a_house_rule_lets_a_table_take_another_effect_of_a_row_type_it_reads(shadowrun, isolated_config):
    """The abdomen table reads rows of row type mortal-critical; the rule adds a heart row there.
    0 successes on Body 3 (1,1,1), hit location 2+3 = 5 (abdomen), critical 1 (the rule's row),
    time 1d6/2 min with 4 on the die: 4 x 30 s = 2 minutes."""
    from critcore.engine.runner import Engine

    engine = Engine("shadowrun2", rules=[str(rule(isolated_config))], registry=shadowrun)
    out = engine.run("wound", {"body": 3, "severity": "deadly"}, dice="1,1,1,2,3,1,4")
    row = out.effects[-1]
    assert (row.table, row.id, row.code) == ("critical-abdomen", "abdomen-aorta", "heart")
    assert out.applied is not None and out.applied.data["death_in"] == 120


def test_a_house_rule_row_of_a_named_row_type_is_checked_against_it(shadowrun, isolated_config):
    """diagnosis_tn of a mortal-critical row is a target number from 1 to 100 (row-types.toml)."""
    path = rule(isolated_config, tn="0")
    assert refused(shadowrun, path) == f"{path}, line 20: row 'abdomen-aorta': diagnosis_tn: 0 is out of range (1 to 100)"


def test_a_house_rule_naming_a_misspelt_row_type_is_refused_with_a_did_you_mean(shadowrun, isolated_config):
    path = rule(isolated_config, "mortal-critcal")
    assert refused(shadowrun, path) == (f"{path}, line 8: row_schema.effects.heart: unknown row type "
                                        "'mortal-critcal' (did you mean 'mortal-critical'?)")


def test_a_house_rule_naming_an_unknown_row_type_is_refused(shadowrun, isolated_config):
    path = rule(isolated_config, "organ-failure")
    assert refused(shadowrun, path) == (f"{path}, line 8: row_schema.effects.heart: unknown row type "
                                        "'organ-failure' (row types here: mortal-critical, lethality)")


def test_a_house_rule_may_not_give_a_table_a_row_type_its_engine_does_not_read(shadowrun, isolated_config):
    path = rule(isolated_config, "lethality")
    assert refused(shadowrun, path) == (f"{path}, line 8: row_schema.effects.heart: table critical-abdomen reads "
                                        "rows of row type 'mortal-critical', not 'lethality'")


def test_a_house_rule_cannot_declare_the_keys_of_a_row(shadowrun, isolated_config):
    path = isolated_config / "heart.toml"
    path.write_text(RULE.replace('heart = "{type}"', 'heart = { part = "str" }').replace("{tn}", "3"))
    assert refused(shadowrun, path) == (f"{path}, line 8: row_schema.effects.heart: give the name of a row type "
                                        "(a house rule cannot declare the keys of a row; the engine reads only "
                                        "what the system declares)")


def test_without_the_row_schema_the_rule_s_heart_row_is_refused(shadowrun, isolated_config):
    path = isolated_config / "heart.toml"
    path.write_text(RULE.replace("[tables.critical-abdomen.row_schema.effects]\nheart = \"{type}\"\n", "")
                    .replace("{tn}", "3"))
    assert refused(shadowrun, path) == (f"{path}, line 8: row 'abdomen-aorta': this table's rows take effect "
                                        "internal-bleeding or suffocation, not 'heart' (its row_schema declares no other)")


def test_the_cli_refuses_a_misspelt_row_type_in_one_line(shadowrun, isolated_config):
    from click.testing import CliRunner

    from critcore.cli.main import cli

    rule(isolated_config, "mortal-critcal")
    result = CliRunner().invoke(cli, ["resolve", "shadowrun2", "wound", "--body", "3", "--severity", "deadly",
                                      "--seed", "1", "--rule", "heart.toml"], obj=shadowrun)
    assert result.exit_code == 2
    assert result.output == ("Error: heart.toml, line 8: row_schema.effects.heart: unknown row type "
                             "'mortal-critcal' (did you mean 'mortal-critical'?)\n")


def test_a_house_rule_may_not_give_an_effect_a_row_type_no_table_reads_it_in(isolated_config):
    """GURPS reads drop-guard with keys of its own (evaluate_feint_factor besides turns and the
    defense penalty): a rule moving it to the Critical Miss table as a lose-balance row would
    leave the engine without a key it needs, so it is refused at load."""
    from critcore.engine.runner import Engine
    from critcore.stages.loader import Registry

    registry = Registry.installed()
    if "gurps" not in registry.systems:
        pytest.skip("critcore-gurps is not installed")
    path = isolated_config / "guard.toml"
    path.write_text('system = "gurps"\n\n[tables.critical-miss.row_schema.effects]\ndrop-guard = "lose-balance"\n')
    with pytest.raises(ConfigError) as err:
        Engine("gurps", rules=[str(path)], registry=registry)
    assert str(err.value) == (f"{path}, line 4: row_schema.effects.drop-guard: no table of the system reads effect "
                              "'drop-guard' as row type 'lose-balance' (a house rule can move an effect only to a "
                              "table that reads it alike)")


def test_a_misspelt_type_of_a_field_written_inline_names_the_type_s_line(system):
    """A row type whose fields are written inline (``fields = { ... }``) has no line per field:
    the error points at the type's header, and names the field under ``fields``."""
    types = ('[types.wound]\ntype = "table"\nfields = { minutes = { type = "minuts" } }\n'
             '\n[types.minutes]\ntype = "int"\n')
    package = system(types=types)
    assert error(package) == (f"{package}/row-types.toml, line 1: types.wound.fields.minutes: unknown type "
                              "'minuts' (did you mean 'minutes'?)")


def test_a_misspelt_item_type_of_a_named_list_names_the_list_s_line(system):
    """A named list type has no fields: the error names ``types.NAME.items`` at the type's line."""
    types = TYPES + '\n[types.organs]\ntype = "list"\nitems = "organz"\n'
    package = system(types=types)
    message = error(package)
    assert message.startswith(f"{package}/row-types.toml, line 14: types.organs.items: unknown type 'organz'")


def test_an_unknown_type_lists_only_the_names_a_table_can_use(system):
    """The named types an error lists are the ones a table may write, not the names critcore
    gives each effect's own fields inside."""
    extra = '\n[row_schema.effects.sting]\nminutes = { type = "qqq", required = true }\n'
    text = TABLE.replace("{minutes}", "20").replace('choke = "wound"\n', 'choke = "wound"\n' + extra)
    message = error(system(text))
    assert "unknown type 'qqq' (basic types: " in message and "named: wound, minutes)" in message
    assert "effect " not in message.split("unknown type")[1]
