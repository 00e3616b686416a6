"""Issue 14, numbers: every number from outside is read as what it means (a whole number never
through a float, a real number finite) and checked against the range declared with its
parameter; the range shows in --help; a bad value is one line, exit code 2."""

from __future__ import annotations

import pytest

from critcore.engine.params import UNDECLARED_LIMIT, coerce_param, describe_range
from critcore.errors import ParamError
from critcore.model import Param

REAL = Param("divisor", "float", min=0.1, max=100)
WHOLE = Param("dr", "int", min=0, max=10_000)
FREE = Param("bonus", "int")


@pytest.mark.parametrize("text", ["²", "٣", "1_0", "1e3", "3.0", "0x10", "", " ", "1 0", "--5", "inf"])
def test_a_whole_number_is_ascii_digits_with_an_optional_sign(text):
    with pytest.raises(ParamError, match="--dr: .* is not a valid whole number"):
        coerce_param(WHOLE, text)


def test_a_whole_number_is_read_exactly():
    assert coerce_param(WHOLE, "+17") == 17 and coerce_param(WHOLE, " 9 ") == 9
    assert coerce_param(FREE, "-5") == -5


@pytest.mark.parametrize("value", ["1" + "0" * 30, "9" * 400, "9" * 5000, 10**30, 10**400])
def test_a_huge_whole_number_is_out_of_range_without_a_float(value):
    """`--dr 10**30` used to go through a float and print DR 1000000000000000019884624838656."""
    with pytest.raises(ParamError) as info:
        coerce_param(WHOLE, value)
    message = str(info.value)
    assert "--dr" in message and "0 to 10,000" in message
    assert len(message) < 200


def test_a_float_for_a_whole_number_is_taken_only_when_exact():
    assert coerce_param(WHOLE, 3.0) == 3
    with pytest.raises(ParamError):
        coerce_param(WHOLE, 3.5)
    with pytest.raises(ParamError):
        coerce_param(FREE, 1e30)  # not an exact count
    with pytest.raises(ParamError):
        coerce_param(WHOLE, True)


@pytest.mark.parametrize("text", ["nan", "inf", "-inf", "infinity", "1e999", "NaN", "1_0", "²", "0x1p3", ""])
def test_a_real_number_is_finite_decimal_text(text):
    with pytest.raises(ParamError, match="--divisor"):
        coerce_param(REAL, text)


@pytest.mark.parametrize("value", [0, -1, "0", "-1", "1e-320", 1e-320, 1000, float("nan"), float("inf")])
def test_a_real_number_outside_its_declared_range_is_refused(value):
    with pytest.raises(ParamError, match="--divisor"):
        coerce_param(REAL, value)


def test_real_numbers_inside_the_range_are_read():
    assert coerce_param(REAL, "0.5") == 0.5 and coerce_param(REAL, "1e1") == 10.0 and coerce_param(REAL, 2) == 2.0


def test_a_number_with_no_declared_range_stays_within_the_undeclared_limit():
    assert describe_range(FREE) == "-1,000,000,000 to 1,000,000,000"
    assert coerce_param(FREE, str(UNDECLARED_LIMIT)) == UNDECLARED_LIMIT
    with pytest.raises(ParamError):
        coerce_param(FREE, str(UNDECLARED_LIMIT + 1))


def test_declared_ranges_show_in_help(invoke):
    r = invoke("resolve", "fake", "attack", "--help")
    assert r.exit_code == 0
    assert "[range: 1 to 40]" in r.output  # --ac declares min=1, max=40


@pytest.mark.parametrize("value,words", [
    ("²", "not a valid whole number"),
    ("1e30", "not a valid whole number"),
    ("9" * 400, "out of range"),
    ("99", "out of range (allowed: 1 to 40)"),
    ("0", "out of range (allowed: 1 to 40)"),
])
def test_bad_numbers_on_the_command_line_are_one_line_exit_2(invoke, value, words):
    r = invoke("resolve", "fake", "attack", "--seed", "1", "--ac", value)
    assert r.exit_code == 2, r.output
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and "--ac" in lines[0] and words in lines[0]
    assert len(lines[0]) < 200
