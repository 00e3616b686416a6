"""crit serve's JSON encoder (critcore/_speed/jsonbytes.py, issue 25) against the one it stands
for: the standard library's ``json.dumps(..., ensure_ascii=False, allow_nan=False,
separators=(",", ":"))`` in UTF-8, which Starlette's ``JSONResponse`` sends. On generated values
(hypothesis): the same JSON values, the same bytes wherever no float is in it (orjson writes some
floats in another but equal form: ``0.00001`` for ``1e-05``), and json's error wherever json
refuses a value; with orjson and without it."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from critcore._speed import jsonbytes
from critcore._speed.jsonbytes import json_dumps, json_dumps_plain

KEYS = st.one_of(st.text(max_size=6), st.integers(-5, 5), st.booleans(), st.none(), st.floats(0, 2, allow_nan=False))
NUMBERS = st.one_of(st.integers(), st.integers(-2**70, 2**70), st.floats(allow_nan=False, allow_infinity=False))
LEAVES = st.one_of(st.none(), st.booleans(), NUMBERS, st.text(max_size=12))
VALUES = st.recursive(LEAVES, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.tuples(inner, inner), st.dictionaries(KEYS, inner, max_size=4),
    st.dictionaries(st.text(max_size=6), inner, max_size=4)), max_leaves=20)


DEEP: list = [1]
for _ in range(300):  # deeper than orjson goes (254 levels)
    DEEP = [DEEP]


def _outcome(fn, value):
    try:
        return fn(value)
    except (TypeError, ValueError) as exc:  # UnicodeEncodeError is a ValueError
        return type(exc)


def _has_float(value) -> bool:
    if isinstance(value, float):
        return True
    if isinstance(value, dict):
        return any(_has_float(k) or _has_float(v) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return any(_has_float(v) for v in value)
    return False


def _check(value) -> None:
    ours, theirs = _outcome(json_dumps, value), _outcome(json_dumps_plain, value)
    if isinstance(theirs, type):
        assert ours is theirs
        return
    assert json.loads(ours) == json.loads(theirs)
    if not _has_float(value):
        assert ours == theirs


@settings(max_examples=300, deadline=None)
@given(VALUES)
def test_the_same_json_as_the_standard_library(value):
    _check(value)


@settings(max_examples=100, deadline=None)
@given(VALUES)
def test_the_same_json_without_orjson(value):
    saved = jsonbytes._dumps
    jsonbytes._dumps = None
    try:
        assert _outcome(json_dumps, value) == _outcome(json_dumps_plain, value)
    finally:
        jsonbytes._dumps = saved


@pytest.mark.parametrize("value", [
    "caf\u00e9 \u2014 \U0001f3b2", "\ud800", 2**64, -2**63 - 1, {1: "a", None: "b", True: "c"},
    {"deep": DEEP}, [[]] * 3, ({"a": (1, 2)},), 1e-05, 1e16, -0.0, 5e-324,
])
def test_values_where_orjson_and_json_part_ways_are_answered_as_json_answers_them(value):
    """Text beyond ASCII is written as itself; a lone surrogate is json's error; an integer beyond
    64 bits, keys that are not strings and nesting deeper than orjson goes are json's (orjson
    refuses them)."""
    _check(value)


def test_a_value_json_refuses_is_refused():
    import dataclasses
    import datetime

    @dataclasses.dataclass
    class Point:
        x: int

    for value in (Point(1), datetime.date(2026, 12, 6), {1, 2}, object(), {(1, 2): 3}):
        assert _outcome(json_dumps, value) is TypeError
        assert _outcome(json_dumps_plain, value) is TypeError


def test_nan_is_refused_by_json_and_null_by_orjson():
    """The one difference the module names: critcore's numbers are checked finite before they
    reach an answer, so neither ever happens in one."""
    assert _outcome(json_dumps_plain, {"x": math.nan}) is ValueError
    if jsonbytes.fast():
        assert json_dumps({"x": math.nan}) == b'{"x":null}'


def test_orjson_does_the_work_when_installed():
    pytest.importorskip("orjson")
    assert jsonbytes.fast()


@settings(max_examples=100, deadline=None)
@given(VALUES)
def test_crit_serves_json_answer_sends_what_starlettes_json_response_sends(value):
    starlette = pytest.importorskip("starlette.responses")
    from critcore.web.edge import JSONAnswer

    theirs = _outcome(lambda v: starlette.JSONResponse(v).body, value)
    ours = _outcome(lambda v: JSONAnswer(v).body, value)
    if isinstance(theirs, type):
        assert ours is theirs
    else:
        assert json.loads(ours) == json.loads(theirs)
        if not _has_float(value):
            assert ours == theirs
