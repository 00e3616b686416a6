"""Row schemas (critcore/rowschema.py): a table declares what the engine reads from its rows; the
table and every house-rule file that changes it are checked against it at load, errors naming the
file and the line of the offending key."""

import pytest

from critcore.engine.runner import Engine
from critcore.errors import ConfigError, TableError
from critcore.tables.tableset import load_table_text

TABLE = """\
id = "blows"
dice = "1d6"

[row_schema.effects.damage-multiplier]
multiplier = { type = "int", min = 0, max = 10, required = true }
note = { type = "dice", min = 1, max = 12 }
next = { type = "str", ref = "rows" }

[row_schema.effects.miss]

[[row]]
roll = "1-2"
id = "miss"
effect = "miss"
text = "A miss."

[[row]]
roll = "3-6"
id = "hit"
effect = "damage-multiplier"
text = "A hit."
multiplier = {value}
"""


def table(value="2", extra=""):
    return load_table_text(TABLE.replace("{value}", value) + extra, "blows.toml")


def test_a_table_whose_rows_fit_its_schema_loads():
    assert table().lookup(4).data["multiplier"] == 2


@pytest.mark.parametrize("value, message", [
    ('"three"', 'multiplier: must be a whole number, not "three"'),
    ("2.5", "multiplier: must be a whole number, not 2.5"),
    ("[3]", "multiplier: must be a whole number, not a list"),
    ("-3", "multiplier: -3 is out of range (0 to 10)"),
    ("1000000000", "multiplier: 1000000000 is out of range (0 to 10)"),
])
def test_a_shipped_row_with_a_number_out_of_its_schema_is_refused_at_its_line(value, message):
    with pytest.raises(TableError) as err:
        table(value)
    assert str(err.value) == f"blows.toml, line 22: row 'hit': {message}"


def test_a_required_key_left_out_is_named_at_the_row():
    text = TABLE.replace("multiplier = {value}\n", "")
    with pytest.raises(TableError, match=r"^blows.toml, line 17: row 'hit': needs 'multiplier'$"):
        load_table_text(text, "blows.toml")


def test_a_key_the_schema_does_not_declare_is_refused_with_a_did_you_mean():
    with pytest.raises(TableError, match=r"line 23: row 'hit': unknown key 'multipler' \(did you mean 'multiplier'\?\)"):
        table("2", "multipler = 3\n")


def test_a_row_of_an_effect_the_schema_does_not_declare_is_refused():
    text = TABLE.replace("{value}", "2").replace('effect = "miss"', 'effect = "fumble"')
    with pytest.raises(TableError, match=r"line 11: row 'miss': this table's rows take effect "
                                         r"damage-multiplier or miss, not 'fumble'"):
        load_table_text(text, "blows.toml")


@pytest.mark.parametrize("value, message", [
    ('"banana"', 'note: "banana" is not a dice roll'),
    ('"3d6"', 'note: "3d6" rolls 3 to 18; this field allows 1 to 12'),
])
def test_a_dice_field_must_read_as_dice_within_its_totals(value, message):
    with pytest.raises(TableError, match=f"line 23: row 'hit': {message}"):
        table("2", f"note = {value}\n")


def test_a_ref_to_rows_names_another_row_of_the_table():
    assert table("2", 'next = "miss"\n').lookup(5).data["next"] == "miss"
    with pytest.raises(TableError, match=r"line 23: row 'hit': next: \"mis\" is not one of the rows \(miss, hit\)"):
        table("2", 'next = "mis"\n')


def test_a_broken_row_schema_is_one_line_naming_the_table_and_the_line():
    text = TABLE.replace("{value}", "2").replace('type = "int", min = 0', 'type = "integer", min = 0')
    with pytest.raises(TableError) as err:
        load_table_text(text, "blows.toml")
    assert str(err.value) == ("blows.toml, line 5: row_schema.effects.damage-multiplier.multiplier: "
                              "unknown type 'integer' (did you mean 'int'?)")


def test_a_misspelt_type_inside_a_list_field_is_named_at_the_field_s_line():
    """The type of a list's items is checked like a field's own: the unknown name, its line, a
    did-you-mean."""
    text = TABLE.replace("{value}", "2").replace('next = { type = "str", ref = "rows" }',
                                                 'next = { type = "list", items = "strr" }')
    with pytest.raises(TableError) as err:
        load_table_text(text, "blows.toml")
    assert str(err.value) == ("blows.toml, line 7: row_schema.effects.damage-multiplier.next.items: "
                              "unknown type 'strr' (did you mean 'str'?)")


def test_an_unknown_type_with_no_close_name_lists_the_types_rows_may_use():
    """Row schemas add ``dice`` to the basic types: the list of what may be used says so."""
    text = TABLE.replace("{value}", "2").replace('type = "int", min = 0', 'type = "qqq", min = 0')
    with pytest.raises(TableError) as err:
        load_table_text(text, "blows.toml")
    assert str(err.value).startswith("blows.toml, line 5: row_schema.effects.damage-multiplier.multiplier: "
                                     "unknown type 'qqq' (basic types: ")
    assert "dice; named: " in str(err.value)


def test_a_bad_field_key_in_a_row_schema_names_its_line():
    """A fault the schema compiler finds (not an unknown type) points at the field's line too."""
    text = TABLE.replace("{value}", "2").replace("min = 1, max = 12", "min = 1, maxi = 12")
    with pytest.raises(TableError) as err:
        load_table_text(text, "blows.toml")
    assert str(err.value) == "blows.toml, line 6: row_schema.effects.damage-multiplier.note: unknown field key(s) maxi"


# --- house-rule files: checked against the table's schema when they load, before any roll -------

RULE = """\
system = "fake"

[[tables.confirm.row]]
roll = "3-5"
id = "solid"
effect = "damage-multiplier"
text = "A solid blow."
multiplier = {value}
"""


@pytest.mark.parametrize("value, message", [
    ('"three"', 'must be a whole number, not "three"'),
    ("-3", "-3 is out of range (0 to 10)"),
    ("[2]", "must be a whole number, not a list"),
    ("{ x = 1 }", "must be a whole number, not a table"),
])
def test_a_rule_file_row_out_of_the_table_schema_is_refused_at_load(registry, isolated_config, value, message):
    path = isolated_config / "bad.toml"
    path.write_text(RULE.replace("{value}", value))
    with pytest.raises(ConfigError) as err:
        Engine("fake", rules=[str(path)], registry=registry)
    assert str(err.value) == f"{path}, line 8: row 'solid': multiplier: {message}"


@pytest.mark.parametrize("value", ["nan", "inf", "-inf"])
def test_a_rule_file_with_a_number_that_is_not_finite_is_refused_at_its_line(registry, isolated_config, value):
    path = isolated_config / "bad.toml"
    path.write_text(RULE.replace("{value}", value))
    with pytest.raises(ConfigError, match=rf"^{path}, line 8: {value} is not a finite number$"):
        Engine("fake", rules=[str(path)], registry=registry)


def test_the_cli_refuses_a_bad_rule_row_in_one_line_before_any_roll(invoke, isolated_config):
    (isolated_config / "bad.toml").write_text(RULE.replace("{value}", '"three"'))
    result = invoke("resolve", "fake", "attack", "--dice", "20,4,3", "--rule", "bad.toml")
    assert result.exit_code == 2
    assert result.output == ("Error: bad.toml, line 8: row 'solid': multiplier: must be a whole number, "
                             "not \"three\"\n")


def test_a_rule_file_row_that_fits_resolves_with_its_number(registry, isolated_config):
    path = isolated_config / "fine.toml"
    path.write_text(RULE.replace("{value}", "4"))
    out = Engine("fake", rules=[str(path)], registry=registry).run("attack", {}, dice="20,4,3")
    assert out.effects[0].id == "solid" and out.applied.data["damage"] == 12  # 3 x 4


# --- shipped tables: checked when parsed, not again from a cache entry made from checked data ---

def test_a_shipped_table_is_checked_when_parsed_and_not_from_its_cache_entry(tmp_path, writable_cache):
    from critcore.tables import resources

    location = tmp_path / "blows.toml"
    location.write_text(TABLE.replace("{value}", "2"))
    calls = []
    resources.load_toml(str(location), "blows.toml", check=calls.append)
    resources.load_toml(str(location), "blows.toml", check=calls.append)
    assert len(calls) == 1  # the second load read the entry the first one made
    location.write_text(TABLE.replace("{value}", "3"))
    resources.load_toml(str(location), "blows.toml", check=calls.append)
    assert len(calls) == 2  # an edited file is parsed, and checked, again


def test_a_table_that_fails_its_check_leaves_no_cache_entry(tmp_path, writable_cache):
    from critcore.tables import resources
    from critcore.tables.tableset import build_table

    location = tmp_path / "blows.toml"
    text = TABLE.replace("{value}", "-3")
    location.write_text(text)
    for _ in range(2):  # refused both times: the first refusal wrote no entry to skip the check
        with pytest.raises(TableError, match="multiplier: -3 is out of range"):
            resources.load_toml(str(location), "blows.toml",
                                check=lambda data: build_table(data, "blows.toml", text))


@pytest.mark.parametrize("name", ["one_of", "together"])
def test_a_group_of_keys_that_is_not_a_list_of_names_is_refused_not_a_crash(name):
    """[row_schema.one_of]/[row_schema.together] give, for an effect, a list of its key names: a
    list inside the list (unhashable) is refused with the one line, not a TypeError."""
    from critcore.tables.rowschema import RowSchema

    with pytest.raises(TableError, match=f"row_schema.{name} must give"):
        RowSchema({"effects": {"d": {"a": "int"}}, name: {"d": [["a"]]}}, "f.toml")
