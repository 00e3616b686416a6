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
from runlength import examples
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


@settings(max_examples=examples(120, 2000), deadline=None)
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


# --- reading a request's body: orjson where it reads as json reads, the standard way elsewhere ---

from critcore.errors import InputError  # noqa: E402
from critcore.web.edge import parse_body  # noqa: E402

READ_LEAVES = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70), st.integers(-99, 99),
                        st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=8),
                        st.sampled_from(["\ud800", "a\udfffb", "\x00", "\u2028", "é"]))
READ_VALUES = st.recursive(READ_LEAVES, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=5), inner, max_size=3)), max_leaves=12)
# texts json writes, and texts around them: a number written long or as an exponent, a control
# character, a byte-order mark, a cut, too deep, a duplicate key
TWEAKS = st.sampled_from(["", "1" * 25, "1e999", "-0", "0.1e-400", "\x01", "\ufeff", "]", "[[[[[[[[", "NaN",
                          '"\\ud800"', ',"a":1,"a":2'])


def _typed(value):
    """The value with the type of every part (so that 1 and 1.0, 0.0 and -0.0 are told apart)."""
    if isinstance(value, dict):
        return ("dict", [(k, _typed(v)) for k, v in value.items()])
    if isinstance(value, list):
        return ("list", [_typed(v) for v in value])
    return (type(value).__name__, repr(value))


def _read(raw: bytes, fast: bool, limits: tuple[int, int]):
    from unittest import mock

    with mock.patch("critcore.web.edge.json_loads", lambda data: jsonbytes.NOT_READ) if not fast else \
            mock.patch.dict({}):
        try:
            return ("value", _typed(parse_body(raw, "odds request", limits=limits)))
        except InputError as exc:
            return ("error", str(exc))


@settings(max_examples=examples(200, 3000), deadline=None)
@given(value=READ_VALUES, tweak=st.one_of(st.just(""), TWEAKS), at=st.integers(0, 60), ascii_only=st.booleans(),
       limits=st.sampled_from([(20, 30), (3, 4), (3, 18), (3, 17)]))
def test_a_body_reads_the_same_through_orjson_as_through_the_standard_reader(value, tweak, at, ascii_only, limits):
    """A request's body gives the same value, to the type of every number, or the same one-line
    error, whether orjson reads it or the standard reader with critcore's hooks and checks (the
    depth and digit limits, as CRITCORE_MAX_DEPTH and _DIGITS set them): orjson is used only
    where the two agree."""
    written = json.dumps(value, ensure_ascii=ascii_only)
    at %= len(written) + 1
    written = written[:at] + tweak + written[at:]
    text = '{"system": "x", "procedure": "p", "params": {"v": %s}, "seed": %s}' % (written, written)
    raw = text.encode("utf-8", "surrogatepass")
    assert _read(raw, True, limits) == _read(raw, False, limits)
