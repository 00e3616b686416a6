"""Shell completion and help for GURPS (issue 15): `--location` completes the hit locations of
the humanoid table (and `random`); `--skill`, which attack requires, says [required] in help."""

from __future__ import annotations

from click.shell_completion import ShellComplete
from click.testing import CliRunner
from critcore.testing import cli

from gurps_testkit import REG


def complete(args: list[str], incomplete: str) -> list[str]:
    comp = ShellComplete(cli, {"obj": REG}, "crit", "_CRIT_COMPLETE")
    return [c.value for c in comp.get_completions(args, incomplete)]


def test_location_completes_the_hit_locations() -> None:
    assert complete(["resolve", "gurps", "attack", "--location"], "s") == ["skull"]
    assert complete(["resolve", "gurps", "critical-hit", "--location"], "r") == [
        "random", "right-arm", "right-leg"]
    assert complete(["resolve", "gurps", "head-blow", "--location"], "") == ["eye", "face", "skull"]


def test_table_names_complete() -> None:
    assert complete(["tables", "gurps"], "critical-") == ["critical-hit", "critical-miss"]


def test_required_skill_is_marked_in_help() -> None:
    out = CliRunner().invoke(cli, ["resolve", "gurps", "attack", "--help"], obj=REG).output
    skill = out[out.index("--skill"):out.index("--location")]
    assert "[required]" in skill
