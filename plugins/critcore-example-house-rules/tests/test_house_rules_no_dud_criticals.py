"""``no-dud-criticals`` (GURPS): a 9-11 on the Critical Hit or Critical Head Blow table does
maximum basic damage instead of ordinary damage; every other row is unchanged.

Expected values: the GURPS document's tables (9-11 ordinary damage; 6 and 15 maximum damage),
the dice's highest faces (2d = 12) and the torso's cutting modifier x1.5 from the GURPS rules.
"""

from __future__ import annotations

import json
from fractions import Fraction

import critcore
import critcore.plugin
import pytest
from click.testing import CliRunner
from critcore.testing import cli

RULE = ["no-dud-criticals"]


def crit(dice: str, rules: list[str], procedure: str = "critical-hit", **params: object) -> critcore.plugin.Outcome:
    params = {"damage": "2d cut", "hp": 20, **params}
    return critcore.resolve("gurps", procedure, dice=dice, rules=rules, **params)


@pytest.mark.parametrize("table_roll", ["3,3,3", "4,3,3", "5,3,3"])  # 9, 10 and 11
def test_enabled_ordinary_damage_becomes_maximum(table_roll: str) -> None:
    """A 9-11 on the Critical Hit table: 2d cut at maximum is 12 basic, x1.5 in the torso = 18."""
    out = crit(table_roll + ",1,1", RULE)
    last = out.effects[-1]
    assert last.id == "normal-damage-9-11" and last.data["maximum"] is True
    assert last.data["changed_by"] == "no-dud-criticals"
    assert "12 basic cut damage" in " ".join(out.applied.changes)
    assert "18 HP of injury" in out.applied.changes
    assert any(n.by == "no-dud-criticals" for n in out.notes)


def test_installed_but_not_enabled_is_rules_as_written() -> None:
    """As written a 10 is ordinary damage: the 2d roll 1+1 = 2 cut, x1.5 = 3 injury."""
    out = crit("4,3,3,1,1", [])
    assert out.effects[-1].data.get("maximum") is None
    assert "3 HP of injury" in out.applied.changes
    assert not any(n.by == "no-dud-criticals" for n in out.notes)


def test_other_rows_are_untouched() -> None:
    """A 5 (double damage) stays double damage with the rule: (1+1) x2 = 4 cut, x1.5 = 6."""
    out = crit("1,1,3,1,1", RULE)
    assert out.effects[-1].id == "double-damage-5" and "maximum" not in out.effects[-1].data
    assert "6 HP of injury" in out.applied.changes
    assert not any(n.by == "no-dud-criticals" for n in out.notes)


def test_critical_miss_table_is_untouched() -> None:
    """A 10 on the Critical Miss table still drops the weapon: the rule is about hits only."""
    out = critcore.resolve("gurps", "critical-miss", dice="4,3,3", rules=RULE)
    assert out.effects[-1].id == "drop-weapon-9-11" and "maximum" not in out.effects[-1].data


def test_head_blow_table_9_11_too() -> None:
    """The Critical Head Blow table's 9-11 (ordinary head damage) also becomes maximum damage."""
    out = crit("3,3,4,1,1", RULE, procedure="head-blow")
    assert out.effects[-1].id == "normal-9-11" and out.effects[-1].data["maximum"] is True


def test_attack_critical_hit_uses_the_rule() -> None:
    """An attack rolled 3 (always a critical hit) then 10 on the table: maximum damage."""
    out = critcore.resolve("gurps", "attack", dice="1,1,1,4,3,3,1,1", skill=12, damage="2d cut", hp=20, rules=RULE)
    assert out.determination.kind == "critical-hit" and out.effects[-1].data["maximum"] is True


def test_exact_odds_by_hand() -> None:
    """Maximum damage on the Critical Hit table: as written rolls 6 and 15, 10 + 10 = 20 of 216;
    with the rule also 9, 10, 11: 20 + 25 + 27 + 27 = 99 of 216 = 11/24."""
    def maximum(odds: object) -> Fraction:
        return odds.probability(lambda b: bool(b.effects[-1].data.get("maximum")))  # type: ignore[attr-defined]

    assert maximum(critcore.odds("gurps", "critical-hit")) == Fraction(20, 216)
    ruled = critcore.odds("gurps", "critical-hit", rules=RULE)
    assert maximum(ruled) == Fraction(99, 216) and ruled.exact


def test_cli_explain_and_json_name_the_rule(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("CRITCORE_CONFIG", str(tmp_path / "none.toml"))
    monkeypatch.chdir(tmp_path)
    args = ["resolve", "gurps", "critical-hit", "--damage", "2d cut", "--dice", "4,3,3", "--rule", "no-dud-criticals"]
    explained = CliRunner().invoke(cli, args + ["--explain"])
    assert explained.exit_code == 0, explained.output
    assert "[no-dud-criticals]" in explained.output
    data = json.loads(CliRunner().invoke(cli, args + ["--json"]).output)
    assert data["effects"][-1]["maximum"] is True and data["effects"][-1]["changed_by"] == "no-dud-criticals"
    assert any(n["by"] == "no-dud-criticals" for n in data["notes"])
