"""GURPS tables declare their row schemas: a house-rule row whose numbers the engine could not act
on (issue 13's cases) is refused when the rule file loads, in one line naming the file and the
line, before any roll; a row that fits resolves with its numbers."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from critcore.testing import cli
from critcore.testing import Engine
from critcore.plugin import ConfigError

from gurps_testkit import REG, faces

ROW_3 = """\
system = "gurps"

[[tables.critical-hit.row]]
roll = 3
id = "triple-damage-3"
effect = "damage"
text = "Basic damage is multiplied."
{key} = {value}
"""


def rule(tmp_path, key, value):
    path = tmp_path / "ours.toml"
    path.write_text(ROW_3.format(key=key, value=value))
    return path


@pytest.mark.parametrize("key, value, message", [
    ("multiplier", '"three"', 'multiplier: must be a whole number, not "three"'),
    ("multiplier", "[3]", "multiplier: must be a whole number, not a list"),
    ("multiplier", "-3", "multiplier: -3 is out of range (1 to 100)"),  # was "0 injury"
    ("multiplier", "0", "multiplier: 0 is out of range (1 to 100)"),
    ("dr_factor", "-1", "dr_factor: -1 is out of range (0 to 1)"),  # was: armor adds damage
    ("drop_held", '"maybe"', 'drop_held: must be true or false, not "maybe"'),  # was taken as true
    ("dr_round", '"sideways"', 'dr_round: "sideways" is not one of up, down'),
])
def test_a_critical_hit_row_the_engine_cannot_act_on_is_refused_at_load(tmp_path, key, value, message):
    path = rule(tmp_path, key, value)
    with pytest.raises(ConfigError) as err:
        Engine("gurps", rules=[str(path)], registry=REG)
    assert str(err.value) == f"{path}, line 8: row 'triple-damage-3': {message}"


@pytest.mark.parametrize("value", ["nan", "inf", "-inf"])
def test_a_multiplier_that_is_not_a_finite_number_is_refused_at_its_line(tmp_path, value):
    path = rule(tmp_path, "multiplier", value)
    with pytest.raises(ConfigError) as err:
        Engine("gurps", rules=[str(path)], registry=REG)
    assert str(err.value) == f"{path}, line 8: {value} is not a finite number"


def test_the_cli_refuses_the_rule_file_even_for_a_procedure_that_never_reads_the_table(tmp_path, monkeypatch):
    """Refused at load, before any roll: a defense roll never reads the Critical Hit table."""
    monkeypatch.chdir(tmp_path)
    rule(tmp_path, "multiplier", '"three"')
    result = CliRunner().invoke(cli, ["resolve", "gurps", "defense", "--skill", "10", "--defense", "dodge", "--seed", "1",
                                      "--rule", "ours.toml"], obj=REG)
    assert result.exit_code == 2, result.output
    assert result.output == ("Error: ours.toml, line 8: row 'triple-damage-3': multiplier: must be a whole "
                             "number, not \"three\"\n")


def test_a_misspelt_key_in_a_rule_row_is_refused_with_a_did_you_mean(tmp_path):
    path = rule(tmp_path, "multipler", "3")
    with pytest.raises(ConfigError, match=r"line 8: row 'triple-damage-3': unknown key 'multipler' "
                                          r"\(did you mean 'multiplier'\?\)"):
        Engine("gurps", rules=[str(path)], registry=REG)


def test_a_hit_location_row_must_name_a_gurps_location(tmp_path):
    path = tmp_path / "ours.toml"
    path.write_text('system = "gurps"\n\n[[tables.hit-location.row]]\nroll = 3\nid = "skull-3"\n'
                    'effect = "location"\ntext = "The skull."\nlocation = "tail"\npenalty = -7\n')
    with pytest.raises(ConfigError, match=r"line 8: row 'skull-3': location: \"tail\" is not one of skull, face"):
        Engine("gurps", rules=[str(path)], registry=REG)


def test_a_quadruple_damage_row_that_fits_its_schema_multiplies_basic_damage_by_four(tmp_path):
    """Critical Hit table, roll 3 ("basic damage is tripled") made x4 by a house rule: 2d cut
    rolled 3+4 = 7 basic, x4 = 28 basic; DR 0; cutting x1.5 = 42 injury."""
    path = rule(tmp_path, "multiplier", "4")
    engine = Engine("gurps", rules=[str(path)], registry=REG)
    out = engine.run("critical-hit", {"location": "torso", "damage": "2d cut", "dr": 0, "hp": 100, "ht": 12},
                     dice=faces(3) + [3, 4] + [6] * 12)
    assert out.effects[0].id == "triple-damage-3"
    assert out.applied.data["injury"] == 42


def test_a_treat_as_result_must_be_a_roll_of_the_table(tmp_path):
    """A cheap weapon's break is "treated as result 3" of the 3d6 Critical Miss table: 3 to 18."""
    path = tmp_path / "ours.toml"
    path.write_text('system = "gurps"\n\n[[tables.critical-miss.row]]\nroll = "17-18"\nid = "drop-17-18"\n'
                    'effect = "drop-weapon"\ntext = "He drops it."\ncheap_treat_as = 40\n')
    with pytest.raises(ConfigError, match=r"line 8: row 'drop-17-18': cheap_treat_as: 40 is out of range \(3 to 18\)"):
        Engine("gurps", rules=[str(path)], registry=REG)


def test_an_animal_iq_range_needs_both_ends(tmp_path):
    """Unarmed Critical Miss 17: an animal of IQ 3 to 5 flees. A house-rule strain row giving only
    one end of the range is refused at load (it used to fail on the roll, as a KeyError)."""
    path = tmp_path / "ours.toml"
    path.write_text('system = "gurps"\n\n[[tables.unarmed-miss.row]]\nroll = 17\nid = "strain-17"\n'
                    'effect = "strain"\ntext = "Strained, and a timid animal flees."\ninjury = 1\nminutes = 30\n'
                    'pain_base = 20\npain_min_minutes = 1\nflee_turns = 1\nanimal_iq_max = 5\n')
    with pytest.raises(ConfigError, match="animal_iq_min"):
        Engine("gurps", rules=[str(path)], registry=REG)
