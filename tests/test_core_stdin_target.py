"""``--target -`` reads the target from standard input: JSON, TOML or the system's own format,
within the same size limit as a file; saving back to it is refused (use --save-to)."""

import json


def test_a_json_target_from_standard_input(invoke):
    result = invoke("treat", "fake", "rest", "--dice", "3", "--target", "-", "--json", input='{"hp": 5}')
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["target"] == {"hp": 8}


def test_a_toml_target_and_the_systems_own_format_from_standard_input(invoke):
    toml = invoke("treat", "fake", "rest", "--dice", "1", "--target", "-", "--json", input="hp = 5\n")
    assert toml.exit_code == 0, toml.output
    assert json.loads(toml.output)["target"] == {"hp": 6}


def test_standard_input_cannot_be_saved_back_but_can_be_saved_elsewhere(invoke, isolated_config):
    refused = invoke("treat", "fake", "rest", "--dice", "1", "--target", "-", "--save", input='{"hp": 5}')
    assert refused.exit_code == 2 and "--save-to" in refused.output
    out = isolated_config / "after.json"
    saved = invoke("treat", "fake", "rest", "--dice", "1", "--target", "-", "--save-to", str(out), input='{"hp": 5}')
    assert saved.exit_code == 0, saved.output
    assert json.loads(out.read_text()) == {"hp": 6}


def test_too_much_on_standard_input_is_refused_without_reading_it_all(invoke, monkeypatch):
    monkeypatch.setenv("CRITCORE_MAX_FILE_BYTES", "1000")
    result = invoke("treat", "fake", "rest", "--target", "-", input='{"hp": 5, "x": "' + "y" * 5000 + '"}')
    assert result.exit_code == 2 and "more than 1,000 bytes" in result.output


def test_empty_standard_input_is_one_line(invoke):
    result = invoke("treat", "fake", "rest", "--target", "-", input="")
    assert result.exit_code == 2 and "empty" in result.output
