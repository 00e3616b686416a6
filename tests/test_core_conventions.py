"""Conventions people expect of a command-line tool (issue 15): bare `crit` prints help and exits
0 on every supported click version; required options are marked in help; shell completion for
systems and tables; `critcore.toml` found in the working folder or its nearest parent."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.shell_completion import ShellComplete

from critcore.cli.main import cli
from critcore.cli.procedures import param_option
from critcore.config.settings import find_project_file, load_config
from critcore.model import Param

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("args", [[], ["resolve"], ["treat"]])
def test_bare_commands_print_help_and_exit_0(args: list[str]) -> None:
    """`crit` with nothing (or a verb with no system) prints its help on stdout and exits 0:
    click 8.2+ would call that a usage error (exit 2, 'Error: Usage: ...')."""
    done = subprocess.run([sys.executable, "-m", "critcore", *args], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Usage: ") and "Error" not in done.stdout + done.stderr
    if not args:  # the top level always lists its commands (a verb lists only installed systems)
        assert "Commands:" in done.stdout and "resolve" in done.stdout


def _click_range() -> tuple[tuple[int, ...], tuple[int, ...]]:
    text = (ROOT / "pyproject.toml").read_text()
    spec = re.search(r'"click>=([\d.]+),<([\d.]+)"', text)
    assert spec is not None, "pyproject.toml must declare click with a lower and an upper bound"
    return tuple(map(int, spec.group(1).split("."))), tuple(map(int, spec.group(2).split(".")))


def test_click_range_is_declared_and_the_installed_click_is_in_it() -> None:
    """The supported click versions are a declared range (CI runs these tests on its oldest and newest)."""
    from importlib.metadata import version

    low, high = _click_range()
    installed = tuple(int(p) for p in re.findall(r"\d+", version("click"))[:2])
    assert low <= installed < high


def test_required_parameters_are_marked_in_help() -> None:
    """A parameter a procedure requires says [required] in --help (the engine enforces it)."""
    assert "[required]" in (param_option(Param("skill", "int", "Skill.", required=True)).help or "")
    assert "[required]" not in (param_option(Param("bonus", "int", "Bonus.")).help or "")


def completions(registry, args: list[str], incomplete: str) -> list[str]:
    comp = ShellComplete(cli, {"obj": registry}, "crit", "_CRIT_COMPLETE")
    return [c.value for c in comp.get_completions(args, incomplete)]


def test_completion_offers_systems_tables_and_suggested_values(registry) -> None:
    """`crit show <TAB>` and `crit tables <TAB>` offer installed systems; `crit tables fake <TAB>`
    the system's tables; a parameter's `suggest` values complete too."""
    assert completions(registry, ["show"], "f") == ["fake"]
    assert completions(registry, ["tables"], "") == ["fake"]
    assert completions(registry, ["tables", "fake"], "") == ["confirm"]
    option = param_option(Param("where", "str", "Where.", suggest=("head", "hand", "body")))
    ctx = click.Context(click.Command("x"))
    assert [c.value for c in option.shell_complete(ctx, "h")] == ["hand", "head"]


def test_critcore_toml_is_found_in_the_nearest_parent(tmp_path: Path) -> None:
    """From a campaign's subfolder the campaign's critcore.toml applies; a nearer one wins."""
    campaign = tmp_path / "campaign"
    deep = campaign / "session-3" / "notes"
    deep.mkdir(parents=True)
    (campaign / "critcore.toml").write_text('[systems.fake]\ncrit_on_19 = true\n')
    assert find_project_file(str(deep)) == str(campaign / "critcore.toml")
    assert load_config(user=False, cwd=str(deep)).system_options("fake") == {"crit_on_19": True}
    (campaign / "session-3" / "critcore.toml").write_text('[systems.fake]\ncrit_on_19 = false\n')
    assert load_config(user=False, cwd=str(deep)).system_options("fake") == {"crit_on_19": False}


def test_no_critcore_toml_anywhere_up_means_none(tmp_path: Path) -> None:
    lonely = tmp_path / "a" / "b"
    lonely.mkdir(parents=True)
    found = find_project_file(str(lonely))
    assert found is None or not found.startswith(str(tmp_path))
