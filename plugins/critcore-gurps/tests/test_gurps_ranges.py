"""Issue 14, GURPS numbers: every number is read as what it means and checked against the range
declared with its parameter (DR >= 0, an armor divisor between the published 0.1 and 100, stats
on GURPS's scale, waits of at most ten years); a bad one is one line, exit code 2, and the
character file is unchanged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from critcore.testing import cli
from critcore.testing import Registry

import critcore_gurps.plugin as gurps

REG = Registry.installed(extra_systems={"gurps": gurps}, discover=False)
ATTACK = ("resolve", "gurps", "attack", "--skill", "14", "--damage", "2d cut", "--seed", "3")
HUGE = "9" * 400


def crit(*args: str):
    return CliRunner().invoke(cli, list(args), obj=REG)


def refused(result, *words: str) -> str:
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    assert len(lines[0]) <= 400, lines[0]  # textsafe.MAX_LINE
    for w in words:
        assert w in lines[0], lines[0]
    return lines[0]


@pytest.mark.parametrize("value,words", [
    ("-5", "--dr: -5 is out of range (allowed: 0 to 10,000)"),  # -5 used to add 5 damage
    ("1" + "0" * 30, "--dr: "),  # 10**30 went through a float (DR 1000000000000000019884624838656)
    (HUGE, "--dr: "),  # 400 digits: a traceback (int too large to convert to float)
    ("1e30", "--dr: '1e30' is not a valid whole number"),
    ("²", "--dr: '²' is not a valid whole number"),
])
def test_dr_is_a_whole_number_of_zero_or_more(value, words):
    refused(crit(*ATTACK, "--dr", value), words)


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "1e-320", "0", "-1", "1000", "1e400"])
def test_armor_divisor_lies_between_the_published_extremes(value):
    """The published divisors run from (0.1) to (100); nan and 1e-320 were tracebacks, 0, -1 and
    inf were accepted."""
    refused(crit(*ATTACK, "--armor-divisor", value), "--armor-divisor")


@pytest.mark.parametrize("value", ["0.5", "2", "100"])
def test_published_armor_divisors_are_accepted(value):
    assert crit(*ATTACK, "--armor-divisor", value).exit_code == 0


@pytest.mark.parametrize("damage", ["2d (0) cut", "2d (1000) cut", "2d (0.01) cut"])
def test_an_armor_divisor_inside_damage_has_the_same_range(damage):
    refused(crit("resolve", "gurps", "attack", "--skill", "14", "--damage", damage, "--seed", "3"),
            "--damage: armor divisor", "0.1 to 100")


@pytest.mark.parametrize("flag", ["--hp", "--ht"])
@pytest.mark.parametrize("value", ["0", "-3", "1" + "0" * 30])
def test_stats_of_zero_negative_or_astronomic_are_refused(flag, value):
    refused(crit(*ATTACK, flag, value), flag + ":", "out of range")


@pytest.mark.parametrize("flag", ["--dx", "--iq"])
@pytest.mark.parametrize("value", ["0", "-3", "1000"])
def test_fumbler_stats_are_on_the_gurps_scale(flag, value):
    refused(crit("resolve", "gurps", "unarmed-miss", flag, value, "--seed", "1"), flag + ":", "out of range")


def test_skill_range_is_declared_from_the_rules_table():
    """The effective-skill bounds (3 to 99 for an attack) come from data/rules.toml, shown in --help."""
    out = " ".join(crit("resolve", "gurps", "attack", "--help").output.split())  # help text wraps
    assert "[range: 3 to 99]" in out and "[range: 0 to 10,000]" in out and "[range: 0.1 to 100]" in out


def test_wait_of_ten_to_the_thirty_weeks_changes_nothing(tmp_path: Path):
    """`wait --weeks 10**30` wrote a 36-digit clock into the character file."""
    path = tmp_path / "pc.json"
    path.write_text(json.dumps({"name": "Ann", "hp": 10, "ht": 10}))
    before = path.read_bytes()
    r = crit("treat", "gurps", "wait", "--weeks", "1" + "0" * 30, "--target", str(path), "--save")
    refused(r, "--weeks", "out of range (allowed: 0 to 520)")
    assert path.read_bytes() == before


def test_ten_years_of_waiting_is_the_most_at_once(tmp_path: Path):
    path = tmp_path / "pc.json"
    path.write_text(json.dumps({"name": "Ann", "hp": 10, "ht": 10}))
    assert crit("treat", "gurps", "wait", "--weeks", "520", "--target", str(path)).exit_code == 0
    refused(crit("treat", "gurps", "wait", "--weeks", "521", "--target", str(path)), "--weeks")


def test_a_400_digit_dr_in_a_character_file_is_one_line(tmp_path: Path):
    path = tmp_path / "pc.json"
    path.write_text('{"name": "Ann", "hp": 10, "dr": ' + HUGE + "}")
    refused(crit(*ATTACK, "--target", str(path)), "pc.json")


def test_default_hp_of_zero_in_a_rule_file_names_the_file_and_line(tmp_path: Path):
    """`default_hp = 0` in a rule file blamed "target" and named no file."""
    rule = tmp_path / "low-hp.toml"
    rule.write_text('name = "low-hp"\nsystem = "gurps"\n\n[options]\ndefault_hp = 0\n')
    line = refused(crit(*ATTACK, "--rule", str(rule)), "low-hp.toml, line 5", "default_hp")
    assert "target" not in line


def test_odds_of_20d1000_damage_are_refused_at_once_suggesting_simulate():
    """`crit odds gurps critical-hit --damage "20d1000 cut"` was still running after 15 s."""
    import time

    start = time.perf_counter()
    line = refused(crit("odds", "gurps", "critical-hit", "--damage", "20d1000 cut"),
                   "20d1000", "limit of 2,000", "crit simulate")
    assert time.perf_counter() - start < 5, line  # a bound against a hang, not a benchmark


def test_a_100000_character_location_gives_a_short_error_line():
    """The error repeated the whole value (a 100 KB line); now the value is shortened."""
    line = refused(crit(*ATTACK, "--location", "\x1b[2J" + "a" * 100_000), "--location")
    assert "…" in line and "\x1b" not in line
