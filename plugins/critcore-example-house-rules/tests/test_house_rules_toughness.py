"""``toughness`` (Shadowrun 2e): one extra die on the GM's Body check, nothing else changes.

Expected values come from the Shadowrun critical-hit document (serious wound: TN 6 recommended,
4 gentle; no success is Mortal, one Crippling, two Critical, three or more no critical) and from
the rule itself (Body + 1 dice).
"""

from __future__ import annotations

import json
from fractions import Fraction

import critcore
import critcore.plugin
import pytest
from click.testing import CliRunner
from critcore.testing import cli

# Body 2, serious wound (TN 6); then a 2d6 hit location (3+4 = 7) and a 1d6 critical (2).
AFTER = ",3,4,2"


def wound(dice: str, rules: list[str], **params: object) -> critcore.plugin.Outcome:
    params = {"body": 2, "severity": "serious", **params}
    return critcore.resolve("shadowrun2", "wound", dice=dice, rules=rules, **params)


def test_enabled_body_check_rolls_body_plus_one_dice() -> None:
    """Toughness: Body 2 rolls 3 dice; two 6s and a 1 are two successes, a Critical critical."""
    out = wound("1,6,6" + AFTER, ["toughness"])
    assert out.rolls[0].notation == "3d6 vs TN 6"
    assert out.rolls[0].successes == 2
    assert out.determination is not None and out.determination.kind == "critical"
    assert any(n.by == "toughness" and "2 + 1 dice" in n.text for n in out.notes)


def test_installed_but_not_enabled_is_rules_as_written() -> None:
    """Without the rule Body 2 rolls 2 dice: a 1 and a 6 is one success, a Crippling critical."""
    out = wound("1,6" + AFTER, [])
    assert out.rolls[0].notation == "2d6 vs TN 6"
    assert out.determination is not None and out.determination.kind == "crippling"
    assert not any(n.by == "toughness" for n in out.notes)


def test_the_extra_die_can_save_a_life() -> None:
    """Two failures with Body 2 are Mortal; toughness's third die at 6 makes it Crippling."""
    plain = wound("1,2" + AFTER + ",1", [])
    tough = wound("1,2,6" + AFTER + ",1", ["toughness"])
    assert plain.determination.kind == "mortal" and tough.determination.kind == "crippling"


def test_options_still_apply_gentle_light_wound_rolls_nothing() -> None:
    """With the gentle TNs a light wound is never checked: toughness has no die to add."""
    out = critcore.resolve("shadowrun2", "wound", seed=3, rules=["toughness"], options={"tn_set": "gentle"},
                           body=2, severity="light")
    assert out.rolls == () and out.determination.critical is False
    assert not any(n.by == "toughness" for n in out.notes)


def test_combat_pool_and_gentle_tn_with_toughness() -> None:
    """Body 2 + Combat Pool 1 + toughness 1 = 4 dice, against the gentle serious TN 4."""
    out = wound("4,4,4,1", ["toughness"], combat_pool=1, options={"tn_set": "gentle", "allow_combat_pool": True})
    assert out.rolls[0].notation == "4d6 vs TN 4" and out.determination.kind == "none"


def test_rule_for_shadowrun_does_nothing_in_gurps() -> None:
    """A rule is registered only for its own system: enabling toughness leaves GURPS as written."""
    plain = critcore.resolve("gurps", "attack", dice="3,4,4", skill=12)
    ruled = critcore.resolve("gurps", "attack", dice="3,4,4", skill=12, rules=["toughness"])
    assert ruled.determination == plain.determination and not ruled.notes


def test_exact_odds_with_toughness_by_hand() -> None:
    """Body 1, moderate wound (TN 4): each die succeeds with 1/2.

    As written (1 die): Mortal 1/2, Crippling 1/2. With toughness (2 dice): 0 successes 1/4
    (Mortal), 1 success 1/2 (Crippling), 2 successes 1/4 (Critical).
    """
    def kind(odds: object, name: str) -> Fraction:
        return odds.probability(lambda b: b.determination.kind == name)  # type: ignore[attr-defined]

    plain = critcore.odds("shadowrun2", "wound", body=1, severity="moderate")
    tough = critcore.odds("shadowrun2", "wound", body=1, severity="moderate", rules=["toughness"])
    assert (kind(plain, "mortal"), kind(plain, "crippling")) == (Fraction(1, 2), Fraction(1, 2))
    assert (kind(tough, "mortal"), kind(tough, "crippling"), kind(tough, "critical")) == (
        Fraction(1, 4), Fraction(1, 2), Fraction(1, 4))
    assert tough.exact


@pytest.fixture
def here(tmp_path, monkeypatch):
    """No critcore.toml or user config from the machine."""
    monkeypatch.setenv("CRITCORE_CONFIG", str(tmp_path / "none.toml"))
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_cli_explain_and_json_name_the_rule(here) -> None:
    args = ["resolve", "shadowrun2", "wound", "--body", "2", "--severity", "serious", "--dice", "1,6,6" + AFTER,
            "--rule", "toughness"]
    explained = CliRunner().invoke(cli, args + ["--explain"])
    assert explained.exit_code == 0, explained.output
    assert "[toughness]" in explained.output and "3d6 vs TN 6" in explained.output
    data = json.loads(CliRunner().invoke(cli, args + ["--json"]).output)
    assert data["rules"] == ["toughness"]
    assert any(n["by"] == "toughness" for n in data["notes"])
