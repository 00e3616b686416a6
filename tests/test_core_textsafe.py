"""Issue 14, control characters and error lines: text from files and arguments reaches a terminal
with its control characters shown escaped (`--json` stays exact); an error is one line of
reasonable length, the offending value shortened with an ellipsis."""

from __future__ import annotations

import json

import pytest

from critcore.report.textsafe import MAX_LINE, error_line, printable, quoted, shorten

ESC_TITLE = "\x1b]0;owned\x07"  # sets a terminal's window title
CLEAR = "\x1b[2J"  # clears the screen


@pytest.mark.parametrize("raw,shown", [
    ("Bob" + CLEAR, "Bob\\x1b[2J"),
    (ESC_TITLE, "\\x1b]0;owned\\x07"),
    ("a\x9bb", "a\\x9bb"),  # C1 control (CSI on some terminals)
    ("evil\u202etxt", "evil\\u202etxt"),  # right-to-left override
    ("del\x7f", "del\\x7f"),
    ("Ægir ½ — ok", "Ægir ½ — ok"),  # ordinary text is left alone
])
def test_printable_escapes_control_characters_only(raw, shown):
    assert printable(raw) == shown


def test_printable_keeps_line_breaks_only_when_asked():
    assert printable("a\nb\tc", newlines=True) == "a\nb\tc"
    assert printable("a\nb\tc") == "a\\nb\\tc"


def test_values_are_shortened_with_an_ellipsis():
    assert shorten("abc", 10) == "abc"
    assert shorten("x" * 100, 10) == "x" * 9 + "…"
    assert quoted("y" * 1000).endswith("…'") and len(quoted("y" * 1000)) < 70
    assert quoted(10**5000) == "a number of about 5,001 digits"  # str() of it would raise


def test_an_error_line_is_one_safe_line_of_reasonable_length():
    line = error_line("--location: unknown location '" + "a" * 100_000 + "'\nsecond line" + CLEAR)
    assert "\n" not in line and "\x1b" not in line
    assert len(line) <= MAX_LINE and "…" in line


def one_line(result):
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    assert "\x1b" not in lines[0] and len(lines[0]) <= MAX_LINE + 10
    return lines[0]


def test_a_file_path_in_an_error_is_escaped(invoke, tmp_path):
    path = tmp_path / f"nope{CLEAR}.json"
    line = one_line(invoke("resolve", "fake", "attack", "--seed", "1", "--target", str(path)))
    assert "nope\\x1b[2J.json" in line


def test_a_100000_character_value_gives_a_short_error(invoke):
    """A 100,000-character --where used to repeat itself in a 100 KB error line."""
    line = one_line(invoke("resolve", "fake", "attack", "--seed", "1", "--damage", "1d" + "9" * 100_000))
    assert len(line) < 200


RULE = """\
system = "fake"
summary = "Escapes\x1b[2J in a summary"

[tables.confirm]
remove = ["solid"]

[[tables.confirm.row]]
roll = "3-5"
id = "solid"
effect = "damage-multiplier"
text = "Double\x1b]0;owned\x07 damage."
multiplier = 2
"""


def test_house_rule_row_texts_are_escaped_in_tables_and_reports(invoke, tmp_path):
    rule = tmp_path / "evil.toml"
    rule.write_text(RULE.replace("\x1b", "\\u001b").replace("\x07", "\\u0007"))
    r = invoke("tables", "fake", "--rule", str(rule))
    assert r.exit_code == 0, r.output
    assert "\x1b" not in r.output and "\x07" not in r.output
    assert "Double\\x1b]0;owned\\x07 damage." in r.output
    r = invoke("resolve", "fake", "attack", "--dice", "20,4,8", "--rule", str(rule))
    assert r.exit_code == 0, r.output
    assert "\x1b" not in r.output and "Double\\x1b]0;owned\\x07 damage." in r.output


def test_json_output_stays_exact(invoke, tmp_path):
    rule = tmp_path / "evil.toml"
    rule.write_text(RULE.replace("\x1b", "\\u001b").replace("\x07", "\\u0007"))
    r = invoke("resolve", "fake", "attack", "--dice", "20,4,8", "--rule", str(rule), "--json")
    data = json.loads(r.output)
    assert any(e["text"] == "Double\x1b]0;owned\x07 damage." for e in data["effects"])


def test_a_prompt_at_the_end_of_input_stops_with_one_line_and_exit_1(invoke):
    """Decision: the end of input at --prompt is the user stopping, not bad input: exit code 1,
    one line, nothing saved (click's bare "Aborted!" before)."""
    r = invoke("resolve", "fake", "attack", "--prompt", input="")
    assert r.exit_code == 1
    last = r.output.strip().splitlines()[-1]  # the prompt itself shares the line (no newline typed)
    assert last.endswith("Error: stopped while waiting for a die roll (no more input); nothing was saved")


def test_a_superscript_two_at_the_prompt_asks_again(invoke):
    r = invoke("resolve", "fake", "attack", "--prompt", input="²\n10\n4\n")
    assert r.exit_code == 0, r.output
    assert "dice face '²' is not a whole number" in r.output


@pytest.mark.parametrize("args", [("--seed", "²"), ("--seed", "goblin")])
def test_a_seed_that_is_not_ascii_digits_is_a_text_seed(invoke, args):
    first = invoke("resolve", "fake", "attack", *args)
    assert first.exit_code == 0, first.output
    assert invoke("resolve", "fake", "attack", *args).output == first.output


def test_a_seed_of_5000_digits_is_refused_in_one_line(invoke):
    line = one_line(invoke("resolve", "fake", "attack", "--seed", "9" * 5000))
    assert "--seed" in line and "too long" in line


@pytest.mark.parametrize("faces", ["²,1,1", "٣", "1_0", "-1"])
def test_dice_faces_are_ascii_digits(invoke, faces):
    line = one_line(invoke("resolve", "fake", "attack", "--dice", faces))
    assert "dice face" in line or "--dice" in line


def test_a_rule_name_from_a_file_is_escaped(invoke, tmp_path):
    rule = tmp_path / "named.toml"
    rule.write_text(RULE.replace("\x1b", "\\u001b").replace("\x07", "\\u0007")
                    .replace('system = "fake"', 'name = "evil\\u001b[2J"\nsystem = "fake"'))
    r = invoke("resolve", "fake", "attack", "--dice", "20,4,8", "--rule", str(rule), "--explain")
    assert r.exit_code == 0, r.output
    assert "\x1b" not in r.output and "evil\\x1b[2J" in r.output
