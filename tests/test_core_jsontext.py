"""critcore.jsontext reads and writes exactly what json.loads and json.dumps(ensure_ascii=False,
separators=(",", ":"), allow_nan=False) do: the campaign store keeps its states and log in it."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from critcore import jsontext


def _json_dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def _outcome(fn: Any, arg: Any) -> tuple[str, Any]:
    """What a call gave: its value (as text that tells NaN and -0.0 apart), or its error's type and message."""
    try:
        value = fn(arg)
    except (ValueError, TypeError, RecursionError) as exc:
        return "error", (type(exc), str(exc))
    return "value", repr(value)


scalars = (st.none() | st.booleans() | st.integers() | st.floats() | st.text()
           | st.sampled_from([0.0, -0.0, 1e308, 5e-324, 2**64, -(2**63), "\u2028", "\ud800", "é\x00\"\\"]))
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=5)
                      | st.dictionaries(st.text(max_size=8), inner, max_size=5)
                      | st.tuples(inner, inner), max_leaves=30)


@settings(max_examples=400, deadline=None)
@given(values)
def test_dumps_is_json_dumps(value: Any) -> None:
    """Every value gives json.dumps' text, and one json refuses (NaN, infinity) the same error."""
    assert _outcome(jsontext.dumps, value) == _outcome(_json_dumps, value)


@settings(max_examples=400, deadline=None)
@given(values, st.sampled_from(["", " ", "\n\t ", "\r\n"]), st.sampled_from(["", " ", "\n", " \t\r\n"]))
def test_loads_reads_what_json_reads(value: Any, before: str, after: str) -> None:
    """Text json wrote, with JSON's whitespace around it, reads back as json.loads reads it."""
    try:
        text = json.dumps(value, ensure_ascii=False)  # NaN and Infinity written as json writes them
    except ValueError:
        return
    assert _outcome(jsontext.loads, before + text + after) == _outcome(json.loads, before + text + after)


@settings(max_examples=600, deadline=None)
@given(st.text(alphabet='{}[]",:0123456789.eE+-tfnrulaseNIy \t\n\r\\\ufeffx', max_size=24))
def test_loads_malformed_text_fails_as_json_fails(text: str) -> None:
    """Any text, JSON or not: the same value, or the same error with the same message."""
    assert _outcome(jsontext.loads, text) == _outcome(json.loads, text)


@pytest.mark.parametrize("text, message", [
    ("", "Expecting value: line 1 column 1 (char 0)"),
    ('{"a": 1} x', "Extra data: line 1 column 10 (char 9)"),
    ("\ufeff{}", "Unexpected UTF-8 BOM (decode using utf-8-sig): line 1 column 1 (char 0)"),
])
def test_loads_errors_are_jsons(text: str, message: str) -> None:
    """Empty text, text after the value and a byte-order mark are json's own errors."""
    with pytest.raises(json.JSONDecodeError, match=message.replace("(", r"\(").replace(")", r"\)")):
        jsontext.loads(text)


def test_non_finite_numbers_are_refused_when_written() -> None:
    """A state holding NaN or infinity is not written (allow_nan=False), as before."""
    for bad in (math.nan, math.inf, -math.inf):
        with pytest.raises(ValueError):
            jsontext.dumps({"hp": bad})


def test_a_cycle_is_refused_and_the_next_value_is_written() -> None:
    """A container holding itself is refused as json refuses it, and the failed call leaves
    nothing behind that would refuse the next, ordinary value."""
    loop: list[Any] = []
    loop.append(loop)
    with pytest.raises(ValueError, match="Circular reference"):
        jsontext.dumps(loop)
    shared = [1]
    assert jsontext.dumps([shared, shared]) == "[[1],[1]]"


def test_reading_and_writing_a_campaign_state_imports_no_json() -> None:
    """The point of the module: a campaign command's state goes in and out without `import json`."""
    code = ("import sys; from critcore import jsontext; "
            "assert jsontext.loads(jsontext.dumps({'a': [1, 2.5, None, 'é']})) == {'a': [1, 2.5, None, 'é']}; "
            "print('json' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def _limited_int(text: str) -> int:
    if len(text.lstrip("-")) > 5:
        raise OverflowError(f"{text} has too many digits")
    return int(text)


def _no_constant(text: str) -> float:
    raise OverflowError(f"{text} is not a finite number")


def _hooked(fn: Any, text: str) -> tuple[str, Any]:
    try:
        value = fn(text, parse_int=_limited_int, parse_constant=_no_constant)
    except (ValueError, TypeError, RecursionError, OverflowError) as exc:
        return "error", (type(exc), str(exc))
    return "value", repr(value)


@settings(max_examples=600, deadline=None)
@given(st.text(alphabet='{}[]",:0123456789.eE+-tfnrulaseNIy \t\n\r\\x', max_size=24))
def test_loads_with_hooks_is_json_loads_with_them(text: str) -> None:
    """With parse_int and parse_constant (what target files are read with: a digit limit, no NaN),
    every text gives json.loads' value, json's error, or what the hook raised, the same."""
    assert _hooked(jsontext.loads, text) == _hooked(json.loads, text)


def test_a_json_target_file_is_read_without_importing_json(tmp_path: Any) -> None:
    """Reading a well-formed JSON target (a saved character) needs json's C scanner, not the
    json package (about 1 ms of the command's start-up); a malformed one still gets json's error."""
    good = tmp_path / "fighter.json"
    good.write_text('{"hp": 12, "name": "Fighter"}', encoding="utf-8")
    code = ("import sys; from critcore.files import load_json; "
            f"print(load_json(open({str(good)!r}).read(), 'fighter.json')['hp'], 'json' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["12", "False"]
    from critcore.errors import StateError
    from critcore.files import load_json

    with pytest.raises(StateError, match=r"^bad.json, line 2: not valid JSON: Expecting value \(column 11\)$"):
        load_json('{"hp":\n 12, "x": }', "bad.json", StateError)


def test_a_number_past_python_s_own_digit_limit_is_one_line(tmp_path: Any, monkeypatch: Any) -> None:
    """With CRITCORE_MAX_DIGITS raised past Python's own limit (4,300 digits), a longer whole
    number in a JSON target is still one line naming the file, not a traceback."""
    if not hasattr(sys, "get_int_max_str_digits"):
        pytest.skip("a Python without a digit limit")
    from critcore.errors import StateError
    from critcore.files import load_json

    monkeypatch.setenv("CRITCORE_MAX_DIGITS", "9000")
    with pytest.raises(StateError, match=r"^big.json: not valid JSON: Exceeds the limit \(4300"):
        load_json('{"hp": ' + "7" * 5000 + "}", "big.json", StateError)
