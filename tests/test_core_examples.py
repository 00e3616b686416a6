"""`crit examples` (issue 15): the examples a system ships land in the current folder (or --to
DIR); an existing file stops everything (exit 2, nothing written) unless --force; --list writes
nothing; a plugin's file name with a folder in it is refused."""

from __future__ import annotations

import json
from pathlib import Path


def test_examples_are_written_into_the_current_folder(invoke) -> None:
    result = invoke("examples")
    assert result.exit_code == 0, result.output
    assert json.loads(Path("hero.json").read_text()) == {"hp": 12}
    assert "wrote hero.json (fake: a fake hero with 12 hp)" in result.output


def test_an_existing_file_stops_the_command_unless_force(invoke) -> None:
    Path("hero.json").write_text("mine\n")
    result = invoke("examples")
    assert result.exit_code == 2 and "hero.json already exists" in result.output
    assert Path("hero.json").read_text() == "mine\n"
    assert invoke("examples", "--force").exit_code == 0
    assert json.loads(Path("hero.json").read_text()) == {"hp": 12}


def test_list_and_another_folder(invoke, tmp_path: Path) -> None:
    listed = invoke("examples", "--list")
    assert listed.output.strip() == "fake: hero.json  a fake hero with 12 hp" and not Path("hero.json").exists()
    assert invoke("examples", "fake", "--to", str(tmp_path / "table")).exit_code == 0
    assert (tmp_path / "table" / "hero.json").is_file()


def test_an_unknown_system_is_one_line(invoke) -> None:
    result = invoke("examples", "fakes")
    assert result.exit_code == 2 and "fake" in result.output and len(result.output.splitlines()) == 1
