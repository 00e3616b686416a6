"""Output for people (issue 15): plain words for the stages, modifiers shown in the roll, the
headline first, flags by name, options only where they differ, durations in game units, colour
only on a terminal (NO_COLOR and --no-color honoured), file text made safe before colouring."""

from __future__ import annotations

import io
import json

import pytest
from click.testing import CliRunner

from critcore.cli.main import cli
from critcore.model import Data, Determination, Outcome, Roll, Step
from critcore.report.render import duration, headline, render, roll_line
from critcore.report.style import RESET, paint, use_color


@pytest.mark.parametrize(("roll", "shown"), [
    (Roll("damage", "2d6+1", (3, 2), 6), "damage: 2d6+1 -> 3+2 +1 = 6"),       # the example
    (Roll("damage", "3d6-3", (1, 1, 1), 0), "damage: 3d6-3 -> 1+1+1 -3 = 0"),  # the other one
    (Roll("injury", "1d6-3", (5,), 2), "injury: 1d6-3 -> 5 -3 = 2"),
    (Roll("nuyen", "1d6x10", (4,), 40), "nuyen: 1d6x10 -> 4 x10 = 40"),
    (Roll("attack roll", "3d6", (3, 1, 1), 5), "attack roll: 3d6 -> 3+1+1 = 5"),
    (Roll("which", "1d2", (2,), 2), "which: 1d2 -> 2"),
])
def test_modifiers_show_in_the_roll(roll: Roll, shown: str) -> None:
    """A roll with a modifier shows it between the faces and the total, so the sum adds up."""
    assert roll_line(roll) == shown


@pytest.mark.parametrize(("seconds", "words"), [
    (7776000, "90 days"), (5400, "1 hour 30 minutes"), (1, "1 second"), (30 * 60, "30 minutes"),
    (7 * 86400, "1 week"), (0, "0 seconds"), (86400 + 5, "1 day"),
])
def test_durations_in_game_units(seconds: int, words: str) -> None:
    """Seconds of game time read in the largest units (the issue: not `t=7776000s`)."""
    assert duration(seconds) == words


def run_cli(*args: str, env: dict[str, str] | None = None) -> str:
    result = CliRunner().invoke(cli, list(args), env=env)
    assert result.exit_code == 0, result.output
    return result.output


def _has_gurps() -> bool:
    from importlib.metadata import entry_points

    return any(ep.name == "gurps" for ep in entry_points(group="critcore.systems"))


needs_gurps = pytest.mark.skipif(not _has_gurps(), reason="critcore-gurps not installed (core tested alone)")

GURPS_CRIT = ("resolve", "gurps", "attack", "--skill", "16", "--damage", "2d+1 cut", "--fine", "--dice", "3,1,1,6,6,6,4,5")


@needs_gurps
def test_report_reads_as_words_with_the_headline_first() -> None:
    """GURPS attack roll 5 at skill 16 (a critical hit), Critical Hit table 18 (triple damage):
    the first line is the most serious thing it did (45 injury take an assumed HP 10 down to -35:
    a roll to avoid death is owed at -1xHP, -2xHP and -3xHP), the critical itself next; stages are named in words, not
    determine:/locate:; a flag is shown by its name; a parameter at its default is not shown;
    2d+1 shows its +1."""
    out = run_cli(*GURPS_CRIT)
    lines = out.splitlines()
    assert lines[0] == "Owes 3 HT rolls to avoid death (down to -3xHP = -30 HP)"
    assert lines[1].startswith("Critical hit") and "tripled" in lines[1]
    assert "fine True" not in out and ", fine" in lines[2]
    assert "technique-penalty" not in out  # declared default 0
    for internal in ("determine:", "locate:", "effect:", "apply:"):
        assert internal not in out
    assert "Is it a critical?" in out and "Where:" in out and "What happens:" in out and "To the target:" in out
    assert "2d6+1 -> 4+5 +1 = 10" in out
    assert ".;" not in out


@needs_gurps
def test_options_shown_only_where_they_differ_from_the_defaults() -> None:
    """--explain lists an option only when it is not the system's default."""
    out = run_cli(*GURPS_CRIT, "--explain")
    assert "options changed" not in out
    outcome = Outcome("gurps", "attack", Data(skill=16), (), (Step("determine", "miss"),),
                      options=Data(random_location=True, default_hp=10))
    from critcore.report.render import changed_options

    assert changed_options(outcome, {"random_location": False, "default_hp": 10}) == [("random_location", True)]


def test_colour_only_on_a_terminal_and_never_with_no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    """Colour: --color/--no-color decide; otherwise a terminal without NO_COLOR (and not TERM=dumb)."""

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    assert use_color(None, Tty()) is True
    assert use_color(None, io.StringIO()) is False  # piped
    assert use_color(False, Tty()) is False and use_color(True, io.StringIO()) is True
    monkeypatch.setenv("NO_COLOR", "1")
    assert use_color(None, Tty()) is False
    monkeypatch.delenv("NO_COLOR")
    monkeypatch.setenv("TERM", "dumb")
    assert use_color(None, Tty()) is False


@needs_gurps
def test_cli_colour_flags_and_json_untouched() -> None:
    """Piped (the test runner is no terminal): no escape codes; --color forces them, --no-color
    and NO_COLOR keep them out; --json never carries them."""
    assert "\x1b[" not in run_cli(*GURPS_CRIT)
    coloured = run_cli(*GURPS_CRIT, "--color")
    # a roll to avoid death owed: grave, bold red (critcore.report.style)
    assert coloured.startswith("\x1b[1;31mOwes 3 HT rolls to avoid death") and RESET in coloured
    assert "\x1b[" not in run_cli(*GURPS_CRIT, "--no-color")
    assert "\x1b[" not in run_cli(*GURPS_CRIT, env={"NO_COLOR": "1"})
    data = json.loads(run_cli(*GURPS_CRIT, "--json", "--color"))
    assert data["procedure"] == "attack" and "\x1b" not in json.dumps(data)


def test_file_text_is_escaped_before_colour_is_added() -> None:
    """A name from a file holding ESC sequences shows them escaped; only our codes reach the terminal."""
    painted = paint([("headline", "Bob\x1b]0;owned\x07 is hit"), ("plain", "ok")], color=True)
    assert painted.count("\x1b") == 2  # our colour and our reset, nothing from the text
    assert "\\x1b]0;owned\\x07" in painted
    assert "\x1b" not in paint([("headline", "Bob\x1b[2J")], color=False)


def test_headline_of_a_non_critical_is_its_determination() -> None:
    """No critical: the headline is what the determination found, capitalised."""
    out = Outcome("gurps", "attack", Data(skill=12), (Roll("attack roll", "3d6", (5, 5, 5), 15),),
                  (Step("determine", "miss", (0,)),), determination=Determination("miss", False, "miss"))
    assert headline(out) == "Miss"
    assert render(out).splitlines()[:2] == ["Miss", "gurps attack: skill 12"]


def test_a_single_count_reads_one_time(invoke) -> None:
    """`crit simulate` counts: "(1 time)", never "(1 times)" (issue 15)."""
    out = invoke("simulate", "fake", "attack", "-n", "1", "--seed", "0").output
    assert "(1 time)" in out and "(1 times)" not in out
