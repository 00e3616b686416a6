"""Dice typed by hand for a Shadowrun test (issue 28): under the Rule of Six a die short of the
TN that shows 6 is rolled again and added; a die that reached the TN is done, even on a 6. A
face left over is refused (exit 2, one line, nothing saved) unless --allow-extra-dice; --prompt
says when a die stops."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def crit(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """The installed ``crit`` command, as a user runs it."""
    return subprocess.run([sys.executable, "-m", "critcore", *args], capture_output=True, text=True, input=stdin,
                          check=False)


WOUND = ("resolve", "shadowrun2", "wound", "--body", "3", "--severity", "deadly")  # TN 10 (recommended set)


def test_every_face_used_resolves() -> None:
    """TN 10: 6+6 = 12, 6+4 = 10, 6+5 = 11: three successes, no critical hit."""
    done = crit(*WOUND, "--dice", "6,6,6,4,6,5")
    assert done.returncode == 0, done.stderr
    assert "-> 3 successes" in done.stdout and done.stderr == ""


def test_a_face_left_over_is_refused_and_nothing_is_saved(tmp_path: Path) -> None:
    """The first die reached 12 on its second 6 and stops; a 6 typed after the last die is never
    rolled: refused in one line, exit 2, the character file unchanged."""
    runner = tmp_path / "runner.toml"
    runner.write_text('name = "Ghost"\nbody = 3\n')
    done = crit(*WOUND, "--dice", "6,6,6,4,6,5,6", "--character", str(runner), "--save")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        "Error: --dice: 1 dice face(s) not used: 6 (nothing saved; --allow-extra-dice accepts them)"]
    assert runner.read_text() == 'name = "Ghost"\nbody = 3\n'


def test_allow_extra_dice_makes_it_a_warning() -> None:
    done = crit(*WOUND, "--dice", "6,6,6,4,6,5,6", "--allow-extra-dice")
    assert done.returncode == 0
    assert "-> 3 successes" in done.stdout
    assert done.stderr.splitlines() == ["warning: 1 dice face(s) not used: 6"]


def test_prompt_says_when_to_stop_rolling_a_die() -> None:
    """--prompt at TN 10: the question for the three dice says a 6 is rolled again until its die
    reaches 10 and then stops even on a 6; die 1 (6, then 6: 12) is said to be done."""
    done = crit(*WOUND, "--prompt", stdin="6 6 6\n6\n4\n5\n")
    assert done.returncode == 0, done.stderr
    assert "a 6 is rolled again and added until that die reaches 10, then it stops, even on a 6" in done.stderr
    assert "die 1 has 12, TN 10 reached: it is done, not rolled again even on a 6" in done.stderr
    assert "-> 3 successes" in done.stdout
