"""BattleTech tables declare their row schemas: a house-rule row whose numbers or locations the
engine could not act on (issue 13's cases) is refused when the rule file loads, in one line naming
the file and the line, before any roll; a row that fits is used as written."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from critcore.testing import cli
from critcore.testing import Engine
from critcore.plugin import ConfigError

CRITICALS = """\
system = "battletech"

[[tables.determining-critical-hits.row]]
roll = "8-9"
id = "one"
effect = "criticals"
text = "One critical hit."
criticals = {value}
"""

LOCATION = """\
system = "battletech"

[[tables.hit-location.row]]
roll = 3
id = "three"
effect = "hit-location"
text = "Front or rear: {front}; left side: left leg; right side: right leg."
{front_line}left = "LL"
right = "RL"
"""


def write(tmp_path, text):
    path = tmp_path / "ours.toml"
    path.write_text(text)
    return path


@pytest.mark.parametrize("value, message", [
    ('"two"', 'criticals: must be a whole number, not "two"'),  # was a traceback
    ("1000000000", "criticals: 1000000000 is out of range (0 to 6)"),  # was a hang
    ("-1", "criticals: -1 is out of range (0 to 6)"),
    ("1.5", "criticals: must be a whole number, not 1.5"),
])
def test_a_criticals_count_the_engine_cannot_act_on_is_refused_at_load(bt_registry, tmp_path, value, message):
    path = write(tmp_path, CRITICALS.format(value=value))
    with pytest.raises(ConfigError) as err:
        Engine("battletech", rules=[str(path)], registry=bt_registry)
    assert str(err.value) == f"{path}, line 8: row 'one': {message}"


def test_a_hit_location_row_naming_no_location_is_refused_at_load(bt_registry, tmp_path):
    """front = "ZZ" printed "the hit lands on the ZZ"."""
    path = write(tmp_path, LOCATION.format(front="ZZ", front_line='front = "ZZ"\n'))
    with pytest.raises(ConfigError) as err:
        Engine("battletech", rules=[str(path)], registry=bt_registry)
    assert str(err.value) == f"{path}, line 8: row 'three': front: \"ZZ\" is not one of HD, CT, LT, RT, LA, RA, LL, RL"


def test_a_hit_location_row_without_front_is_refused_at_load(bt_registry, tmp_path):
    """A row without front was a KeyError when a front or rear hit read it."""
    path = write(tmp_path, LOCATION.format(front="none", front_line=""))
    with pytest.raises(ConfigError) as err:
        Engine("battletech", rules=[str(path)], registry=bt_registry)
    assert str(err.value) == f"{path}, line 3: row 'three': needs 'front'"


def test_the_cli_refuses_the_rule_file_before_any_roll(bt_registry, tmp_path, monkeypatch):
    """The hang was in the criticals of a critical check; a hit-location roll never makes one,
    and still the file is refused, in one line, exit 2."""
    monkeypatch.chdir(tmp_path)
    write(tmp_path, CRITICALS.format(value="1000000000"))
    result = CliRunner().invoke(cli, ["resolve", "battletech", "hit-location", "--seed", "1", "--rule", "ours.toml"],
                                obj=bt_registry)
    assert result.exit_code == 2, result.output
    assert result.output == "Error: ours.toml, line 8: row 'one': criticals: 1000000000 is out of range (0 to 6)\n"


def test_a_fitting_hit_location_row_is_used_as_written(bt_registry, tmp_path):
    """Our table's 3 sends a front hit to the left arm instead of the right arm (Total Warfare: RA)."""
    path = write(tmp_path, LOCATION.format(front="left arm", front_line='front = "LA"\n'))
    engine = Engine("battletech", rules=[str(path)], registry=bt_registry)
    out = engine.run("hit-location", {"side": "front"}, dice="1,2")
    assert out.location.id == "LA"
    out = engine.run("hit-location", {"side": "left"}, dice="1,2")
    assert out.location.id == "LL"


def test_a_slot_half_must_start_where_six_slots_still_fit(bt_registry, tmp_path):
    """A location has 12 slots read in halves of six: a half starts at slot 1 to 7."""
    path = write(tmp_path, 'system = "battletech"\n\n[[tables.critical-slot-half.row]]\nroll = "1-3"\n'
                           'id = "upper"\neffect = "slot-half"\ntext = "Upper half."\nfirst_slot = 9\n')
    with pytest.raises(ConfigError, match=r"line 8: row 'upper': first_slot: 9 is out of range \(1 to 7\)"):
        Engine("battletech", rules=[str(path)], registry=bt_registry)
