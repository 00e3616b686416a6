"""Roll-range tables: loading, validation with file and line, lookups."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from critcore.dice.dice import Dice
from critcore.dice.rollers import ScriptedRoller
from critcore.errors import TableError
from critcore.tables.tableset import TableSet, load_table_text, parse_rolls

GOOD = """
id = "t"
title = "Test table"
dice = "1d6"

[[row]]
roll = "1-2"
id = "low"
effect = "small"
text = "Small."
size = 1

[[row]]
roll = "3, 5"
id = "odd"
effect = "medium"
text = "Medium."

[[row]]
roll = [4, "6"]
id = "even"
effect = "big"
text = "Big."
"""


def test_good_table_covers_each_roll_once_and_looks_up():
    t = load_table_text(GOOD, "t.toml")
    assert [t.lookup(r).id for r in range(1, 7)] == ["low", "low", "odd", "even", "odd", "even"]
    assert t.lookup(1).data["size"] == 1
    assert t.row("odd").roll_text == "3, 5"


def test_roll_on_records_the_roll_and_returns_the_effect():
    t = load_table_text(GOOD, "t.toml")
    dice = Dice(ScriptedRoller("4"))
    eff = t.roll_on(dice, "test roll")
    assert (eff.table, eff.id, eff.code, eff.roll) == ("t", "even", "big", 4)
    assert dice.rolls[0].label == "test roll"


def _broken(old, new):
    return GOOD.replace(old, new, 1)


@pytest.mark.parametrize(
    "text, message",
    [
        (_broken('roll = "1-2"', 'roll = "1"'), "no row covers roll.*2"),  # a gap
        (_broken('roll = "1-2"', 'roll = "1-3"'), "both cover roll 3"),  # an overlap
        (_broken('roll = "1-2"', 'roll = "0-2"'), "outside the table's range"),
        (_broken('id = "low"', 'id = "odd"'), "line 13.*used twice"),
        (_broken('effect = "small"\n', ''), "line 6.*no 'effect'"),
        (_broken('id = "low"\n', ''), "line 6.*no 'id'"),
        (_broken('roll = "1-2"', 'roll = "2-1"'), "runs backwards"),
        (_broken('roll = "1-2"', 'roll = "one"'), "cannot read roll"),
        (_broken('dice = "1d6"', 'dice = "1q6"'), "cannot read dice"),
        (_broken('id = "low"', 'id = "Low Row"'), "row id"),
        (_broken('[[row]]\nroll = "1-2"', '[[row]]\nroll = "1-2'), "line 7: not valid TOML"),
        ('id = "x"\ndice = "1d6"\n', "no \\[\\[row\\]\\]"),
    ],
)
def test_broken_tables_name_file_and_problem(text, message):
    with pytest.raises(TableError, match=message) as err:
        load_table_text(text, "broken.toml")
    assert str(err.value).startswith("broken.toml")


def test_unknown_effect_code_is_refused_when_codes_are_known():
    with pytest.raises(TableError, match="unknown effect code 'big'"):
        load_table_text(GOOD, "t.toml", effect_codes=frozenset({"small", "medium"}))


def test_range_key_overrides_the_dice_range():
    text = GOOD.replace('dice = "1d6"', 'dice = "1d6"\nrange = [1, 7]').replace('roll = [4, "6"]', 'roll = [4, "6-7"]')
    assert load_table_text(text, "t.toml").lookup(7).id == "even"


def test_tableset_loads_package_tables_lazily():
    tables = TableSet("fake_tables")
    assert tables.names() == ("confirm",)
    assert tables["confirm"].lookup(6).id == "brutal"
    with pytest.raises(KeyError):
        tables["nope"]


@given(st.one_of(st.integers(-50, 50), st.text(max_size=12), st.lists(st.one_of(st.integers(-5, 20), st.text(max_size=5)), max_size=4)))
def test_any_roll_value_parses_or_raises_table_error(value):
    try:
        lo, hi, scattered = parse_rolls(value, "x")
    except TableError:
        return
    assert lo <= hi
    assert not scattered or (min(scattered), max(scattered)) == (lo, hi)


@given(st.lists(st.tuples(st.integers(1, 6), st.integers(0, 3)), min_size=1, max_size=6))
def test_any_row_layout_loads_only_when_it_covers_exactly_once(spans):
    rows = []
    covered = []
    for i, (start, width) in enumerate(spans):
        rows.append(f'[[row]]\nroll = "{start}-{start + width}"\nid = "r{i}"\neffect = "e"\ntext = "x"\n')
        covered.extend(range(start, start + width + 1))
    text = 'dice = "1d6"\n' + "\n".join(rows)
    exact = sorted(covered) == list(range(1, 7))
    try:
        table = load_table_text(text, "gen.toml", "gen")
    except TableError:
        assert not exact
        return
    assert exact and [table.lookup(r).id for r in range(1, 7)]
