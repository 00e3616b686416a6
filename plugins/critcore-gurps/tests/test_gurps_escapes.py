"""Issue 14: escape sequences in a character's name or a --spell reach the terminal escaped
(\\x1b), in reports, explanations and `crit show`; --json keeps the text exact."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from critcore.testing import cli
from critcore.testing import Registry

import critcore_gurps.plugin as gurps

REG = Registry.installed(extra_systems={"gurps": gurps}, discover=False)
EVIL = "Bob\x1b]0;owned\x07\x1b[2J"


def crit(*args: str):
    return CliRunner().invoke(cli, list(args), obj=REG)


def test_a_character_name_is_escaped_in_reports_and_show(tmp_path: Path) -> None:
    path = tmp_path / "bob.json"
    path.write_text(json.dumps({"name": EVIL, "hp": 10, "ht": 10}))
    for args in (["resolve", "gurps", "critical-hit", "--damage", "2d cut", "--seed", "1", "--explain"],
                 ["show", "gurps"]):
        result = crit(*args, "--target", str(path))
        assert result.exit_code == 0, result.output
        assert "\x1b" not in result.output and "\x07" not in result.output
    assert "Bob\\x1b]0;owned\\x07\\x1b[2J" in result.output
    data = json.loads(crit("resolve", "gurps", "critical-hit", "--damage", "2d cut", "--seed", "1", "--json",
                           "--target", str(path)).output)
    assert data["target"]["name"] == EVIL


def test_a_spell_name_is_escaped(tmp_path: Path) -> None:
    named = 0
    for seed in range(40):
        result = crit("resolve", "gurps", "spell", "--skill", "3", "--spell", EVIL, "--seed", str(seed), "--explain")
        assert result.exit_code == 0, result.output
        assert "\x1b" not in result.output and "\x07" not in result.output
        named += "Bob\\x1b]0;owned\\x07" in result.output
    assert named  # the explanation names the spell (escaped)
