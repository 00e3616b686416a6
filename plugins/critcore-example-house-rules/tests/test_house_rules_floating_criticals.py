"""``floating-criticals`` (BattleTech): a 2 on the hit location table is rolled again; the new
location takes the hit and the 2's chance of a critical through the armor.

Expected values come from the 'Mech hit location table (front column: 2 centre torso with the
through-armor critical, 5 right leg, 7 centre torso, 12 head; left side: 5 left arm) and from the
rule: one re-roll, a second 2 stands.
"""

from __future__ import annotations

import json
from fractions import Fraction

import critcore
import critcore.plugin
from click.testing import CliRunner
from critcore.testing import cli

RULE = ["floating-criticals"]
TAC = "through-armor-critical"


def hit(dice: str, rules: list[str], **params: object) -> critcore.plugin.Outcome:
    return critcore.resolve("battletech", "hit-location", dice=dice, rules=rules, **params)


def test_enabled_a_two_floats_to_the_new_location() -> None:
    """2 then 5 (front): the hit lands on the right leg, which gets the through-armor critical."""
    out = hit("1,1,3,2", RULE)
    assert [r.total for r in out.rolls] == [2, 5]
    assert out.location.id == "RL" and out.effects[0].code == TAC
    assert "critical --location RL" in out.applied.summary
    assert any(n.by == "floating-criticals" and "Right Leg" in n.text for n in out.notes)


def test_side_column_is_kept_on_the_re_roll() -> None:
    """From the left side, 2 then 5 is the left arm."""
    out = hit("1,1,4,1", RULE, side="left")
    assert out.location.id == "LA" and out.effects[0].code == TAC


def test_four_legged_mech_and_rear_armor_are_kept_on_the_re_roll() -> None:
    """A quad reads a right-leg result as its right rear leg: 2 then 5 is RRL. From the rear,
    2 then 6 is the right torso's rear armor."""
    quad = hit("1,1,3,2", RULE, quad=True)
    assert quad.location.id == "RRL" and quad.effects[0].code == TAC
    rear = hit("1,1,3,3", RULE, side="rear")
    assert rear.location.id == "RT" and rear.location.data["rear"] is True and rear.effects[0].code == TAC


def test_procedures_given_their_location_are_untouched() -> None:
    """Determining Critical Hits for a given location (2+1 = 3: no critical) rolls no location."""
    ruled = critcore.resolve("battletech", "critical", dice="2,1", location="CT", rules=RULE)
    plain = critcore.resolve("battletech", "critical", dice="2,1", location="CT")
    assert ruled.location == plain.location and ruled.effects == plain.effects and len(ruled.rolls) == 1


def test_a_second_two_stands() -> None:
    """2 then 2: the centre torso keeps the hit and its through-armor critical; no third roll."""
    out = hit("1,1,1,1", RULE)
    assert len(out.rolls) == 2 and out.location.id == "CT" and out.effects[0].code == TAC


def test_other_rolls_are_untouched() -> None:
    """A 7 is the centre torso with no critical chance, rule or not; nothing is re-rolled."""
    out = hit("3,4", RULE)
    assert len(out.rolls) == 1 and out.location.id == "CT" and out.effects[0].code == "hit-location"
    assert not any(n.by == "floating-criticals" for n in out.notes)


def test_installed_but_not_enabled_is_rules_as_written() -> None:
    """As written a 2 is the centre torso with the through-armor critical, and no re-roll."""
    out = hit("1,1", [])
    assert len(out.rolls) == 1 and out.location.id == "CT" and out.effects[0].code == TAC


def test_exact_odds_by_hand() -> None:
    """The critical chance still comes on 1 roll in 36, but lands where the re-roll says:
    on the head 1/36 x 1/36 = 1/1296; on the centre torso 1/36 x (6/36 for a 7 + 1/36 for a
    second 2) = 7/1296. The centre torso is hit 6/36 + 7/1296 of the time."""
    odds = critcore.odds("battletech", "hit-location", rules=RULE)
    assert odds.exact
    tac = lambda b: b.effects[0].code == TAC  # noqa: E731
    assert odds.probability(tac) == Fraction(1, 36)
    assert odds.probability(lambda b: tac(b) and b.location.id == "HD") == Fraction(1, 1296)
    assert odds.probability(lambda b: tac(b) and b.location.id == "CT") == Fraction(7, 1296)
    assert odds.probability(lambda b: b.location.id == "CT") == Fraction(6, 36) + Fraction(7, 1296)
    plain = critcore.odds("battletech", "hit-location")
    assert plain.probability(lambda b: b.effects[0].code == TAC and b.location.id == "CT") == Fraction(1, 36)


def test_cli_explain_and_json_name_the_rule(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("CRITCORE_CONFIG", str(tmp_path / "none.toml"))
    monkeypatch.chdir(tmp_path)
    args = ["resolve", "battletech", "hit-location", "--dice", "1,1,3,2", "--rule", "floating-criticals"]
    explained = CliRunner().invoke(cli, args + ["--explain"])
    assert explained.exit_code == 0, explained.output
    assert "note [floating-criticals]" in explained.output and "critical --location RL" in explained.output
    data = json.loads(CliRunner().invoke(cli, args + ["--json"]).output)
    assert data["effects"][0]["effect"] == TAC and data["effects"][0]["changed_by"] == "floating-criticals"
    assert any(n["by"] == "floating-criticals" for n in data["notes"])
