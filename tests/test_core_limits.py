"""Issue 14, limits: every file critcore reads has a size limit, devices and FIFOs are refused
at once, nested data has a depth limit and whole numbers a digit limit. Each error is one line
naming the file and the limit, exit code 2."""

from __future__ import annotations

import json
import os
import sys

import pytest

from critcore.files import reading as files
from critcore.errors import ConfigError, InputError, StateError

needs_dev_zero = pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero here")
needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")


def one_clean_line(result, *words):
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    for w in words:
        assert w in lines[0], lines[0]
    return lines[0]


@needs_dev_zero
def test_target_dev_zero_is_refused_as_not_a_regular_file(invoke):
    """`--target /dev/zero` grew to 2.5 GB; now refused before one byte is read."""
    r = invoke("resolve", "fake", "attack", "--seed", "1", "--target", "/dev/zero")
    one_clean_line(r, "/dev/zero", "not a regular file")


@needs_dev_zero
def test_config_dev_zero_is_refused(invoke):
    r = invoke("resolve", "fake", "attack", "--seed", "1", "--config", "/dev/zero")
    one_clean_line(r, "/dev/zero", "config file")


@needs_dev_zero
def test_rule_file_dev_zero_in_a_shared_config_is_refused(invoke, isolated_config):
    """`rules = ["/dev/zero"]` in a critcore.toml hit whoever ran crit in that folder."""
    (isolated_config / "critcore.toml").write_text('rules = ["/dev/zero"]\n')
    r = invoke("resolve", "fake", "attack", "--seed", "1")
    one_clean_line(r, "/dev/zero", "house-rule file")


@needs_fifo
def test_fifo_target_does_not_hang(invoke, tmp_path):
    """A FIFO with no writer would block an ordinary open(); it is refused at once."""
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    r = invoke("resolve", "fake", "attack", "--seed", "1", "--target", str(fifo))
    one_clean_line(r, "not a regular file")


def test_a_file_over_the_size_limit_names_the_limit_and_the_variable(invoke, tmp_path, monkeypatch):
    """The limit (4 MB) is settable with CRITCORE_MAX_FILE_BYTES; the error says so."""
    big = tmp_path / "big.json"
    big.write_text(json.dumps({"hp": 10, "pad": "x" * 2000}))
    monkeypatch.setenv("CRITCORE_MAX_FILE_BYTES", "1k")
    r = invoke("resolve", "fake", "attack", "--seed", "1", "--target", str(big))
    one_clean_line(r, "big.json", "1 KB limit", "CRITCORE_MAX_FILE_BYTES")
    monkeypatch.setenv("CRITCORE_MAX_FILE_BYTES", "1M")
    r = invoke("resolve", "fake", "attack", "--seed", "1", "--target", str(big))
    assert r.exit_code == 0, r.output


def test_default_size_limit_is_a_few_megabytes(monkeypatch):
    monkeypatch.delenv("CRITCORE_MAX_FILE_BYTES", raising=False)
    assert files.max_bytes() == 4 * 1024 * 1024


def test_a_bad_limit_setting_is_one_clean_error(invoke, monkeypatch, tmp_path):
    target = tmp_path / "t.json"
    target.write_text('{"hp": 10}')
    monkeypatch.setenv("CRITCORE_MAX_FILE_BYTES", "lots")
    r = invoke("resolve", "fake", "attack", "--seed", "1", "--target", str(target))
    one_clean_line(r, "CRITCORE_MAX_FILE_BYTES")


def test_a_file_growing_past_the_limit_while_read_is_cut_off(tmp_path, monkeypatch):
    """read_bytes never holds more than the limit + 1 bytes, whatever fstat said."""
    path = tmp_path / "t.json"
    path.write_bytes(b"{" + b" " * 5000 + b"}")
    monkeypatch.setenv("CRITCORE_MAX_FILE_BYTES", "100")
    with pytest.raises(StateError, match="100 bytes limit"):
        files.read_text(str(path), "target file", StateError)


@pytest.mark.parametrize("suffix,text", [
    (".json", "[" * 100_000 + "]" * 100_000),
    (".json", '{"a":' * 100_000 + "1" + "}" * 100_000),
    (".toml", "a = " + "[" * 100_000 + "]" * 100_000),
    (".toml", "a = " + "{b = " * 100_000 + "1" + "}" * 100_000),
])
def test_100000_deep_nesting_is_refused_with_the_depth_limit(invoke, tmp_path, suffix, text):
    target = tmp_path / ("deep" + suffix)
    target.write_text(text)
    r = invoke("resolve", "fake", "attack", "--seed", "1", "--target", str(target))
    one_clean_line(r, "deep" + suffix, "nested deeper than 100 levels", "CRITCORE_MAX_DEPTH")


def test_nesting_just_over_the_limit_is_refused_and_at_the_limit_is_read(tmp_path):
    limit = files.max_depth()
    ok = {"hp": 10, "x": json.loads("[" * (limit - 1) + "]" * (limit - 1))}
    files.check_data(ok, "ok.json", StateError)
    with pytest.raises(StateError, match="nested deeper"):
        files.check_data({"x": json.loads("[" * limit + "]" * limit)}, "deep.json", StateError)


def test_a_5000_digit_json_integer_is_refused(invoke, tmp_path):
    target = tmp_path / "big.json"
    target.write_text('{"hp": ' + "9" * 5000 + "}")
    r = invoke("resolve", "fake", "attack", "--seed", "1", "--target", str(target))
    one_clean_line(r, "big.json", "5,000 digits", "CRITCORE_MAX_DIGITS")


def test_a_5000_digit_toml_integer_is_refused(invoke, tmp_path):
    target = tmp_path / "big.toml"
    target.write_text("hp = " + "9" * 5000 + "\n")
    r = invoke("resolve", "fake", "attack", "--seed", "1", "--target", str(target))
    one_clean_line(r, "big.toml")


def test_a_400_digit_number_in_a_character_file_is_refused(invoke, tmp_path):
    target = tmp_path / "c.toml"
    target.write_text("hp = " + "9" * 400 + "\n")
    r = invoke("resolve", "fake", "attack", "--seed", "1", "--target", str(target))
    one_clean_line(r, "c.toml", "more than 30 digits")


def test_nan_and_infinity_in_json_are_refused(tmp_path):
    with pytest.raises(StateError, match="not a finite number"):
        files.load_json('{"hp": NaN}', "t.json", StateError)
    with pytest.raises(StateError, match="not a finite number"):
        files.load_toml("hp = inf", "t.toml", StateError)


def test_config_errors_are_config_errors(tmp_path):
    path = tmp_path / "critcore.toml"
    path.write_text("rules = " + "[" * 5000 + "]" * 5000)
    from critcore.config.settings import load_config

    with pytest.raises(ConfigError, match="nested deeper"):
        load_config(str(path), user=False)


@pytest.mark.skipif(sys.platform.startswith("win"), reason="permissions differ")
def test_a_folder_as_target_is_one_line(invoke, tmp_path):
    r = invoke("resolve", "fake", "attack", "--seed", "1", "--target", str(tmp_path))
    assert r.exit_code == 2


def test_a_config_section_for_no_installed_system_is_refused_with_file_and_line(invoke, isolated_config):
    """`[systems.nosuch]` in a config was accepted silently."""
    (isolated_config / "critcore.toml").write_text('rules = []\n\n[systems.nosuch]\nx = 1\n')
    r = invoke("resolve", "fake", "attack", "--seed", "1")
    one_clean_line(r, "critcore.toml, line 3", "nosuch", "installed: fake")
    r = invoke("tables", "fake")
    one_clean_line(r, "critcore.toml, line 3")


def test_a_config_section_with_a_typo_suggests_the_system(invoke, isolated_config):
    (isolated_config / "critcore.toml").write_text('systems.fak.crit_on_19 = true\n')
    r = invoke("resolve", "fake", "attack", "--seed", "1")
    one_clean_line(r, "critcore.toml, line 1", "'fak'", "fake")


def test_exact_odds_of_a_roll_with_too_many_results_are_refused_at_once(invoke):
    """`crit odds gurps critical-hit --damage "20d1000 cut"` was still running after 15 s; a roll
    with more distinct results than the limit (2,000) is refused before any work, suggesting
    crit simulate."""
    import time

    start = time.perf_counter()
    r = invoke("odds", "fake", "attack", "--damage", "20d1000")
    assert time.perf_counter() - start < 5  # a bound against a hang, not a benchmark
    one_clean_line(r, "20d1000", "19,981 possible results", "limit of 2,000", "CRITCORE_MAX_ROLL_RESULTS",
                   "crit simulate")


def test_exact_odds_stop_at_the_run_limit(invoke, monkeypatch):
    monkeypatch.setenv("CRITCORE_MAX_ODDS_RUNS", "5")
    r = invoke("odds", "fake", "attack")
    one_clean_line(r, "more than 5 runs", "CRITCORE_MAX_ODDS_RUNS", "crit simulate")
    monkeypatch.delenv("CRITCORE_MAX_ODDS_RUNS")
    assert invoke("odds", "fake", "attack").exit_code == 0


@pytest.mark.parametrize("text, line, value", [
    # a nan inside a multi-line string is text, not a value: the value is on line 4
    ('note = """\nx = nan\n"""\ny = nan\n', 4, "nan"),
    # the error names the value refused (inf, on line 2), not the first nan or inf in the text
    ("a = [[nan]]\nb = inf\n", 2, "inf"),
    ("a = 1\nb = -inf\n", 2, "-inf"),
])
def test_a_non_finite_toml_number_is_refused_at_its_own_line(text, line, value):
    from critcore.files.reading import load_toml

    with pytest.raises(InputError, match=rf"^f\.toml, line {line}: {value} is not a finite number$"):
        load_toml(text, "f.toml")


# --- check_data's exact-type fast paths against the walk they replaced ----------------------------

def _check_data_before(data, source, error, limits):
    """check_data as it was before its exact-type fast paths (the reference it is held to)."""
    depth_limit, digits = limits
    bits = int(digits * 3.3219280948873626) + 1
    level = [data]
    depth = 0
    while level:
        below = []
        for item in level:
            kind = type(item)
            if kind is str or kind is bool or item is None:
                continue
            if isinstance(item, dict):
                values = item.values()
            elif isinstance(item, (list, tuple)):
                values = item
            else:
                files._check_scalar(item, bits, digits, source, error)
                continue
            if depth >= depth_limit:
                raise error(f"{source}: nested deeper than {depth_limit} levels (CRITCORE_MAX_DEPTH)")
            below.extend(values)
        level = below
        depth += 1


def _outcome(check, data, limits):
    try:
        check(data, "t.json", StateError, limits)
        return None
    except StateError as exc:
        return str(exc)


from collections import OrderedDict  # noqa: E402

from hypothesis import given, settings, strategies as st  # noqa: E402

class _Int(int):
    pass


_scalars = st.one_of(st.none(), st.booleans(), st.text(max_size=3),
                     st.integers(min_value=-(10**12), max_value=10**12), st.integers(), st.floats(),
                     st.integers(min_value=-(10**30), max_value=10**30).map(_Int),
                     st.sampled_from([10**19 - 1, 10**19, -(10**19), 2**63, float("inf"), float("nan")]))
_values = st.recursive(_scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.lists(inner, max_size=4).map(tuple),
    st.dictionaries(st.text(max_size=2), inner, max_size=4),
    st.dictionaries(st.text(max_size=2), inner, max_size=4).map(OrderedDict)), max_leaves=30)


@settings(max_examples=150, deadline=None)
@given(_values, st.integers(min_value=0, max_value=6), st.integers(min_value=1, max_value=25))
def test_check_data_refuses_and_accepts_as_before_its_fast_paths(data, depth, digits):
    """The same first error (or none) as the walk before the exact-type fast paths, for any
    nesting of lists, tuples and tables (and a dict subclass) of any JSON scalars, an int
    subclass and non-finite numbers, under any depth and digit limit."""
    limits = (depth, digits)
    assert _outcome(files.check_data, data, limits) == _outcome(_check_data_before, data, limits)
